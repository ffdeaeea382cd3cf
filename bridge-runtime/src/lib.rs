//! Runtime for crates built with `cargo bridge`.
//!
//! - [`bridge`]: the attribute that exports classes, their members and free functions.
//! - [`Handle`]: a cheap, clonable, reference-counted handle to an exported object; the
//!   same object can be returned to JS again and again, and its `Drop` runs once, when the
//!   last Rust handle and the last JS reference are gone.
//! - [`BridgeType`], [`BridgeClass`], [`IntoJs`], [`FromJs`]: what `#[bridge]` implements
//!   for user types, and how thunks marshal them.
//! - [`JsValue`], [`JsError`]: JS values and exceptions in Rust (see [`js`]).
//! - [`Closure`]: a Rust closure JS calls as a function, owned by Rust (dropping it
//!   invalidates the function) until [`Closure::forget`] hands it to JS.
//! - [`spawn_local`], [`JsPromise`], [`abortable`]: async (`async fn` exports return
//!   Promises; Rust awaits JS promises; an `AbortSignal` cancels a future), on a
//!   single-threaded executor polled from microtasks.
//! - [`abi`]: the helpers the macro's generated code calls. Not a stable API.

pub mod abi;
mod class_values;
mod closure;
mod error;
#[doc(hidden)]
pub mod flat;
mod global;
mod handle;
pub mod js;
mod maps;
mod panic_hook;
mod pool;
#[doc(hidden)]
pub mod record;
mod result;
mod ret;
mod task;
mod text;
mod types;
pub mod wire;

pub use bridge_macro::bridge;
/// `#[bridge::test]` (a module beside the `bridge` attribute: one `use` brings both).
pub mod bridge {
    pub use bridge_macro::test;
}

/// Bytes of the Rust heap the runtime keeps allocated for reuse (the wire buffers, the
/// fast pool's entries, the last error and panic messages): they grow to a high-water
/// mark and stay. For leak checks: a module's heap in use minus this is what its objects
/// and values hold (`cargo xtask soak`).
#[doc(hidden)]
pub fn runtime_buffer_bytes() -> usize {
    error::buffer_bytes() + pool::buffer_bytes() + wire::buffer_bytes()
}
pub use class_values::NotAClass;
pub use closure::{Closure, ClosureArg, ClosureReturn, IntoClosure, IntoOnce};
pub use handle::{Handle, HandleRef, HandleRefMut, WeakHandle};
pub use js::{JsError, JsStatic, JsType, JsValue};
pub use task::{JsPromise, TaskResult, abortable, spawn_local};
/// wasm-bindgen, for `wasm_bindgen_fields!` (feature `wasm-bindgen`).
#[cfg(feature = "wasm-bindgen")]
#[doc(hidden)]
pub use wasm_bindgen as __wasm_bindgen;

pub use result::BridgeData;
pub use types::{BridgeClass, BridgeType, FromJs, IntoJs};
