//! `JsStatic<T>`: a `static NAME: T;` of a `#[bridge] extern` block, read from JS once, on
//! first use (like wasm-bindgen's `JsStatic`): `*PI`, or any method of `T` through `Deref`.

use std::ops::Deref;
use std::sync::OnceLock;

/// A JS value read once, the first time Rust dereferences it (`*PI`, `CONFIG.get("x")`).
/// Later changes to the JS property are not seen; a missing global is an `Error` naming
/// the Rust static and the JS path, thrown to the JS caller at that first use.
pub struct JsStatic<T: 'static> {
    value: OnceLock<T>,
    read: fn() -> T,
}

impl<T: 'static> JsStatic<T> {
    #[doc(hidden)]
    pub const fn new(read: fn() -> T) -> JsStatic<T> {
        JsStatic {
            value: OnceLock::new(),
            read,
        }
    }
}

impl<T: 'static> Deref for JsStatic<T> {
    type Target = T;
    fn deref(&self) -> &T {
        if let Some(v) = self.value.get() {
            return v;
        }
        // Not `get_or_init`: a JS exception out of the read (a missing global) unwinds
        // through this frame, which would leave a `get_or_init` marked as running
        // forever. Here nothing is stored, and the next use reads again. (A read that
        // re-enters through JS and reads the same static first keeps the first value.)
        let _ = self.value.set((self.read)());
        match self.value.get() {
            Some(v) => v,
            None => unreachable!(),
        }
    }
}
