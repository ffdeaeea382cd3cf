//! `Err(e)` of a `Result`-returning export: the thrown `Error`'s message is `e`'s
//! `Display` text and, when `E` is a record or enum, its `data` is `e` itself.
//!
//! A `JsValue` error is thrown as it is.
//!
//! Which of these applies is decided at compile time in the (non-generic) thunk by
//! method resolution on [`ErrProbe`]: its inherent `into_error` / `DATA_TYPE_ID` exist
//! only for `E: BridgeData`; otherwise the [`ErrDisplayOnly`] trait's items are found,
//! which need `E:` [`ExportError`] (its message says what an error type must be).

use crate::error::{BridgeError, err_display};
use crate::global::global;
use crate::js::JsValue;
use crate::types::BridgeType;
use crate::wire::{self, WireIn, WireOut};
use std::fmt::Display;

/// Implemented by `#[bridge]` for records and enums: types that cross by value.
pub trait BridgeData: BridgeType + WireOut + WireIn {}

/// The error value of an `Err`, wrapped so the thunk can pick how to throw it.
pub struct ErrProbe<E>(pub E);

impl<E: Display + BridgeData> ErrProbe<E> {
    /// The error type's id, written into the export record (the `.d.ts` documents `data`).
    pub const DATA_TYPE_ID: &'static str = E::TYPE_ID;

    /// The message, with `e` encoded in the wire's out-buffer for the glue to attach as
    /// the `Error`'s `data`.
    #[cold]
    #[inline(never)]
    pub fn into_error(self) -> BridgeError {
        let message = self.0.to_string();
        wire::ret(self.0);
        ERROR_DATA.with(|d| d.set(true));
        BridgeError::new(message)
    }
}

/// The fallback for error types that are not records or enums. It applies to every
/// `ErrProbe`, so that an unfit error type fails on [`ExportError`]'s message rather than
/// on a missing method of an internal type.
pub trait ErrDisplayOnly {
    type Error;
    const DATA_TYPE_ID: &'static str = "";
    fn into_error(self) -> BridgeError
    where
        Self::Error: ExportError;
}

impl<E> ErrDisplayOnly for ErrProbe<E> {
    type Error = E;
    #[inline(always)]
    fn into_error(self) -> BridgeError
    where
        E: ExportError,
    {
        self.0.into_bridge_error()
    }
}

/// What the `E` of an exported `Result<T, E>` can be.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the error type of a `Result` returned to JS",
    label = "not `Display`, nor a `JsValue`",
    note = "JS gets `Err(e)` as a thrown `Error` whose message is `e`'s `Display` text (a \
            #[bridge] record or enum that is `Display` also becomes the Error's `data`), or a \
            `JsValue` thrown as it is: implement `std::fmt::Display` for the error type, or \
            return `Result<T, String>` or `Result<T, JsValue>`"
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
    /// Throws the value right away: the thunk builds an owned error after its closure,
    /// when every borrow guard is dropped (only a borrowing error type is built inside,
    /// and a `JsValue` borrows nothing). So `abi::throw`, which every thunk links, stays
    /// free of the `JsValue` table.
    #[cold]
    #[inline(never)]
    fn into_bridge_error(self) -> BridgeError {
        crate::js::throw_value(self.into_abi())
    }
}

global! { static ERROR_DATA: bool = false; }

/// 1 if the error just thrown carries data in the wire's out-buffer (then clears it).
/// The glue of a member whose error type is a record or enum asks after catching.
#[unsafe(export_name = bridge_schema::runtime_export!(error_data))]
pub extern "C" fn __bridge_error_data() -> u32 {
    ERROR_DATA.with(|d| d.replace(false)) as u32
}
