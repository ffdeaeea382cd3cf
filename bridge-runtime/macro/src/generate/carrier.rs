//! A user type's carrier (`model::ty::Carrier`) as the Rust type the thunks convert
//! through.

use crate::model::ty::Carrier;
use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

/// `T`, or `::bridge_runtime::Handle<T>`.
impl ToTokens for Carrier {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Carrier::Value(ty) => ty.to_tokens(tokens),
            Carrier::Handle(ty) => tokens.extend(quote! { ::bridge_runtime::Handle<#ty> }),
        }
    }
}
