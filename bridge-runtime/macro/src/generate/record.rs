//! Emission of a record into the `__bridge_exports` custom section: its JSON is split at
//! the placeholders (see `model::refs`) and assembled by `bridge_runtime::record::encode`
//! with the type ids in between.
//!
//! The static has no `#[used]`, which on wasm32 would copy it into linear memory too.

use crate::model::refs::{RecordSection, TypeRef};
use proc_macro2::TokenStream;
use quote::quote;

/// The const `&str` expression of a placeholder's type id.
fn type_id(r: &TypeRef) -> TokenStream {
    match r {
        TypeRef::TypeId(ty) => quote! { <#ty as ::bridge_runtime::BridgeType>::TYPE_ID },
        TypeRef::ErrorData(err) => quote! {{
            #[allow(unused_imports)]
            use ::bridge_runtime::abi::ErrNoData as _;
            ::bridge_runtime::abi::ErrProbe::<#err>::DATA_TYPE_ID
        }},
    }
}

/// After a type id, whether a wasm-bindgen type is an imported one and the type as written
/// (the id is then `#wasm-bindgen:extern:<type>` or `#wasm-bindgen:value:<type>`:
/// `cargo bridge` names it in the `.d.ts` by wasm-bindgen's name); nothing for other types.
fn as_written(ty: &syn::Type) -> TokenStream {
    let written: String = quote!(#ty)
        .to_string()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let external = format!(":extern:{written}");
    let value = format!(":value:{written}");
    quote! {
        (if !<#ty as ::bridge_runtime::BridgeType>::WASM_BINDGEN {
            ""
        } else if {
            #[allow(unused_imports)]
            use ::bridge_runtime::abi::NotExtern as _;
            ::bridge_runtime::abi::ExternProbe::<#ty>::IS_EXTERN
        } {
            #external
        } else {
            #value
        }).as_bytes()
    }
}

/// A static in the custom section holding `section`'s record, with the type ids of its
/// refs filled in. Only for wasm32: the host build has no such section and no use for it.
pub fn emit(section: &RecordSection) -> TokenStream {
    let json = serde_json::to_string(&section.record).expect("records always serialize");
    let mut pieces = Vec::new();
    let mut rest = json.as_str();
    for (index, r) in section.refs.refs.iter().enumerate() {
        let ty = type_id(r);
        let placeholder = serde_json::to_string(&bridge_schema::type_id_placeholder(index))
            .expect("strings serialize");
        let (before, after) = rest
            .split_once(&placeholder)
            .expect("every placeholder occurs once, in order");
        let before = format!("{before}\"");
        pieces.push(quote! { #before.as_bytes() });
        pieces.push(quote! { (#ty).as_bytes() });
        if let TypeRef::TypeId(t) = r {
            pieces.push(as_written(t));
        }
        rest = after;
        pieces.push(quote! { "\"".as_bytes() });
    }
    pieces.push(quote! { #rest.as_bytes() });
    let section_name = bridge_schema::SECTION_NAME;
    let version = bridge_schema::SCHEMA_VERSION;
    quote! {
        // Not only for wasm32: type-checking it on every target reports a type that is not
        // a #[bridge] type wherever the crate is checked.
        #[allow(dead_code)]
        const __BRIDGE_PIECES: &[&[u8]] = &[#(#pieces),*];
        // No `#[used]`: on wasm32 it makes LLVM emit the static into the data segment
        // as well as the custom section, so every module would ship its records twice.
        // A static in a custom section is kept by the linker without it.
        #[cfg(target_arch = "wasm32")]
        #[allow(dead_code)]
        #[unsafe(link_section = #section_name)]
        static __BRIDGE_RECORD: [u8; ::bridge_runtime::record::len(__BRIDGE_PIECES)] =
            ::bridge_runtime::record::encode(#version, __BRIDGE_PIECES);
    }
}
