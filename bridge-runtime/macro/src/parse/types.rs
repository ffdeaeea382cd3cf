//! Classification of Rust types that cross the boundary into [`TyInfo`]s (see
//! `model::ty`), function types included: a JS function's signature is classified and
//! checked as a call into JS here, so generating the call cannot fail.

use super::iterators;
use super::jscall;
use super::lifts;
use super::position::{self, Position};
use super::slices;
use super::unsupported::{JS_PROMISE_ALONE, unsupported};
use crate::model::refs::TypeRefs;
use crate::model::ty::{CallbackInfo, Carrier, Form, Pull, TyInfo, plain};
use bridge_schema::{Callback, Hold, Scalar, Ty};
use syn::{GenericArgument, PathArguments, ReturnType, Type, TypeParamBound};

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
    if let Some(item) = iterators::item_type(ty, pos)? {
        // The closure type is spelled in the thunk, outside the impl block: no `Self`.
        let item = match self_ty {
            Some(s) => iterators::replace_self(item, s),
            None => item.clone(),
        };
        return iterator(&item, self_ty, refs);
    }
    if pos != Position::Field
        && let Some(elem) = slices::boxed_slice(ty)
    {
        let info = vec_of(ty, elem, self_ty, refs)?;
        let info = TyInfo {
            boxed: true,
            ..info
        };
        return Ok(with_placeholder(info, refs));
    }
    if let Some(info) = slices::export_slice(ty, pos, |t| classify_any(t, self_ty, refs))? {
        return Ok(with_placeholder(info, refs));
    }
    if pos == Position::Return
        && let Some((ok, err)) = result_args(ty)?
    {
        if slices::is_slice(ok) {
            return Err(unsupported(
                ty,
                "a `Result` of a borrowed view is not supported: return the `&[T]` itself \
                 (a typed array over wasm memory), or `Result<Vec<T>, E>` (a copy)",
            ));
        }
        // `Ok` may be an iterator: the thunk boxes it (`generate::thunk`), `Err` throws.
        let inner = classify(ok, self_ty, pos, refs)?;
        let err = resolve_self(err, self_ty);
        return Ok(TyInfo {
            ty: Ty::Result(Box::new(inner.ty.clone()), refs.error_placeholder(&err)),
            error: Some(err),
            ..inner
        });
    }
    let mut info = classify_any(ty, self_ty, refs)?;
    position::check(&info, ty, pos)?;
    if pos == Position::Return {
        info.closure = lifts::returned(&info)?;
    }
    Ok(with_placeholder(info, refs))
}

/// A returned iterator of `item`s: classified as the returned closure each `next()` would
/// call (the signatures of its `#closure-call` and `#closure-drop` exports, which call the
/// iterator itself), typed by its item.
fn iterator(item: &Type, self_ty: Option<&Type>, refs: &mut TypeRefs) -> syn::Result<TyInfo> {
    // Checked first as a result of its own, so an unfit item is refused at its span.
    let alone = classify(item, self_ty, Position::Return, &mut TypeRefs::default())?;
    iterators::check_item(&alone, item)?;
    // An item `Result<T, E>`: `next()` pulls `T`s, and an `Err` throws from it (which
    // ends the iterator and frees it, as a panic does).
    let (pulled, err) = match (&alone.ty, result_args(item)?) {
        (Ty::Result(..), Some((ok, err))) => (ok, Some(resolve_self(err, self_ty))),
        _ => (item, None),
    };
    let next = iterators::next_closure(pulled);
    let mut info = classify_any(&next, self_ty, refs)?;
    position::check(&info, &next, Position::Return)?;
    let mut item = match &info.ty {
        Ty::Callback(cb) => match &*cb.ret {
            Ty::Option(item) => item.clone(),
            _ => unreachable!("the closure returns an Option"),
        },
        _ => unreachable!("a closure type classifies as a callback"),
    };
    let cb = info
        .callback
        .as_mut()
        .expect("a closure type has its callback info");
    cb.pull = Some(Pull {
        item: pulled.clone(),
        error: err.clone(),
    });
    if let Some(err) = err {
        // After the item's own placeholders: the record lists `Ok`'s ids before `Err`'s.
        item = Box::new(Ty::Result(item, refs.error_placeholder(&err)));
        // The pull's export returns `Result<Option<T>, E>` (`Err` thrown as a result's).
        cb.ret = TyInfo {
            ty: Ty::Result(Box::new(cb.ret.ty.clone()), String::new()),
            error: Some(err),
            ..cb.ret.clone()
        };
    }
    info.closure = lifts::returned(&info)?;
    Ok(TyInfo {
        ty: Ty::Iterator(item),
        ..info
    })
}

