//! The wasm values a type is declared as in generated code: the parts parse took from the
//! lowering table (`bridge_schema::lowering`), in order, named and of their Rust type.

use bridge_schema::Ty;
use bridge_schema::lowering::{FromWasm, Part, Role, Scalar};
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

/// Where a scalar's Rust value is made of its wasm value, what a value that is none of
/// the type's (a `char` that is no Unicode scalar value) does.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum OnBad {
    /// Returns the runtime's error (`?`): an export's parameter.
    Return,
    /// Panics: a call into JS's result, which the glue checked.
    Panic,
}

/// The Rust value of scalar `s` from its wasm value `value`, as its row says JS makes its
/// value ([`FromWasm`]): a number by a cast (narrowing casts wrap), a `bool` from 0/1,
/// and a scalar JS calls a function for (`char`) through the runtime's
/// `abi::lift_<rust>` (returns an error) or `abi::checked_<rust>` (panics).
pub fn lift_scalar(s: Scalar, value: TokenStream, on_bad: OnBad) -> TokenStream {
    match s.row().from_wasm {
        FromWasm::Value => {
            let rust = rust(s);
            quote! { (#value as #rust) }
        }
        FromWasm::NonZero => quote! { (#value != 0) },
        FromWasm::Call(_) => {
            let (prefix, question) = match on_bad {
                OnBad::Return => ("lift", quote!(?)),
                OnBad::Panic => ("checked", quote!()),
            };
            let helper = format_ident!("{prefix}_{}", s.rust());
            quote! { ::bridge_runtime::abi::#helper(#value) #question }
        }
    }
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

/// The parameters of `ty`, crossing as `parts` (`bridge_schema::lowering::parts` at a
/// parameter site, which parse asked), for a value named `name`: each part named by its
/// role (`x`, `x_is_some`, `x_len`, `x_cap`).
pub fn params(name: &Ident, ty: &Ty, parts: &[Part], named: &TokenStream) -> Vec<TokenStream> {
    parts
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

/// The return type of a result `ty` whose one wasm value is `part` (parse asked the
/// lowering table): `-> T`, nothing when it comes back in the return area (or is `()`).
pub fn result(ty: &Ty, part: Option<Part>, named: &TokenStream) -> TokenStream {
    match part {
        None => quote! {},
        Some(part) => {
            let rust = declared_type(&part, ty, named);
            quote! { -> #rust }
        }
    }
}
