//! Calling JS from Rust: [`JsValue`] (any JS value, held in the glue's value table),
//! [`JsError`] (a JS exception as a Rust error), and the helpers the code generated for
//! `#[bridge] extern` blocks and callback parameters calls.
//!
//! `value.rs` is `JsValue` (an index into the glue's value table; `Clone`/`Drop` take and
//! free entries, `==` is JS `===`; entries 0..3 are `undefined`, `null`, `true`, `false`,
//! canonical and never freed), `exception.rs` the exception cell a catching call reads (and
//! `throw_value`), `error.rs` `JsError` and the catching calls (`JsValue::call`, `caught`),
//! `host.rs` the glue's value operations (import module `__bridge_js`), `statics.rs`
//! `JsStatic<T>` (a `static NAME: T;` of an extern block: read once, through `Deref`; nothing
//! stored when the read throws), `closure.rs` a Rust closure's box behind a JS function,
//! `iterator.rs` an iterator returned to JS, boxed in its own type (`into_abi`, and
//! `next`/`free` typed by an `IterType<I>` the macro infers from the callee, so a pull is a
//! direct call); `renamed.rs` lets `JsValue` cross under another name (`use .. as`, a type
//! alias); `wbg_values.rs` (feature `wasm-bindgen`) converts to and from
//! `wasm_bindgen::JsValue`, `wbg_types.rs` lets wasm-bindgen's types cross `#[bridge]`
//! signatures through it. This file only declares and re-exports.

#[doc(hidden)]
pub mod closure;
mod error;
mod exception;
pub(crate) mod host;
#[doc(hidden)]
pub mod iterator;
mod renamed;
mod statics;
mod value;
#[cfg(feature = "wasm-bindgen")]
mod wbg_types;
#[cfg(feature = "wasm-bindgen")]
mod wbg_values;

pub use error::JsError;
#[doc(hidden)]
pub use error::caught;
pub(crate) use exception::throw_value;
#[doc(hidden)]
pub use exception::{__bridge_js_exception_cell, clear_exception, take_exception};
pub use statics::JsStatic;
pub use value::{JsType, JsValue};
#[cfg(feature = "wasm-bindgen")]
#[doc(hidden)]
pub use wbg_types::{
    WASM_BINDGEN_TYPE_ID, WasmBindgenStruct, WasmBindgenType, WbgArgBorrow, WbgField, WbgLeaf,
    wire_field_from,
};
/// Without the `wasm-bindgen` feature nothing implements it (the macro imports it anyway).
/// It lives here, not in `abi` beside `ArgProbe`: `wbg_types` imports `abi`.
#[cfg(not(feature = "wasm-bindgen"))]
#[doc(hidden)]
pub trait WbgArgBorrow {}
/// As `WbgArgBorrow`: without the feature nothing implements it.
#[cfg(not(feature = "wasm-bindgen"))]
#[doc(hidden)]
pub trait WbgField {}
