//! A record for the `__bridge_exports` custom section, and the user types it names.
//!
//! The record's JSON is known at expansion time except for the type ids of the user types
//! it names: `<T as BridgeType>::TYPE_ID` is only known to const evaluation (the type's
//! own expansion, possibly in another crate, defined it). So the JSON holds placeholders
//! ([`bridge_schema::type_id_placeholder`]), one per [`TypeRef`], in order.

use syn::Type;

/// What fills one placeholder of a record.
pub enum TypeRef {
    /// The type id of a user type: `<T as BridgeType>::TYPE_ID`.
    TypeId(Type),
    /// The type id of a `Result`'s error type `E` when it is a record or enum, else empty
    /// (see `bridge_runtime::abi::ErrProbe`).
    ErrorData(Type),
}

/// The user types a record names, in placeholder order.
#[derive(Default)]
pub struct TypeRefs {
    pub refs: Vec<TypeRef>,
}

impl TypeRefs {
    /// A placeholder to put where `ty`'s type id belongs.
    pub fn placeholder(&mut self, ty: &Type) -> String {
        self.push(TypeRef::TypeId(ty.clone()))
    }

    /// A placeholder for the type id of a `Result`'s error type `err`.
    pub fn error_placeholder(&mut self, err: &Type) -> String {
        self.push(TypeRef::ErrorData(err.clone()))
    }

    fn push(&mut self, r: TypeRef) -> String {
        self.refs.push(r);
        bridge_schema::type_id_placeholder(self.refs.len() - 1)
    }
}

/// One record and the types whose ids fill its placeholders.
pub struct RecordSection {
    pub record: bridge_schema::Record,
    pub refs: TypeRefs,
}
