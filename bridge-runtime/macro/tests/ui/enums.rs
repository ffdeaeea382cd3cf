// Fieldless enums' JS values: `js_name` on variants (strings) and `numeric` (numbers).
use bridge_runtime::bridge;

// A ported `#[repr(u8)]` enum would cross as "Dead"/"Alive": an error pointing to `numeric`.
#[bridge]
#[repr(u8)]
pub enum Cell {
    Dead = 0,
    Alive = 1,
}

// Explicit discriminants without `numeric`, no `repr`.
#[bridge]
pub enum Weight {
    Light,
    Heavy = 10,
}

#[bridge(numeric)]
pub enum WithFields {
    A,
    B(u32),
}

#[bridge(numeric)]
pub enum NotLiteral {
    A = 1 << 2,
}

#[bridge(numeric)]
pub enum TooBig {
    A = 9007199254740992,
}

#[bridge(numeric)]
pub enum NamedNumber {
    #[bridge(js_name = "a")]
    A = 1,
}

#[bridge]
pub enum DataRenamed {
    #[bridge(js_name = "circle")]
    Circle { r: f64 },
}

#[bridge]
pub enum SameString {
    #[bridge(js_name = "B")]
    A,
    B,
}

#[bridge]
pub enum UnknownArg {
    #[bridge(skip)]
    A,
}

#[bridge]
pub enum TwoNames {
    #[bridge(js_name = "a", js_name = "b")]
    A,
}

#[bridge]
pub enum Conditional {
    #[cfg_attr(all(), bridge(js_name = "a"))]
    A,
}

// wasm-bindgen's string enum (`Red = "red"`) where a string cannot be: in a numeric enum,
// beside a variant with fields, beside a js_name.
#[bridge(numeric)]
pub enum NumericString {
    Red = "red",
}

// A string variant beside one with named fields (beside one-value tuple variants it is an
// untagged union: ui/untagged.rs).
#[bridge]
pub enum StringWithFields {
    Red = "red",
    Mix { n: u32 },
}

#[bridge]
pub enum StringAndJsName {
    #[bridge(js_name = "rouge")]
    Red = "red",
}

fn main() {}
