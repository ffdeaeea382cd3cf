//! Emission of a record into the `__bridge_exports` custom section.
//!
//! The record's JSON is known at expansion time except for the type ids of the user types
//! it names: `<T as BridgeType>::TYPE_ID` is only known to const evaluation (the type's
//! own expansion, possibly in another crate, defined it). So the JSON is written with
//! placeholders ([`bridge_schema::type_id_placeholder`]), split at them, and assembled by
//! `bridge_runtime::record::encode` with the type ids in between.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Type;

/// The crate whose macro expansion this is (Cargo sets it for rustc, proc macros see it).
pub fn crate_name() -> String {
    std::env::var("CARGO_PKG_NAME").unwrap_or_else(|_| "unknown".to_string())
}

/// The user types a record names, in placeholder order: each a const `&str` expression.
#[derive(Default)]
pub struct TypeRefs {
    types: Vec<TokenStream>,
}

impl TypeRefs {
    /// A placeholder to put where `ty`'s type id belongs.
    pub fn placeholder(&mut self, ty: &Type) -> String {
        self.placeholder_expr(quote! { <#ty as ::bridge_runtime::BridgeType>::TYPE_ID })
    }

    /// A placeholder for the type id of a `Result`'s error type `err`: its `TYPE_ID` when
    /// it is a record or enum, else empty (see `bridge_runtime::abi::ErrProbe`).
    pub fn error_placeholder(&mut self, err: &Type) -> String {
        self.placeholder_expr(quote! {{
            #[allow(unused_imports)]
            use ::bridge_runtime::abi::ErrDisplayOnly as _;
            ::bridge_runtime::abi::ErrProbe::<#err>::DATA_TYPE_ID
        }})
    }

    fn placeholder_expr(&mut self, expr: TokenStream) -> String {
        self.types.push(expr);
        bridge_schema::type_id_placeholder(self.types.len() - 1)
    }
}

/// A static in the custom section holding `item`'s record, with the type ids of `refs`
/// filled in. Only for wasm32: the host build has no such section and no use for it.
pub fn emit(item: bridge_schema::Item, refs: TypeRefs) -> TokenStream {
    let record = bridge_schema::Record {
        crate_name: crate_name(),
        item,
    };
    let json = serde_json::to_string(&record).expect("records always serialize");
    let mut pieces = Vec::new();
    let mut rest = json.as_str();
    for (index, ty) in refs.types.iter().enumerate() {
        let placeholder = serde_json::to_string(&bridge_schema::type_id_placeholder(index))
            .expect("strings serialize");
        let (before, after) = rest
            .split_once(&placeholder)
            .expect("every placeholder occurs once, in order");
        let before = format!("{before}\"");
        pieces.push(quote! { #before.as_bytes() });
        pieces.push(quote! { (#ty).as_bytes() });
        rest = after;
        pieces.push(quote! { "\"".as_bytes() });
    }
    pieces.push(quote! { #rest.as_bytes() });
    let section = bridge_schema::SECTION_NAME;
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
        #[unsafe(link_section = #section)]
        static __BRIDGE_RECORD: [u8; ::bridge_runtime::record::len(__BRIDGE_PIECES)] =
            ::bridge_runtime::record::encode(#version, __BRIDGE_PIECES);
    }
}
