//! Untagged unions (wasm-bindgen 0.2.121's dynamic unions, `EnumDef::untagged`): how the
//! glue tells which variant a JS value is. A string equal to a unit variant's string is
//! that variant (before any tuple variant, as in wasm-bindgen); then each one-value tuple
//! variant in declaration order, by the test its value's type has in JS (`Witness`); with
//! `fallback`, the last tuple variant takes whatever is left. `templates/wire.js.j2`
//! (`witness`) turns a witness into its JS test, ending in an error for a tag it does not
//! know.

use super::numbers::{self, NumberView};
use super::type_names::TypeNames;
use crate::postprocess::exports::TypeDef;
use bridge_schema::{Scalar, Ty, Variant, VariantValue};
use serde::Serialize;

/// The JS test of one tuple variant's value (snake_case tag `test`). Narrow tests first is
/// the user's job (declaration order), as in wasm-bindgen.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[serde(tag = "test", rename_all = "snake_case")]
pub enum Witness {
    /// `typeof v === "string"`.
    String,
    /// A one-code-point string.
    Char,
    Boolean,
    /// A number (or, `big`, a BigInt) in the type's range; an integer type's an integer.
    Number {
        number: NumberView,
    },
    /// A 64- or 128-bit integer: a BigInt.
    BigInt,
    /// `usize`/`isize`: an integer in the wasm32 range.
    Integer {
        min: &'static str,
        max: &'static str,
    },
    /// A `JsValue`: any value.
    Any,
    /// A wrapper of the class (a released one too: its writer then says so).
    Class {
        class: String,
    },
    /// An instance of the imported JS class.
    JsType {
        class: String,
    },
    /// One of a fieldless enum's values.
    Fieldless {
        name: String,
    },
    /// A nested untagged union: its own test (`$wire$is_<codec>`).
    Union {
        codec: String,
    },
    /// A `Vec` of numbers: an array or a typed array.
    NumArray,
    /// Any other `Vec`, a tuple: an array.
    Array,
    Map,
    Set,
    /// A record or an enum of `{ kind, ... }` objects: a non-null object, not an array.
    Object,
}

/// The test of a tuple variant's value of type `ty` (never an `Option`: the macro refuses
/// it, as `undefined` is no value of a union); `codec`: a type's codec name (`wire.rs`).
pub fn witness(ty: &Ty, names: &TypeNames, codec: impl Fn(&Ty) -> String) -> Witness {
    if let Some(n) = numbers::of(ty) {
        return Witness::Number { number: n.view };
    }
    match ty {
        Ty::String | Ty::Str => Witness::String,
        Ty::Scalar(Scalar::Char) => Witness::Char,
        Ty::Scalar(Scalar::Bool) => Witness::Boolean,
        Ty::Scalar(Scalar::Usize) => Witness::Integer {
            min: "0",
            max: "4294967295",
        },
        Ty::Scalar(Scalar::Isize) => Witness::Integer {
            min: "-2147483648",
            max: "2147483647",
        },
        Ty::Scalar(Scalar::I64 | Scalar::U64) | Ty::I128 | Ty::U128 => Witness::BigInt,
        Ty::JsValue => Witness::Any,
        Ty::Vec(inner) if numbers::typed_array(inner).is_some() => Witness::NumArray,
        Ty::Vec(_) | Ty::Tuple(_) => Witness::Array,
        Ty::Map(..) => Witness::Map,
        Ty::Set(_) => Witness::Set,
        Ty::Named(id) => match names.def(id) {
            TypeDef::Class(_) => Witness::Class {
                class: names.glue_name(id),
            },
            TypeDef::JsType(_) => Witness::JsType {
                class: names.glue_name(id),
            },
            TypeDef::Enum(e) if e.untagged => Witness::Union { codec: codec(ty) },
            TypeDef::Enum(e) if e.is_fieldless() => Witness::Fieldless {
                name: names.glue_name(id),
            },
            TypeDef::Enum(_) | TypeDef::Record(_) => Witness::Object,
        },
        other => unreachable!("{other:?} is no value of an untagged union's variant"),
    }
}

/// A unit variant's JS string as a JS (and TypeScript) literal: a JSON string is a JS
/// string literal (quotes, backslashes and line terminators escaped).
pub fn literal(v: &Variant) -> String {
    match v.js_value() {
        VariantValue::String(s) => serde_json::to_string(s).expect("a string serializes"),
        VariantValue::Number(n) => n.to_string(),
    }
}
