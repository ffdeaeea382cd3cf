//! JS functions passed to exports: `&dyn Fn(A, ..) -> R` and `&mut dyn FnMut(A, ..) -> R`
//! (valid for the call), and `Box<dyn Fn(A, ..) -> R>` / `Box<dyn FnMut(..) -> R>`, which
//! Rust may keep (an observer list): the box owns the JS function's table entry and frees
//! it on `Drop`.
//!
//! The JS function crosses as a `JsValue` table index; the thunk wraps it in a Rust closure
//! that calls a per-parameter trampoline import the glue generates from the record (see
//! `bridge_schema::callback_symbol`), so arguments and results are typed, not `JsValue`s.

use crate::jscall::{self, JsCall};
use crate::record::TypeRefs;
use crate::types::{self, TyInfo};
use bridge_schema::{Callback, Ty};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use syn::{PathArguments, ReturnType, Type, TypeParamBound};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `&dyn Fn`
    Ref,
    /// `&mut dyn FnMut`
    Mut,
    /// `Box<dyn Fn>` / `Box<dyn FnMut>`
    Boxed,
}

#[derive(Clone)]
pub struct CallbackInfo {
    pub form: Form,
    /// The trait object type (`dyn Fn(u32) -> bool`).
    pub dyn_ty: Type,
    pub params: Vec<(TyInfo, Type)>,
    pub ret: TyInfo,
    pub ret_ty: Option<Type>,
    pub catch: bool,
}

const SHAPES: &str = "JS functions are taken as `&dyn Fn(A, ..) -> R`, \
`&mut dyn FnMut(A, ..) -> R` or `Box<dyn Fn(A, ..) -> R>`";

/// Classify the trait object `dyn_ty` (the whole type is `ty`).
pub fn classify(
    ty: &Type,
    dyn_ty: &Type,
    form: Form,
    self_ty: Option<&Type>,
    refs: &mut TypeRefs,
) -> syn::Result<TyInfo> {
    let bad = |why: &str| Err(types::unsupported(ty, &format!("{why}; {SHAPES}")));
    let Type::TraitObject(obj) = dyn_ty else {
        return bad("not a function type");
    };
    let mut sig = None;
    for bound in &obj.bounds {
        match bound {
            TypeParamBound::Trait(t) => {
                let seg = t.path.segments.last().expect("a segment");
                if sig.is_some() || !(seg.ident == "Fn" || seg.ident == "FnMut") {
                    return bad("only one `Fn` or `FnMut` bound (plus lifetimes) is supported");
                }
                if seg.ident == "FnMut" && form == Form::Ref {
                    return bad("a `&dyn FnMut` cannot be called: take `&mut dyn FnMut`");
                }
                let PathArguments::Parenthesized(args) = &seg.arguments else {
                    return bad("expected `Fn(A, ..) -> R`");
                };
                sig = Some(args);
            }
            TypeParamBound::Lifetime(_) => {}
            _ => return bad("unsupported bound"),
        }
    }
    let Some(args) = sig else {
        return bad("expected an `Fn` or `FnMut` bound");
    };
    let mut params = Vec::new();
    for input in &args.inputs {
        let info = types::classify_in(input, self_ty, refs)?;
        params.push((info, input.clone()));
    }
    let (ret, ret_ty, catch) = match &args.output {
        ReturnType::Default => (types::plain(Ty::Unit), None, false),
        ReturnType::Type(_, t) => match jscall::result_of_js_error(t) {
            Some(ok) => (
                types::classify_in(ok, self_ty, refs)?,
                Some(ok.clone()),
                true,
            ),
            None => (
                types::classify_in(t, self_ty, refs)?,
                Some((**t).clone()),
                false,
            ),
        },
    };
    let schema = Callback {
        params: params.iter().map(|(i, _)| i.ty.clone()).collect(),
        ret: Box::new(ret.ty.clone()),
        catch,
        names: Vec::new(),
    };
    let info = CallbackInfo {
        form,
        dyn_ty: dyn_ty.clone(),
        params,
        ret,
        ret_ty,
        catch,
    };
    // Check the signature now, so the error points at the parameter's type.
    call_of(&info, "a JS callback", "", "__bridge_check")?;
    Ok(TyInfo {
        callback: Some(Box::new(info)),
        ..types::plain(Ty::Callback(schema))
    })
}

