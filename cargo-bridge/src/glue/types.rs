//! How each boundary type is marshalled in JS: a `kind` the templates switch on, plus
//! its TypeScript spelling and, for vectors, the typed array that holds it. User types
//! are named by type id in the records; [`TypeNames`] resolves them to their JS names.

use crate::exports::{Exports, TypeDef};
use bridge_schema::Ty;
use serde::Serialize;

/// Type id → JS name of every user type in the module.
pub struct TypeNames<'a>(pub &'a Exports);

/// Names the `.d.ts` refers to itself (globals and TypeScript's own type names): a user
/// class spelled like one is declared under its glue name and exported as an alias.
const TS_TAKEN: &[&str] = &[
    "Int8Array",
    "Uint8Array",
    "Int16Array",
    "Uint16Array",
    "Int32Array",
    "Uint32Array",
    "Float32Array",
    "Float64Array",
    "BigInt64Array",
    "BigUint64Array",
    "Record",
    "Promise",
    "Request",
    "Response",
    "BufferSource",
    "WebAssembly",
    "URL",
    "Symbol",
    "globalThis",
    "Error",
    "any",
    "unknown",
    "never",
    "object",
    "string",
    "number",
    "boolean",
    "bigint",
    "symbol",
    "undefined",
];

/// Whether the `.d.ts` can declare `name` as itself (`export class Name`), rather than as
/// `Name$class` exported under its name.
pub fn ts_plain(name: &str) -> bool {
    bridge_schema::js::is_bindable(name) && !TS_TAKEN.contains(&name)
}

/// How the `.d.ts` refers to the class `name`.
pub fn ts_class_ref(name: &str) -> String {
    if ts_plain(name) {
        name.to_string()
    } else {
        format!("{name}$class")
    }
}

/// How the `.d.ts` refers to the record or enum `name` (declared as `<name>$type` and
/// exported under its name when it cannot be declared as itself).
pub fn ts_data_ref(name: &str) -> String {
    if ts_plain(name) {
        name.to_string()
    } else {
        format!("{name}$type")
    }
}

impl<'a> TypeNames<'a> {
    /// The class, record or enum `type_id` names.
    pub fn def(&self, type_id: &str) -> TypeDef<'a> {
        // `exports::decode` checked that every type id resolves.
        self.0
            .type_def(type_id)
            .unwrap_or_else(|| panic!("type id `{type_id}` was resolved by exports::decode"))
    }

    pub fn js_name(&self, type_id: &str) -> String {
        self.def(type_id).js_name().to_string()
    }

    /// A record or enum (crosses by value), not a class.
    pub fn is_data(&self, type_id: &str) -> bool {
        !matches!(self.def(type_id), TypeDef::Class(_))
    }

    /// A fieldless enum (crosses as its variant index, a string in JS).
    pub fn is_fieldless_enum(&self, type_id: &str) -> bool {
        matches!(self.def(type_id), TypeDef::Enum(e) if e.is_fieldless())
    }
}

/// How a boundary type is marshalled: the tag the templates switch on (`templates/abi.js.j2`
/// for exports, `templates/js/marshal.js.j2` for calls into JS), serialized in snake_case
/// (`OptU32` is `"opt_u32"`). Every template switch ends in an error for a tag it does not
/// handle, so a kind added here without its template code fails the build with a message
/// instead of emitting broken JS (tests in `glue/mod.rs`).
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// `()` (results only).
    Unit,
    Bool,
    /// `i8`..`i32`, `u8`, `u16`, `f32`, `f64`.
    Number,
    U32,
    /// `i64`.
    Bigint,
    U64,
    /// Checked scalars (`RangeError`/`TypeError` in `data.js.j2`).
    Usize,
    Isize,
    Char,
    /// `String` and `&str`.
    String,
    /// A fieldless enum (its variant index).
    Enum,
    /// A class by value, `&C` or `&mut C` (its address).
    Class,
    JsValue,
    /// `&JsValue` (parameters only).
    JsValueRef,
    /// A JS function (parameters) or a Rust closure (results).
    Callback,
    OptBool,
    OptNumber,
    OptU32,
    OptBigint,
    OptU64,
    OptUsize,
    OptIsize,
    OptChar,
    OptString,
    OptEnum,
    OptClass,
    /// `Vec` of numbers (a typed array).
    NumVec,
    /// `Vec` of classes (an address array).
    ClassVec,
    /// Compound values on the wire (`wire.js.j2`).
    Wire,
    /// A record or tagged enum, on the wire.
    Data,
    OptData,
    DataVec,
}

