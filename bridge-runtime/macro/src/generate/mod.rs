//! The generate layer: tokens from the [`model`]. Every check was made by `parse`, so
//! nothing here fails; the functions return tokens, never `syn::Result`.
//!
//! [`model`]: crate::model

mod abi;
mod asyncs;
mod callback;
mod carrier;
mod class;
mod configured;
mod data;
mod functions;
mod imports;
mod jscall;
mod lift;
mod record;
mod thunk;

use crate::model::Item;
use proc_macro2::TokenStream;

pub fn item(item: &Item) -> TokenStream {
    match item {
        Item::Class(c) => class::class(c),
        Item::Impl(i) => functions::impl_block(i),
        Item::Function(f) => functions::free_fn(f),
        Item::Data(d) => data::data(d),
        Item::Imports(i) => imports::imports(i),
    }
}
