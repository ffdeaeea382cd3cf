//! Emission of a record into the `__bridge_exports` custom section.

use proc_macro2::TokenStream;
use quote::quote;

/// The crate whose macro expansion this is (Cargo sets it for rustc, proc macros see it).
pub fn crate_name() -> String {
    std::env::var("CARGO_PKG_NAME").unwrap_or_else(|_| "unknown".to_string())
}

/// A static in the custom section holding `item`'s record. Only for wasm32: the host build
/// has no such section and no use for it.
pub fn emit(item: bridge_schema::Item) -> TokenStream {
    let record = bridge_schema::Record {
        crate_name: crate_name(),
        item,
    };
    let bytes = bridge_schema::encode_record(&record);
    let len = bytes.len();
    let section = bridge_schema::SECTION_NAME;
    quote! {
        #[cfg(target_arch = "wasm32")]
        #[unsafe(link_section = #section)]
        #[used]
        static __BRIDGE_RECORD: [u8; #len] = [#(#bytes),*];
    }
}