impl Kind {
    /// Every kind: the templates' `kinds` (a switch that has nothing to do for a kind
    /// checks it is one of them), and the tests render each through the templates.
    pub const ALL: [Kind; 32] = [
        Kind::Unit,
        Kind::Bool,
        Kind::Number,
        Kind::U32,
        Kind::Bigint,
        Kind::U64,
        Kind::Usize,
        Kind::Isize,
        Kind::Char,
        Kind::String,
        Kind::Enum,
        Kind::Class,
        Kind::JsValue,
        Kind::JsValueRef,
        Kind::Callback,
        Kind::OptBool,
        Kind::OptNumber,
        Kind::OptU32,
        Kind::OptBigint,
        Kind::OptU64,
        Kind::OptUsize,
        Kind::OptIsize,
        Kind::OptChar,
        Kind::OptString,
        Kind::OptEnum,
        Kind::OptClass,
        Kind::NumVec,
        Kind::ClassVec,
        Kind::Wire,
        Kind::Data,
        Kind::OptData,
        Kind::DataVec,
    ];

    /// The kind of `Option<T>` for a `T` of this kind that does not travel on the wire
    /// (`Ty::travels_on_wire` sends the others, and the post-process check refuses an
    /// `Option` of what cannot be optional): scalars and strings, else a class.
    fn optional(self) -> Kind {
        match self {
            Kind::Bool => Kind::OptBool,
            Kind::Number => Kind::OptNumber,
            Kind::U32 => Kind::OptU32,
            Kind::Bigint => Kind::OptBigint,
            Kind::U64 => Kind::OptU64,
            Kind::String => Kind::OptString,
            Kind::Usize => Kind::OptUsize,
            Kind::Isize => Kind::OptIsize,
            Kind::Char => Kind::OptChar,
            _ => Kind::OptClass,
        }
    }
}

#[derive(Serialize, Debug, Clone)]
pub struct TyView {
    /// Marshalling kind.
    pub kind: Kind,
    /// The JS name of the class carried, for class kinds.
    pub class: Option<String>,
    /// A `class_vec` result whose class is in `rust` mode: its hits are read from the
    /// class's wrapper table (`$takeCachedClassArray`). Set by the glue model, which knows
    /// the modes.
    pub cached_wrappers: bool,
    /// Typed array constructor for number vectors.
    pub array: Option<&'static str>,
    /// TypeScript type.
    pub ts: String,
    /// The wire codec (`templates/wire.js.j2`) of the `wire`, `data`, `opt_data` and
    /// `data_vec` kinds.
    pub codec: Option<String>,
    /// The JS name of the fieldless enum of the `enum` and `opt_enum` kinds.
    #[serde(rename = "enum")]
    pub enum_name: Option<String>,
    /// A `Result` return: `Err` throws.
    pub throws: bool,
    /// The codec of a `Result`'s error type when it is a record or enum (the thrown
    /// `Error`'s `data`), and its TypeScript type.
    pub error_codec: Option<String>,
    pub error_ts: Option<String>,
    /// The Rust number type of a scalar number kind (also inside `Option`) or of a number
    /// vector's elements, for the debug glue's argument checks (`templates/debug/args.js.j2`).
    pub number: Option<NumberView>,
}

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

fn number_view(ty: &Ty) -> Option<NumberView> {
    let int = |rust, big, min, max| NumberView {
        rust,
        int: true,
        big,
        min,
        max,
    };
    let float = |rust| NumberView {
        rust,
        int: false,
        big: false,
        min: "",
        max: "",
    };
    Some(match ty {
        Ty::I8 => int("i8", false, "-128", "127"),
        Ty::I16 => int("i16", false, "-32768", "32767"),
        Ty::I32 => int("i32", false, "-2147483648", "2147483647"),
        Ty::U8 => int("u8", false, "0", "255"),
        Ty::U16 => int("u16", false, "0", "65535"),
        Ty::U32 => int("u32", false, "0", "4294967295"),
        Ty::I64 => int("i64", true, "-9223372036854775808n", "9223372036854775807n"),
        Ty::U64 => int("u64", true, "0n", "18446744073709551615n"),
        Ty::F32 => float("f32"),
        Ty::F64 => float("f64"),
        _ => return None,
    })
}

fn number_kind(ty: &Ty) -> Option<(Kind, &'static str)> {
    // (scalar kind, typed array)
    Some(match ty {
        Ty::I8 => (Kind::Number, "Int8Array"),
        Ty::I16 => (Kind::Number, "Int16Array"),
        Ty::I32 => (Kind::Number, "Int32Array"),
        Ty::U8 => (Kind::Number, "Uint8Array"),
        Ty::U16 => (Kind::Number, "Uint16Array"),
        Ty::U32 => (Kind::U32, "Uint32Array"),
        Ty::F32 => (Kind::Number, "Float32Array"),
        Ty::F64 => (Kind::Number, "Float64Array"),
        Ty::I64 => (Kind::Bigint, "BigInt64Array"),
        Ty::U64 => (Kind::U64, "BigUint64Array"),
        _ => return None,
    })
}

