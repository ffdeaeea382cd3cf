//! The slices an export takes or returns beyond a `&[T]` parameter (copied in, like
//! `Vec<T>`): a `&[T]` result (a view of wasm memory, valid until the next call into the
//! module), a `&mut [T]` parameter (copied in, and back into the caller's array), and
//! `Box<[T]>` (crosses as the `Vec<T>` it converts to without a copy).

use super::position::Position;
use super::unsupported::unsupported;
use crate::model::ty::{TyInfo, plain};
use bridge_schema::Ty;
use syn::{GenericArgument, PathArguments, Signature, Type};

/// `&[T]` or `&mut [T]` (through parentheses).
pub fn is_slice(ty: &Type) -> bool {
    slice_ref(ty).is_some()
}

fn slice_ref(ty: &Type) -> Option<(&syn::TypeReference, &Type)> {
    match ty {
        Type::Paren(p) => slice_ref(&p.elem),
        Type::Group(g) => slice_ref(&g.elem),
        Type::Reference(r) => match &*r.elem {
            Type::Slice(s) => Some((r, &s.elem)),
            _ => None,
        },
        _ => None,
    }
}

/// The `T` of `Box<[T]>` (it crosses as the `Vec<T>` it converts to: `types::classify`).
pub fn boxed_slice(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ty else { return None };
    let seg = p.path.segments.last()?;
    if seg.ident != "Box" || p.qself.is_some() {
        return None;
    }
    match &seg.arguments {
        PathArguments::AngleBracketed(a) if a.args.len() == 1 => match a.args.first() {
            Some(GenericArgument::Type(Type::Slice(s))) => Some(&s.elem),
            _ => None,
        },
        _ => None,
    }
}

/// The classification of a `&[T]` result or `&mut [T]` parameter an export takes or
/// returns itself (not inside an `Option`, `Vec` or field): `None` for any other type.
/// `classify` classifies the element.
pub fn export_slice(
    ty: &Type,
    pos: Position,
    mut classify: impl FnMut(&Type) -> syn::Result<TyInfo>,
) -> syn::Result<Option<TyInfo>> {
    if pos == Position::Field {
        return Ok(None);
    }
    let Some((r, elem)) = slice_ref(ty) else {
        return Ok(None);
    };
    let mutable = r.mutability.is_some();
    match (pos, mutable) {
        (Position::Param, false) => Ok(None),
        (Position::Return, true) => Err(unsupported(
            ty,
            "a `&mut [T]` cannot be returned: return `&[T]` (a typed array over wasm memory) \
             or `Vec<T>` (a copy)",
        )),
        (Position::Param, true) | (Position::Return, false) => {
            slice_of(ty, classify(elem)?, mutable).map(Some)
        }
        (Position::Field, _) => Ok(None),
    }
}

/// The `&[T]` result or `&mut [T]` parameter (`mutable`) `ty` of the element `elem`.
fn slice_of(ty: &Type, elem: TyInfo, mutable: bool) -> syn::Result<TyInfo> {
    // A returned view of a user type: a numeric enum of an 8- to 32-bit `#[repr]`
    // (the thunk requires `ViewElem`; `cargo bridge` reads its repr).
    if !mutable && matches!(elem.ty, Ty::Named(_)) {
        return Ok(TyInfo {
            named: elem.named,
            ..plain(Ty::View(Box::new(elem.ty)))
        });
    }
    if !elem.ty.is_number() {
        let what = if mutable {
            "a `&mut [T]` parameter"
        } else {
            "a returned `&[T]` view"
        };
        return Err(unsupported(
            ty,
            &format!(
                "{what} holds numbers (u8..u64, i8..i64, f32, f64: a typed array); \
                 use `Vec<T>` for anything else"
            ),
        ));
    }
    let elem = Box::new(elem.ty);
    Ok(plain(if mutable {
        Ty::SliceMut(elem)
    } else {
        Ty::View(elem)
    }))
}

/// A returned view must borrow from the receiver (`&self`, `&mut self`, with its lifetime
/// elided or named) or be `&'static`: anything else the thunk owns (a `&[T]` or `&str`
/// argument) is freed when the call returns, and JS would read freed memory.
pub fn check_view_source(sig: &Signature) -> syn::Result<()> {
    let syn::ReturnType::Type(_, ret) = &sig.output else {
        return Ok(());
    };
    let Some((r, _)) = slice_ref(ret) else {
        return Ok(());
    };
    let receiver = sig.receiver().and_then(|rcv| rcv.reference.as_ref());
    let fine = match (&r.lifetime, receiver) {
        (Some(l), _) if l.ident == "static" => true,
        (None, Some(_)) => true,
        (Some(l), Some((_, Some(own)))) => l.ident == own.ident,
        _ => false,
    };
    if fine {
        return Ok(());
    }
    Err(unsupported(
        ret,
        "a returned `&[T]` view must borrow from `&self` (or be `&'static [T]`): what else \
         the call borrows is freed when it returns, and JS would read freed memory; return \
         `Vec<T>` (a copy) instead",
    ))
}