/// The call into JS of a callback whose trampoline import is `symbol`.
fn call_of(info: &CallbackInfo, what: &str, symbol: &str, prefix: &str) -> syn::Result<JsCall> {
    let names: Vec<Ident> = (0..info.params.len())
        .map(|i| format_ident!("__arg{}", i))
        .collect();
    let params: Vec<(Ident, TyInfo, &Type)> = info
        .params
        .iter()
        .zip(&names)
        .map(|((i, t), n)| (n.clone(), i.clone(), t))
        .collect();
    jscall::build(
        &params,
        &info.ret,
        info.ret_ty.as_ref(),
        info.catch,
        what,
        symbol,
        prefix,
    )
}

/// The thunk's prelude for a callback parameter `name` (a table index on the wasm side):
/// binds `name` to the Rust closure, and returns the argument expression.
pub fn lift_param(name: &Ident, info: &CallbackInfo, symbol: &str) -> (TokenStream, TokenStream) {
    let call =
        call_of(info, "a JS callback", symbol, &name.to_string()).expect("checked by classify");
    let raw = format_ident!("__bridge_cb_{}", name);
    let module = bridge_schema::JS_IMPORT_MODULE;
    let declare = call.declare(&raw, module, symbol, &[quote! { f: u32 }]);
    let held = format_ident!("{}_fn", name);
    let arg_names: Vec<Ident> = (0..info.params.len())
        .map(|i| format_ident!("__arg{}", i))
        .collect();
    let arg_tys = info.params.iter().map(|(_, t)| t);
    let ret = match &info.ret_ty {
        Some(t) if info.catch => {
            quote! { -> ::core::result::Result<#t, ::bridge_runtime::JsError> }
        }
        Some(t) => quote! { -> #t },
        None => quote! {},
    };
    let invoke = call.invoke(&raw, &[quote! { #held.abi() }]);
    let closure = quote! {
        move |#(#arg_names: #arg_tys),*| #ret { #invoke }
    };
    let dyn_ty = &info.dyn_ty;
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
        Form::Boxed => quote! {
            #declare
            let #held = ::bridge_runtime::JsValue::from_abi(#name);
            let #name: ::std::boxed::Box<#dyn_ty> = ::std::boxed::Box::new(#closure);
        },
    };
    let arg = match info.form {
        Form::Ref => quote! { &#name },
        Form::Mut => quote! { &mut #name },
        Form::Boxed => quote! { #name },
    };
    (prelude, arg)
}

/// A callback type in return position is a Rust closure handed to JS: it must be boxed,
/// and its parameters and result cross like an export's (no `Result<_, JsError>`).
pub fn check_closure(info: &TyInfo, ty: &Type) -> syn::Result<()> {
    let cb = info.callback.as_deref().expect("a callback type");
    let why = if cb.form != Form::Boxed {
        Some(
            "a closure returned to JS is owned: return `Box<dyn Fn(A, ..) -> R>` or `Box<dyn FnMut(A, ..) -> R>`",
        )
    } else if cb.catch {
        Some("a Rust closure called from JS does not return `Result<_, JsError>`: return the value")
    } else if cb
        .params
        .iter()
        .any(|(p, _)| p.callback.is_some() || matches!(p.ty, Ty::Unit))
    {
        Some("a Rust closure returned to JS cannot take a function or `()`")
    } else if cb.ret.callback.is_some()
        || matches!(
            cb.ret.ty,
            Ty::Str | Ty::ClassRef(_) | Ty::ClassMut(_) | Ty::JsValueRef
        )
    {
        Some("a Rust closure returned to JS cannot return a reference or a function")
    } else {
        None
    };
    match why {
        Some(why) => Err(types::unsupported(ty, why)),
        None => Ok(()),
    }
}

/// The extra exports of an export `symbol` returning a Rust closure: `#closure-call`
/// (the closure's address, then its parameters, lifted like an export's; its result
/// lowered like an export's) and `#closure-drop`.
/// `label` names the closure in error messages.
pub fn closure_exports(
    symbol: &str,
    ident: &Ident,
    info: &CallbackInfo,
    label: &str,
) -> TokenStream {
    let dyn_ty = &info.dyn_ty;
    let helper = format_ident!("{}_closure_invoke", ident);
    let arg_names: Vec<Ident> = (0..info.params.len())
        .map(|i| format_ident!("__arg{}", i))
        .collect();
    let arg_tys = info.params.iter().map(|(_, t)| t);
    let ret = match &info.ret_ty {
        Some(t) => quote! { -> #t },
        None => quote! {},
    };
    let mut params = vec![("closure".to_string(), types::plain(Ty::U32))];
    params.extend(
        info.params
            .iter()
            .enumerate()
            .map(|(i, (p, _))| (format!("a{i}"), p.clone())),
    );
    let call = crate::thunk::generate(&crate::thunk::ThunkSpec {
        symbol: bridge_schema::closure_call_export(symbol),
        ident: format_ident!("{}_closure_call", ident),
        callee: quote! { #helper },
        class: None,
        member: label.to_string(),
        receiver: crate::thunk::Receiver::None,
        params,
        ret: info.ret.clone(),
    });
    let drop_symbol = bridge_schema::closure_drop_export(symbol);
    let drop_ident = format_ident!("{}_closure_drop", ident);
    quote! {
        #[allow(non_snake_case, clippy::all)]
        fn #helper(__closure: u32, #(#arg_names: #arg_tys),*) #ret {
            // SAFETY: the glue passes the address `into_abi` gave for this export's
            // closure type, while it is live, and never while the closure runs.
            let __f = unsafe { ::bridge_runtime::js::closure::get::<#dyn_ty>(__closure) };
            __f(#(#arg_names),*)
        }
        #call
        #[unsafe(export_name = #drop_symbol)]
        #[allow(non_snake_case, clippy::all)]
        unsafe extern "C" fn #drop_ident(addr: u32) {
            // SAFETY: as above; the glue frees each closure once.
            unsafe { ::bridge_runtime::js::closure::free::<#dyn_ty>(addr) }
        }
    }
}

/// The parameter names of the closure `body` returns (its tail expression, through
/// `Box::new(..)`, `Ok(..)` or `Some(..)`), camelCased; empty if it returns none.
pub fn returned_closure_names(body: &syn::Block, arity: usize) -> Vec<String> {
    let Some(syn::Stmt::Expr(tail, None)) = body.stmts.last() else {
        return Vec::new();
    };
    let mut e: &syn::Expr = tail;
    loop {
        e = match e {
            syn::Expr::Return(r) => match &r.expr {
                Some(inner) => inner,
                None => return Vec::new(),
            },
            syn::Expr::Paren(p) => &p.expr,
            syn::Expr::Call(c) if c.args.len() == 1 => &c.args[0],
            syn::Expr::Closure(c) if c.inputs.len() == arity => {
                return c.inputs.iter().map(pattern_name).collect();
            }
            _ => return Vec::new(),
        };
    }
}

/// The names a callback parameter `param` of `body` is first called with
/// (`f(index, &label)`: `index`, `label`), camelCased; empty if it is never called with
/// any plain names.
pub fn call_argument_names(body: &syn::Block, param: &Ident, arity: usize) -> Vec<String> {
    struct Calls<'a> {
        param: &'a Ident,
        arity: usize,
        found: Option<Vec<String>>,
    }
    impl<'ast> syn::visit::Visit<'ast> for Calls<'_> {
        fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
            if self.found.is_none()
                && call.args.len() == self.arity
                && matches!(&*call.func, syn::Expr::Path(p) if p.path.is_ident(self.param))
            {
                let names: Vec<String> = call.args.iter().map(argument_name).collect();
                if names.iter().any(|n| !n.is_empty()) {
                    self.found = Some(names);
                }
            }
            syn::visit::visit_expr_call(self, call);
        }
    }
    let mut calls = Calls {
        param,
        arity,
        found: None,
    };
    syn::visit::Visit::visit_block(&mut calls, body);
    calls.found.unwrap_or_default()
}

/// The name an argument expression shows: `x`, `&x`, `*x`, `x.clone()`, `self.x`.
fn argument_name(e: &syn::Expr) -> String {
    match e {
        syn::Expr::Path(p) => p.path.get_ident().map(js_param_name).unwrap_or_default(),
        syn::Expr::Reference(r) => argument_name(&r.expr),
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => argument_name(&u.expr),
        syn::Expr::Paren(p) => argument_name(&p.expr),
        syn::Expr::MethodCall(m) if m.args.is_empty() => argument_name(&m.receiver),
        syn::Expr::Field(f) => match &f.member {
            syn::Member::Named(n) => js_param_name(n),
            syn::Member::Unnamed(_) => String::new(),
        },
        _ => String::new(),
    }
}

fn pattern_name(p: &syn::Pat) -> String {
    match p {
        syn::Pat::Ident(i) => js_param_name(&i.ident),
        syn::Pat::Type(t) => pattern_name(&t.pat),
        _ => String::new(),
    }
}

/// A parameter's JS name, as for exports (`_unused` → `unused`, `r#type` → `type`).
fn js_param_name(ident: &Ident) -> String {
    use syn::ext::IdentExt;
    crate::attrs::camel_case(ident.unraw().to_string().trim_start_matches('_'))
}
