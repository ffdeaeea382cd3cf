//! An async export's task: the start thunk (arguments already converted) makes the
//! future and a task for it; the glue polls it once at once, and takes the output through
//! the finish thunk once it is ready, which returns it as a sync export would (class
//! handles through the identity hook, `Err` thrown with its data).

use super::executor;
use std::future::Future;

/// The task of an async export's future; its id goes to the glue.
pub fn start_task<F>(fut: F) -> u32
where
    F: Future + 'static,
    F::Output: 'static,
{
    executor::insert(true, move |id| {
        Box::pin(async move {
            let out = fut.await;
            executor::set_output(id, Box::new(out));
        })
    })
}

/// The output of finished task `task`, of type `T` (the async function's return type).
pub fn finish_task<T: 'static>(task: u32) -> T {
    match executor::take_output(task).map(|out| out.downcast::<T>()) {
        Some(Ok(out)) => *out,
        _ => crate::error::throw(crate::error::BridgeError::new(
            "bridge: an async export's finish was called for a task that has no output of its type"
                .to_string(),
        )),
    }
}
