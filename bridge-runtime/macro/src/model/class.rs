//! `#[bridge]` on a struct: a class.

use super::functions::Member;
use super::refs::RecordSection;
use proc_macro2::Ident;

pub struct Class {
    /// The struct, its fields' bridge attributes taken off.
    pub item: syn::ItemStruct,
    /// The class's name in JS (`BridgeClass::NAME`).
    pub js_name: String,
    pub type_id: String,
    pub record: RecordSection,
    /// The getters and setters of its `pub` fields (`None`: JS sees no field).
    pub fields: Option<FieldAccessors>,
}

/// The getters and setters of a class's `pub` fields: hidden members of an impl block of
/// their own, which generate writes from `accessors`, and their exports.
pub struct FieldAccessors {
    pub self_ty: syn::Type,
    pub accessors: Vec<Accessors>,
    pub members: Vec<Member>,
    pub record: RecordSection,
}

/// The getter and setter of one field (the setter's thunk is only made when the field is
/// not `readonly`).
pub struct Accessors {
    /// The field's name, or its index in a tuple struct.
    pub field: syn::Member,
    pub ty: syn::Type,
    pub getter: Ident,
    pub setter: Ident,
    /// Its `#[cfg]`s (on both) and docs (on the getter).
    pub cfgs: Vec<syn::Attribute>,
    pub docs: Vec<syn::Attribute>,
}
