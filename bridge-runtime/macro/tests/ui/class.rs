// Arguments of #[bridge] on a class.
use bridge_runtime::bridge;

#[bridge(identity_mode = "none", identity_mode = "rust")]
pub struct TwoModes {
    value: u32,
}

#[bridge(identity_mode = "swfit")]
pub struct BadMode {
    value: u32,
}

#[bridge(identity_mode = 1)]
pub struct NumberMode {
    value: u32,
}

#[bridge(identity = "none")]
pub struct UnknownArg {
    value: u32,
}

#[bridge(js_name = "my-widget")]
pub struct NotIdentifier {
    value: u32,
}

#[bridge(js_name = "A", js_name = "B")]
pub struct TwoNames {
    value: u32,
}

#[bridge]
pub struct Generic<T> {
    value: T,
}

fn main() {}
