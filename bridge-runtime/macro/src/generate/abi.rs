//! The Rust spelling of wasm values and scalars (which wasm type a scalar is, is the
//! model's: `model::ty::wasm_scalar`).

use crate::model::ty::{Wasm, wasm_scalar};
use bridge_schema::Ty;
use proc_macro2::TokenStream;
use quote::quote;

/// The Rust type of a wasm value.
pub fn wasm(w: Wasm) -> TokenStream {
    match w {
        Wasm::I32 => quote!(i32),
        Wasm::U32 => quote!(u32),
        Wasm::F32 => quote!(f32),
        Wasm::F64 => quote!(f64),
        Wasm::I64 => quote!(i64),
        Wasm::U64 => quote!(u64),
    }
}

/// The wasm type a scalar travels as, and its Rust type.
pub fn scalar(ty: &Ty) -> Option<(TokenStream, TokenStream)> {
    let rust = match ty {
        Ty::Bool => quote!(bool),
        Ty::I8 => quote!(i8),
        Ty::I16 => quote!(i16),
        Ty::I32 => quote!(i32),
        Ty::U8 => quote!(u8),
        Ty::U16 => quote!(u16),
        Ty::U32 => quote!(u32),
        Ty::F32 => quote!(f32),
        Ty::F64 => quote!(f64),
        Ty::I64 => quote!(i64),
        Ty::U64 => quote!(u64),
        Ty::Usize => quote!(usize),
        Ty::Isize => quote!(isize),
        Ty::Char => quote!(char),
        _ => return None,
    };
    Some((wasm(wasm_scalar(ty)?), rust))
}
