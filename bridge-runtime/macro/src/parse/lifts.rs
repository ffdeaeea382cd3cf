//! How a thunk lifts each parameter ([`ParamLift`]), decided where the parameter is
//! classified, so generate only matches what parse accepted.

use super::unsupported::unsupported;
use crate::model::ty::{CallbackInfo, TyInfo};
use crate::model::ty::{
    Elem, OptLift, ParamHow, ParamLift, ResultLift, ResultValue, RustClosure, ThunkParam,
};
use bridge_schema::lowering::{self, Part, Scalar, Site};
use bridge_schema::{Hold, Ty};
use proc_macro2::Span;
use syn::Type;

/// The parameter `js_name` of a thunk, classified as `info` (written `ty`).
pub fn thunk_param(js_name: String, info: TyInfo, ty: &Type) -> syn::Result<ThunkParam> {
    let how = param(&info, ty)?;
    let parts = parts(&info.ty, Site::ExportParam, Some(ty))?;
    Ok(ThunkParam {
        js_name,
        info,
        how,
        parts,
    })
}

/// The wasm values `ty` (written `written`) crosses as at `site`.
pub fn parts(ty: &Ty, site: Site, written: Option<&Type>) -> syn::Result<Vec<Part>> {
    lowering::parts(ty, site).ok_or_else(|| refused(written, "it cannot cross here"))
}

/// The one wasm value a result `ty` (written `written`) is returned as at `site`, if it
/// is not in the return area (or `()`).
pub fn result_part(ty: &Ty, site: Site, written: Option<&Type>) -> syn::Result<Option<Part>> {
    match parts(ty, site, written)?[..] {
        [] => Ok(None),
        [part] => Ok(Some(part)),
        _ => Err(refused(written, "a result is at most one wasm value")),
    }
}

/// `why` a type (written `written`; `None`: the expansion's own) is refused.
fn refused(written: Option<&Type>, why: &str) -> syn::Error {
    match written {
        Some(ty) => unsupported(ty, why),
        None => syn::Error::new(Span::call_site(), why),
    }
}

/// A JS function, or how the value `info` (written `ty`) is lifted.
fn param(info: &TyInfo, ty: &Type) -> syn::Result<ParamHow> {
    if let Some(cb) = &info.callback {
        return Ok(ParamHow::Function(cb.clone()));
    }
    match lift(&info.ty) {
        Some(lift) => Ok(ParamHow::Lift(lift)),
        None => Err(unsupported(ty, "it cannot be a parameter")),
    }
}

/// How a value of `ty` is lifted, if it can be a parameter: the lowering table's first
/// (a flat tuple, the wire, a scalar), then the type's own.
fn lift(ty: &Ty) -> Option<ParamLift> {
    Some(match ty {
        t if lowering::flat_tuple(t).is_some() => ParamLift::Flat,
        t if t.travels_on_wire() => ParamLift::Wire,
        t if let Some(s) = Scalar::of(t) => ParamLift::Scalar(s),
        Ty::String => ParamLift::Str { borrowed: false },
        Ty::Str => ParamLift::Str { borrowed: true },
        Ty::ClassRef(_) => ParamLift::ClassRef,
        Ty::ClassMut(_) => ParamLift::ClassMut,
        Ty::Named(_) => ParamLift::Named,
        Ty::JsValue => ParamLift::JsValue,
        Ty::JsValueRef => ParamLift::JsValueRef,
        Ty::Vec(inner) => ParamLift::Vec(match &**inner {
            Ty::Named(_) => Elem::Named,
            number => Elem::Number(Scalar::of(number)?),
        }),
        Ty::SliceMut(inner) => ParamLift::SliceMut(Scalar::of(inner)?),
        Ty::Option(inner) => ParamLift::Optional(match &**inner {
            t if let Some(s) = Scalar::of(t) => OptLift::Scalar(s),
            Ty::String => OptLift::Str { borrowed: false },
            Ty::Str => OptLift::Str { borrowed: true },
            Ty::ClassRef(_) => OptLift::ClassRef,
            Ty::ClassMut(_) => OptLift::ClassMut,
            Ty::Named(_) => OptLift::Named,
            _ => return None,
        }),
        _ => return None,
    })
}

/// The Rust closure `cb` (its signature checked by `jscall::check_closure_signature`)
/// with its call thunk's parameters.
pub fn rust_closure(cb: &CallbackInfo) -> syn::Result<RustClosure> {
    let params = cb
        .params
        .iter()
        .enumerate()
        .map(|(i, (info, written))| thunk_param(format!("a{i}"), info.clone(), written))
        .collect::<syn::Result<_>>()?;
    Ok(RustClosure {
        info: cb.clone(),
        params,
        lower: result(&cb.ret, cb.ret_ty.as_ref())?,
    })
}

/// How a thunk lowers the result `info` (written `ty`; `None`: `()`).
pub fn result(info: &TyInfo, ty: Option<&Type>) -> syn::Result<ResultLift> {
    let value = match &info.ty {
        Ty::Result(ok, _) => ok,
        other => other,
    };
    match result_value(value) {
        Some(lowered) => Ok(ResultLift {
            into_vec: info.boxed && matches!(value, Ty::Vec(_)),
            value: lowered,
            part: result_part(&info.ty, Site::ExportResult, ty)?,
        }),
        None => Err(refused(ty, "it cannot be a result")),
    }
}

/// How a value of `ty` (not a `Result`) is lowered, if it can be a result: the lowering
/// table's first (a flat tuple, the wire), then the type's own.
fn result_value(ty: &Ty) -> Option<ResultValue> {
    Some(match ty {
        t if lowering::flat_tuple(t).is_some() => ResultValue::Flat,
        t if t.travels_on_wire() => ResultValue::Wire,
        Ty::View(_) => ResultValue::View,
        Ty::Unit => ResultValue::Unit,
        Ty::Scalar(s) => ResultValue::Scalar(*s),
        Ty::String => ResultValue::String,
        Ty::JsValue => ResultValue::JsValue,
        Ty::Callback(cb) => ResultValue::Closure {
            once: cb.hold == Hold::Once,
        },
        Ty::Iterator(_) => ResultValue::Iterator,
        Ty::Named(_) => ResultValue::Named,
        Ty::Option(inner) => match &**inner {
            Ty::Scalar(s) => ResultValue::OptScalar(*s),
            Ty::String => ResultValue::OptString,
            Ty::Named(_) => ResultValue::OptNamed,
            _ => return None,
        },
        Ty::Vec(inner) => ResultValue::Vec {
            named: matches!(**inner, Ty::Named(_)),
        },
        _ => return None,
    })
}

/// The closure or iterator a result `info` is, if it is one.
pub fn returned(info: &TyInfo) -> syn::Result<Option<Box<RustClosure>>> {
    match (&info.ty, &info.callback) {
        (Ty::Callback(_), Some(cb)) => Ok(Some(Box::new(rust_closure(cb)?))),
        _ => Ok(None),
    }
}
