//! `#[bridge]` on a struct: the class's runtime trait impls (type id, identity hook,
//! conversion), its reference-count exports and its identity hook import.

use super::{functions, record};
use crate::model::class::{Accessors, Class, FieldAccessors};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

pub fn class(class: &Class) -> TokenStream {
    let item = &class.item;
    let ident = &item.ident;
    let fields = class.fields.as_ref().map(field_accessors);
    let traits = class_traits(class);
    let conversions = conversions(ident);
    let exports = reference_exports(class);
    quote! {
        #item

        #fields

        #traits

        #conversions

        #exports
    }
}

/// The class's runtime traits: its type id, JS name and identity hook.
fn class_traits(class: &Class) -> TokenStream {
    let ident = &class.item.ident;
    let js_name = &class.js_name;
    let type_id = &class.type_id;
    let hook = bridge_schema::identity_import(type_id);
    let import_module = bridge_schema::IDENTITY_IMPORT_MODULE;
    quote! {
        impl ::bridge_runtime::BridgeType for #ident {
            const TYPE_ID: &'static str = #type_id;
        }

        unsafe impl ::bridge_runtime::BridgeClass for #ident {
            const NAME: &'static str = #js_name;

            #[inline(always)]
            fn lower_identity(ptr: u32) -> u32 {
                // `cargo bridge` replaces this import with the class's identity mode.
                #[cfg(target_arch = "wasm32")]
                {
                    #[link(wasm_import_module = #import_module)]
                    unsafe extern "C" {
                        #[link_name = #hook]
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
    }
}

/// How a class value crosses: nested in a wire result, returned, taken by value.
fn conversions(ident: &syn::Ident) -> TokenStream {
    quote! {
        /// A class value nested in a wire-encoded result (`Vec<Option<C>>`, ...) crosses
        /// like a plain class return: boxed, then through the identity hook.
        impl ::bridge_runtime::wire::WireOut for #ident {
            #[inline]
            fn wire_write(self, w: &mut ::bridge_runtime::wire::WireBuf) {
                ::bridge_runtime::wire::WireOut::wire_write(::bridge_runtime::Handle::new(self), w)
            }
        }

        /// A class returned by value moves into a new box.
        impl ::bridge_runtime::IntoJs for #ident {
            type Abi = u32;
            #[inline(always)]
            fn into_abi(self) -> u32 {
                ::bridge_runtime::abi::lower_class(::bridge_runtime::Handle::new(self))
            }
        }

        /// A class an export takes by value moves out of JS: checked first (nothing
        /// borrows it, Rust holds no other reference), then moved out of its box; the glue
        /// releases the wrapper after the call.
        impl ::bridge_runtime::abi::TakeParam for #ident {
            type Abi = u32;
            type Taking = ::bridge_runtime::abi::Taking<'static, #ident>;
            #[inline]
            unsafe fn begin(
                addr: u32,
                site: &::bridge_runtime::abi::ArgSite,
            ) -> ::bridge_runtime::abi::Result<Self::Taking> {
                // SAFETY: forwarded contract (JS keeps the box alive during the call).
                unsafe { ::bridge_runtime::abi::begin_take::<#ident>(addr, site) }
            }
            #[inline]
            fn finish(taking: Self::Taking) -> Self {
                taking.finish()
            }
        }
    }
}

/// The exports JS counts references with (drop one, add one) and the class's record.
fn reference_exports(class: &Class) -> TokenStream {
    let ident = &class.item.ident;
    let drop_ref = bridge_schema::drop_ref_export(&class.type_id);
    let retain = bridge_schema::retain_export(&class.type_id);
    let record = record::emit(&class.record);
    quote! {
        const _: () = {
            /// Drop one reference held by JS.
            #[unsafe(export_name = #drop_ref)]
            unsafe extern "C" fn __bridge_drop_ref(addr: u32) {
                // SAFETY: JS passes an address whose reference it owns.
                drop(unsafe { ::bridge_runtime::Handle::<#ident>::from_raw(addr as usize) });
            }

            /// Add one reference for a new JS wrapper of a live object.
            #[unsafe(export_name = #retain)]
            unsafe extern "C" fn __bridge_retain(addr: u32) {
                // SAFETY: JS passes a live object; the new reference is JS's.
                ::std::mem::forget(unsafe { ::bridge_runtime::Handle::<#ident>::clone_from_raw(addr as usize) });
            }

            #record
        };
    }
}

/// The getters and setters of the class's `pub` fields, hidden members of an impl block of
/// their own, and their exports.
fn field_accessors(f: &FieldAccessors) -> TokenStream {
    let self_ty = &f.self_ty;
    let accessors = f.accessors.iter().map(accessors);
    let exports = functions::members(&f.members, &f.record);
    quote! {
        #[automatically_derived]
        impl #self_ty {
            #(#accessors)*
        }
        #exports
    }
}

/// A field's getter (the field cloned) and setter.
fn accessors(a: &Accessors) -> TokenStream {
    let Accessors {
        field,
        ty,
        getter,
        setter,
        cfgs,
        docs,
    } = a;
    // A type that is not `Clone` is reported at the field's type.
    let read = quote_spanned!(ty.span()=> ::bridge_runtime::abi::read_field(&self.#field));
    quote! {
        #(#docs)*
        #(#cfgs)*
        #[doc(hidden)]
        #[inline(always)]
        #[allow(dead_code)]
        pub fn #getter(&self) -> #ty {
            #read
        }
        #(#cfgs)*
        #[doc(hidden)]
        #[inline(always)]
        #[allow(dead_code)]
        pub fn #setter(&mut self, value: #ty) {
            self.#field = value;
        }
    }
}
