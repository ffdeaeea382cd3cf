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
    let held = format_ident!("{}_fn", name);
    let (declare, closure) = closure(name, &held, info, symbol, items);
    let parts = Parts {
        name,
        held: &held,
        dyn_ty: &info.dyn_ty,
        declare: &declare,
        closure: &closure,
    };
    if optional {
        return (
            parts.optional_prelude(info.form),
            parts.optional_arg(info.form),
        );
    }
    (parts.prelude(info.form), parts.arg(info.form))
}

/// The raw import calling the JS function (held in `held`) of the parameter `name`, and
/// the Rust closure calling it.
fn closure(
    name: &Ident,
    held: &Ident,
    info: &CallbackInfo,
    symbol: &str,
    items: &TokenStream,
) -> (TokenStream, TokenStream) {
    let arg_names = arg_names(info);
    let call = jscall::build(&info.call, &arg_names);
    let raw = format_ident!("__bridge_cb_{}", name);
    let module = bridge_schema::JS_IMPORT_MODULE;
    let declare = call.declare(&raw, module, symbol, &[quote! { f: u32 }]);
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
    (declare, closure)
}

/// What a callback parameter's prelude is made of.
struct Parts<'a> {
    /// The parameter.
    name: &'a Ident,
    /// The binding of the JS function's `JsValue`.
    held: &'a Ident,
    /// The trait object type (`dyn Fn(u32) -> bool`).
    dyn_ty: &'a syn::Type,
    /// The raw import's declaration.
    declare: &'a TokenStream,
    /// The Rust closure calling the JS function.
    closure: &'a TokenStream,
}

impl Parts<'_> {
    /// The prelude of a function type: the closure over the JS function, lent or boxed.
    fn prelude(&self, form: Form) -> TokenStream {
        let Parts {
            name,
            held,
            dyn_ty,
            declare,
            closure,
        } = self;
        match form {
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
        }
    }

    /// The argument the prelude's closure is passed as.
    fn arg(&self, form: Form) -> TokenStream {
        let name = self.name;
        match form {
            Form::Ref => quote! { &#name },
            Form::Mut => quote! { &mut #name },
            Form::Boxed | Form::Once => quote! { #name },
        }
    }

    /// The prelude of `Option<..>` of a function type: JS passed `null`/`undefined` as
    /// index 0 (`undefined`'s entry, never a function's).
    fn optional_prelude(&self, form: Form) -> TokenStream {
        let Parts {
            name,
            held,
            dyn_ty,
            declare,
            closure,
        } = self;
        match form {
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
        }
    }

    /// The argument the optional prelude's closure is passed as.
    fn optional_arg(&self, form: Form) -> TokenStream {
        let Parts { name, dyn_ty, .. } = self;
        match form {
            Form::Ref => quote! { #name.as_ref().map(|f| f as &#dyn_ty) },
            Form::Mut => quote! { #name.as_mut().map(|f| f as &mut #dyn_ty) },
            Form::Boxed | Form::Once => quote! { #name },
        }
    }
}
