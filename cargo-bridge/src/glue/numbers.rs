//! The number types that cross as JS numbers or BigInts, as the glue views them: the typed
//! array a vector of them is, and the range the debug glue checks, read from the lowering
//! table (`bridge_schema::lowering`). The marshalling kinds (`types.rs`), the TypeScript
//! printer (`ts.rs`) and the wire codecs (`wire.rs`) read it.

use bridge_schema::Ty;
use bridge_schema::lowering::{JsType, Scalar};
use serde::Serialize;

/// A Rust number type as the debug glue checks it: integers must be in `min..=max`.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct NumberView {
    /// `u32`, `f64`, ...
    pub rust: &'static str,
    /// An integer type (floats only need to be numbers).
    pub int: bool,
    /// Crosses as a BigInt (`i64`, `u64`): `min`/`max` are BigInt literals.
    pub big: bool,
    /// The range as JS literals (empty for floats).
    pub min: &'static str,
    pub max: &'static str,
}

/// A number type: its typed array and its range.
pub struct Number {
    /// The typed array constructor of a `Vec` of it.
    pub array: &'static str,
    pub view: NumberView,
}

/// The number type `ty` is, if it is one (`usize`/`isize` are checked scalars, not here),
/// from the lowering table (`bridge_schema::lowering::Scalar`).
pub fn of(ty: &Ty) -> Option<Number> {
    let scalar = Scalar::of(ty)?;
    let array = scalar.typed_array()?;
    let (min, max) = scalar.range().unwrap_or(("", ""));
    Some(Number {
        array,
        view: NumberView {
            rust: scalar.rust(),
            int: scalar.range().is_some(),
            big: scalar.js() == JsType::BigInt,
            min,
            max,
        },
    })
}

/// The typed array of a `Vec` of `ty`, if `ty` is a number type.
pub fn typed_array(ty: &Ty) -> Option<&'static str> {
    of(ty).map(|n| n.array)
}
