// #[bridge] on free functions.
use bridge_runtime::bridge;

#[bridge(skip, js_name = "hidden")]
pub fn skipped_named() {}

#[bridge(getter)]
pub fn getter() -> u32 {
    0
}

#[bridge]
fn private() {}

#[bridge]
pub fn generic<T>(_t: T) {}

#[bridge]
pub fn constant<const N: usize>() {}

// wasm-bindgen 0.2.106's `#[wasm_bindgen(this)]` (issue 45, item 8: refused, said why).
#[bridge(this)]
pub fn with_this(this: u32) -> u32 {
    this
}

fn main() {}
