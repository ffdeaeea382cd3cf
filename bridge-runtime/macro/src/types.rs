//! Classification of Rust types that cross the boundary into schema [`Ty`]s.
//!
//! Any path that is not a known primitive, `Option`, `Vec` or `Handle` names a user type
//! (class, record or enum: the macro cannot tell which, nor which crate declared it). Its
//! [`Ty::Named`] carries a placeholder that the record fills in with the type's
//! `BridgeType::TYPE_ID` at compile time (see `record.rs`), and thunks convert it through
//! the `IntoJs`/`FromJs` impls of its own `#[bridge]` expansion.

use crate::record::TypeRefs;
use bridge_schema::Ty;
use syn::{GenericArgument, PathArguments, Type};

/// A classified type, with what the thunk generator needs beyond the schema type.
#[derive(Clone)]
pub struct TyInfo {
    pub ty: Ty,
    /// The user type carried (with `Self` resolved): the `T` of `T`, `Handle<T>`, `&T`.
    pub named: Option<Type>,
    /// The Rust type that converts to and from wasm (`T` or `Handle<T>`; for `Option` and
    /// `Vec`, their element), for user-type-carrying types.
    pub carrier: Option<Type>,
    /// Spelled `Handle<T>` (a class reference, not a value moving into a new box).
    pub handle: bool,
    /// A `&[T]` parameter (crosses like `Vec<T>`, lent to the callee).
    pub slice: bool,
    /// For `Ty::Callback`: the signature and form of the JS function.
    pub callback: Option<Box<crate::callback::CallbackInfo>>,
    /// The error type `E` of a `Result<T, E>` return.
    pub error: Option<Type>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Position {
    Param,
    Return,
    /// A field of a record or enum variant (crosses both ways, owned).
    Field,
}

const SUPPORTED: &str = "supported types: bool, i8..i32, u8..u32, f32, f64, i64, u64, usize, \
isize, char, String, &str, Option<T>, #[bridge] types (classes as C, Handle<C>, &C, &mut C), \
Vec<T>, &[number] parameters, Result<T, E: Display> returns, JsValue, &JsValue and JS \
functions (&dyn Fn(..) -> R, &mut dyn FnMut(..) -> R, Box<dyn Fn(..) -> R>)";

/// Classify `ty`; each user type it names gets a placeholder id from `refs`.
pub fn classify(
    ty: &Type,
    self_ty: Option<&Type>,
    pos: Position,
    refs: &mut TypeRefs,
) -> syn::Result<TyInfo> {
    if pos == Position::Param
        && let Type::Reference(r) = ty
        && r.lifetime.as_ref().is_some_and(|l| l.ident == "static")
    {
        return Err(unsupported(
            ty,
            "a `&'static` parameter cannot borrow from JS (what JS passes lives only for the \
             call): take `&str`/`&C`, or an owned `String`/`Handle<C>`",
        ));
    }
    if pos == Position::Return
        && let Some((ok, err)) = result_args(ty)?
    {
        let inner = classify(ok, self_ty, pos, refs)?;
        let err = resolve_self(err, self_ty);
        return Ok(TyInfo {
            ty: Ty::Result(Box::new(inner.ty.clone()), refs.error_placeholder(&err)),
            error: Some(err),
            ..inner
        });
    }
    let info = classify_any(ty, self_ty, refs)?;
    check_position(&info, ty, pos)?;
    Ok(with_placeholder(info, refs))
}

/// Classify a type of a JS import or callback signature (no position rules: `jscall`
/// checks what each direction can carry).
pub(crate) fn classify_in(
    ty: &Type,
    self_ty: Option<&Type>,
    refs: &mut TypeRefs,
) -> syn::Result<TyInfo> {
    let info = classify_any(ty, self_ty, refs)?;
    Ok(with_placeholder(info, refs))
}

/// `info` with its type id slot pointing at a new placeholder of `refs`.
fn with_placeholder(mut info: TyInfo, refs: &mut TypeRefs) -> TyInfo {
    if let (Some(named), Some(slot)) = (&info.named, info.ty.type_id_mut()) {
        *slot = refs.placeholder(named);
    }
    info
}

/// `Result<T, E>` (any path ending in `Result` with two type arguments): `(T, E)`.
fn result_args(ty: &Type) -> syn::Result<Option<(&Type, &Type)>> {
    let Type::Path(p) = ty else { return Ok(None) };
    let seg = p.path.segments.last().expect("paths have a segment");
    if seg.ident != "Result" {
        return Ok(None);
    }
    if let PathArguments::AngleBracketed(a) = &seg.arguments
        && let [GenericArgument::Type(ok), GenericArgument::Type(err)] =
            a.args.iter().collect::<Vec<_>>()[..]
    {
        if result_args(ok)?.is_some() {
            return Err(unsupported(ty, "Result of Result is not supported"));
        }
        return Ok(Some((ok, err)));
    }
    Err(unsupported(
        ty,
        "spell the error type out: Result<T, E> with E: Display (a type alias with one \
         argument hides it from #[bridge])",
    ))
}

pub fn plain(ty: Ty) -> TyInfo {
    TyInfo {
        ty,
        named: None,
        carrier: None,
        handle: false,
        slice: false,
        callback: None,
        error: None,
    }
}

/// `ty` with a bare `Self` replaced by the impl's type (error types are named in the
/// thunk, outside the impl block).
fn resolve_self(ty: &Type, self_ty: Option<&Type>) -> Type {
    match (ty, self_ty) {
        (Type::Path(p), Some(s)) if p.qself.is_none() && p.path.is_ident("Self") => s.clone(),
        _ => ty.clone(),
    }
}

/// `refs` only serves the signatures of JS functions (their types get placeholders as
/// they are classified); every other type gets its placeholder from `with_placeholder`.
fn classify_any(ty: &Type, self_ty: Option<&Type>, refs: &mut TypeRefs) -> syn::Result<TyInfo> {
    match ty {
        Type::Tuple(t) if t.elems.is_empty() => Ok(plain(Ty::Unit)),
        Type::Paren(p) => classify_any(&p.elem, self_ty, refs),
        Type::Group(g) => classify_any(&g.elem, self_ty, refs),
        Type::Reference(r) => {
            if is_ident(&r.elem, "str") && r.mutability.is_none() {
                return Ok(plain(Ty::Str));
            }
            if let Type::Slice(s) = &*r.elem {
                let inner = classify_any(&s.elem, self_ty, refs)?;
                if r.mutability.is_some() || !inner.ty.is_number() {
                    return Err(unsupported(
                        ty,
                        "slices cross as `&[number]` parameters (copied in); take a Vec<T> \
                         for anything else",
                    ));
                }
                return Ok(TyInfo {
                    slice: true,
                    ..plain(Ty::Vec(Box::new(inner.ty)))
                });
            }
            if is_last_ident(&r.elem, "JsValue") && r.mutability.is_none() {
                return Ok(plain(Ty::JsValueRef));
            }
            if let Type::TraitObject(_) = &*r.elem {
                let form = if r.mutability.is_some() {
                    crate::callback::Form::Mut
                } else {
                    crate::callback::Form::Ref
                };
                return crate::callback::classify(ty, &r.elem, form, self_ty, refs);
            }
            if let Some(why) = borrowed_container(&r.elem) {
                return Err(unsupported(ty, why));
            }
            let inner = named_info(&r.elem, self_ty, true)?;
            Ok(TyInfo {
                ty: if r.mutability.is_some() {
                    Ty::ClassMut(String::new())
                } else {
                    Ty::ClassRef(String::new())
                },
                ..inner
            })
        }
        Type::Path(p) if p.qself.is_none() => {
            let seg = p.path.segments.last().expect("paths have a segment");
            let prim = match seg.ident.to_string().as_str() {
                "bool" => Some(Ty::Bool),
                "i8" => Some(Ty::I8),
                "i16" => Some(Ty::I16),
                "i32" => Some(Ty::I32),
                "u8" => Some(Ty::U8),
                "u16" => Some(Ty::U16),
                "u32" => Some(Ty::U32),
                "f32" => Some(Ty::F32),
                "f64" => Some(Ty::F64),
                "i64" => Some(Ty::I64),
                "u64" => Some(Ty::U64),
                "usize" => Some(Ty::Usize),
                "isize" => Some(Ty::Isize),
                "char" => Some(Ty::Char),
                "String" => Some(Ty::String),
                _ => None,
            };
            if let Some(prim) = prim {
                return Ok(plain(prim));
            }
            if matches!(seg.ident.to_string().as_str(), "i128" | "u128") {
                return Err(unsupported(
                    ty,
                    "128-bit integers have no JS counterpart: use i64/u64 (BigInt) or pass \
                     the value as a String",
                ));
            }
            if seg.ident == "JsValue" && matches!(seg.arguments, PathArguments::None) {
                return Ok(plain(Ty::JsValue));
            }
            if seg.ident == "Box"
                && let Ok(inner @ Type::TraitObject(_)) = single_arg(ty, &seg.arguments)
            {
                let form = crate::callback::Form::Boxed;
                return crate::callback::classify(ty, inner, form, self_ty, refs);
            }
            match seg.ident.to_string().as_str() {
                "Option" => {
                    let inner = classify_any(single_arg(ty, &seg.arguments)?, self_ty, refs)?;
                    if inner.slice {
                        return Err(unsupported(
                            ty,
                            "an optional slice is not supported: take `Option<Vec<T>>` (copied \
                             in, null for None), or a `&[T]` that may be empty",
                        ));
                    }
                    if matches!(inner.ty, Ty::Option(_)) {
                        return Err(unsupported(
                            ty,
                            "`Option<Option<T>>` is not supported: JS has one null, so the two \
                             Nones would be one value; take `Option<T>`, or a #[bridge] enum \
                             naming the cases",
                        ));
                    }
                    if matches!(inner.ty, Ty::Unit) {
                        return Err(unsupported(
                            ty,
                            "`Option<()>` is not supported: take a `bool`",
                        ));
                    }
                    if matches!(inner.ty, Ty::JsValueRef | Ty::Callback(_)) {
                        return Err(unsupported(
                            ty,
                            "Option of a &JsValue or a function is not supported: take \
                             Option<JsValue> (owned), or a &JsValue (it can hold null or \
                             undefined itself)",
                        ));
                    }
                    Ok(TyInfo {
                        ty: Ty::Option(Box::new(inner.ty.clone())),
                        ..inner
                    })
                }
                "Vec" => {
                    let inner = classify_any(single_arg(ty, &seg.arguments)?, self_ty, refs)?;
                    let ok = !inner.slice
                        && !matches!(
                            inner.ty,
                            Ty::Unit
                                | Ty::Str
                                | Ty::ClassRef(_)
                                | Ty::ClassMut(_)
                                | Ty::JsValueRef
                                | Ty::Callback(_)
                        );
                    if !ok {
                        return Err(unsupported(
                            ty,
                            "Vec holds owned values (numbers, String, classes, Option, Vec, JsValue)",
                        ));
                    }
                    Ok(TyInfo {
                        ty: Ty::Vec(Box::new(inner.ty.clone())),
                        ..inner
                    })
                }
                _ => named_info(ty, self_ty, false),
            }
        }
        _ => Err(unsupported(ty, "")),
    }
}

/// What to take instead of a reference to an owned container the macro knows
/// (`&String`, `&Vec<T>`, `&Option<T>`, `&Box<T>`, `&Handle<C>` outside `this`).
fn borrowed_container(elem: &Type) -> Option<&'static str> {
    let Type::Path(p) = elem else { return None };
    let seg = p.path.segments.last()?;
    Some(match seg.ident.to_string().as_str() {
        "String" => "take `&str` (or an owned `String`)",
        "Vec" => "take `&[T]` for numbers, or an owned `Vec<T>`",
        "Option" => "take `Option<&T>` or an owned `Option<T>`",
        "Box" => "take `&T`, or an owned `Box<dyn Fn(..)>` for a JS function",
        "Handle" => "take `&C` to borrow the object, or an owned `Handle<C>` to keep it",
        _ => return None,
    })
}

