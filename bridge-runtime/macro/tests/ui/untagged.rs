// Untagged unions (wasm-bindgen's dynamic unions): the shapes JS could not tell apart or
// that wasm-bindgen's spelling does not allow.
use bridge_runtime::bridge;

// A variant with named fields beside a string variant and a tuple variant.
#[bridge]
pub enum NamedFields {
    Loading = "loading",
    Data(String),
    Point { x: f64 },
}

// Two fields in one tuple variant of an untagged enum.
#[bridge(untagged)]
pub enum TwoFields {
    Data(String),
    Pair(u32, u32),
}

// An `Option` value: `undefined` is none of the variants.
#[bridge]
pub enum OptionalValue {
    Empty = "empty",
    Maybe(Option<u32>),
}

// `fallback` without a tuple variant to fall back to.
#[bridge(fallback)]
pub enum NoTuple {
    A = "a",
    B = "b",
}

// `numeric` and `untagged` together.
#[bridge(numeric, untagged)]
pub enum NumericUnion {
    A,
    Data(String),
}

fn main() {}
