//! The wire codecs the glue needs: one JS reader and writer per compound type that
//! crosses encoded in the wire buffer (see `bridge_runtime::wire` and
//! `templates/wire.js.j2`), named after the type's shape (`Vec_Option_String`).
//!
//! Each codec once (a lone 128-bit integer is a `scalar` codec of one leaf), recursion-safe.
//! A tuple's name carries its arity (`Tuple2_U32_F64`), so nested tuples stay apart; a map's
//! key leaf names the `$wire$canon<X>` converter that finds two JS keys becoming one Rust key
//! (`LeafKind::canon`). A record or tuple of scalars also carries its `flat` slots; one of
//! fixed-size leaves (`LeafKind::fixed`: scalars, class handles, `JsValue`s) is `fixed` (read
//! with a local cursor; a `rust`-mode class leaf in it `cached`, marked by
//! `GlueModel::mark_cached_wrappers`), and a `Vec` of one carries its fields as `elem_fixed`
//! (`FixedElems`: the vector's reader reads the elements inline). `CodecKind`/`LeafKind` are
//! the tags `wire.js.j2` switches on; a `LeafView` carries its reader's and writer's names and
//! a number's range, so `wire.js.j2` names no scalar.

use super::flat::{self, FlatSlotView};
use super::numbers::{self, NumberView, ScalarView, suffix, typed_array};
use super::ts;
use super::type_names::TypeNames;
use super::untagged::{self, Witness};
use crate::postprocess::exports::TypeDef;
use bridge_schema::lowering::{FromWasm, JsType, Scalar};
use bridge_schema::{EnumDef, Field, Ty};
use serde::Serialize;

/// One codec: `templates/wire.js.j2` renders `wireRead_<name>` and `wireWrite_<name>`.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct CodecView {
    pub name: String,
    pub kind: CodecKind,
    /// The element (`vec`, `option`), or the typed array's element (`num_vec`).
    pub elem: Option<LeafView>,
    /// Typed array constructor of a `num_vec`.
    pub array: Option<&'static str>,
    /// TypeScript type, for messages.
    pub ts: String,
    /// A record's fields; a tuple's elements (named by their index).
    pub fields: Vec<FieldView>,
    /// An enum's variants, by index.
    pub variants: Vec<VariantView>,
    /// A map with `String` keys: a plain object is taken too (its own enumerable keys).
    pub object_keys: bool,
    /// A record or tuple whose fields are all fixed-size leaves (scalars, class handles,
    /// `JsValue`s: [`LeafKind::fixed`]): its reader keeps the wire position in a local
    /// (one read and one write of `$wire$rpos` per value, not four per field).
    pub fixed: bool,
    /// A `Vec` whose element is a fixed record or tuple: its reader reads every element
    /// itself, in the loop, with the cursor and the views in locals for the whole vector.
    pub elem_fixed: Option<FixedElems>,
    /// A record or tuple of scalars (`TypeNames::flat`): its fields' slots in the flat
    /// area, where an export returns it (`templates/flat.js.j2` renders its
    /// `$flat$read_<name>`).
    pub flat: Option<Vec<FlatSlotView>>,
}

impl CodecView {
    /// Whether the codec reads or writes a `JsValue` itself (nested codecs are codecs
    /// of their own).
    pub fn holds_values(&self) -> bool {
        let leaves = self
            .elem
            .iter()
            .chain(self.fields.iter().map(|f| &f.leaf))
            .chain(
                self.variants
                    .iter()
                    .flat_map(|v| &v.fields)
                    .map(|f| &f.leaf),
            );
        leaves.into_iter().any(|l| l.kind == LeafKind::Value)
    }
}

#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct FieldView {
    /// Property name in JS.
    pub name: String,
    pub leaf: LeafView,
    /// TypeScript type.
    pub ts: String,
}

#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct VariantView {
    pub name: String,
    pub fields: Vec<FieldView>,
    /// An untagged union's unit variant: its JS string, as a JS literal.
    pub literal: Option<String>,
    /// An untagged union's tuple variant: the test its value must pass.
    pub witness: Option<Witness>,
    /// The last tuple variant of a `fallback` union: it takes any value left.
    pub catch_all: bool,
}

