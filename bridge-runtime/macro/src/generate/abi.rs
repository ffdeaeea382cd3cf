//! The Rust spelling of the scalars' wasm values, from `bridge_schema::lowering`.

use bridge_schema::Ty;
use bridge_schema::lowering::Scalar;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

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
