//! [`abortable`]: a future cancelled by a JS `AbortSignal`.
//!
//! The signal's abort is a settlement slot like an awaited promise's (`executor.rs`): the
//! glue (`abort_then` in `templates/task.js.j2`) listens for `abort` and settles the slot
//! from a microtask, never inside the `abort()` call (which may run while Rust polls).
//! Finishing or dropping first withdraws the listener, so a signal that never aborts (the
//! usual case) holds nothing.

use super::{executor, host};
use crate::js::{JsError, JsType, JsValue};
use std::future::{Future, poll_fn};
use std::pin::pin;
use std::task::Poll;

/// Runs `future` until it finishes (`Ok` with its output) or `signal` aborts, whichever
/// comes first: on abort the future is dropped unfinished (what it awaited is let go
/// safely, as for a dropped [`JsPromise`](super::JsPromise)) and the result is
/// `Err(JsError)` holding `signal.reason` (a `DOMException` named `AbortError` unless the
/// caller passed `abort(reason)`). A signal already aborted gives that `Err` without
/// polling the future. `undefined` or `null` means no signal (an optional `signal`
/// option in JS); any other value that is no `AbortSignal` is `Err` with a `TypeError`.
///
/// ```ignore
/// #[bridge]
/// pub async fn load(url: String, signal: JsValue) -> Result<String, JsError> {
///     bridge_runtime::abortable(&signal, fetch_text(&url)).await?
/// }
/// ```
///
/// Only futures polled by this runtime's executor (async exports, `spawn_local`) may
/// await it.
pub async fn abortable<F: Future>(signal: &JsValue, future: F) -> Result<F::Output, JsError> {
    if matches!(signal.type_of(), JsType::Undefined | JsType::Null) {
        return Ok(future.await);
    }
    let mut future = pin!(future);
    let mut subscription = Subscription { key: 0 };
    poll_fn(|cx| {
        if subscription.key == 0 {
            let key = executor::promise_slot(cx.waker());
            // SAFETY: a host call taking a table index and a number; the value stays ours.
            let error = unsafe { host::abort_then(signal.abi(), key) };
            if error != bridge_schema::abi::tasks::ABORT_SUBSCRIBED {
                executor::promise_unused(key);
                return Poll::Ready(Err(JsError::from_thrown(JsValue::from_abi(error))));
            }
            subscription.key = key;
        } else if let Some((idx, _)) = executor::promise_poll(subscription.key, cx.waker()) {
            // The slot is free again and the listener gone: nothing left to withdraw.
            subscription.key = 0;
            return Poll::Ready(Err(JsError::from_thrown(JsValue::from_abi(idx))));
        }
        future.as_mut().poll(cx).map(Ok)
    })
    .await
}

/// A listening slot: withdrawn (listener removed, slot freed) when the work ends first.
struct Subscription {
    key: u32,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        if self.key != 0 {
            // SAFETY: a host call taking a number.
            unsafe { host::abort_forget(self.key) };
            executor::promise_cancel(self.key);
        }
    }
}