/// What a codec is: the tag `templates/wire.js.j2` switches on (snake_case), ending in an
/// error for a tag it does not know (as the marshalling kinds, `types::Kind`).
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CodecKind {
    /// Element by element.
    Vec,
    /// One typed-array block.
    NumVec,
    Option,
    /// Its fields.
    Record,
    /// A tagged object: `kind` and the variant's fields.
    Enum,
    /// An enum crossing as its variant's name.
    Fieldless,
    /// An untagged union (`untagged.rs`): a unit variant's string, a tuple variant's value.
    Union,
    /// A JS array of a fixed length: its elements (`fields`) in order.
    Tuple,
    /// A JS `Map`: a count, then each key (`fields[0]`) and value (`fields[1]`).
    Map,
    /// A JS `Set`: a count, then each element (`elem`).
    Set,
    /// One value read and written inline (`elem`): a 128-bit integer crossing alone.
    Scalar,
}

/// What a value inside a codec is: the tag of `wire.js.j2`'s `read`/`write` (a scalar's
/// is its Rust name, the others' snake_case); a scalar's reader and writer come from its
/// facts in the lowering table (`i8` → `$wire$readI8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeafKind {
    Scalar(Scalar),
    /// Two 64-bit halves, low first.
    I128,
    U128,
    String,
    /// A `JsValue`: its table index.
    Value,
    /// A class address.
    Class,
    /// Another codec.
    Codec,
}

impl Serialize for LeafKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.tag())
    }
}

impl LeafKind {
    /// Its tag in the templates.
    pub fn tag(self) -> &'static str {
        match self {
            LeafKind::Scalar(s) => s.rust(),
            LeafKind::I128 => "i128",
            LeafKind::U128 => "u128",
            LeafKind::String => "string",
            LeafKind::Value => "value",
            LeafKind::Class => "class",
            LeafKind::Codec => "codec",
        }
    }

    /// The suffix of `wire.js.j2`'s reader of a scalar, string or `JsValue` (`I8` →
    /// `$wire$readI8`): a number is read from its view of the wire (`usize`/`isize` as
    /// the `u32`/`i32` they are there), a scalar JS makes otherwise by its own (`Bool`,
    /// `Char`).
    pub fn reader(self) -> Option<String> {
        Some(match self {
            LeafKind::Scalar(s) if s.row().from_wasm == FromWasm::Value => suffix(s.wire_view()),
            LeafKind::Scalar(s) => suffix(s.rust()),
            LeafKind::I128 => "I128".into(),
            LeafKind::U128 => "U128".into(),
            LeafKind::String => "String".into(),
            LeafKind::Value => "Value".into(),
            LeafKind::Class | LeafKind::Codec => return None,
        })
    }

    /// The suffix of the key converter a map key of this kind needs (`$wire$canonU8`):
    /// `None` where distinct JS keys stay distinct in Rust (`usize`/`isize`/`char` are
    /// checked in every glue, an enum's names are its variants).
    pub fn canon(self) -> Option<String> {
        match self {
            LeafKind::Scalar(s) if s.is_number() && s.range().is_some() => {
                Some(suffix(s.wire_view()))
            }
            LeafKind::String | LeafKind::I128 | LeafKind::U128 => self.reader(),
            LeafKind::Scalar(_) | LeafKind::Value | LeafKind::Class | LeafKind::Codec => None,
        }
    }

    /// Where a fixed-size leaf sits on the wire: the `$wire$<view>` typed array it is
    /// read from and its size in bytes (also its alignment, as `bridge_runtime::wire`
    /// writes it); `None` for strings, 128-bit integers and codecs (variable size, or
    /// two reads). A codec of fixed leaves only reads them with a local cursor
    /// ([`CodecView::fixed`]).
    pub fn fixed(self) -> Option<FixedRead> {
        let (view, size) = match self {
            LeafKind::Scalar(s) => (s.wire_view(), s.wire_size()),
            // A `JsValue` and a class: their table index and address.
            LeafKind::Value | LeafKind::Class => ("u32", 4),
            LeafKind::I128 | LeafKind::U128 | LeafKind::String | LeafKind::Codec => {
                return None;
            }
        };
        Some(FixedRead {
            view,
            size,
            shift: size.trailing_zeros(),
        })
    }

    /// The suffix of its reader as a map's key or a set's element, where it differs from
    /// [`LeafKind::reader`]: a string's is `$wire$readKey`, which keeps the strings of
    /// short keys by their bytes (keys repeat from call to call).
    pub fn key_reader(self) -> Option<String> {
        match self {
            LeafKind::String => Some("Key".into()),
            _ => self.reader(),
        }
    }

    /// The suffix of its writer: a checked number (`usize`, `isize`) has its own, which
    /// checks the range.
    pub fn writer(self) -> Option<String> {
        match self {
            LeafKind::Scalar(s) if s.checked() && s.js() == JsType::Number => {
                Some(suffix(s.rust()))
            }
            _ => self.reader(),
        }
    }
}

