//! `#[bridge] extern "C" { ... }`: each declared JS function becomes a safe Rust function
//! of the same name and visibility that lowers its arguments, calls the raw wasm import
//! and lifts the result, and its record tells `cargo bridge` where the function lives in
//! JS. A JS class (`pub type T;`) becomes an owned handle type around a `JsValue`, and its
//! members (`constructor`, `method`, `static_method_of`) functions of `impl T`.
//!
//! Raw imports are in module `__bridge_import` under crate-unique names `<crate>::<fn>`; a
//! JS class's members are `<crate>::<T>::<fn>`, with its `instanceof` import. An `async fn`
//! import's future awaits the `JsValue` the call returned, then, for a declared result other
//! than `JsValue`, converts it with a second sync import (`model::imports::Settle`, schema
//! `MemberForm::Settled`: JS returns its argument, so the conversion and its messages are a
//! sync import's). Statics are `JsStatic`s.

use super::{jscall, record, thunk};
use crate::model::conditional::{Cfg, Configured};
use crate::model::imports::{Bind, ImportFn, ImportSig, Imports, JsStaticItem, JsType};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

pub fn imports(imports: &Imports) -> TokenStream {
    let mut out = TokenStream::new();
    for t in &imports.types {
        out.extend(js_type(t));
    }
    for st in &imports.statics {
        out.extend(js_static(st));
    }
    for f in &imports.fns {
        out.extend(match f {
            Configured::One(f) => import_fn(f, None),
            // Each configuration under its own `cfg` (an error: under it, in a `const _`).
            Configured::PerCfg(all) => {
                let mut out = TokenStream::new();
                for (cfg, f) in all {
                    out.extend(match f {
                        Ok(f) => import_fn(f, Some(cfg)),
                        Err(e) => {
                            let errors = e.to_compile_error();
                            quote! { #[cfg(#cfg)] const _: () = { #errors }; }
                        }
                    });
                }
                out
            }
        });
    }
    out
}

/// The safe function and record of `f`, under `#[cfg(cfg)]` if given; a member of a JS
/// class in an `impl` of it.
fn import_fn(f: &ImportFn, cfg: Option<&Cfg>) -> TokenStream {
    let cfg = cfg.map(|c| quote! { #[cfg(#c)] });
    let function = function(f);
    let record = record::emit(&f.record);
    let settle_record = f.settle.as_ref().map(|s| {
        let record = record::emit(&s.import.record);
        quote! { #cfg const _: () = { #record }; }
    });
    let function = match &f.member_of {
        Some(ty) => quote! { #cfg impl #ty { #function } },
        None => quote! { #cfg #function },
    };
    quote! {
        #function
        #cfg
        const _: () = {
            #record
        };
        #settle_record
    }
}

/// The safe function calling `f`'s raw import.
fn function(f: &ImportFn) -> TokenStream {
    let names: Vec<Ident> = (0..f.binds.len())
        .map(|i| format_ident!("__bridge_arg{}", i))
        .collect();
    let binds = f.binds.iter().map(bind);
    let call = jscall::build(&f.call, &names);
    let raw = format_ident!("__bridge_import");
    let declare = call.declare(&raw, bridge_schema::JS_IMPORT_MODULE, &f.symbol, &[]);
    let items = thunk::closures(&f.call, &f.symbol, "__bridge_closure");
    let invoke = call.invoke(&raw, &[], &items);
    let body = quote! {
        #(let #names = #binds;)*
        #declare
        #invoke
    };
    if f.asynchronous {
        return async_function(f, &body);
    }
    let attrs = &f.attrs;
    let vis = &f.vis;
    let sig = signature(f);
    quote! {
        #(#attrs)*
        #[allow(clippy::let_unit_value, clippy::unused_unit)]
        #vis #sig {
            #body
        }
    }
}

/// The safe function of the async import `f` whose call is `body`: the call happens now
/// (its arguments are lent for the call only); the future owns just the `JsValue` it
/// returned.
fn async_function(f: &ImportFn, body: &TokenStream) -> TokenStream {
    let attrs = &f.attrs;
    let vis = &f.vis;
    let sig = &signature(f);
    let mut outer = sig.clone();
    let declared = f.settle.as_ref().map_or(&sig.output, |s| &s.output);
    let output = match declared {
        syn::ReturnType::Type(_, t) => quote! { #t },
        syn::ReturnType::Default => quote! { () },
    };
    outer.output = syn::parse_quote! {
        -> impl ::core::future::Future<Output = #output> + use<>
    };
    let mut inner = sig.clone();
    inner.ident = format_ident!("__bridge_call");
    let args = &f.args;
    let awaited = if f.catch {
        quote! { ::bridge_runtime::JsPromise::new(__promise?).await }
    } else {
        quote! { ::bridge_runtime::abi::await_or_throw(__promise).await }
    };
    // A declared result other than `JsValue`: the settled value converted by the second
    // import, as a sync import's result (`?` first under `Result`: a rejection is `Err`).
    let (convert, awaited) = match &f.settle {
        None => (None, awaited),
        Some(s) => {
            let convert = function(&s.import);
            let awaited = if f.catch {
                quote! { __bridge_settle(#awaited?) }
            } else {
                quote! { __bridge_settle(#awaited) }
            };
            (Some(convert), awaited)
        }
    };
    quote! {
        #(#attrs)*
        #vis #outer {
            #[allow(clippy::let_unit_value, clippy::unused_unit)]
            #inner {
                #body
            }
            #convert
            let __promise = __bridge_call(#(#args),*);
            async move { #awaited }
        }
    }
}

/// What the safe function passes the raw import for one parameter.
fn bind(bind: &Bind) -> TokenStream {
    match bind {
        Bind::Receiver => {
            quote! { ::core::convert::AsRef::<::bridge_runtime::JsValue>::as_ref(self) }
        }
        Bind::Lent(user) => {
            quote! { ::core::convert::AsRef::<::bridge_runtime::JsValue>::as_ref(#user) }
        }
        Bind::LentOrUndefined(user) => {
            quote! { ::bridge_runtime::JsValue::lent_or_undefined(#user) }
        }
        Bind::Value(user) => quote! { #user },
    }
}

/// The safe function's signature.
fn signature(f: &ImportFn) -> syn::Signature {
    match &f.sig {
        ImportSig::Declared {
            sig,
            receiver,
            returns_value,
        } => {
            let mut sig = safe_signature(sig, *receiver, &f.args);
            if *returns_value {
                sig.output = if f.catch {
                    syn::parse_quote! {
                        -> ::core::result::Result<::bridge_runtime::JsValue, ::bridge_runtime::JsError>
                    }
                } else {
                    syn::parse_quote! { -> ::bridge_runtime::JsValue }
                };
            }
            sig
        }
        ImportSig::Read(ty) => syn::parse_quote! { fn __bridge_read() -> #ty },
        ImportSig::InstanceOf => syn::parse_quote! {
            fn __bridge_instance_of(value: &::bridge_runtime::JsValue) -> bool
        },
        ImportSig::Settle(output) => syn::parse_quote! {
            fn __bridge_settle(value: ::bridge_runtime::JsValue) #output
        },
    }
}

/// The declared signature `sig` made the safe function's: no `async` (the safe function
/// returns a future), no `mut` and `ref` on its parameters, each `_` named after `args`,
/// and `&self` first when it has a `receiver`.
fn safe_signature(sig: &syn::Signature, receiver: bool, args: &[Ident]) -> syn::Signature {
    let mut rust_sig = sig.clone();
    rust_sig.asyncness = None;
    for (input, name) in rust_sig.inputs.iter_mut().zip(args) {
        // The body is generated, so `mut` and `ref` of the declaration have nothing to
        // act on (`ref` would even change the type the body lowers).
        if let syn::FnArg::Typed(t) = input {
            match &mut *t.pat {
                syn::Pat::Wild(_) => *t.pat = syn::parse_quote!(#name),
                syn::Pat::Ident(p) => {
                    p.by_ref = None;
                    p.mutability = None;
                }
                _ => {}
            }
        }
    }
    if receiver && let Some(first) = rust_sig.inputs.first_mut() {
        *first = syn::parse_quote!(&self);
    }
    rust_sig
}

/// `pub type T;`: the handle type, its conversions, its record and its `instanceof` check.
fn js_type(t: &JsType) -> TokenStream {
    let attrs = &t.attrs;
    let vis = &t.vis;
    let ident = &t.ident;
    let type_id = &t.type_id;
    let record = record::emit(&t.record);
    let rt = quote!(::bridge_runtime);
    // A structural type has no class: every value is one (as `unchecked_from`).
    let (check, check_record, is_instance, doc_try) = match &t.instance_of {
        Some(f) => (
            function(f),
            record::emit(&f.record),
            quote!(#ident::__bridge_instance_of(&value)),
            format!(
                "The value as a `{ident}` if it is an instance of the JS class `{}` \
                 (`instanceof`); else the value back in `Err`.",
                t.js_name
            ),
        ),
        None => (
            TokenStream::new(),
            TokenStream::new(),
            quote!(true),
            format!(
                "The value as a `{ident}`: a `structural` type has no JS class to check, so \
                 this never fails."
            ),
        ),
    };
    let traits = js_type_traits(ident, type_id, &doc_try, &is_instance);
    quote! {
        #(#attrs)*
        #[repr(transparent)]
        #[derive(Clone, PartialEq, Debug)]
        #vis struct #ident {
            obj: #rt::JsValue,
        }

        impl #ident {
            #check

            /// The value as this type without checking its class (a method called on a
            /// value of another class does what JS does: usually throws a `TypeError`).
            #[allow(dead_code)]
            #vis fn unchecked_from(value: #rt::JsValue) -> #ident {
                #ident { obj: value }
            }
        }

        const _: () = {
            #check_record
        };
        const _: () = {
            #record
        };

        #traits
    }
}

/// The traits of the handle type `ident`: a `JsValue` (`Deref`, `AsRef`, `From`,
/// `TryFrom` checked by `is_instance`, documented by `doc_try`), a bridge type of
/// `type_id`, crossing as its table entry and on the wire.
fn js_type_traits(
    ident: &Ident,
    type_id: &str,
    doc_try: &str,
    is_instance: &TokenStream,
) -> TokenStream {
    let mut out = js_value_traits(ident, doc_try, is_instance);
    out.extend(crossing_traits(ident, type_id));
    out
}

/// `ident` is a `JsValue`: `Deref`, `AsRef`, `From`, and `TryFrom` checked by
/// `is_instance` (documented by `doc_try`).
fn js_value_traits(ident: &Ident, doc_try: &str, is_instance: &TokenStream) -> TokenStream {
    let rt = quote!(::bridge_runtime);
    quote! {
        impl ::core::ops::Deref for #ident {
            type Target = #rt::JsValue;
            fn deref(&self) -> &#rt::JsValue {
                &self.obj
            }
        }

        impl ::core::convert::AsRef<#rt::JsValue> for #ident {
            fn as_ref(&self) -> &#rt::JsValue {
                &self.obj
            }
        }

        impl ::core::convert::From<#ident> for #rt::JsValue {
            fn from(value: #ident) -> #rt::JsValue {
                value.obj
            }
        }

        impl ::core::convert::TryFrom<#rt::JsValue> for #ident {
            type Error = #rt::JsValue;
            #[doc = #doc_try]
            fn try_from(value: #rt::JsValue) -> ::core::result::Result<#ident, #rt::JsValue> {
                if #is_instance {
                    ::core::result::Result::Ok(#ident { obj: value })
                } else {
                    ::core::result::Result::Err(value)
                }
            }
        }

    }
}

/// `ident` crosses as a bridge type of `type_id`: as its table entry, and on the wire.
fn crossing_traits(ident: &Ident, type_id: &str) -> TokenStream {
    let rt = quote!(::bridge_runtime);
    quote! {
        impl #rt::BridgeType for #ident {
            const TYPE_ID: &'static str = #type_id;
        }

        /// Crosses as its `JsValue` table entry (JS takes it).
        impl #rt::IntoJs for #ident {
            type Abi = u32;
            #[inline(always)]
            fn into_abi(self) -> u32 {
                self.obj.into_abi()
            }
        }

        /// The glue checked the class (`instanceof`) and made the entry this takes over.
        impl #rt::FromJs for #ident {
            type Abi = u32;
            #[inline(always)]
            unsafe fn from_abi(idx: u32) -> #ident {
                #ident { obj: #rt::JsValue::from_abi(idx) }
            }
        }

        impl #rt::wire::WireOut for #ident {
            #[inline]
            fn wire_write(self, w: &mut #rt::wire::WireBuf) {
                #rt::wire::WireOut::wire_write(self.obj, w)
            }
        }

        unsafe impl #rt::wire::WireIn for #ident {
            #[inline]
            unsafe fn wire_read(
                r: &mut #rt::wire::WireReader,
            ) -> #rt::abi::Result<#ident> {
                // SAFETY: forwarded contract (the glue checked the class when writing).
                ::core::result::Result::Ok(#ident {
                    obj: unsafe { <#rt::JsValue as #rt::wire::WireIn>::wire_read(r) }?,
                })
            }
        }
    }
}

/// `static NAME: T;`: a `JsStatic<T>` whose read calls the raw import once.
fn js_static(st: &JsStaticItem) -> TokenStream {
    let attrs = &st.attrs;
    let vis = &st.vis;
    let ident = &st.ident;
    let ty = &st.ty;
    let read = function(&st.read);
    let record = record::emit(&st.read.record);
    quote! {
        #(#attrs)*
        #vis static #ident: ::bridge_runtime::JsStatic<#ty> = ::bridge_runtime::JsStatic::new({
            #read
            __bridge_read
        });
        const _: () = {
            #record
        };
    }
}
