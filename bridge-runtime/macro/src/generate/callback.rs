//! JS functions passed to exports: `&dyn Fn(A, ..) -> R` and `&mut dyn FnMut(A, ..) -> R`
//! (valid for the call), and `Box<dyn Fn(A, ..) -> R>` / `Box<dyn FnMut(..) -> R>`, which
//! Rust may keep (an observer list): the box owns the JS function's table entry and frees
//! it on `Drop`.
//!
//! The JS function crosses as a `JsValue` table index; the thunk wraps it in a Rust closure
//! that calls a per-parameter trampoline import the glue generates from the record (see
//! `bridge_schema::callback_symbol`), so arguments and results are typed, not `JsValue`s.

use super::jscall;
use crate::model::ty::{CallbackInfo, Form};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// The names of a function type's arguments in the code calling it.
pub fn arg_names(info: &CallbackInfo) -> Vec<Ident> {
    (0..info.params.len())
        .map(|i| format_ident!("__arg{}", i))
        .collect()
}

/// The thunk's prelude for a callback parameter `name` (a table index on the wasm side):
/// binds `name` to the Rust closure, and returns the argument expression. `items` are
/// the exports of the Rust closures the call passes to JS.
pub fn lift_param(
    name: &Ident,
    info: &CallbackInfo,
    symbol: &str,
    items: &TokenStream,
    optional: bool,
) -> (TokenStream, TokenStream) {
    let arg_names = arg_names(info);
    let call = jscall::build(&info.call, &arg_names);
    let raw = format_ident!("__bridge_cb_{}", name);
    let module = bridge_schema::JS_IMPORT_MODULE;
    let declare = call.declare(&raw, module, symbol, &[quote! { f: u32 }]);
    let held = format_ident!("{}_fn", name);
    let arg_tys = info.params.iter().map(|(_, t)| t);
    let ret = match &info.ret_ty {
        Some(t) if info.catch => {
            quote! { -> ::core::result::Result<#t, ::bridge_runtime::JsError> }
        }
        Some(t) => quote! { -> #t },
        None => quote! {},
    };
    let invoke = call.invoke(&raw, &[quote! { #held.abi() }], items);
    let closure = quote! {
        move |#(#arg_names: #arg_tys),*| #ret { #invoke }
    };
    let dyn_ty = &info.dyn_ty;
    if optional {
        // `Option<..>`: JS passed `null`/`undefined` as index 0 (`undefined`'s entry,
        // never a function's).
        let prelude = match info.form {
            Form::Ref | Form::Mut => quote! {
                #declare
                let #held = (#name != 0).then(|| ::bridge_runtime::JsValue::from_abi(#name));
                #[allow(unused_mut)]
                let mut #name = #held.as_ref().map(|#held| #closure);
            },
            Form::Boxed | Form::Once => quote! {
                #declare
                let #name: ::core::option::Option<::std::boxed::Box<#dyn_ty>> = (#name != 0)
                    .then(|| {
                        let #held = ::bridge_runtime::JsValue::from_abi(#name);
                        ::std::boxed::Box::new(#closure) as ::std::boxed::Box<#dyn_ty>
                    });
            },
        };
        let arg = match info.form {
            Form::Ref => quote! { #name.as_ref().map(|f| f as &#dyn_ty) },
            Form::Mut => quote! { #name.as_mut().map(|f| f as &mut #dyn_ty) },
            Form::Boxed | Form::Once => quote! { #name },
        };
        return (prelude, arg);
    }
    let prelude = match info.form {
        Form::Ref | Form::Mut => quote! {
            #declare
            let #held = ::bridge_runtime::JsValue::from_abi(#name);
            #[allow(unused_mut)]
            let mut #name = {
                let #held = &#held;
                #closure
            };
        },
        Form::Boxed | Form::Once => quote! {
            #declare
            let #held = ::bridge_runtime::JsValue::from_abi(#name);
            let #name: ::std::boxed::Box<#dyn_ty> = ::std::boxed::Box::new(#closure);
        },
    };
    let arg = match info.form {
        Form::Ref => quote! { &#name },
        Form::Mut => quote! { &mut #name },
        Form::Boxed | Form::Once => quote! { #name },
    };
    (prelude, arg)
}
