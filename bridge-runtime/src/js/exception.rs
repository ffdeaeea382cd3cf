//! The exception cell: where the glue notes the value a JS function threw into a call
//! Rust made with a catch, and throwing a JS value from Rust.

use super::host;
use super::value::JsValue;
use std::cell::Cell;

struct ExceptionCell(Cell<u32>);
// SAFETY: wasm32-unknown-unknown is single-threaded; the host build never shares it.
unsafe impl Sync for ExceptionCell {}
/// Table index + 1 of the value a JS function threw into a call Rust made with a catch
/// (0: none). Written by the glue.
static EXCEPTION: ExceptionCell = ExceptionCell(Cell::new(0));

/// Address of the exception cell, read once by the glue.
#[unsafe(export_name = bridge_schema::runtime_export!(js_exception_cell))]
pub extern "C" fn __bridge_js_exception_cell() -> u32 {
    EXCEPTION.0.as_ptr() as usize as u32
}

/// Forget any exception recorded before a catching call.
#[doc(hidden)]
#[inline(always)]
pub fn clear_exception() {
    EXCEPTION.0.set(0);
}

/// Throw the JS value whose table entry is `idx` (taking the entry). Call only when no
/// borrow guards are live, as for `abi::throw`.
pub(crate) fn throw_value(idx: u32) -> ! {
    // SAFETY: the glue takes the entry and throws; nothing of Rust's is borrowed.
    unsafe { host::throw(idx) }
}

/// The value thrown into the last catching call, if it threw.
#[doc(hidden)]
#[inline(always)]
pub fn take_exception() -> Option<JsValue> {
    match EXCEPTION.0.replace(0) {
        0 => None,
        n => Some(JsValue::from_abi(n - 1)),
    }
}
