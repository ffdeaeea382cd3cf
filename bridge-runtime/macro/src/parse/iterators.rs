//! Iterators an export returns (`impl Iterator<Item = T> + 'static`,
//! `Box<dyn Iterator<Item = T>>`): JS gets an iterator object whose `next()` pulls one item
//! through an export typed as a Rust closure would be (`Box<dyn FnMut() -> Option<T>>`,
//! `bridge_schema::iterator_next`), though it calls the iterator directly
//! (`generate::thunk::iterator_exports`). This module finds the item type and says which
//! items can cross one at a time.

use super::position::Position;
use super::unsupported::unsupported;
use crate::model::ty::TyInfo;
use bridge_schema::Ty;
use quote::quote_spanned;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{GenericArgument, PathArguments, Type, TypeParamBound};

/// The item type of an iterator type `ty` (`None` for any other type); an iterator
/// anywhere but an export's result, or of a shape JS cannot pull from, is an error.
pub fn item_type(ty: &Type, pos: Position) -> syn::Result<Option<&Type>> {
    let Some((bounds, owned_by_default)) = trait_bounds(ty) else {
        return Ok(None);
    };
    let mut item = None;
    let mut is_static = owned_by_default;
    for bound in bounds {
        match bound {
            TypeParamBound::Trait(t) => {
                let seg = t.path.segments.last().expect("paths have a segment");
                if seg.ident == "Iterator" {
                    item = iterator_item(&seg.arguments);
                    if item.is_none() {
                        return Err(unsupported(
                            ty,
                            "an iterator returned to JS names its items: `Iterator<Item = T>`",
                        ));
                    }
                } else if !(seg.ident == "Send" || seg.ident == "Sync") {
                    // Not an iterator: the callback or user-type rules word it.
                    if item.is_none() && !is_iterator_like(&seg.ident) {
                        return Ok(None);
                    }
                    return Err(unsupported(
                        ty,
                        "an iterator returned to JS is `Iterator<Item = T>` (plus `Send`, \
                         `Sync` and `'static`): JS pulls it forward only",
                    ));
                }
            }
            TypeParamBound::Lifetime(l) => is_static = l.ident == "static",
            _ => {}
        }
    }
    let Some(item) = item else { return Ok(None) };
    if pos != Position::Return {
        return Err(unsupported(
            ty,
            "an iterator crosses as an export's result only (JS pulls its items); take a \
             `Vec<T>` here",
        ));
    }
    if !is_static {
        return Err(unsupported(
            ty,
            "an iterator returned to JS outlives the call: write `impl Iterator<Item = T> + \
             'static` and let it own what it iterates (take `this: &Handle<Self>` and move a \
             clone of the handle into it, or collect into a `Vec<T>`)",
        ));
    }
    Ok(Some(item))
}

/// The bounds of `impl Trait` or `Box<dyn Trait>` (`ty` through parentheses), and whether
/// the type owns what it holds without a `'static` (a `Box<dyn ..>` does).
fn trait_bounds(ty: &Type) -> Option<(&Punctuated<TypeParamBound, syn::Token![+]>, bool)> {
    match unparen(ty) {
        Type::ImplTrait(t) => Some((&t.bounds, false)),
        Type::Path(p) if p.qself.is_none() => {
            let seg = p.path.segments.last().expect("paths have a segment");
            let PathArguments::AngleBracketed(a) = &seg.arguments else {
                return None;
            };
            match (seg.ident == "Box", a.args.first(), a.args.len()) {
                (true, Some(GenericArgument::Type(inner)), 1) => match unparen(inner) {
                    Type::TraitObject(o) => Some((&o.bounds, true)),
                    _ => None,
                },
                _ => None,
            }
        }
        _ => None,
    }
}

/// Refuses an iterator type nested in another (`Option<impl Iterator>`,
/// `Vec<Box<dyn Iterator>>`, a tuple's element, a JS function's parameter or result): JS
/// gets an iterator only as an export's whole result or its `Result`'s `Ok`.
pub fn refuse_nested(ty: &Type) -> syn::Result<()> {
    if matches!(item_type(ty, Position::Return), Ok(None)) {
        return Ok(());
    }
    Err(unsupported(
        ty,
        "an iterator crosses only as an export's whole result or the `Ok` of its `Result` \
         (`Result<impl Iterator<Item = T> + 'static, E>`), not inside another type or a JS \
         function's signature: return the iterator itself (`std::iter::empty()` for none), \
         or collect into a `Vec<T>`",
    ))
}