/// A fixed-size leaf's read ([`LeafKind::fixed`]): `$wire$<view>[at >>> shift]` after
/// aligning `at` to `size`.
#[derive(Serialize, Debug, Clone, Copy, PartialEq)]
pub struct FixedRead {
    pub view: &'static str,
    pub size: u32,
    pub shift: u32,
}

/// The elements of a `Vec` of a fixed codec ([`CodecView::elem_fixed`]), as
/// `templates/wire.js.j2` reads them inline.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct FixedElems {
    /// A tuple (a JS array), else a record (an object).
    pub tuple: bool,
    /// The element codec's fields.
    pub fields: Vec<FieldView>,
    /// The `$wire$<view>`s the fields are read from, each once: taken into locals.
    pub views: Vec<&'static str>,
}

impl FixedElems {
    /// The elements of a `Vec` of `elem`, if its reader can read them inline: a record
    /// or tuple of fixed-size leaves, complete (a recursive one still being added is not
    /// fixed).
    fn of(elem: &CodecView) -> Option<FixedElems> {
        if !elem.fixed {
            return None;
        }
        let mut views = Vec::new();
        for f in &elem.fields {
            let view = f.leaf.fixed.expect("a fixed codec's leaves are fixed").view;
            if !views.contains(&view) {
                views.push(view);
            }
        }
        Some(FixedElems {
            tuple: elem.kind == CodecKind::Tuple,
            fields: elem.fields.clone(),
            views,
        })
    }
}

/// A value inside a codec: a scalar read inline, a class address, or another codec.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct LeafView {
    pub kind: LeafKind,
    pub class: Option<String>,
    pub codec: Option<String>,
    /// [`LeafKind::reader`] and [`LeafKind::writer`].
    pub read: Option<String>,
    /// [`LeafKind::key_reader`]: how `wire.js.j2` reads it as a map key or set element.
    pub key_read: Option<String>,
    pub write: Option<String>,
    /// A number type's range (the debug glue checks a number vector's elements).
    pub number: Option<NumberView>,
    /// A scalar's facts (how JS makes its value of the number read, its check).
    pub scalar: Option<ScalarView>,
    /// [`LeafKind::fixed`].
    pub fixed: Option<FixedRead>,
    /// A class leaf of a fixed codec whose class is in `rust` mode: release glue reads its
    /// hits straight from the class's wrapper table (as `$takeCachedClassArray` does).
    /// Set by the glue model, which knows the modes.
    pub cached: bool,
    /// As a map's key or a set's element: the suffix of `wire.js.j2`'s
    /// `$wire$canon<X>`, the Rust value a JS key becomes (a string's lone surrogates
    /// replaced, an integer wrapped as the typed array wraps it), when two JS keys can
    /// become one ([`LeafKind::canon`]).
    pub canon: Option<String>,
}

