//! `async fn` exports: what their signatures may be (owned parameters, an owned
//! `this: Handle<Self>` receiver) and the start thunk that turns an export into a task
//! (`bridge_runtime::abi::start_task`) with a finish thunk that hands JS its output
//! (`finish_task`), so the output crosses exactly as a sync return would.

use super::attrs::MemberRole;
use super::position::Position;
use super::types::{self, is_handle, names_self};
use crate::model::refs::TypeRefs;
use crate::model::thunk::{AsyncHelpers, AsyncParts, Callee, Receiver, ThunkSpec};
use crate::model::ty::plain;
use crate::model::ty::{ResultLift, ThunkParam};
use bridge_schema::{Scalar, Ty};
use proc_macro2::{TokenStream, TokenTree};
use quote::{ToTokens, format_ident};
use syn::{FnArg, Signature, Type};

/// The receiver of an async member: none (a static) or an owned `this: Handle<Self>`.
pub fn receiver(
    sig: &Signature,
    self_ty: &Type,
    class: &str,
    role: MemberRole,
) -> syn::Result<Receiver> {
    let name = &sig.ident;
    if role != MemberRole::Plain {
        return Err(syn::Error::new_spanned(
            sig.asyncness,
            format!(
                "`{class}::{name}` is async, but a constructor, getter or setter must return \
                 its value at once: make it a plain method (it then returns a Promise)"
            ),
        ));
    }
    match sig.inputs.first() {
        Some(FnArg::Receiver(r)) if r.reference.is_none() && r.colon_token.is_none() => {
            Err(syn::Error::new_spanned(
                r,
                format!(
                    "async method `{class}::{name}` takes `self` by value, which an async \
                     method cannot yet: take `this: Handle<Self>` (the future keeps the object \
                     and JS its wrapper), or make the method sync to move the object out of JS"
                ),
            ))
        }
        Some(FnArg::Receiver(r)) => Err(syn::Error::new_spanned(
            r,
            format!(
                "async method `{class}::{name}` takes `self` by reference: its borrow would be \
                 held across every `.await`, while JS runs and may call the object's other \
                 methods; take `this: Handle<Self>` instead (an owned handle the future keeps) \
                 and borrow it between awaits (`this.borrow()`, `this.borrow_mut()`)"
            ),
        )),
        Some(FnArg::Typed(t)) if handle_of_self(&t.ty, self_ty) => Ok(Receiver::Handle),
        Some(FnArg::Typed(t)) if matches!(&*t.ty, Type::Reference(r) if handle_of_self(&r.elem, self_ty)) => {
            Err(syn::Error::new_spanned(
                &t.ty,
                format!(
                    "async method `{class}::{name}` takes `this: &Handle<Self>`: the future \
                     outlives the call, so it must own its handle: take `this: Handle<Self>`"
                ),
            ))
        }
        _ => Ok(Receiver::None),
    }
}

fn handle_of_self(ty: &Type, self_ty: &Type) -> bool {
    types::classify(
        ty,
        Some(self_ty),
        Position::Return,
        &mut TypeRefs::default(),
    )
    .map(|info| is_handle(&info) && names_self(&info, self_ty))
    .unwrap_or(false)
}

/// An async function's parameters (after the receiver's `skip`) are owned.
pub fn check_params(sig: &Signature, skip: usize) -> syn::Result<()> {
    if sig.asyncness.is_none() {
        return Ok(());
    }
    for arg in sig.inputs.iter().skip(skip) {
        let FnArg::Typed(t) = arg else { continue };
        if has_reference(t.ty.to_token_stream()) {
            return Err(syn::Error::new_spanned(
                &t.ty,
                format!(
                    "`{}` is async, so its parameters must be owned: the future outlives the \
                     call, and JS may change or free a lent value meanwhile. Take `String` for \
                     `&str`, `Vec<T>` for `&[T]`, `Handle<C>` for `&C` or `&mut C`, `JsValue` \
                     for `&JsValue`; a JS function (`&dyn Fn`) cannot be kept: take it as a \
                     `JsValue` and call it with `JsValue::call`",
                    sig.ident
                ),
            ));
        }
    }
    Ok(())
}

/// An async function's result crosses when its task ends; a Rust closure cannot yet.
pub fn check_return(sig: &Signature, ret: &crate::model::ty::TyInfo) -> syn::Result<()> {
    let iterator = match &ret.ty {
        bridge_schema::Ty::Result(ok, _) => &**ok,
        ty => ty,
    };
    if sig.asyncness.is_some() && matches!(iterator, bridge_schema::Ty::Iterator(_)) {
        return Err(syn::Error::new_spanned(
            &sig.output,
            format!(
                "`{}` is async and returns an iterator, which cannot cross through a Promise \
                 yet: return a `Vec<T>` of the items, or make it sync",
                sig.ident
            ),
        ));
    }
    if sig.asyncness.is_some() && ret.callback.is_some() {
        return Err(syn::Error::new_spanned(
            &sig.output,
            format!(
                "`{}` is async and returns a Rust closure, which cannot cross through a \
                 Promise yet: return a class holding the closure's state, or make it sync",
                sig.ident
            ),
        ));
    }
    Ok(())
}

fn has_reference(tokens: TokenStream) -> bool {
    tokens.into_iter().any(|t| match t {
        TokenTree::Punct(p) => p.as_char() == '&',
        TokenTree::Group(g) => has_reference(g.stream()),
        _ => false,
    })
}

/// The sync thunk `spec` of an async function made its start thunk (same parameters,
/// returning the task id), with the finish thunk and both helpers.
pub fn start_thunk(spec: ThunkSpec, sig: &Signature, self_ty: Option<&Type>) -> ThunkSpec {
    let ident = &spec.ident;
    let start = format_ident!("{}_async_start", ident);
    let finish = format_ident!("{}_async_finish", ident);
    let typed: Vec<&syn::PatType> = sig
        .inputs
        .iter()
        .filter_map(|a| match a {
            FnArg::Typed(t) => Some(t),
            FnArg::Receiver(_) => None,
        })
        .collect();
    let (this, rest) = match spec.receiver {
        Receiver::Handle => (Some(typed[0]), &typed[1..]),
        _ => (None, &typed[..]),
    };
    let helpers = AsyncHelpers {
        start: start.clone(),
        finish: finish.clone(),
        callee: spec.callee.clone(),
        this: this.map(|t| (*t.ty).clone()),
        params: rest.iter().map(|t| (*t.ty).clone()).collect(),
        output: sig.output.clone(),
        self_ty: self_ty.cloned(),
    };
    let finish_spec = ThunkSpec {
        symbol: bridge_schema::async_finish_export(&spec.symbol),
        ident: format_ident!("{}_finish", ident),
        callee: Callee::Named(finish.clone()),
        class: spec.class.clone(),
        member: spec.member.clone(),
        as_written: spec.as_written.clone(),
        receiver: Receiver::None,
        params: vec![ThunkParam::scalar("task", Scalar::U32)],
        moves: false,
        ret: spec.ret.clone(),
        lower: spec.lower,
        asynchronous: None,
        refuses_released: false,
    };
    ThunkSpec {
        callee: Callee::Named(start.clone()),
        ret: plain(Ty::Scalar(Scalar::U32)),
        lower: ResultLift::scalar(Scalar::U32),
        asynchronous: Some(Box::new(AsyncParts {
            finish: finish_spec,
            helpers,
        })),
        ..spec
    }
}
