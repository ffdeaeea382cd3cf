//! `#[bridge(record)]` on a struct and `#[bridge]` on an enum: plain data that crosses by
//! value, field by field in declaration order.

use super::conditional::Configured;
use super::refs::RecordSection;
use proc_macro2::{Ident, Span};
use syn::Type;

pub struct Data {
    pub type_id: String,
    /// Its record, per configuration of its fields' `#[cfg_attr(p, bridge(..))]`s.
    pub records: Configured<RecordSection>,
    pub shape: Shape,
}

/// The struct or enum (its fields' bridge attributes taken off, emitted unchanged) and
/// its fields or variants.
pub enum Shape {
    Record(syn::ItemStruct, Vec<DataField>, Flat),
    /// `true`: a numeric enum of an 8- to 32-bit `#[repr]`, which a `&[E]` view may hold.
    Enum(syn::ItemEnum, Vec<DataVariant>, bool),
}

/// Whether a record an export takes or returns crosses through the flat area (every
/// field a scalar: `bridge_schema::lowering::flat_record` of its fields' schema types).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Flat {
    Yes,
    No,
}

/// One field of a record or enum variant.
pub struct DataField {
    /// The Rust field name (`None` for the one field of a tuple variant).
    pub ident: Option<Ident>,
    /// Default name in JS: camelCase of the Rust name, `value` for a tuple variant's field.
    pub js_name: String,
    pub ty: Type,
    /// Its `#[bridge(..)]` attributes: indices into the item's list of them.
    pub attrs: Vec<usize>,
    /// Where its messages point.
    pub span: Span,
}

pub struct DataVariant {
    pub ident: Ident,
    pub fields: Vec<DataField>,
    /// `Named(String)`: one unnamed field, `value` in JS.
    pub tuple: bool,
}