/// Whether `ty` gets a codec of its own (rather than being read inline).
fn is_compound(ty: &Ty, names: &TypeNames) -> bool {
    match ty {
        Ty::Vec(_) | Ty::Option(_) | Ty::Tuple(_) | Ty::Map(..) | Ty::Set(_) => true,
        Ty::Named(id) => names.is_data(id),
        _ => false,
    }
}

/// The codec name of a compound type: its shape, e.g. `Vec_Option_String`. A user type
/// appears as `C$<JS name>`, so a class named `String` cannot take the name of strings'.
pub fn codec_name(ty: &Ty, names: &TypeNames) -> String {
    match ty {
        Ty::Vec(inner) => format!("Vec_{}", codec_name(inner, names)),
        Ty::Option(inner) => format!("Option_{}", codec_name(inner, names)),
        // The arity keeps nested tuples apart: `Tuple2_U32_Tuple1_F64` is not
        // `Tuple3_U32_Tuple0..`.
        Ty::Tuple(elems) => {
            let mut name = format!("Tuple{}", elems.len());
            for e in elems {
                name.push('_');
                name.push_str(&codec_name(e, names));
            }
            name
        }
        Ty::Map(k, v) => format!("Map_{}_{}", codec_name(k, names), codec_name(v, names)),
        Ty::Set(inner) => format!("Set_{}", codec_name(inner, names)),
        Ty::Named(id) => format!("C${}", names.glue_name(id)),
        Ty::Str => "String".into(),
        Ty::JsValue => "JsValue".into(),
        Ty::Scalar(s) => {
            let mut name = s.rust().to_string();
            name[..1].make_ascii_uppercase();
            name
        }
        other => {
            let json = serde_json::to_value(other).expect("types serialize");
            let tag = json["ty"].as_str().unwrap_or("unknown");
            let mut name = tag.to_string();
            name[..1].make_ascii_uppercase();
            name
        }
    }
}

pub(super) fn leaf(ty: &Ty, names: &TypeNames) -> LeafView {
    let scalar = |kind: LeafKind| LeafView {
        kind,
        class: None,
        codec: None,
        read: kind.reader(),
        key_read: kind.key_reader(),
        write: kind.writer(),
        number: numbers::of(ty).map(|n| n.view),
        scalar: match kind {
            LeafKind::Scalar(s) => Some(numbers::scalar_view(s)),
            _ => None,
        },
        fixed: kind.fixed(),
        cached: false,
        canon: kind.canon(),
    };
    match ty {
        t if is_compound(t, names) => LeafView {
            codec: Some(codec_name(t, names)),
            ..scalar(LeafKind::Codec)
        },
        // An imported JS class: a `JsValue` checked with `instanceof` when written.
        Ty::Named(id) if names.is_js_type(id) => LeafView {
            class: Some(names.glue_name(id)),
            ..scalar(LeafKind::Value)
        },
        Ty::Named(id) => LeafView {
            class: Some(names.glue_name(id)),
            ..scalar(LeafKind::Class)
        },
        Ty::Scalar(s) => scalar(LeafKind::Scalar(*s)),
        Ty::I128 => scalar(LeafKind::I128),
        Ty::U128 => scalar(LeafKind::U128),
        Ty::String | Ty::Str => scalar(LeafKind::String),
        Ty::JsValue => scalar(LeafKind::Value),
        other => unreachable!("{other:?} never sits inside a wire value"),
    }
}

