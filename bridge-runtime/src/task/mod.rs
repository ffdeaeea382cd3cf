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
//!
//! `executor.rs`: tasks in a slab (id = index + 1), a FIFO of woken tasks, the settlement
//! slots of awaited JS promises, and the glue-only exports (`__bridge_task_poll_first`,
//! `_run`, `_settle`, `_abandon`, `_live`, `_awaiting`). A `JsPromise` dropped unsettled
//! withdraws its subscription (`unthen`) and frees its slot at once (the glue's reaction checks
//! a per-slot serial); an `AbortSignal`'s abort is a settlement slot too, settled from a
//! microtask (`abort_forget` withdraws it when the work ends first). A future is moved out of
//! its slot while polled, so a trap (panic) loses only it and the glue `abandon`s the task.

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