fn scalar_ts(kind: Kind) -> &'static str {
    match kind {
        Kind::Bool => "boolean",
        Kind::Bigint | Kind::U64 => "bigint",
        Kind::String | Kind::Char => "string",
        _ => "number",
    }
}

pub fn view(ty: &Ty, names: &TypeNames) -> TyView {
    let simple = |kind: Kind| TyView {
        kind,
        class: None,
        cached_wrappers: false,
        array: None,
        ts: scalar_ts(kind).to_string(),
        codec: None,
        enum_name: None,
        throws: false,
        error_codec: None,
        error_ts: None,
        number: None,
    };
    let coded = |kind: Kind| TyView {
        ts: super::wire::ts(ty, names),
        codec: Some(super::wire::codec_name(ty, names)),
        ..simple(kind)
    };
    if ty.travels_on_wire() {
        return coded(Kind::Wire);
    }
    let named = |ty: &Ty| match ty {
        Ty::Named(id) => Some(id.clone()),
        _ => None,
    };
    match ty {
        Ty::Result(ok, err) => TyView {
            throws: true,
            error_codec: (!err.is_empty())
                .then(|| super::wire::codec_name(&Ty::Named(err.clone()), names)),
            error_ts: (!err.is_empty()).then(|| ts_data_ref(&names.js_name(err))),
            ..view(ok, names)
        },
        Ty::Named(id) if names.is_fieldless_enum(id) => TyView {
            enum_name: Some(names.js_name(id)),
            ts: ts_data_ref(&names.js_name(id)),
            ..simple(Kind::Enum)
        },
        Ty::Named(id) if names.is_data(id) => coded(Kind::Data),
        Ty::Option(inner) if named(inner).is_some_and(|id| names.is_fieldless_enum(&id)) => {
            TyView {
                kind: Kind::OptEnum,
                ts: format!("{} | null", view(inner, names).ts),
                ..view(inner, names)
            }
        }
        Ty::Option(inner) if named(inner).is_some_and(|id| names.is_data(&id)) => TyView {
            kind: Kind::OptData,
            ts: format!("{} | null", view(inner, names).ts),
            ..view(inner, names)
        },
        Ty::Vec(inner) if named(inner).is_some_and(|id| names.is_data(&id)) => coded(Kind::DataVec),
        Ty::Usize => simple(Kind::Usize),
        Ty::Isize => simple(Kind::Isize),
        Ty::Char => simple(Kind::Char),
        Ty::Unit => TyView {
            ts: "void".into(),
            ..simple(Kind::Unit)
        },
        Ty::Bool => simple(Kind::Bool),
        Ty::String | Ty::Str => simple(Kind::String),
        Ty::Named(id) | Ty::ClassRef(id) | Ty::ClassMut(id) => {
            let name = names.js_name(id);
            TyView {
                ts: ts_class_ref(&name),
                class: Some(name),
                ..simple(Kind::Class)
            }
        }
        Ty::JsValue | Ty::JsValueRef => TyView {
            ts: "any".into(),
            ..simple(if *ty == Ty::JsValue {
                Kind::JsValue
            } else {
                Kind::JsValueRef
            })
        },
        // A JS function (an export's parameter): it receives what Rust passes and may
        // return anything the result's parameter type accepts; a Rust closure among its
        // arguments has `release()`.
        Ty::Callback(cb) => {
            let params: Vec<String> = cb
                .params
                .iter()
                .enumerate()
                .map(|(i, t)| match t {
                    Ty::Callback(c) => format!("a{i}: {}", closure_ts(c, names)),
                    t => format!("a{i}: {}", view(t, names).ts),
                })
                .collect();
            TyView {
                ts: format!("({}) => {}", params.join(", "), param_ts(&cb.ret, names)),
                ..simple(Kind::Callback)
            }
        }
        Ty::Option(inner) => {
            let inner = view(inner, names);
            TyView {
                kind: inner.kind.optional(),
                ts: format!("{} | null", inner.ts),
                ..inner
            }
        }
        Ty::Vec(inner) => {
            if let Some((_, array)) = number_kind(inner) {
                TyView {
                    array: Some(array),
                    ts: array.to_string(),
                    // The element type: debug glue checks a plain array's elements.
                    number: number_view(inner),
                    ..simple(Kind::NumVec)
                }
            } else {
                let inner = view(inner, names);
                TyView {
                    kind: Kind::ClassVec,
                    ts: format!("{}[]", inner.ts),
                    ..inner
                }
            }
        }
        other => {
            let (kind, _) = number_kind(other).expect("all scalars are numbers here");
            TyView {
                number: number_view(other),
                ..simple(kind)
            }
        }
    }
}

