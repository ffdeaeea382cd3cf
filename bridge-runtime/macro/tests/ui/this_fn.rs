// `#[bridge(this)]` (wasm-bindgen's `this`) misused: no parameter to receive JS `this`,
// given twice, with `skip`, on members of an impl block.
use bridge_runtime::bridge;

#[bridge(this)]
pub fn no_parameter() -> u32 {
    0
}

#[bridge(this, this)]
pub fn twice(this: bridge_runtime::JsValue) -> bridge_runtime::JsValue {
    this
}

#[bridge(this)]
#[bridge(this)]
pub fn twice_in_two_attributes(this: bridge_runtime::JsValue) -> bridge_runtime::JsValue {
    this
}

#[bridge(skip, this)]
pub fn skipped(this: bridge_runtime::JsValue) -> bridge_runtime::JsValue {
    this
}

#[bridge]
pub struct Widget {
    size: u32,
}

#[bridge]
impl Widget {
    #[bridge(this)]
    pub fn method(&self, other: bridge_runtime::JsValue) -> u32 {
        let _ = other;
        self.size
    }

    #[bridge(this)]
    pub fn associated(this: bridge_runtime::JsValue) -> bridge_runtime::JsValue {
        this
    }
}

fn main() {}