/// Add the codecs `ty` needs (each once) to `out`. JS function declarations are
/// hoisted, so their order does not matter; records may be recursive.
pub fn collect(ty: &Ty, names: &TypeNames, out: &mut Vec<CodecView>) {
    match ty {
        Ty::Result(ok, err) => {
            collect(ok, names, out);
            if !err.is_empty() {
                add(&Ty::Named(err.clone()), names, out);
            }
        }
        t if t.travels_on_wire() => add(t, names, out),
        // A fieldless enum alone crosses as its index; in a Vec it is on the wire.
        Ty::Named(id) if names.is_data(id) && !names.is_fieldless_enum(id) => add(ty, names, out),
        Ty::Vec(inner) if matches!(&**inner, Ty::Named(id) if names.is_data(id)) => {
            add(ty, names, out)
        }
        Ty::Option(inner) => collect(inner, names, out),
        // Each `next()` of an iterator returns an `Option` of its item (in a `Result` for
        // items `Result<T, E>`).
        Ty::Iterator(item) => collect(&bridge_schema::iterator_next(item).ret, names, out),
        // A Rust closure JS calls: its arguments and result cross as an export's.
        Ty::Callback(cb) => {
            for p in cb.params.iter().chain([&*cb.ret]) {
                collect(p, names, out);
            }
        }
        _ => {}
    }
}

/// As [`collect`], for a type crossing in a call from Rust into JS (an import's or a
/// callback's argument or result), where every vector is on the wire too.
pub fn collect_for_js(ty: &Ty, names: &TypeNames, out: &mut Vec<CodecView>) {
    match ty {
        Ty::Vec(_) => add(ty, names, out),
        Ty::Result(ok, _) => collect_for_js(ok, names, out),
        _ => collect(ty, names, out),
    }
}

/// The codecs of an export's parameter: a JS function passed to Rust is called like an
/// import (its arguments and result cross as in a call into JS).
pub fn collect_param(ty: &Ty, names: &TypeNames, out: &mut Vec<CodecView>) {
    match ty {
        Ty::Callback(cb) => {
            for t in cb.params.iter().chain([&*cb.ret]) {
                collect_for_js(t, names, out);
            }
        }
        _ => collect(ty, names, out),
    }
}

fn fields(fields: &[Field], names: &TypeNames, out: &mut Vec<CodecView>) -> Vec<FieldView> {
    fields
        .iter()
        .map(|f| field(f.name.clone(), &f.ty, names, out))
        .collect()
}

/// A record's field or a tuple's element (named by its index), adding its codec.
fn field(name: String, ty: &Ty, names: &TypeNames, out: &mut Vec<CodecView>) -> FieldView {
    if is_compound(ty, names) {
        add(ty, names, out);
    }
    FieldView {
        name,
        leaf: leaf(ty, names),
        ts: ts::wire(ty, names),
    }
}

/// An enum's variants, with an untagged union's strings and tests (`untagged.rs`).
fn variants(e: &EnumDef, names: &TypeNames, out: &mut Vec<CodecView>) -> Vec<VariantView> {
    let last_tuple = e.variants.iter().rposition(|v| !v.fields.is_empty());
    e.variants
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let (literal, witness) = match (e.untagged, &v.fields[..]) {
                (true, []) => (Some(untagged::literal(v)), None),
                (true, [f]) => {
                    let codec = |t: &Ty| codec_name(t, names);
                    (None, Some(untagged::witness(&f.ty, names, codec)))
                }
                _ => (None, None),
            };
            VariantView {
                name: v.name.clone(),
                fields: fields(&v.fields, names, out),
                literal,
                witness,
                catch_all: e.untagged && e.fallback && last_tuple == Some(i),
            }
        })
        .collect()
}

fn add(ty: &Ty, names: &TypeNames, out: &mut Vec<CodecView>) {
    let name = codec_name(ty, names);
    if out.iter().any(|c| c.name == name) {
        return;
    }
    let base = blank(name, ty, names);
    // Reserve the slot first: a recursive record finds itself and stops.
    let at = out.len();
    out.push(base.clone());
    let codec = match ty {
        Ty::Vec(inner) | Ty::Option(inner) => sequence(ty, inner, base, names, out),
        Ty::Named(id) => named(id, base, names, out),
        Ty::Tuple(elems) => CodecView {
            kind: CodecKind::Tuple,
            fields: elems
                .iter()
                .enumerate()
                .map(|(i, e)| field(i.to_string(), e, names, out))
                .collect(),
            ..base
        },
        Ty::Map(k, v) => CodecView {
            kind: CodecKind::Map,
            fields: vec![
                field("key".into(), k, names, out),
                field("value".into(), v, names, out),
            ],
            object_keys: **k == Ty::String,
            ..base
        },
        Ty::Set(inner) => {
            if is_compound(inner, names) {
                add(inner, names, out);
            }
            CodecView {
                kind: CodecKind::Set,
                elem: Some(leaf(inner, names)),
                ..base
            }
        }
        Ty::I128 | Ty::U128 => CodecView {
            kind: CodecKind::Scalar,
            elem: Some(leaf(ty, names)),
            ..base
        },
        other => unreachable!("{other:?} has no codec"),
    };
    let fixed = matches!(codec.kind, CodecKind::Record | CodecKind::Tuple)
        && codec.fields.iter().all(|f| f.leaf.fixed.is_some());
    out[at] = CodecView { fixed, ..codec };
}