/// TypeScript type of a Rust closure JS holds: called with what an export takes, returning
/// what an export returns, with `release()`.
pub fn closure_ts(cb: &bridge_schema::Callback, names: &TypeNames) -> String {
    let params: Vec<String> = cb
        .params
        .iter()
        .enumerate()
        .map(|(i, t)| format!("a{i}: {}", param_ts(t, names)))
        .collect();
    format!(
        "(({}) => {}) & {{ release(): void }}",
        params.join(", "),
        view(&cb.ret, names).ts
    )
}

/// TypeScript type of a parameter: number vectors accept any array of numbers.
pub fn param_ts(ty: &Ty, names: &TypeNames) -> String {
    let v = view(ty, names);
    match v.kind {
        Kind::NumVec if v.array.is_some_and(|a| a.starts_with("Big")) => {
            format!("{} | bigint[]", v.ts)
        }
        Kind::NumVec => format!("{} | number[]", v.ts),
        _ => v.ts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::exports::ClassExport;

    #[test]
    fn kinds_and_ts_types() {
        let exports = Exports {
            classes: vec![ClassExport {
                crate_name: "a".into(),
                type_id: "a::Item".into(),
                name: "JsItem".into(),
                rust_name: "Item".into(),
                identity_mode: None,
                doc: String::new(),
                members: Vec::new(),
            }],
            ..Exports::default()
        };
        let names = TypeNames(&exports);
        assert_eq!(view(&Ty::U32, &names).kind, Kind::U32);
        assert_eq!(
            view(&Ty::Option(Box::new(Ty::U64)), &names).kind,
            Kind::OptU64
        );
        let v = view(&Ty::Vec(Box::new(Ty::Named("a::Item".into()))), &names);
        assert_eq!((v.kind, v.ts.as_str()), (Kind::ClassVec, "JsItem[]"));
        let v = view(&Ty::Option(Box::new(Ty::Named("a::Item".into()))), &names);
        assert_eq!((v.kind, v.ts.as_str()), (Kind::OptClass, "JsItem | null"));
        assert_eq!(
            param_ts(&Ty::Vec(Box::new(Ty::F64)), &names),
            "Float64Array | number[]"
        );
    }

    #[test]
    fn number_ranges_for_the_debug_checks() {
        let exports = Exports::default();
        let names = TypeNames(&exports);
        let range = |ty: Ty| {
            let n = view(&ty, &names).number.expect("a number type");
            (n.rust, n.int, n.big, n.min, n.max)
        };
        assert_eq!(range(Ty::U32), ("u32", true, false, "0", "4294967295"));
        assert_eq!(range(Ty::I8), ("i8", true, false, "-128", "127"));
        assert_eq!(
            range(Ty::Option(Box::new(Ty::I16))),
            ("i16", true, false, "-32768", "32767")
        );
        assert_eq!(
            range(Ty::U64),
            ("u64", true, true, "0n", "18446744073709551615n")
        );
        assert_eq!(range(Ty::F32), ("f32", false, false, "", ""));
        assert!(
            view(&Ty::Usize, &names).number.is_none(),
            "checked in both builds"
        );
        assert_eq!(
            range(Ty::Vec(Box::new(Ty::U8))),
            ("u8", true, false, "0", "255"),
            "a number vector's element type"
        );
    }

    #[test]
    fn new_scalars_results_and_wire_types() {
        let exports = Exports {
            classes: vec![ClassExport {
                crate_name: "a".into(),
                type_id: "a::Node".into(),
                name: "Node".into(),
                rust_name: "Node".into(),
                identity_mode: None,
                doc: String::new(),
                members: Vec::new(),
            }],
            ..Exports::default()
        };
        let names = TypeNames(&exports);
        assert_eq!(view(&Ty::Usize, &names).kind, Kind::Usize);
        let v = view(&Ty::Option(Box::new(Ty::Char)), &names);
        assert_eq!((v.kind, v.ts.as_str()), (Kind::OptChar, "string | null"));
        let v = view(&Ty::Result(Box::new(Ty::U32), String::new()), &names);
        assert_eq!((v.kind, v.throws), (Kind::U32, true));
        let v = view(
            &Ty::Vec(Box::new(Ty::Option(Box::new(Ty::Named("a::Node".into()))))),
            &names,
        );
        assert_eq!(v.kind, Kind::Wire);
        assert_eq!(v.ts, "(Node | null)[]");
        assert_eq!(v.codec.as_deref(), Some("Vec_Option_C$Node"));
    }
}
