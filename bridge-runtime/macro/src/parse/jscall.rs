//! The checks of a call into JS (a `#[bridge] extern` import, a JS function passed to an
//! export): what each argument and the result can be, and how each crosses
//! ([`Lower`]/[`Lift`], after `bridge_schema::lowering`: its scalars, what is on the wire). Class handles are passed as `Handle<C>`, so they reach JS
//! through the class's identity hook exactly like a returned class.

use super::lifts;
use super::unsupported::{JS_PROMISE_ALONE, unsupported};
use crate::model::ty::{Arg, CallbackInfo, Carrier, Form, JsCall, Lift, Lower, TyInfo};
use bridge_schema::Ty;
use bridge_schema::lowering::{Scalar, Site, on_wire};
use syn::Type;

/// The carrier type of a user-type-carrying `info`.
fn carrier(info: &TyInfo) -> Carrier {
    info.carrier.clone().expect("user types have a carrier")
}

/// The call to the JS function `what` (for messages: `the JS import `log``) with
/// `params` (classified, and as written) and result `ret` (written `ret_ty`; `None` for
/// `()`), declared `-> Result<T, JsError>` if `catch`.
pub fn check(
    params: &[(&TyInfo, &Type)],
    ret: &TyInfo,
    ret_ty: Option<&Type>,
    catch: bool,
    what: &str,
) -> syn::Result<JsCall> {
    let mut args = Vec::new();
    for (info, ty) in params {
        args.push(Arg {
            ty: info.ty.clone(),
            lower: lower(info, ty, what)?,
            parts: lifts::parts(&info.ty, Site::JsArg, Some(ty))?,
        });
    }
    Ok(JsCall {
        args,
        arg_names: Vec::new(),
        ret: lift(ret, ret_ty, what)?,
        ret_ty: ret.ty.clone(),
        ret_part: lifts::result_part(&ret.ty, Site::JsResult, ret_ty)?,
        catch,
        what: what.to_string(),
    })
}

/// How the argument `info` (written `ty`) of the call to `what` is lowered.
fn lower(info: &TyInfo, ty: &Type, what: &str) -> syn::Result<Lower> {
    let bad = |why: &str| Err(unsupported(ty, &format!("{what} cannot take it: {why}")));
    if info.promise {
        return bad(JS_PROMISE_ALONE);
    }
    // An optional borrow would go on the wire, whose trait error speaks of records.
    if let Ty::Option(inner) = &info.ty
        && matches!(**inner, Ty::ClassRef(_) | Ty::ClassMut(_))
    {
        return bad(
            "JS gets no borrow of a #[bridge] class: pass `Option<Handle<C>>` (an \
             `Option<&T>` is lent only for `T` an imported JS class of the import's own \
             extern block)",
        );
    }
    Ok(match &info.ty {
        t if let Some(s) = Scalar::of(t) => Lower::Scalar(s),
        Ty::Str | Ty::String => Lower::Str,
        Ty::Named(_) => Lower::Named(carrier(info)),
        t if on_wire(t, Site::JsArg) => Lower::Wire,
        Ty::JsValue => Lower::JsValue,
        Ty::JsValueRef => Lower::JsValueRef,
        Ty::Option(inner) => lower_option(inner, info, ty)?,
        Ty::Callback(_) => {
            let cb = info.callback.as_deref().expect("a callback type");
            check_closure_signature(cb, ty)?;
            let closure = Box::new(lifts::rust_closure(cb)?);
            match cb.form {
                Form::Boxed | Form::Once => Lower::Closure(closure),
                // Lent for the call: JS's function stops working when it returns.
                Form::Ref | Form::Mut => Lower::Lent(closure),
            }
        }
        Ty::ClassRef(_) | Ty::ClassMut(_) => {
            return bad("pass a class as Handle<C> (JS may keep the object)");
        }
        _ => {
            return bad(
                "JS functions take what exports return (numbers, bool, char, strings, \
                 records, enums, Vec, Option, Handle<C>, JsValue), &str, &[number], \
                 &JsValue and Box<dyn Fn> closures",
            );
        }
    })
}