/// A codec of `ty` with nothing known yet but its name, TypeScript and flat layout.
fn blank(name: String, ty: &Ty, names: &TypeNames) -> CodecView {
    CodecView {
        name,
        // Set below; the slot is reserved before the codec is known.
        kind: CodecKind::Vec,
        elem: None,
        array: None,
        ts: ts::wire(ty, names),
        fields: Vec::new(),
        variants: Vec::new(),
        object_keys: false,
        fixed: false,
        elem_fixed: None,
        flat: names
            .flat(ty)
            .map(|(fields, abis)| flat::slots(&fields, &abis)),
    }
}

/// The codec of a `Vec<inner>` or `Option<inner>` (`ty`), its element's added first.
fn sequence(
    ty: &Ty,
    inner: &Ty,
    base: CodecView,
    names: &TypeNames,
    out: &mut Vec<CodecView>,
) -> CodecView {
    if is_compound(inner, names) {
        add(inner, names, out);
    }
    let (kind, array) = match (ty, typed_array(inner)) {
        (Ty::Vec(_), Some(array)) => (CodecKind::NumVec, Some(array)),
        (Ty::Vec(_), None) => (CodecKind::Vec, None),
        _ => (CodecKind::Option, None),
    };
    let elem = leaf(inner, names);
    let elem_fixed = match (kind, &elem.codec) {
        (CodecKind::Vec, Some(name)) => out
            .iter()
            .find(|c| &c.name == name)
            .and_then(FixedElems::of),
        _ => None,
    };
    CodecView {
        kind,
        elem: Some(elem),
        array,
        elem_fixed,
        ..base
    }
}

/// The codec of a record or enum.
fn named(id: &str, base: CodecView, names: &TypeNames, out: &mut Vec<CodecView>) -> CodecView {
    match names.def(id) {
        TypeDef::Record(r) => CodecView {
            kind: CodecKind::Record,
            fields: fields(&r.fields, names, out),
            ..base
        },
        TypeDef::Enum(e) => enum_codec(e, base, names, out),
        TypeDef::Class(_) | TypeDef::JsType(_) => unreachable!("classes are read inline"),
    }
}