/// Classify a type of a JS import or callback signature (no position rules: `jscall`
/// checks what each direction can carry).
pub fn classify_in(ty: &Type, self_ty: Option<&Type>, refs: &mut TypeRefs) -> syn::Result<TyInfo> {
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
    // `classify` took a whole result's iterator: any other is nested.
    iterators::refuse_nested(ty)?;
    match ty {
        Type::Tuple(t) if t.elems.is_empty() => Ok(plain(Ty::Unit)),
        Type::Tuple(t) => tuple(ty, t, self_ty, refs),
        Type::Paren(p) => classify_any(&p.elem, self_ty, refs),
        Type::Group(g) => classify_any(&g.elem, self_ty, refs),
        Type::Reference(r) => reference_type(ty, r, self_ty, refs),
        Type::Path(p) if p.qself.is_none() => {
            let seg = p.path.segments.last().expect("paths have a segment");
            path_type(ty, seg, self_ty, refs)
        }
        _ => Err(unsupported(ty, "")),
    }
}

/// The reference `ty` (`r`): `&str`, a `&[number]`, `&JsValue`, a lent closure, or a
/// borrowed class.
fn reference_type(
    ty: &Type,
    r: &syn::TypeReference,
    self_ty: Option<&Type>,
    refs: &mut TypeRefs,
) -> syn::Result<TyInfo> {
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
    if let Type::TraitObject(_) = unparen(&r.elem) {
        let form = if r.mutability.is_some() {
            Form::Mut
        } else {
            Form::Ref
        };
        return callback(ty, unparen(&r.elem), form, self_ty, refs);
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

/// The path type `ty`, named by its last segment `seg`: a primitive, `JsValue`,
/// `JsPromise`, a boxed closure, an `Option`, `Vec` or collection, or a user type.
fn path_type(
    ty: &Type,
    seg: &syn::PathSegment,
    self_ty: Option<&Type>,
    refs: &mut TypeRefs,
) -> syn::Result<TyInfo> {
    let name = seg.ident.to_string();
    let prim = match name.as_str() {
        "i128" => Some(Ty::I128),
        "u128" => Some(Ty::U128),
        "String" => Some(Ty::String),
        name => Scalar::from_rust(name).map(Ty::Scalar),
    };
    if let Some(prim) = prim {
        return Ok(plain(prim));
    }
    if seg.ident == "JsValue" && matches!(seg.arguments, PathArguments::None) {
        return Ok(plain(Ty::JsValue));
    }
    if seg.ident == "JsPromise" && matches!(seg.arguments, PathArguments::None) {
        return Ok(TyInfo {
            promise: true,
            ..plain(Ty::JsValue)
        });
    }
    if seg.ident == "Box"
        && let Ok(inner @ Type::TraitObject(_)) = single_arg(ty, &seg.arguments).map(unparen)
    {
        return callback(ty, inner, Form::Boxed, self_ty, refs);
    }
    if seg.ident == "Box"
        && let Ok(Type::Slice(_)) = single_arg(ty, &seg.arguments)
    {
        return Err(unsupported(
            ty,
            "`Box<[T]>` crosses as an export's parameter or result only: use \
             `Vec<T>` here",
        ));
    }
    match seg.ident.to_string().as_str() {
        "Option" | "Vec" if promise_inside(ty, self_ty) => Err(unsupported(ty, JS_PROMISE_ALONE)),
        "Option" => option_type(ty, seg, self_ty, refs),
        "Vec" => vec_type(ty, seg, self_ty, refs),
        "HashMap" | "BTreeMap" | "HashSet" | "BTreeSet" => collection(ty, seg, self_ty, refs),
        _ => named_info(ty, self_ty, false),
    }
}

/// `Option<T>` (`ty`, its last segment `seg`), with the `T`s it cannot hold refused.
fn option_type(
    ty: &Type,
    seg: &syn::PathSegment,
    self_ty: Option<&Type>,
    refs: &mut TypeRefs,
) -> syn::Result<TyInfo> {
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
    if matches!(inner.ty, Ty::JsValueRef) {
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

/// `Vec<T>` (`ty`, its last segment `seg`): owned `T`s only.
fn vec_type(
    ty: &Type,
    seg: &syn::PathSegment,
    self_ty: Option<&Type>,
    refs: &mut TypeRefs,
) -> syn::Result<TyInfo> {
    vec_of(ty, single_arg(ty, &seg.arguments)?, self_ty, refs)
}

/// A `Vec` of `elem` (written `ty`: `Vec<T>`, or a `Box<[T]>` crossing as one): owned
/// `T`s only.
fn vec_of(
    ty: &Type,
    elem: &Type,
    self_ty: Option<&Type>,
    refs: &mut TypeRefs,
) -> syn::Result<TyInfo> {
    let inner = classify_any(elem, self_ty, refs)?;
    if inner.promise {
        return Err(unsupported(ty, JS_PROMISE_ALONE));
    }
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

/// `Option<JsPromise>` or `Vec<JsPromise>` (`ty`'s argument is a `JsPromise`).
/// A probe: its placeholders go to a scratch list (a tuple inside takes its own), so the
/// record's stay in order.
fn promise_inside(ty: &Type, self_ty: Option<&Type>) -> bool {
    let refs = &mut TypeRefs::default();
    let Type::Path(p) = ty else { return false };
    let Some(seg) = p.path.segments.last() else {
        return false;
    };
    single_arg(ty, &seg.arguments)
        .ok()
        .and_then(|inner| classify_any(inner, self_ty, refs).ok())
        .is_some_and(|inner| inner.promise)
}

/// A tuple `(A, B, ..)`: each element classified (and given its placeholders here, as
/// the tuple carries several user types), each an owned value a `Vec` could hold.
fn tuple(
    ty: &Type,
    t: &syn::TypeTuple,
    self_ty: Option<&Type>,
    refs: &mut TypeRefs,
) -> syn::Result<TyInfo> {
    if t.elems.len() > bridge_schema::MAX_TUPLE {
        return Err(unsupported(
            ty,
            &format!(
                "a tuple crosses with at most {} elements (a JS array of that length): \
                 use a #[bridge(record)] struct with named fields",
                bridge_schema::MAX_TUPLE
            ),
        ));
    }
    let mut elems = Vec::new();
    for elem in &t.elems {
        let info = classify_any(elem, self_ty, refs)?;
        if !owned(&info) {
            return Err(unsupported(
                elem,
                "a tuple holds owned values (numbers, bool, char, String, Option, Vec, tuples, \
                 #[bridge] records and enums, Handle<C>, JsValue): take `String` for `&str`, \
                 `Handle<C>` for `&C`",
            ));
        }
        elems.push(with_placeholder(info, refs).ty);
    }
    Ok(plain(Ty::Tuple(elems)))
}

/// An owned value a `Vec`, a tuple or a map can hold.
fn owned(info: &TyInfo) -> bool {
    !info.slice
        && !info.boxed
        && !info.promise
        && !matches!(
            info.ty,
            Ty::Unit
                | Ty::Str
                | Ty::ClassRef(_)
                | Ty::ClassMut(_)
                | Ty::JsValueRef
                | Ty::Callback(_)
                | Ty::View(_)
                | Ty::SliceMut(_)
        )
}

/// `HashMap<K, V>` / `BTreeMap<K, V>` (a JS `Map`) and `HashSet<T>` / `BTreeSet<T>` (a
/// `Set`), a `HashMap`'s or `HashSet`'s hasher argument allowed. Keys (a set's elements)
/// are the values a JS `Map` compares as Rust does; a user type there must be a fieldless
/// enum, which the runtime's `MapKey` bound checks (the macro cannot see its shape).
fn collection(
    ty: &Type,
    seg: &syn::PathSegment,
    self_ty: Option<&Type>,
    refs: &mut TypeRefs,
) -> syn::Result<TyInfo> {
    let map = seg.ident.to_string().ends_with("Map");
    let types = collection_args(ty, seg, map)?;
    let key = classify_any(types[0], self_ty, refs)?;
    let keyed = match &key.ty {
        Ty::String | Ty::I128 | Ty::U128 => true,
        Ty::Scalar(s) => s.map_key(),
        Ty::Named(_) => !key.handle,
        _ => false,
    };
    if !keyed {
        return Err(unsupported(
            types[0],
            "a map's keys (a set's elements) are String, integers, char or fieldless #[bridge] \
             enums (the values a JS Map compares as Rust does); cross other keys as a \
             `Vec<(K, V)>` of tuples",
        ));
    }
    let key = with_placeholder(key, refs).ty;
    if !map {
        return Ok(plain(Ty::Set(Box::new(key))));
    }
    let value = classify_any(types[1], self_ty, refs)?;
    if !owned(&value) {
        return Err(unsupported(
            types[1],
            "a map holds owned values (numbers, bool, char, String, Option, Vec, tuples, maps, \
             #[bridge] records and enums, Handle<C>, JsValue): take `String` for `&str`, \
             `Handle<C>` for `&C`",
        ));
    }
    let value = with_placeholder(value, refs).ty;
    Ok(plain(Ty::Map(Box::new(key), Box::new(value))))
}

/// The key and value types of a map (`map`) or the element type of a set, without a
/// `HashMap`'s or `HashSet`'s hasher.
fn collection_args<'a>(
    ty: &Type,
    seg: &'a syn::PathSegment,
    map: bool,
) -> syn::Result<Vec<&'a Type>> {
    let name = seg.ident.to_string();
    let args: Vec<&GenericArgument> = match &seg.arguments {
        PathArguments::AngleBracketed(a) => a.args.iter().collect(),
        _ => Vec::new(),
    };
    let types: Vec<&Type> = args
        .iter()
        .filter_map(|a| match a {
            GenericArgument::Type(t) => Some(t),
            _ => None,
        })
        .collect();
    let want = if map { 2 } else { 1 };
    let hasher = name.starts_with("Hash") && types.len() == want + 1;
    if types.len() != args.len() || !(types.len() == want || hasher) {
        return Err(unsupported(
            ty,
            if map {
                "expected `<K, V>` (a `HashMap` may add its hasher: `<K, V, S>`)"
            } else {
                "expected `<T>` (a `HashSet` may add its hasher: `<T, S>`)"
            },
        ));
    }
    Ok(types)
}

const SHAPES: &str = "JS functions are taken as `&dyn Fn(A, ..) -> R`, \
`&mut dyn FnMut(A, ..) -> R`, `Box<dyn Fn(A, ..) -> R>` or `Box<dyn FnOnce(A, ..) -> R>`";

/// `ty` without the parentheses around it (`&(dyn Fn() + Send)`).
fn unparen(ty: &Type) -> &Type {
    match ty {
        Type::Paren(p) => unparen(&p.elem),
        Type::Group(g) => unparen(&g.elem),
        t => t,
    }
}

/// Classify the trait object `dyn_ty` of a function type `ty`.
fn callback(
    ty: &Type,
    dyn_ty: &Type,
    form: Form,
    self_ty: Option<&Type>,
    refs: &mut TypeRefs,
) -> syn::Result<TyInfo> {
    let (args, form) = fn_bound(ty, dyn_ty, form)?;
    let (params, ret, ret_ty, catch) = callback_signature(args, self_ty, refs)?;
    let schema = Callback {
        params: params.iter().map(|(i, _)| i.ty.clone()).collect(),
        ret: Box::new(ret.ty.clone()),
        catch,
        names: Vec::new(),
        hold: match form {
            Form::Ref | Form::Mut => Hold::Lent,
            Form::Boxed => Hold::Owned,
            Form::Once => Hold::Once,
        },
    };
    refuse_borrowed_class(&params)?;
    // Checked now, for every function type, so the error points at the parameter's type.
    let typed: Vec<(&TyInfo, &Type)> = params.iter().map(|(i, t)| (i, t)).collect();
    let call = jscall::check(&typed, &ret, ret_ty.as_ref(), catch, "a JS callback")?;
    let info = CallbackInfo {
        form,
        dyn_ty: dyn_ty.clone(),
        params,
        ret,
        ret_ty,
        catch,
        call,
        pull: None,
    };
    Ok(TyInfo {
        callback: Some(Box::new(info)),
        ..plain(Ty::Callback(schema))
    })
}

/// The one `Fn`/`FnMut`/`FnOnce` bound of the trait object `dyn_ty` (of the function type
/// `ty`, taken as `form`): its `(A, ..) -> R`, and the form (`Box<dyn FnOnce>`: `Once`).
fn fn_bound<'a>(
    ty: &Type,
    dyn_ty: &'a Type,
    form: Form,
) -> syn::Result<(&'a syn::ParenthesizedGenericArguments, Form)> {
    let bad = |why: &str| Err(unsupported(ty, &format!("{why}; {SHAPES}")));
    let Type::TraitObject(obj) = dyn_ty else {
        return bad("not a function type");
    };
    let mut sig = None;
    let mut form = form;
    for bound in &obj.bounds {
        match bound {
            // Marker traits say nothing about how the function crosses.
            TypeParamBound::Trait(t)
                if t.path.segments.len() == 1
                    && matches!(t.path.segments[0].arguments, PathArguments::None)
                    && (t.path.segments[0].ident == "Send"
                        || t.path.segments[0].ident == "Sync") => {}
            TypeParamBound::Trait(t) => {
                let seg = t.path.segments.last().expect("a segment");
                if sig.is_some()
                    || !(seg.ident == "Fn" || seg.ident == "FnMut" || seg.ident == "FnOnce")
                {
                    return bad(
                        "only one `Fn`, `FnMut` or `FnOnce` bound (plus `Send`, `Sync` and \
                         lifetimes) is supported",
                    );
                }
                if seg.ident == "FnMut" && form == Form::Ref {
                    return bad("a `&dyn FnMut` cannot be called: take `&mut dyn FnMut`");
                }
                if seg.ident == "FnOnce" {
                    if form != Form::Boxed {
                        return bad(
                            "a borrowed `dyn FnOnce` cannot be called (calling it moves it): \
                             take `Box<dyn FnOnce(A, ..) -> R>`",
                        );
                    }
                    form = Form::Once;
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
    match sig {
        Some(args) => Ok((args, form)),
        None => bad("expected an `Fn`, `FnMut` or `FnOnce` bound"),
    }
}

/// A function type's parameters and result (as written: the `T` of `Result<T, JsError>`,
/// `None` for `()`), classified, and whether it catches.
type Signature = (Vec<(TyInfo, Type)>, TyInfo, Option<Type>, bool);

/// The parameters and result of `Fn(A, ..) -> R`, classified.
fn callback_signature(
    args: &syn::ParenthesizedGenericArguments,
    self_ty: Option<&Type>,
    refs: &mut TypeRefs,
) -> syn::Result<Signature> {
    let mut params = Vec::new();
    for input in &args.inputs {
        let info = classify_in(input, self_ty, refs)?;
        params.push((info, input.clone()));
    }
    let (ret, ret_ty, catch) = match &args.output {
        ReturnType::Default => (plain(Ty::Unit), None, false),
        ReturnType::Type(_, t) => match jscall::result_of_js_error(t) {
            Some(ok) => (classify_in(ok, self_ty, refs)?, Some(ok.clone()), true),
            None => (classify_in(t, self_ty, refs)?, Some((**t).clone()), false),
        },
    };
    Ok((params, ret, ret_ty, catch))
}

/// A borrowed class among a function type's parameters: the function type may be a JS
/// function Rust calls (JS could keep the object) or a Rust closure JS calls (an
/// import's argument, a returned closure: JS would lend a wrapper for one call, which
/// is not supported); the message says both, since which one it is is not known here.
fn refuse_borrowed_class(params: &[(TyInfo, Type)]) -> syn::Result<()> {
    match params
        .iter()
        .find(|(i, _)| matches!(i.ty, Ty::ClassRef(_) | Ty::ClassMut(_)))
    {
        Some((_, t)) => Err(unsupported(
            t,
            "a function type cannot take a borrowed class: a JS function Rust calls gets the \
             object as `Handle<C>` (JS may keep it), and a Rust closure JS calls (a closure \
             passed to an import, or returned to JS) takes `Handle<C>` too (JS cannot lend \
             a wrapper to a closure call): write `Handle<C>` and borrow it inside",
        )),
        None => Ok(()),
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
        return Ok(TyInfo {
            carrier: Some(Carrier::Handle(named)),
            handle: true,
            ..inner
        });
    }
    refuse_not_named(ty, seg)?;
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
        named: Some(resolved.clone()),
        carrier: Some(Carrier::Value(resolved)),
        ..plain(Ty::Named(String::new()))
    })
}

/// The types of the runtime's and wasm-bindgen's that look like user types but do not
/// cross as one (`WeakHandle`, `Closure<..>`, a `Result` where none crosses).
fn refuse_not_named(ty: &Type, seg: &syn::PathSegment) -> syn::Result<()> {
    if seg.ident == "WeakHandle" {
        // JS holds objects through strong references only; what a weak link stands
        // for on the JS side is "the object, if still alive".
        return Err(unsupported(
            ty,
            "a `WeakHandle<C>` stays in Rust; cross `Option<Handle<C>>` (`weak.upgrade()`) \
             to give JS the object if it is still alive",
        ));
    }
    if seg.ident == "Closure" && !matches!(seg.arguments, PathArguments::None) {
        // wasm-bindgen's and bridge-runtime's `Closure<dyn Fn(..)>`: a JS function value.
        return Err(unsupported(
            ty,
            "a `Closure` crosses as the JS function it holds, a JsValue: pass \
             `closure.to_js()` (a `JsValue` or `&JsValue` parameter), or take the function \
             type itself (`&dyn Fn(..)` lent for the call, `Box<dyn Fn(..)>` kept by JS)",
        ));
    }
    if seg.ident == "Result" {
        // An export returns `Result<T, E>` (taken before this); a JS import or callback
        // catches into `Result<T, JsError>`, known by that name.
        return Err(unsupported(
            ty,
            "a `Result` crosses as an export's result (`Result<T, E>`), or as a JS import's \
             `Result<T, JsError>` (it catches what JS throws): write `JsError` by its name \
             there (#[bridge] does not see through a type alias or `use .. as` rename)",
        ));
    }
    Ok(())
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

/// A class handle (`Handle<C>`).
pub fn is_handle(info: &TyInfo) -> bool {
    matches!(info.ty, Ty::Named(_)) && info.handle
}

pub fn names_self(info: &TyInfo, self_ty: &Type) -> bool {
    let last = |ty: &Type| match ty {
        Type::Path(p) => p
            .path
            .segments
            .last()
            .map(|s| syn::ext::IdentExt::unraw(&s.ident).to_string()),
        _ => None,
    };
    info.named.as_ref().and_then(last) == last(self_ty)
}
