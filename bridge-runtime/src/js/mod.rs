//! Calling JS from Rust: [`JsValue`] (any JS value, held in the glue's value table),
//! [`JsError`] (a JS exception as a Rust error), and the helpers the code generated for
//! `#[bridge] extern` blocks and callback parameters calls.

#[doc(hidden)]
pub mod closure;
mod error;
mod exception;
pub(crate) mod host;
#[doc(hidden)]
pub mod iterator;
mod statics;
mod value;
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