/// Whether a trait name is an iterator trait JS cannot use (refused with the iterator's
/// message rather than the user-type one).
fn is_iterator_like(ident: &syn::Ident) -> bool {
    ident == "DoubleEndedIterator" || ident == "ExactSizeIterator" || ident == "IntoIterator"
}

/// The `T` of `Iterator<Item = T>`.
fn iterator_item(args: &PathArguments) -> Option<&Type> {
    let PathArguments::AngleBracketed(a) = args else {
        return None;
    };
    a.args.iter().find_map(|arg| match arg {
        GenericArgument::AssocType(b) if b.ident == "Item" => Some(&b.ty),
        _ => None,
    })
}

fn unparen(ty: &Type) -> &Type {
    match ty {
        Type::Paren(p) => unparen(&p.elem),
        Type::Group(g) => unparen(&g.elem),
        t => t,
    }
}

/// Refuses an item `item` (classified as a return: `info`) that one `next()` cannot hand
/// over: `None` ends a JS iterator, so an item JS reads as null or undefined would be
/// taken for the end.
/// A `Result<T, E>` item is a `T` (its `Err` throws from `next()`), checked as one.
pub fn check_item(info: &TyInfo, item: &Type) -> syn::Result<()> {
    fn why(ty: &Ty) -> Option<&'static str> {
        Some(match ty {
            Ty::Unit => "an iterator of `()` has nothing to hand JS: return a count instead",
            Ty::Option(_) | Ty::JsValue => {
                "an iterator's items cannot be `Option<T>` or `JsValue` (an item JS reads as \
                 null or undefined), nor a `Result` of one: use a #[bridge] enum naming the \
                 cases, or `Vec<Option<T>>`"
            }
            // (A `Result` of a `Result` was refused by `classify`.)
            Ty::Result(ok, _) => return why(ok),
            Ty::View(_) => "an iterator's items cannot be borrowed views: use `Vec<T>` (a copy)",
            _ => return None,
        })
    }
    match why(&info.ty) {
        Some(why) => Err(unsupported(item, why)),
        None => Ok(()),
    }
}

/// The Rust closure one `next()` is typed as (its export's signature and result lowering),
/// spelled at the item's span: `Box<dyn FnMut() -> Option<item>>`. Input to parse, not
/// code: the pull is classified as the closure type it is (`types::classify_any`), so
/// every item type gets a closure's checks and messages with no second classifier;
/// generate spells the pull's type from `CallbackInfo::pull`, not from this.
pub fn next_closure(item: &Type) -> Type {
    let span = item.span();
    syn::parse2(quote_spanned! {span=>
        ::std::boxed::Box<dyn ::core::ops::FnMut() -> ::core::option::Option<#item>>
    })
    .expect("a closure type parses")
}

/// `ty` with every `Self` (`Handle<Self>`, `Vec<Self>`) spelled as `self_ty`. It writes
/// tokens, and stays in parse on purpose: it rewrites the user's own type (the closure
/// type is spelled in the thunk, outside the impl block, where `Self` means nothing),
/// before it is classified; the result is the user's type, not code of the expansion.
pub fn replace_self(ty: &Type, self_ty: &Type) -> Type {
    use proc_macro2::{Group, TokenStream, TokenTree};
    fn walk(tokens: TokenStream, self_ty: &Type) -> TokenStream {
        tokens
            .into_iter()
            .flat_map(|t| -> Vec<TokenTree> {
                match t {
                    TokenTree::Ident(i) if i == "Self" => quote::ToTokens::to_token_stream(self_ty)
                        .into_iter()
                        .collect(),
                    TokenTree::Group(g) => {
                        let mut inner = Group::new(g.delimiter(), walk(g.stream(), self_ty));
                        inner.set_span(g.span());
                        vec![TokenTree::Group(inner)]
                    }
                    other => vec![other],
                }
            })
            .collect()
    }
    let tokens = walk(quote::ToTokens::to_token_stream(ty), self_ty);
    syn::parse2(tokens).unwrap_or_else(|_| ty.clone())
}
