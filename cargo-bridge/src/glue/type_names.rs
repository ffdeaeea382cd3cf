//! Type id → JS name: the records name user types by type id; the glue by JS name.

use crate::exports::{Exports, TypeDef};

/// Type id → JS name of every user type in the module.
pub struct TypeNames<'a>(pub &'a Exports);

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
