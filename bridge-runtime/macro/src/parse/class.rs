//! `#[bridge]` on a struct: a class.

use super::{attrs, fields, record};
use crate::model::class::Class;
use crate::model::refs::TypeRefs;
use proc_macro2::TokenStream;
use syn::ext::IdentExt;

pub fn class(attr: TokenStream, mut item: syn::ItemStruct) -> syn::Result<Class> {
    let rust_name = item.ident.unraw().to_string();
    let args = attrs::parse_class_args(attr, &rust_name)?;
    if !item.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &item.generics,
            format!("#[bridge] class `{rust_name}` cannot be generic: export a concrete type"),
        ));
    }
    let fields = fields::fields(&rust_name, &mut item)?;
    let js_name = args.js_name.unwrap_or_else(|| rust_name.clone());
    let type_id = bridge_schema::type_id(&record::crate_name(), &rust_name);
    let doc = record::doc_of(&item.attrs);
    let record = record::section(
        bridge_schema::Item::Class(bridge_schema::Class {
            type_id: type_id.clone(),
            name: js_name.clone(),
            rust_name,
            identity_mode: args.identity_mode,
            inspectable: args.inspectable,
            doc,
        }),
        TypeRefs::default(),
    );
    Ok(Class {
        item,
        js_name,
        type_id,
        record,
        fields,
    })
}
