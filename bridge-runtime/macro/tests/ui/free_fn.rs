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

fn main() {}
