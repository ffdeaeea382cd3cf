//! The wasm values a type is declared as in generated code, from the lowering table
//! (`bridge_schema::lowering`): which values, in which order, named how, of which Rust
//! type.

use bridge_schema::Ty;
use bridge_schema::lowering::{self, Part, Role, Scalar, Site};
use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

/// A Rust type named by the lowering table (`u32`).
fn named(name: &str) -> TokenStream {
    let ident = Ident::new(name, Span::call_site());
    quote!(#ident)
}

/// The Rust type a scalar's wasm value is declared as (`Scalar::abi`).
pub fn wasm(s: Scalar) -> TokenStream {
    named(s.abi().rust())
}

/// The Rust type of a scalar.
pub fn rust(s: Scalar) -> TokenStream {
    named(s.rust())
}

/// The wasm type a scalar travels as, and its Rust type.
pub fn scalar(ty: &Ty) -> Option<(TokenStream, TokenStream)> {
    Scalar::of(ty).map(|s| (wasm(s), rust(s)))
}

/// The type whose scalar or user type a value part carries: `ty`, or an option's value.
fn valued(ty: &Ty) -> &Ty {
    match ty {
        Ty::Option(inner) => inner,
        Ty::Result(ok, _) => valued(ok),
        other => other,
    }
}

/// The Rust type a part of `ty` is declared as: a scalar's `abi()` type, `named` for a
/// user type's value (its `FromJs`/`IntoJs` `Abi`), else `u32` (addresses, lengths,
/// flags, wire offsets, table indexes: all `i32` in wasm).
fn declared_type(part: &Part, ty: &Ty, named: &TokenStream) -> TokenStream {
    let value = valued(ty);
    match (part.role, Scalar::of(value)) {
        (Role::Value, Some(s)) => wasm(s),
        (Role::Value, None) if matches!(value, Ty::Named(_)) => named.clone(),
        _ => quote!(u32),
    }
}

fn parts(ty: &Ty, site: Site) -> Vec<Part> {
    lowering::parts(ty, site).expect("parse lets through only what crosses at its site")
}

/// The parameters `ty` is declared as at a parameter `site`, for a value named `name`:
/// each part named by its role (`x`, `x_is_some`, `x_len`, `x_cap`).
pub fn params(name: &Ident, ty: &Ty, site: Site, named: &TokenStream) -> Vec<TokenStream> {
    parts(ty, site)
        .iter()
        .map(|part| {
            let ident = match part.role.suffix() {
                "" => name.clone(),
                suffix => format_ident!("{}_{}", name, suffix),
            };
            let rust = declared_type(part, ty, named);
            quote! { #ident: #rust }
        })
        .collect()
}

/// The return type `ty` is declared as at a result `site`: `-> T` for its one value,
/// nothing when it comes back in the return area (or is `()`).
pub fn result(ty: &Ty, site: Site, named: &TokenStream) -> TokenStream {
    match &parts(ty, site)[..] {
        [] => quote! {},
        [part] => {
            let rust = declared_type(part, ty, named);
            quote! { -> #rust }
        }
        more => unreachable!("a result of {} wasm values", more.len()),
    }
}
