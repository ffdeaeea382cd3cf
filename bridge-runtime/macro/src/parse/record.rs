//! What a record says about the item it comes from: the crate, the doc text.

use crate::model::refs::{RecordSection, TypeRefs};

/// The crate whose macro expansion this is (Cargo sets it for rustc, proc macros see it).
pub fn crate_name() -> String {
    std::env::var("CARGO_PKG_NAME").unwrap_or_else(|_| "unknown".to_string())
}

/// The record of `item` in this crate, its placeholders filled from `refs`.
pub fn section(item: bridge_schema::Item, refs: TypeRefs) -> RecordSection {
    RecordSection {
        record: bridge_schema::Record {
            crate_name: crate_name(),
            item,
        },
        refs,
    }
}

/// The `///` doc text of an item, lines joined. Control characters are dropped: records
/// use one to mark type ids (see `bridge_schema::type_id_placeholder`).
pub fn doc_of(attrs: &[syn::Attribute]) -> String {
    attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value().trim().to_string()),
                _ => None,
            },
            _ => None,
        })
        .map(|line| line.replace(|c: char| c.is_control() && c != '\t', ""))
        .collect::<Vec<_>>()
        .join("\n")
}
