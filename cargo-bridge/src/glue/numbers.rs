//! The number types that cross as JS numbers or BigInts, in one table: the typed array a
//! vector of them is, and the range the debug glue checks. The marshalling kinds
//! (`types.rs`), the TypeScript printer (`ts.rs`) and the wire codecs (`wire.rs`) read it.

use bridge_schema::Ty;
use serde::Serialize;

/// A Rust number type as the debug glue checks it: integers must be in `min..=max`.
#[derive(Serialize, Debug, Clone)]
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

/// The number type `ty` is, if it is one (`usize`/`isize` are checked scalars, not here).
pub fn of(ty: &Ty) -> Option<Number> {
    let int = |rust, array, big, min, max| Number {
        array,
        view: NumberView {
            rust,
            int: true,
            big,
            min,
            max,
        },
    };
    let float = |rust, array| Number {
        array,
        view: NumberView {
            rust,
            int: false,
            big: false,
            min: "",
            max: "",
        },
    };
    Some(match ty {
        Ty::I8 => int("i8", "Int8Array", false, "-128", "127"),
        Ty::I16 => int("i16", "Int16Array", false, "-32768", "32767"),
        Ty::I32 => int("i32", "Int32Array", false, "-2147483648", "2147483647"),
        Ty::U8 => int("u8", "Uint8Array", false, "0", "255"),
        Ty::U16 => int("u16", "Uint16Array", false, "0", "65535"),
        Ty::U32 => int("u32", "Uint32Array", false, "0", "4294967295"),
        Ty::I64 => int(
            "i64",
            "BigInt64Array",
            true,
            "-9223372036854775808n",
            "9223372036854775807n",
        ),
        Ty::U64 => int("u64", "BigUint64Array", true, "0n", "18446744073709551615n"),
        Ty::F32 => float("f32", "Float32Array"),
        Ty::F64 => float("f64", "Float64Array"),
        Ty::Unit
        | Ty::Bool
        | Ty::Usize
        | Ty::Isize
        | Ty::Char
        | Ty::String
        | Ty::Str
        | Ty::Option(_)
        | Ty::Vec(_)
        | Ty::Named(_)
        | Ty::ClassRef(_)
        | Ty::ClassMut(_)
        | Ty::Result(..)
        | Ty::JsValue
        | Ty::JsValueRef
        | Ty::Callback(_) => return None,
    })
}

/// The typed array of a `Vec` of `ty`, if `ty` is a number type.
pub fn typed_array(ty: &Ty) -> Option<&'static str> {
    of(ty).map(|n| n.array)
}