/// A user type `T` (or `Self`), or `Handle<T>` (not behind a reference).
fn named_info(ty: &Type, self_ty: Option<&Type>, behind_ref: bool) -> syn::Result<TyInfo> {
    let Type::Path(p) = ty else {
        return Err(unsupported(ty, ""));
    };
    let seg = p.path.segments.last().expect("paths have a segment");
    if seg.ident == "Handle" && !behind_ref {
        let inner = named_info(single_arg(ty, &seg.arguments)?, self_ty, true)?;
        let named = inner.named.clone().expect("a user type");
        let handle: Type = syn::parse_quote!(::bridge_runtime::Handle<#named>);
        return Ok(TyInfo {
            carrier: Some(handle),
            handle: true,
            ..inner
        });
    }
    if !matches!(seg.arguments, PathArguments::None) {
        return Err(unsupported(ty, "exported types are not generic"));
    }
    let resolved = if seg.ident == "Self" {
        self_ty
            .cloned()
            .ok_or_else(|| syn::Error::new_spanned(ty, "`Self` outside an impl block"))?
    } else {
        ty.clone()
    };
    Ok(TyInfo {
        ty: Ty::Named(String::new()),
        named: Some(resolved.clone()),
        carrier: Some(resolved),
        handle: false,
        slice: false,
        callback: None,
        error: None,
    })
}

fn check_position(info: &TyInfo, ty: &Type, pos: Position) -> syn::Result<()> {
    let param_only = |t: &Ty| {
        matches!(
            t,
            Ty::Str | Ty::ClassRef(_) | Ty::ClassMut(_) | Ty::JsValueRef | Ty::Callback(_)
        )
    };
    match (&info.ty, pos) {
        (Ty::Callback(_), Position::Return) => crate::callback::check_closure(info, ty),
        (t, Position::Return) if param_only(t) || info.slice => {
            Err(unsupported(ty, &borrowed_return(t, info.slice, "")))
        }
        (Ty::Option(t), Position::Return) if param_only(t) => {
            Err(unsupported(ty, &borrowed_return(t, false, "Option")))
        }
        (Ty::Option(t), Position::Param) if matches!(**t, Ty::ClassMut(_)) => Err(unsupported(
            ty,
            "Option<&mut C> is not supported: take Option<&C>",
        )),
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
fn borrowed_return(t: &Ty, slice: bool, wrapper: &str) -> String {
    let instead = match t {
        _ if slice => "`Vec<T>` (a copy; `.to_vec()`)",
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

fn single_arg<'a>(ty: &Type, args: &'a PathArguments) -> syn::Result<&'a Type> {
    if let PathArguments::AngleBracketed(a) = args
        && let Some(GenericArgument::Type(t)) = a.args.first()
        && a.args.len() == 1
    {
        return Ok(t);
    }
    Err(unsupported(ty, "expected one type argument"))
}

fn is_last_ident(ty: &Type, name: &str) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none()
        && p.path.segments.last().is_some_and(|s| s.ident == name && s.arguments.is_none()))
}

/// `Self`.
pub fn is_self(ty: &Type) -> bool {
    is_ident(ty, "Self")
}

fn is_ident(ty: &Type, name: &str) -> bool {
    matches!(ty, Type::Path(p) if p.path.is_ident(name))
}

pub(crate) fn unsupported(ty: &Type, why: &str) -> syn::Error {
    let shown = quote::ToTokens::to_token_stream(ty).to_string();
    let why = if why.is_empty() {
        String::new()
    } else {
        format!(": {why}")
    };
    syn::Error::new_spanned(
        ty,
        format!("type `{shown}` cannot cross the JS boundary{why}; {SUPPORTED}"),
    )
}
