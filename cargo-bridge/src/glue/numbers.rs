//! The number types that cross as JS numbers or BigInts, as the glue views them: the typed
//! array a vector of them is, and the range the debug glue checks, read from the lowering
//! table (`bridge_schema::lowering`). The marshalling kinds (`types.rs`), the TypeScript
//! printer (`ts.rs`) and the wire codecs (`wire.rs`) read it.

use bridge_schema::Ty;
use bridge_schema::lowering::{FromWasm, JsType, Scalar};
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

/// A scalar's facts as the templates read them (the global `scalars`, and the `scalar`
/// of a `TyView`, a wire leaf and a flat slot): the helpers of `data.js.j2`, `wire.js.j2`
/// and `debug/wire.js.j2` are written per scalar from these, and a value of a scalar is
/// made of its wasm number by `non_zero`/`call`.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct ScalarView {
    /// `u32`: its tag, and the name of its `$data$<rust>`/`$wire$<rust>` checks.
    pub rust: &'static str,
    /// `U32`: the suffix of its `$wire$read<X>`/`$wire$write<X>`.
    pub suffix: String,
    /// `"number"`, `"big_int"`, `"boolean"`, `"string"`.
    pub js: JsType,
    /// A number of a typed array (`Scalar::is_number`).
    pub number: bool,
    /// Checked in every glue (`Scalar::checked`).
    pub checked: bool,
    /// An integer's range as JS literals (empty otherwise).
    pub min: &'static str,
    pub max: &'static str,
    /// `a` or `an`, before its Rust name in messages (as it is said: "a usize").
    pub article: &'static str,
    /// Its wire view (`$wire$<view>`), that view's suffix (`U8`: its reader), its size in
    /// bytes and the shift of a byte offset into an index of the view.
    pub wire_view: &'static str,
    pub view_suffix: String,
    pub wire_size: u32,
    pub shift: u32,
    /// JS makes its value of the wasm number `v` as `v !== 0` (`bool`) …
    pub non_zero: bool,
    /// … or by calling this function on it (`char`: `String.fromCodePoint`); else the
    /// number is the value.
    pub call: Option<&'static str>,
}

/// `u32` → `U32`: the suffix of a `$wire$` helper.
pub fn suffix(name: &str) -> String {
    let mut out = name.to_string();
    out[..1].make_ascii_uppercase();
    out
}

/// The view of scalar `s`.
pub fn scalar_view(s: Scalar) -> ScalarView {
    let row = s.row();
    let (min, max) = row.range.unwrap_or(("", ""));
    ScalarView {
        rust: row.rust,
        suffix: suffix(row.rust),
        js: row.js,
        number: s.is_number(),
        checked: s.checked(),
        min,
        max,
        // As said: "an i8", "an f64", "an isize", but "a u8", "a usize" ("you").
        article: if row.rust.starts_with(['a', 'e', 'i', 'o', 'f']) {
            "an"
        } else {
            "a"
        },
        wire_view: s.wire_view(),
        view_suffix: suffix(s.wire_view()),
        wire_size: row.wire_size,
        shift: row.wire_size.trailing_zeros(),
        non_zero: row.from_wasm == FromWasm::NonZero,
        call: match row.from_wasm {
            FromWasm::Call(f) => Some(f),
            FromWasm::Value | FromWasm::NonZero => None,
        },
    }
}

/// Every scalar's view, in the table's order: the templates' `scalars`.
pub fn scalar_views() -> Vec<ScalarView> {
    Scalar::ALL.into_iter().map(scalar_view).collect()
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
