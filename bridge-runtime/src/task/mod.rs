//! Async: the single-threaded executor that polls Rust futures from JS microtasks
//! (`executor.rs`), async exports' tasks (`export.rs`: a `Promise` per call),
//! fire-and-forget tasks (`spawn.rs`: [`spawn_local`]) and awaiting JS promises
//! (`promise.rs`: [`JsPromise`]), and cancelling by a JS `AbortSignal` (`abort.rs`:
//! [`abortable`]). `host.rs` is the glue's half (import module
//! `__bridge_task`, `templates/task.js.j2`).
//!
//! Nothing here is linked into a module without async items: the executor's state is
//! one zero-initialized pointer, and the host imports are reached only from
//! [`spawn_local`], an async export's start and a `JsPromise`'s poll (the glue-only
//! exports go with `cargo bridge`'s unused-export pass).

mod abort;
mod executor;
mod export;
mod host;
mod promise;
mod spawn;

pub use abort::abortable;
pub use export::{finish_task, start_task};
pub use promise::{JsPromise, await_or_throw};
pub use spawn::{TaskResult, spawn_local};
