//! `spawn_local`: fire-and-forget tasks on the module's executor.

use super::{executor, host};
use std::future::Future;

/// What a spawned future may return: `()`, or a `Result<(), E>` whose `Err` is reported
/// with `console.error` (the module keeps running).
pub trait TaskResult: 'static {
    fn report(self);
}

impl TaskResult for () {
    fn report(self) {}
}

impl<E: std::fmt::Display + 'static> TaskResult for Result<(), E> {
    fn report(self) {
        if let Err(e) = self {
            let message = format!("a task spawned with bridge_runtime::spawn_local failed: {e}");
            // SAFETY: JS reads the message before the call returns.
            unsafe { host::report(message.as_ptr() as u32, message.len() as u32) }
        }
    }
}

/// Run `fut` on the module's single-threaded executor, from a microtask (not inside this
/// call). A panic in it is reported with `console.error` and ends only this task; so does
/// an `Err` it returns.
pub fn spawn_local<F>(fut: F)
where
    F: Future + 'static,
    F::Output: TaskResult,
{
    let id = executor::insert(false, move |_| Box::pin(async move { fut.await.report() }));
    executor::wake_task(id);
}
