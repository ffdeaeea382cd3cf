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
mod test_attr;

use proc_macro::TokenStream;

#[proc_macro_attribute]
pub fn bridge(attr: TokenStream, item: TokenStream) -> TokenStream {
    match parse::item(attr.into(), item.into()) {
        Ok(model) => generate::item(&model),
        Err(e) => e.to_compile_error(),
    }
    .into()
}

/// `#[bridge::test]`: a test `cargo bridge test` runs inside wasm (see `test_attr.rs`).
#[proc_macro_attribute]
pub fn test(attr: TokenStream, item: TokenStream) -> TokenStream {
    test_attr::expand(attr.into(), item.into())
        .unwrap_or_else(|e| e.to_compile_error())
        .into()
}
