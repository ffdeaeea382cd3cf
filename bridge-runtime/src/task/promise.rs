//! `JsPromise`: awaiting a JS value from Rust.

use super::{executor, host};
use crate::js::{JsError, JsValue};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// A JS value awaited from Rust: `.await` gives `Ok(value)` when it fulfills, or
/// `Err(JsError)` when it rejects (with any value: a non-`Error` is kept in
/// `JsError::value`). A value that is not a thenable is the result at once, without a
/// microtask. Dropping it before it settles is fine: its slot is freed at once, the later
/// settlement is ignored, and a rejection it no longer awaits is not reported as unhandled.
///
/// Only futures polled by this runtime's executor (async exports, `spawn_local`) may
/// await it.
pub struct JsPromise {
    value: Option<JsValue>,
    /// The settlement slot while subscribed (0: not yet, or done).
    key: u32,
}

impl JsPromise {
    pub fn new(value: JsValue) -> JsPromise {
        JsPromise {
            value: Some(value),
            key: 0,
        }
    }
}

impl From<JsValue> for JsPromise {
    fn from(value: JsValue) -> JsPromise {
        JsPromise::new(value)
    }
}

impl Future for JsPromise {
    type Output = Result<JsValue, JsError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        if this.key != 0 {
            return match executor::promise_poll(this.key, cx.waker()) {
                Some((idx, ok)) => {
                    this.key = 0;
                    let value = JsValue::from_abi(idx);
                    Poll::Ready(if ok {
                        Ok(value)
                    } else {
                        Err(JsError::from_thrown(value))
                    })
                }
                None => Poll::Pending,
            };
        }
        let Some(value) = this.value.take() else {
            panic!("a JsPromise was polled after it completed");
        };
        let key = executor::promise_slot(cx.waker());
        // SAFETY: a host call taking a table index and a number; the value stays ours.
        if unsafe { host::then(value.abi(), key) } == 0 {
            executor::promise_unused(key);
            return Poll::Ready(Ok(value));
        }
        this.key = key;
        Poll::Pending
    }
}

impl Drop for JsPromise {
    fn drop(&mut self) {
        if self.key != 0 {
            // The promise may settle later: withdraw the subscription, so that its reaction
            // does nothing, and free the slot now (a promise that never settles holds no
            // slot).
            // SAFETY: a host call taking a number.
            unsafe { host::unthen(self.key) };
            executor::promise_cancel(self.key);
        }
    }
}

/// What an async JS import declared without `Result` awaits: a rejection is thrown on as
/// a JS exception, so the async export awaiting it rejects with that very value.
pub async fn await_or_throw(value: JsValue) -> JsValue {
    match JsPromise::new(value).await {
        Ok(value) => value,
        Err(e) => crate::js::throw_value(e.value.into_abi()),
    }
}