/// The codec of an enum: tagged, fieldless or untagged (a union read by its variants'
/// literals and witnesses).
fn enum_codec(
    e: &bridge_schema::EnumDef,
    base: CodecView,
    names: &TypeNames,
    out: &mut Vec<CodecView>,
) -> CodecView {
    CodecView {
        kind: if e.untagged {
            CodecKind::Union
        } else if e.is_fieldless() {
            CodecKind::Fieldless
        } else {
            CodecKind::Enum
        },
        variants: variants(e, names, out),
        ..base
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::glue::test_support::{exports, opt, vec};

    #[test]
    fn codecs_of_fixed_leaves_read_with_a_local_cursor() {
        let exports = exports();
        let names = TypeNames::new(&exports);
        let mut out = Vec::new();
        let tuple = |elems: Vec<Ty>| Ty::Tuple(elems);
        collect(
            &vec(tuple(vec![
                Ty::Scalar(Scalar::U32),
                Ty::Scalar(Scalar::F64),
                Ty::Scalar(Scalar::Bool),
            ])),
            &names,
            &mut out,
        );
        collect(
            &vec(tuple(vec![Ty::Scalar(Scalar::U32), Ty::String])),
            &names,
            &mut out,
        );
        collect(&vec(tuple(vec![Ty::I128])), &names, &mut out);
        collect(
            &vec(tuple(vec![vec(Ty::Scalar(Scalar::U8))])),
            &names,
            &mut out,
        );
        let fixed: Vec<(&str, bool)> = out
            .iter()
            .filter(|c| c.kind == CodecKind::Tuple)
            .map(|c| (c.name.as_str(), c.fixed))
            .collect();
        assert_eq!(
            fixed,
            [
                ("Tuple3_U32_F64_Bool", true),
                ("Tuple2_U32_String", false),
                ("Tuple1_I128", false),
                ("Tuple1_Vec_U8", false),
            ]
        );
        // Each fixed leaf as `bridge_runtime::wire` writes it: its size is its alignment.
        let read = |k: LeafKind| k.fixed().map(|f| (f.view, f.size, f.shift));
        let scalar = |s| read(LeafKind::Scalar(s));
        assert_eq!(scalar(Scalar::Bool), Some(("u8", 1, 0)));
        assert_eq!(scalar(Scalar::I16), Some(("i16", 2, 1)));
        assert_eq!(scalar(Scalar::Isize), Some(("i32", 4, 2)));
        assert_eq!(read(LeafKind::Class), Some(("u32", 4, 2)));
        assert_eq!(scalar(Scalar::Char), Some(("u32", 4, 2)));
        assert_eq!(scalar(Scalar::U64), Some(("u64", 8, 3)));
        assert_eq!(read(LeafKind::String), None);
    }

    #[test]
    fn vecs_of_fixed_codecs_read_their_elements_inline() {
        let exports = exports();
        let names = TypeNames::new(&exports);
        let mut out = Vec::new();
        let tuple = |elems: Vec<Ty>| Ty::Tuple(elems);
        collect(
            &vec(tuple(vec![
                Ty::Scalar(Scalar::U32),
                Ty::Scalar(Scalar::F64),
                Ty::Scalar(Scalar::Usize),
            ])),
            &names,
            &mut out,
        );
        collect(
            &vec(tuple(vec![Ty::Scalar(Scalar::U32), Ty::String])),
            &names,
            &mut out,
        );
        collect(
            &opt(tuple(vec![Ty::Scalar(Scalar::Bool)])),
            &names,
            &mut out,
        );
        let inline: Vec<_> = out
            .iter()
            .filter(|c| matches!(c.kind, CodecKind::Vec | CodecKind::Option))
            .map(|c| {
                let e = c.elem_fixed.as_ref();
                (
                    c.name.as_str(),
                    e.map(|e| (e.tuple, e.fields.len(), e.views.clone())),
                )
            })
            .collect();
        assert_eq!(
            inline,
            [
                // Each view once, in the fields' order.
                (
                    "Vec_Tuple3_U32_F64_Usize",
                    Some((true, 3, vec!["u32", "f64"]))
                ),
                ("Vec_Tuple2_U32_String", None),
                // Only a `Vec` reads its elements itself.
                ("Option_Tuple1_Bool", None),
            ]
        );
    }

    #[test]
    fn codecs_come_once_outer_first() {
        let exports = exports();
        let names = TypeNames::new(&exports);
        let mut out = Vec::new();
        collect(&vec(opt(Ty::String)), &names, &mut out);
        collect(
            &Ty::Result(Box::new(vec(opt(Ty::String))), String::new()),
            &names,
            &mut out,
        );
        collect(&opt(vec(Ty::Scalar(Scalar::F64))), &names, &mut out);
        collect(&Ty::Scalar(Scalar::F64), &names, &mut out);
        // A class whose JS name is `String` gets a codec of its own.
        collect(&vec(opt(Ty::Named("a::Node".into()))), &names, &mut out);
        let names: Vec<_> = out
            .iter()
            .map(|c| {
                let kind = serde_json::to_value(c.kind).unwrap();
                (c.name.clone(), kind.as_str().unwrap().to_string())
            })
            .collect();
        let names: Vec<_> = names
            .iter()
            .map(|(n, k)| (n.as_str(), k.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                ("Vec_Option_String", "vec"),
                ("Option_String", "option"),
                ("Option_Vec_F64", "option"),
                ("Vec_F64", "num_vec"),
                ("Vec_Option_C$String", "vec"),
                ("Option_C$String", "option"),
            ]
        );
        let elem = out[0].elem.as_ref().unwrap();
        assert_eq!(elem.codec.as_deref(), Some("Option_String"));
    }

    #[test]
    fn tuples_are_codecs_named_by_arity_and_elements() {
        let exports = exports();
        let names = TypeNames::new(&exports);
        let mut out = Vec::new();
        let inner = Ty::Tuple(vec![Ty::Scalar(Scalar::F64)]);
        collect(
            &vec(Ty::Tuple(vec![
                Ty::Scalar(Scalar::U32),
                inner.clone(),
                Ty::JsValue,
            ])),
            &names,
            &mut out,
        );
        let got: Vec<_> = out.iter().map(|c| (c.name.as_str(), c.kind)).collect();
        assert_eq!(
            got,
            [
                ("Vec_Tuple3_U32_Tuple1_F64_JsValue", CodecKind::Vec),
                ("Tuple3_U32_Tuple1_F64_JsValue", CodecKind::Tuple),
                ("Tuple1_F64", CodecKind::Tuple),
            ]
        );
        let elems: Vec<_> = out[1].fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(elems, ["0", "1", "2"]);
        assert!(out[1].holds_values());
        assert_eq!(out[1].ts, "[number, [number], any]");
    }

    #[test]
    fn maps_and_sets_are_codecs_whose_keys_say_how_they_convert() {
        let exports = exports();
        let names = TypeNames::new(&exports);
        let mut out = Vec::new();
        let map = Ty::Map(Box::new(Ty::String), Box::new(opt(Ty::Scalar(Scalar::U32))));
        collect(&map, &names, &mut out);
        collect(&Ty::Set(Box::new(Ty::Scalar(Scalar::U8))), &names, &mut out);
        collect(
            &Ty::Set(Box::new(Ty::Scalar(Scalar::Usize))),
            &names,
            &mut out,
        );
        let got: Vec<_> = out.iter().map(|c| (c.name.as_str(), c.kind)).collect();
        assert_eq!(
            got,
            [
                ("Map_String_Option_U32", CodecKind::Map),
                ("Option_U32", CodecKind::Option),
                ("Set_U8", CodecKind::Set),
                ("Set_Usize", CodecKind::Set),
            ]
        );
        assert!(out[0].object_keys && !out[2].object_keys);
        assert_eq!(out[0].fields[0].leaf.canon.as_deref(), Some("String"));
        assert_eq!(out[2].elem.as_ref().unwrap().canon.as_deref(), Some("U8"));
        assert_eq!(
            out[3].elem.as_ref().unwrap().canon,
            None,
            "checked in every glue"
        );
        assert_eq!(out[0].ts, "Map<string, number | null | undefined>");
    }

    #[test]
    fn js_values_are_leaves_and_mark_their_codecs() {
        let exports = exports();
        let names = TypeNames::new(&exports);
        let mut out = Vec::new();
        collect(&opt(Ty::JsValue), &names, &mut out);
        collect(&vec(opt(Ty::JsValue)), &names, &mut out);
        collect(&vec(Ty::String), &names, &mut out);
        let got: Vec<_> = out
            .iter()
            .map(|c| (c.name.as_str(), c.holds_values()))
            .collect();
        assert_eq!(
            got,
            [
                ("Option_JsValue", true),
                ("Vec_Option_JsValue", false),
                ("Vec_String", false),
            ]
        );
        assert_eq!(out[0].elem.as_ref().unwrap().kind, LeafKind::Value);
    }
}
