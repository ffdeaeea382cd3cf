//! `#[bridge(record)]` on a struct and `#[bridge]` on an enum: plain data that crosses by
//! value. Both are encoded on the wire (`bridge_runtime::wire`) by the `WireOut`/`WireIn`
//! impls generated here, field by field in declaration order; a fieldless enum crosses
//! as its variant's index (a JS string in the glue).
//!
//! Also `BridgeType`/`BridgeData`/`IntoJs`/`FromJs` of records and enums; a record of
//! scalars (`model::data::Flat`) also gets an `into_ret` writing the flat area and a
//! `from_param` reading it.

use super::configured::configured;
use super::record;
use crate::model::data::{Data, DataField, DataVariant, Flat, Shape};
use proc_macro2::TokenStream;
use quote::quote;
use syn::Ident;
use syn::spanned::Spanned;

/// The struct or enum, its trait impls, wire codecs and record(s) (one per configuration
/// of its fields' attributes).
pub fn data(data: &Data) -> TokenStream {
    let records = configured(&data.records, record::emit);
    match &data.shape {
        Shape::Record(item, fields, flat) => {
            let wire = record_wire(&item.ident, fields);
            let conversions = match flat {
                Flat::Yes => flat_conversions(&item.ident, fields),
                Flat::No => (quote! {}, quote! {}),
            };
            expand_data(
                item,
                &item.ident,
                &data.type_id,
                records,
                wire,
                conversions,
                false,
            )
        }
        Shape::Enum(item, variants, view) => {
            let ident = &item.ident;
            let fieldless = variants.iter().all(|v| v.fields.is_empty());
            let mut wire = enum_wire(ident, variants);
            if fieldless {
                wire.extend(fieldless_index(ident, variants));
            }
            if *view {
                // SAFETY: a fieldless `#[repr(u8..i32)]` enum is laid out as that integer,
                // its discriminant (the JS number `numeric` gives it).
                wire.extend(quote! {
                    unsafe impl ::bridge_runtime::abi::ViewElem for #ident {}
                });
            }
            expand_data(
                item,
                ident,
                &data.type_id,
                records,
                wire,
                (quote! {}, quote! {}),
                fieldless,
            )
        }
    }
}

/// A flat record's `IntoJs::into_ret` (each field into its slot of the flat area, in
/// declaration order, as the glue reads them) and `FromJs::from_param` (the fields from
/// the slots the glue wrote them into, from the first slot the tagged value names; an
/// untagged value is a wire offset).
fn flat_conversions(ident: &Ident, fields: &[DataField<Ident>]) -> (TokenStream, TokenStream) {
    let flat = quote!(::bridge_runtime::flat);
    let names: Vec<&Ident> = fields.iter().map(|f| &f.ident).collect();
    let slots: Vec<usize> = (0..fields.len()).collect();
    let ret = quote! {
        #[inline]
        fn into_ret(self) -> u32 {
            #( #flat::FlatField::put(self.#names, #slots); )*
            0
        }
    };
    let param = quote! {
        #[inline]
        unsafe fn from_param(abi: u32) -> Self {
            match #flat::param_slot(abi) {
                // Struct literal fields evaluate in order.
                ::core::option::Option::Some(at) => #ident {
                    #( #names: #flat::FlatField::get(at + #slots), )*
                },
                // SAFETY: forwarded contract.
                ::core::option::Option::None => unsafe {
                    <Self as ::bridge_runtime::FromJs>::from_abi(abi)
                },
            }
        }
    };
    (ret, param)
}

/// What a record's and an enum's expansions share: the item unchanged, its wire code, its
/// trait impls and its record(s) (one per configuration of its fields' attributes).
fn expand_data(
    item: &impl quote::ToTokens,
    ident: &Ident,
    type_id: &str,
    records: TokenStream,
    wire: TokenStream,
    conversions: (TokenStream, TokenStream),
    fieldless: bool,
) -> TokenStream {
    let traits = data_traits(ident, type_id, conversions, fieldless);
    let anchor = bridge_schema::data_anchor_export(type_id);
    quote! {
        #item
        #wire
        #traits
        const _: () = {
            #records

            // Keeps the record in the link when the type's crate exports nothing else.
            #[unsafe(export_name = #anchor)]
            extern "C" fn __bridge_anchor() {}
        };
    }
}

