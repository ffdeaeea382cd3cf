//! `Err(e)` of a `Result`-returning export: the thrown `Error`'s message is `e`'s
//! `Display` text and, when `E` is a record or enum, its `data` is `e` itself.
//!
//! An error type that is not `Display` but converts into a `JsValue` (`JsValue` itself,
//! `From<E> for JsValue`, and with the `wasm-bindgen` feature anything `Into<
//! wasm_bindgen::JsValue>`: `wasm_bindgen::JsError`, the user's own error types) is thrown
//! as that value, as wasm-bindgen throws it. `Display` wins where a type is both (`String`
//! is an `Error` with that message, not a thrown string).
//!
//! Which of these applies is decided at compile time in the (non-generic) thunk by
//! method resolution, one level per reference (autoref specialization): the thunk calls
//! `(&&&&&ErrProbe::new(e)).make_error()`, and the first level whose trait the error type
//! fits wins: [`ErrData`] (`Display` + record or enum), [`ErrMessage`] (`Display`),
//! [`ErrValue`] (`Into<JsValue>`), [`ErrWbgValue`] (`Into<wasm_bindgen::JsValue>`), and
//! last [`ErrUnfit`], which applies to every error type and needs `E:` [`ExportError`]: a
//! bound no unfit type meets, whose message says what an error type must be.

use crate::error::{BridgeError, err_display};
use crate::global::global;
use crate::js::JsValue;
use crate::types::BridgeType;
use crate::wire::{self, WireIn, WireOut};
use std::cell::Cell;
use std::fmt::Display;

/// Implemented by `#[bridge]` for records and enums: types that cross by value.
pub trait BridgeData: BridgeType + WireOut + WireIn {}

/// The error value of an `Err`, wrapped so the thunk can pick how to throw it. The levels'
/// methods take `&self` (they are found through references), so the value sits in a
/// `Cell` they take it from.
pub struct ErrProbe<E>(Cell<Option<E>>);

impl<E> ErrProbe<E> {
    #[inline(always)]
    pub fn new(e: E) -> ErrProbe<E> {
        ErrProbe(Cell::new(Some(e)))
    }

    /// Apply `f` to the error (once: the thunk calls `make_error` once per probe; a second
    /// call would find nothing and throw an empty message rather than panic).
    #[inline(always)]
    fn take(&self, f: impl FnOnce(E) -> BridgeError) -> BridgeError {
        match self.0.take() {
            Some(e) => f(e),
            None => BridgeError::new(String::new()),
        }
    }
}

impl<E: Display + BridgeData> ErrProbe<E> {
    /// The error type's id, written into the export record (the `.d.ts` documents `data`).
    pub const DATA_TYPE_ID: &'static str = E::TYPE_ID;
}

/// `DATA_TYPE_ID` of every error type that is not a `Display` record or enum: none.
pub trait ErrNoData {
    const DATA_TYPE_ID: &'static str = "";
}

impl<E> ErrNoData for ErrProbe<E> {}

/// Level 1: a `Display` record or enum: the message, and `e` encoded in the wire's
/// out-buffer for the glue to attach as the `Error`'s `data`.
pub trait ErrData {
    fn make_error(&self) -> BridgeError;
}

impl<E: Display + BridgeData> ErrData for &&&&ErrProbe<E> {
    #[cold]
    #[inline(never)]
    fn make_error(&self) -> BridgeError {
        self.take(|e| {
            let message = e.to_string();
            wire::ret(e);
            ERROR_DATA.with(|d| d.set(true));
            BridgeError::new(message)
        })
    }
}

/// Level 2: any other `Display` type: the message.
pub trait ErrMessage {
    fn make_error(&self) -> BridgeError;
}

impl<E: Display> ErrMessage for &&&ErrProbe<E> {
    #[inline(always)]
    fn make_error(&self) -> BridgeError {
        self.take(err_display)
    }
}

/// Level 3: a value that converts into a `JsValue` (`JsValue` itself, or `From<E> for
/// JsValue`): thrown as it is.
pub trait ErrValue {
    fn make_error(&self) -> BridgeError;
}

impl<E: Into<JsValue>> ErrValue for &&ErrProbe<E> {
    #[inline(always)]
    fn make_error(&self) -> BridgeError {
        self.take(|e| throw_js(e.into()))
    }
}

/// Level 4 (feature `wasm-bindgen`): a value that converts into a `wasm_bindgen::JsValue`
/// (`wasm_bindgen::JsError`, a user error type with `From<E> for wasm_bindgen::JsValue`):
/// thrown as that value (the same JS value, moved into cargo bridge's value table).
pub trait ErrWbgValue {
    fn make_error(&self) -> BridgeError;
}

#[cfg(feature = "wasm-bindgen")]
impl<E: Into<wasm_bindgen::JsValue>> ErrWbgValue for &ErrProbe<E> {
    #[inline(always)]
    fn make_error(&self) -> BridgeError {
        self.take(|e| throw_js(JsValue::from(e.into())))
    }
}

/// Throws the value right away: the thunk builds an owned error after its closure, when
/// every borrow guard is dropped (only a borrowing error type is built inside). So
/// `abi::throw`, which every thunk links, stays free of the `JsValue` table.
#[cold]
#[inline(never)]
fn throw_js(value: JsValue) -> BridgeError {
    crate::js::throw_value(value.into_abi())
}

/// The last level: every error type no level above took. Its bound is never met by such a
/// type; it exists for [`ExportError`]'s message, at the error type.
pub trait ErrUnfit {
    type Error;
    fn make_error(&self) -> BridgeError
    where
        Self::Error: ExportError;
}

impl<E> ErrUnfit for ErrProbe<E> {
    type Error = E;
    #[inline(always)]
    fn make_error(&self) -> BridgeError
    where
        E: ExportError,
    {
        self.take(ExportError::into_bridge_error)
    }
}

/// What the `E` of an exported `Result<T, E>` can be.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the error type of a `Result` returned to JS",
    label = "not `Display`, nor convertible into a `JsValue`",
    note = "JS gets `Err(e)` as a thrown `Error` whose message is `e`'s `Display` text (a \
            #[bridge] record or enum that is `Display` also becomes the Error's `data`), or, \
            for an error type that converts into a `JsValue` (`impl From<E> for JsValue`; \
            `wasm_bindgen::JsError` and `From<E> for wasm_bindgen::JsValue` with \
            bridge-runtime's `wasm-bindgen` feature), that value thrown as it is: implement \
            `std::fmt::Display` or one of those `From`s for the error type, or return \
            `Result<T, String>` or `Result<T, JsValue>`"
)]
pub trait ExportError {
    #[doc(hidden)]
    fn into_bridge_error(self) -> BridgeError;
}

impl<E: Display> ExportError for E {
    #[inline(always)]
    fn into_bridge_error(self) -> BridgeError {
        err_display(self)
    }
}

impl ExportError for JsValue {
    #[inline(always)]
    fn into_bridge_error(self) -> BridgeError {
        throw_js(self)
    }
}

global! { static ERROR_DATA: bool = false; }

/// 1 if the error just thrown carries data in the wire's out-buffer (then clears it).
/// The glue of a member whose error type is a record or enum asks after catching.
#[unsafe(export_name = bridge_schema::runtime_export!(error_data))]
pub extern "C" fn __bridge_error_data() -> u32 {
    ERROR_DATA.with(|d| d.replace(false)) as u32
}
