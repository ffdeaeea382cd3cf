//! `#[bridge]`: exports classes, their members and free functions to JS.
//!
//! Each expansion emits the item unchanged (minus helper attributes), `extern "C"` export
//! thunks that convert between the wasm ABI and Rust types (see `bridge_runtime::abi`),
//! and a record describing the exports in the `__bridge_exports` custom section.
//!
//! Three layers, one way: [`parse`] checks the item and builds the [`model`] (data only),
//! [`generate`] turns the model into tokens and cannot fail.

mod generate;
mod model;
mod parse;

use proc_macro::TokenStream;

#[proc_macro_attribute]
pub fn bridge(attr: TokenStream, item: TokenStream) -> TokenStream {
    match parse::item(attr.into(), item.into()) {
        Ok(model) => generate::item(&model),
        Err(e) => e.to_compile_error(),
    }
    .into()
}