/// `BridgeType`, `BridgeData` and the thunk conversions of a record or enum. Records and
/// enums with data travel on the wire (the wasm value is the in-buffer offset, or unused
/// for results); a fieldless enum travels as its variant index.
fn data_traits(
    ident: &Ident,
    type_id: &str,
    (ret, param): (TokenStream, TokenStream),
    fieldless: bool,
) -> TokenStream {
    let rt = quote!(::bridge_runtime);
    let (into_abi, from_abi, js_arg) = if fieldless {
        (
            quote! { #ident::__bridge_index(self) },
            quote! { #ident::__bridge_from_index(abi) },
            quote! {},
        )
    } else {
        (
            quote! { #rt::wire::ret(self); 0 },
            // SAFETY: forwarded contract: JS wrote the value at offset `abi`.
            quote! { unsafe { #rt::wire::take_at(abi) } },
            quote! {
                #[inline]
                fn into_js_arg(self, args: &mut #rt::wire::WireArgs) -> u32 {
                    args.put(self)
                }
            },
        )
    };
    quote! {
        impl #rt::BridgeType for #ident {
            const TYPE_ID: &'static str = #type_id;
        }
        impl #rt::BridgeData for #ident {}
        impl #rt::IntoJs for #ident {
            type Abi = u32;
            #[inline]
            fn into_abi(self) -> u32 {
                #into_abi
            }
            #ret
            #js_arg
            #[inline]
            fn ret_vec(v: ::std::vec::Vec<Self>) {
                #rt::wire::ret(v)
            }
        }
        impl #rt::FromJs for #ident {
            type Abi = u32;
            #[inline]
            unsafe fn from_abi(abi: u32) -> Self {
                #from_abi
            }
            #param
            #[inline]
            unsafe fn lift_vec(ptr: u32, _len: u32) -> ::std::vec::Vec<Self> {
                // SAFETY: forwarded contract: JS wrote the vector at offset `ptr`.
                unsafe { #rt::wire::take_at(ptr) }
            }
        }
    }
}

/// A fieldless enum's variant index both ways (JS checked the name before passing it).
fn fieldless_index(ident: &Ident, variants: &[DataVariant]) -> TokenStream {
    let name = ident.to_string();
    let count = variants.len();
    let (to, from): (Vec<_>, Vec<_>) = variants
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let i = i as u32;
            let v = &v.ident;
            (quote! { #ident::#v => #i, }, quote! { #i => #ident::#v, })
        })
        .unzip();
    quote! {
        // A JS `Map` compares variant names as Rust compares variants.
        impl ::bridge_runtime::abi::MapKey for #ident {}
        impl #ident {
            #[doc(hidden)]
            #[inline]
            pub fn __bridge_index(self) -> u32 {
                match self {
                    #(#to)*
                }
            }
            #[doc(hidden)]
            #[inline]
            pub fn __bridge_from_index(index: u32) -> Self {
                match index {
                    #(#from)*
                    other => ::core::panic!(
                        "bridge: variant index {} of enum `{}` is out of range (it has {}); the \
                         glue and the wasm disagree: rebuild both with the same cargo-bridge",
                        other, #name, #count
                    ),
                }
            }
        }
    }
}

/// Writing one field `value` of type `ty` to the wire `w`. With the feature `wasm-bindgen`
/// (bridge-runtime's turns it on) through `wire::field::FieldProbe`, whose method lookup
/// also finds wasm-bindgen's codec for a wasm-bindgen type; else bridge's codec, as before
/// the feature existed (the same expansion: crates without wasm-bindgen build the same code).
fn field_write(value: TokenStream, ty: &syn::Type) -> TokenStream {
    let w = quote!(::bridge_runtime::wire);
    if cfg!(feature = "wasm-bindgen") {
        // An unmet bound points at the field's type.
        let method = Ident::new("field_write", ty.span());
        quote! {{
            #[allow(unused_imports)]
            use {#w::field::BridgeFieldOut as _, ::bridge_runtime::js::WbgField as _};
            (&&&&#w::field::FieldProbe::<#ty>::NEW).#method(#value, w)
        }}
    } else {
        quote! { #w::WireOut::wire_write(#value, w) }
    }
}

/// Reading one field of type `ty` from the wire `r` (unsafe, a `Result`), as [`field_write`].
fn field_read(ty: &syn::Type) -> TokenStream {
    let w = quote!(::bridge_runtime::wire);
    if cfg!(feature = "wasm-bindgen") {
        let method = Ident::new("field_read", ty.span());
        quote! {{
            #[allow(unused_imports)]
            use {#w::field::BridgeFieldIn as _, ::bridge_runtime::js::WbgField as _};
            (&&&&#w::field::FieldProbe::<#ty>::NEW).#method(r)
        }}
    } else {
        quote! { #w::WireIn::wire_read(r) }
    }
}

/// `WireOut` and `WireIn` of a record: its fields in declaration order.
fn record_wire(ident: &Ident, fields: &[DataField<Ident>]) -> TokenStream {
    let w = quote!(::bridge_runtime::wire);
    let names: Vec<&Ident> = fields.iter().map(|f| &f.ident).collect();
    let writes = fields.iter().map(|f| {
        let name = &f.ident;
        field_write(quote!(self.#name), &f.ty)
    });
    let reads = fields.iter().map(|f| field_read(&f.ty));
    quote! {
        impl #w::WireOut for #ident {
            #[inline]
            fn wire_write(self, w: &mut #w::WireBuf) {
                #( #writes; )*
            }
        }
        unsafe impl #w::WireIn for #ident {
            #[inline]
            unsafe fn wire_read(r: &mut #w::WireReader) -> ::bridge_runtime::abi::Result<Self> {
                ::core::result::Result::Ok(#ident {
                    // SAFETY: forwarded contract; struct literal fields evaluate in order.
                    #( #names: unsafe { #reads }?, )*
                })
            }
        }
    }
}

/// `WireOut` and `WireIn` of an enum: the variant's index as a `u32`, then its fields.
fn enum_wire(ident: &Ident, variants: &[DataVariant]) -> TokenStream {
    let w = quote!(::bridge_runtime::wire);
    let name = ident.to_string();
    let mut write_arms = Vec::new();
    let mut read_arms = Vec::new();
    for (index, v) in variants.iter().enumerate() {
        let index = index as u32;
        let vident = &v.ident;
        let binds: Vec<Ident> = (0..v.fields.len())
            .map(|i| quote::format_ident!("__f{i}"))
            .collect();
        let (pattern, build) = if v.tuple {
            (quote! { (#(#binds),*) }, quote! { (#(#binds),*) })
        } else if v.fields.is_empty() {
            (quote! {}, quote! {})
        } else {
            let names: Vec<&Ident> = v.fields.iter().filter_map(|f| f.ident.as_ref()).collect();
            (
                quote! { { #(#names: #binds),* } },
                quote! { { #(#names: #binds),* } },
            )
        };
        let writes = binds
            .iter()
            .zip(&v.fields)
            .map(|(b, f)| field_write(quote!(#b), &f.ty));
        let reads = v.fields.iter().map(|f| field_read(&f.ty));
        write_arms.push(quote! {
            #ident::#vident #pattern => {
                w.put(#index.to_le_bytes());
                #( #writes; )*
            }
        });
        read_arms.push(quote! {
            #index => {
                // SAFETY: forwarded contract; fields are read in declaration order.
                #( let #binds = unsafe { #reads }?; )*
                ::core::result::Result::Ok(#ident::#vident #build)
            }
        });
    }
    let count = variants.len();
    quote! {
        impl #w::WireOut for #ident {
            #[inline]
            fn wire_write(self, w: &mut #w::WireBuf) {
                match self {
                    #(#write_arms)*
                }
            }
        }
        unsafe impl #w::WireIn for #ident {
            #[inline]
            unsafe fn wire_read(r: &mut #w::WireReader) -> ::bridge_runtime::abi::Result<Self> {
                match u32::from_le_bytes(r.take()?) {
                    #(#read_arms)*
                    other => ::core::result::Result::Err(
                        ::bridge_runtime::wire::bad_variant(#name, other, #count),
                    ),
                }
            }
        }
    }
}
