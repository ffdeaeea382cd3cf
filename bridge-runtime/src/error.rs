//! `BridgeError` (the error a thunk throws as a JS `Error`, its message waiting in
//! `LAST_ERROR`), throwing it, the guard notes around code that runs after some borrow
//! guards ended (`after_guards`), and the `__bridge` host imports they use. Imports only
//! `global` and `text`; `abi` re-exports what the generated code calls.
//!
//! **An exception ends exactly the borrows its call still holds.** Code that runs after some
//! of a thunk's guards ended and may panic or throw (a doomed box's `Drop` at a guard's end,
//! an error's `Display`) is bracketed by the host imports `guards_ended(I)` /
//! `guards_resumed` (cold paths only); the glue keeps them as `[frame, I]` in `$guardsEnded`
//! (`frame`: a shadow-stack address of the runtime's frame), and `$rethrow` of the call whose
//! `$stack.base` is above `frame` ends only the guards numbered below `I` (`FnView::borrows`,
//! in the macro's order).

use crate::global::global;
use crate::text::push_hex;
use std::cell::Cell;

/// An error the generated code turns into a thrown JS `Error`. Its message waits in
/// `LAST_ERROR`, so the value is zero-sized: a `Result<&T, BridgeError>` is one pointer and
/// the thunks' hot paths need no stack frame for an error they rarely build.
#[derive(Debug)]
pub struct BridgeError(());

impl BridgeError {
    /// Record `message` as the error to throw.
    #[cold]
    #[inline(never)]
    pub fn new(message: String) -> BridgeError {
        LAST_ERROR.with(|slot| drop(slot.replace(message)));
        BridgeError(())
    }
}

pub type Result<T> = std::result::Result<T, BridgeError>;

// A `Cell`, not a `RefCell`: a `RefCell`'s borrow panics format their message.
global! { static LAST_ERROR: String = String::new(); }

/// Bytes the error messages keep allocated for the next one.
pub(crate) fn buffer_bytes() -> usize {
    LAST_ERROR.with(|cell| {
        let text = cell.take();
        let bytes = text.capacity();
        cell.set(text);
        bytes
    })
}

/// Throw `error` as a JS `Error`. Call only when no borrow guards are live.
/// Cold and out of line: keeps the error path out of every thunk's hot path.
#[cold]
#[inline(never)]
pub fn throw(error: BridgeError) -> ! {
    let BridgeError(()) = error;
    // The message lives in LAST_ERROR until the next error; JS copies it before throwing.
    // No borrow may be held across `host::throw`: the JS exception skips destructors.
    let (ptr, len) = LAST_ERROR.with(|slot| {
        // Moving the String out and back keeps its buffer where it is.
        let message = slot.take();
        let at = (message.as_ptr(), message.len());
        slot.set(message);
        at
    });
    // SAFETY: LAST_ERROR is not touched again before JS has copied the message.
    host::throw(unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(ptr, len)) })
}

/// Unwrap the result of a generated export body, throwing on error.
#[inline(always)]
pub fn or_throw<T>(result: Result<T>) -> T {
    match result {
        Ok(v) => v,
        Err(e) => throw(e),
    }
}

/// A `char` from the code point JS passed (the glue checked it is one code point).
pub fn lift_char(code: u32) -> Result<char> {
    char::from_u32(code).ok_or_else(|| bad_char(code))
}

#[cold]
#[inline(never)]
fn bad_char(code: u32) -> BridgeError {
    let mut message = String::new();
    push_hex(&mut message, code);
    message.push_str(" is not a Unicode scalar value, so it cannot be a Rust `char`");
    BridgeError::new(message)
}

/// The error a `Result`-returning export throws for `Err(e)`: `e`'s `Display` text.
/// `e` is dropped here, inside [`throw_after_guards`] (or, for an error type that borrows,
/// inside the thunk's closure, before the borrow guards).
#[cold]
#[inline(never)]
pub fn err_display<E: std::fmt::Display>(e: E) -> BridgeError {
    BridgeError::new(e.to_string())
}

/// Run `f`, code a thunk runs after its borrow guards from number `from` on have ended
/// (0: all), that may panic or throw: the glue then ends only the borrows before `from`
/// (see `bridge_schema::abi::host::GUARDS_ENDED`). Cold paths only: two host calls.
pub(crate) fn after_guards<R>(from: u32, f: impl FnOnce() -> R) -> R {
    // The marker's key: an address in this frame, on the shadow stack (its address goes
    // to JS, so it lives in memory). It lies below the stack base of the JS call running
    // this thunk and at or above that of any call `f` makes into JS and back: the glue's
    // `$rethrow` applies the marker to exactly this call.
    let frame = Cell::new(0u8);
    host::guards_ended(from, frame.as_ptr() as usize as u32);
    let result = f();
    host::guards_resumed();
    frame.set(1);
    result
}

mod host {
    #[cfg(target_arch = "wasm32")]
    // bridge_schema::abi::host (the attribute takes only literals; `cargo bridge` checks
    // every built module's imports against the schema).
    #[link(wasm_import_module = "__bridge")]
    unsafe extern "C" {
        #[link_name = "throw"]
        fn bridge_throw(ptr: u32, len: u32) -> !;
        #[link_name = "guards_ended"]
        fn bridge_guards_ended(from: u32, frame: u32);
        #[link_name = "guards_resumed"]
        fn bridge_guards_resumed();
    }

    #[cfg(target_arch = "wasm32")]
    pub fn guards_ended(from: u32, frame: u32) {
        // SAFETY: JS notes two numbers.
        unsafe { bridge_guards_ended(from, frame) }
    }

    #[cfg(target_arch = "wasm32")]
    pub fn guards_resumed() {
        // SAFETY: JS drops a note.
        unsafe { bridge_guards_resumed() }
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn guards_ended(_from: u32, _frame: u32) {}

    #[cfg(not(target_arch = "wasm32"))]
    pub fn guards_resumed() {}

    #[cfg(target_arch = "wasm32")]
    pub fn throw(message: &str) -> ! {
        // SAFETY: JS reads the message synchronously, before throwing.
        unsafe { bridge_throw(message.as_ptr() as u32, message.len() as u32) }
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn throw(message: &str) -> ! {
        panic!("{message}")
    }
}
