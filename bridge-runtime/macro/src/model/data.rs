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
    Record(syn::ItemStruct, Vec<DataField<Ident>>, Flat),
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

/// One field of a record or enum variant. `Name` is its Rust name: an `Ident` for a
/// record's (every record field is named), an `Option<Ident>` for a variant's (`None` for
/// the one field of a tuple variant).
pub struct DataField<Name = Option<Ident>> {
    pub ident: Name,
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

/// A field's Rust name, whichever [`DataField`] holds it.
pub trait FieldIdent {
    fn rust(&self) -> Option<&Ident>;
}

impl FieldIdent for Ident {
    fn rust(&self) -> Option<&Ident> {
        Some(self)
    }
}

impl FieldIdent for Option<Ident> {
    fn rust(&self) -> Option<&Ident> {
        self.as_ref()
    }
}
