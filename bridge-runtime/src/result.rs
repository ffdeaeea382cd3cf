//! `Err(e)` of a `Result`-returning export: the thrown `Error`'s message is `e`'s
//! `Display` text and, when `E` is a record or enum, its `data` is `e` itself.
//!
//! Which of the two applies is decided at compile time in the (non-generic) thunk by
//! method resolution on [`ErrProbe`]: its inherent `into_error` / `DATA_TYPE_ID` exist
//! only for `E: BridgeData`; otherwise the [`ErrDisplayOnly`] trait's items are found.

use crate::abi::{BridgeError, err_display};
use crate::global::global;
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

/// The fallback for error types that are only `Display`.
pub trait ErrDisplayOnly {
    const DATA_TYPE_ID: &'static str = "";
    fn into_error(self) -> BridgeError;
}

impl<E: Display> ErrDisplayOnly for ErrProbe<E> {
    #[inline(always)]
    fn into_error(self) -> BridgeError {
        err_display(self.0)
    }
}

global! { static ERROR_DATA: bool = false; }

/// 1 if the error just thrown carries data in the wire's out-buffer (then clears it).
/// The glue of a member whose error type is a record or enum asks after catching.
#[unsafe(export_name = bridge_schema::runtime_export!(error_data))]
pub extern "C" fn __bridge_error_data() -> u32 {
    ERROR_DATA.with(|d| d.replace(false)) as u32
}
