//! Mutable globals of the runtime. A wasm module without the atomics feature has one
//! thread, so a global is a plain `static` `Cell` there: `thread_local!` would add an
//! "accessed during or after destruction" check whose panic formats its message, which
//! links `core::fmt` into every module. Elsewhere (the host build of the unit tests, which
//! run on several threads) it stays a `thread_local!`. Both are used as `X.with(|cell| ..)`.

use std::cell::Cell;

#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
pub(crate) struct Global<T>(pub(crate) Cell<T>);

// SAFETY: only built for single-threaded wasm (see the cfg).
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
unsafe impl<T> Sync for Global<T> {}

#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
impl<T> Global<T> {
    #[inline(always)]
    pub(crate) fn with<R>(&'static self, f: impl FnOnce(&Cell<T>) -> R) -> R {
        f(&self.0)
    }
}

#[cfg(not(all(target_family = "wasm", not(target_feature = "atomics"))))]
pub(crate) type Global<T> = std::thread::LocalKey<Cell<T>>;

/// `global! { static NAME: T = const_init; }`: a [`Global`] holding a `Cell<T>`.
macro_rules! global {
    ($(#[$meta:meta])* static $name:ident: $t:ty = $init:expr;) => {
        #[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
        $(#[$meta])*
        static $name: $crate::global::Global<$t> =
            $crate::global::Global(::std::cell::Cell::new($init));
        #[cfg(not(all(target_family = "wasm", not(target_feature = "atomics"))))]
        thread_local! {
            $(#[$meta])*
            static $name: ::std::cell::Cell<$t> = const { ::std::cell::Cell::new($init) };
        }
    };
}
pub(crate) use global;

/// Run `f` on the vector in `key`. Crate-private: every caller passes a closure that only
/// works on the vector (push, pop, len, ...) and calls nothing that could reach `key`.
pub(crate) fn with_vec<T, R>(key: &'static Global<Vec<T>>, f: impl FnOnce(&mut Vec<T>) -> R) -> R {
    // SAFETY: the global is only reached through this function, `f` does not re-enter
    // it (see above), and the module is single-threaded (thread-local on the host), so
    // this is the only reference to the vector while `f` runs.
    key.with(|cell| f(unsafe { &mut *cell.as_ptr() }))
}
