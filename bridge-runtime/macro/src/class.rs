//! `#[bridge]` on a struct: the class's runtime trait impl, its reference-count exports
//! and its identity hook import.

use crate::{attrs, record};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

pub fn expand(attr: TokenStream, item: syn::ItemStruct) -> syn::Result<TokenStream> {
    let name = item.ident.to_string();
    let args = attrs::parse_class_args(attr, &name)?;
    if !item.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &item.generics,
            format!("#[bridge] class `{name}` cannot be generic: export a concrete type"),
        ));
    }
    let ident = &item.ident;
    let drop_ref = format_ident!("{}", bridge_schema::drop_ref_export(&name));
    let retain = format_ident!("{}", bridge_schema::retain_export(&name));
    let import_module = bridge_schema::IDENTITY_IMPORT_MODULE;
    let doc = doc_of(&item.attrs);
    let record = record::emit(bridge_schema::Item::Class(bridge_schema::Class {
        name: name.clone(),
        identity_mode: args.identity_mode,
        doc,
    }));
    Ok(quote! {
        #item

        unsafe impl ::bridge_runtime::BridgeClass for #ident {
            const NAME: &'static str = #name;

            #[inline(always)]
            fn lower_identity(ptr: u32) -> u32 {
                // `cargo bridge` replaces this import with the class's identity mode.
                #[cfg(target_arch = "wasm32")]
                {
                    #[link(wasm_import_module = #import_module)]
                    unsafe extern "C" {
                        #[link_name = #name]
                        fn lower(ptr: u32) -> u32;
                    }
                    // SAFETY: the hook only reads and writes the box header of `ptr`.
                    unsafe { lower(ptr) }
                }
                #[cfg(not(target_arch = "wasm32"))]
                {
                    ptr
                }
            }
        }

        /// A class value nested in a wire-encoded result (`Vec<Option<C>>`, ...) crosses
        /// like a plain class return: boxed, then through the identity hook.
        impl ::bridge_runtime::wire::WireOut for #ident {
            #[inline]
            fn wire_write(self, w: &mut ::bridge_runtime::wire::WireBuf) {
                ::bridge_runtime::wire::WireOut::wire_write(::bridge_runtime::Handle::new(self), w)
            }
        }

        const _: () = {
            /// Drop one reference held by JS.
            #[unsafe(no_mangle)]
            #[allow(non_snake_case)]
            pub unsafe extern "C" fn #drop_ref(addr: u32) {
                // SAFETY: JS passes an address whose reference it owns.
                drop(unsafe { ::bridge_runtime::Handle::<#ident>::from_raw(addr as usize) });
            }

            /// Add one reference for a new JS wrapper of a live object.
            #[unsafe(no_mangle)]
            #[allow(non_snake_case)]
            pub unsafe extern "C" fn #retain(addr: u32) {
                // SAFETY: JS passes a live object; the new reference is JS's.
                ::std::mem::forget(unsafe { ::bridge_runtime::Handle::<#ident>::clone_from_raw(addr as usize) });
            }

            #record
        };
    })
}

/// The `///` doc text of an item, lines joined.
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
        .collect::<Vec<_>>()
        .join("\n")
}
