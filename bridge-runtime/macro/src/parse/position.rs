//! Where a classified type may stand: what only a parameter can be (a borrow, a JS
//! function), what a return or a record field must be (owned).

use super::jscall;
use super::unsupported::{JS_PROMISE_ALONE, unsupported};
use crate::model::ty::TyInfo;
use bridge_schema::Ty;
use syn::Type;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Position {
    Param,
    Return,
    /// A field of a record or enum variant (crosses both ways, owned).
    Field,
}

/// `info` (spelled `ty`) in position `pos`.
pub fn check(info: &TyInfo, ty: &Type, pos: Position) -> syn::Result<()> {
    let param_only = |t: &Ty| {
        matches!(
            t,
            Ty::Str | Ty::ClassRef(_) | Ty::ClassMut(_) | Ty::JsValueRef | Ty::Callback(_)
        )
    };
    if info.promise {
        return Err(unsupported(ty, JS_PROMISE_ALONE));
    }
    match (&info.ty, pos) {
        (Ty::Callback(_), Position::Return) => jscall::check_closure(info, ty),
        (Ty::Option(t), Position::Return) if matches!(**t, Ty::Callback(_)) => Err(unsupported(
            ty,
            "an optional closure is a parameter or an import's argument, not a result: \
             return `Box<dyn Fn(A, ..) -> R>` (or a `JsValue`, null for none)",
        )),
        // A returned `&[T]` is a view (`slices::export_slice`), never a slice here.
        (t, Position::Return) if param_only(t) => Err(unsupported(ty, &borrowed_return(t, ""))),
        (Ty::Option(t), Position::Return) if param_only(t) => {
            Err(unsupported(ty, &borrowed_return(t, "Option")))
        }
        (Ty::Unit, Position::Param) => Err(unsupported(ty, "() is not a parameter type")),
        (t, Position::Field) if param_only(t) || info.slice => Err(unsupported(
            ty,
            "a record or enum field owns its value: use String, Vec<T> or Handle<C>",
        )),
        (Ty::Option(t) | Ty::Vec(t), Position::Field) if param_only(t) => Err(unsupported(
            ty,
            "a record or enum field owns its value: use String, Vec<T> or Handle<C>",
        )),
        (Ty::Unit, Position::Field) => Err(unsupported(ty, "a field cannot be ()")),
        _ => Ok(()),
    }
}

/// The message of a borrowed return `t` (inside `wrapper`, e.g. `Option`): what to
/// return instead. A borrow cannot outlive the call, and JS keeps what it is given.
fn borrowed_return(t: &Ty, wrapper: &str) -> String {
    let instead = match t {
        Ty::Str => "`String` (`.to_string()`)",
        Ty::ClassRef(_) | Ty::ClassMut(_) => {
            "`Handle<C>` (the same object: take `this: &Handle<Self>` and return a clone of \
             it, or keep `Handle`s in the struct) or an owned `C`"
        }
        Ty::JsValueRef => "`JsValue` (`.clone()`: the same JS value)",
        _ => "an owned value",
    };
    let instead = if wrapper.is_empty() {
        instead.to_string()
    } else {
        format!("`{wrapper}<..>` of {instead}")
    };
    format!(
        "a borrowed value cannot be returned to JS (the borrow ends with the call, and JS may \
         keep what it gets): return {instead}"
    )
}