/// How an `Option` of `inner` that does not travel on the wire is lowered (`info`,
/// written `ty`, is the option).
fn lower_option(inner: &Ty, info: &TyInfo, ty: &Type) -> syn::Result<Lower> {
    Ok(match inner {
        t if let Some(s) = Scalar::of(t) => Lower::OptScalar(s),
        Ty::Str | Ty::String => Lower::OptStr,
        Ty::Named(_) => Lower::OptNamed(carrier(info)),
        // `None` is address 0: JS gets `null`.
        Ty::Callback(_) => {
            let cb = info.callback.as_deref().expect("a callback type");
            check_closure_signature(cb, ty)?;
            Lower::OptClosure(Box::new(lifts::rust_closure(cb)?))
        }
        _ => unreachable!("other options travel on the wire"),
    })
}

/// How the result `ret` (written `ret_ty`) of the call to `what` is lifted.
fn lift(ret: &TyInfo, ret_ty: Option<&Type>, what: &str) -> syn::Result<Lift> {
    let ret_bad = |why: &str| match ret_ty {
        Some(t) => Err(unsupported(t, &format!("{what} cannot return it: {why}"))),
        None => unreachable!("() is always supported"),
    };
    Ok(match &ret.ty {
        Ty::Unit => Lift::Unit,
        t if let Some(s) = Scalar::of(t) => Lift::Scalar(s),
        Ty::String => Lift::String,
        Ty::JsValue if ret.promise => Lift::JsPromise,
        Ty::JsValue => Lift::JsValue,
        Ty::Named(_) => Lift::Named(carrier(ret)),
        t if on_wire(t, Site::JsResult) && !ret.slice => {
            Lift::Wire(ret_ty.expect("a wire type is spelled").clone())
        }
        Ty::Option(inner) => match &**inner {
            t if let Some(s) = Scalar::of(t) => Lift::OptScalar(s),
            Ty::String => Lift::OptString,
            Ty::Named(_) => Lift::OptNamed(carrier(ret)),
            _ => return ret_bad("return an owned value (Option<String>, not Option<&str>)"),
        },
        Ty::Callback(_) => {
            return ret_bad(
                "a JS function returned to Rust is a JsValue (call it with JsValue::call)",
            );
        }
        _ => {
            return ret_bad(
                "JS functions return what exports take, owned (String, not &str; Handle<C>, \
                 not &C; Vec<T>, not &[T])",
            );
        }
    })
}

/// A callback type in return position is a Rust closure handed to JS: it must be boxed,
/// and its parameters and result cross like an export's (no `Result<_, JsError>`).
pub fn check_closure(info: &TyInfo, ty: &Type) -> syn::Result<()> {
    let cb = info.callback.as_deref().expect("a callback type");
    if !matches!(cb.form, Form::Boxed | Form::Once) {
        return Err(unsupported(
            ty,
            "a closure returned to JS is owned: return `Box<dyn Fn(A, ..) -> R>` or `Box<dyn FnMut(A, ..) -> R>`",
        ));
    }
    check_closure_signature(cb, ty)
}

/// What a Rust closure JS calls may take and return (its parameters and result cross
/// like an export's).
fn check_closure_signature(cb: &CallbackInfo, ty: &Type) -> syn::Result<()> {
    let why = if cb.ret.promise || cb.params.iter().any(|(p, _)| p.promise) {
        Some(JS_PROMISE_ALONE)
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
        Some(why) => Err(unsupported(ty, why)),
        None => Ok(()),
    }
}

/// `Result<T, JsError>`: the `T`, if `ty` is that.
pub fn result_of_js_error(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ty else { return None };
    let seg = p.path.segments.last()?;
    if seg.ident != "Result" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
        return None;
    };
    let mut args = a.args.iter();
    let (Some(syn::GenericArgument::Type(ok)), Some(syn::GenericArgument::Type(err)), None) =
        (args.next(), args.next(), args.next())
    else {
        return None;
    };
    matches!(err, Type::Path(e) if e.path.segments.last().is_some_and(|s| s.ident == "JsError"))
        .then_some(ok)
}
