//! Runtime for crates built with `cargo bridge`.
//!
//! - [`bridge`]: the attribute that exports classes, their members and free functions.
//! - [`Handle`]: a cheap, clonable, reference-counted handle to an exported object; the
//!   same object can be returned to JS again and again, and its `Drop` runs once, when the
//!   last Rust handle and the last JS reference are gone.
//! - [`abi`]: the helpers the macro's generated code calls. Not a stable API.

pub mod abi;
mod handle;
mod pool;
pub mod wire;

pub use bridge_macro::bridge;
pub use handle::{Handle, HandleRef, HandleRefMut};

/// Implemented by `#[bridge]` for every exported class. Not meant to be implemented by hand.
///
/// # Safety
/// `lower` must hand the strong reference it receives to the JS side (or balance it), as
/// the identity hook that `cargo bridge` installs does.
pub unsafe trait BridgeClass: Sized + 'static {
    /// The class name JS sees.
    const NAME: &'static str;
    /// Pass one strong reference to `ptr` through the class's identity hook.
    fn lower_identity(ptr: u32) -> u32;
}
