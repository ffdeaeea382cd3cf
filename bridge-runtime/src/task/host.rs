//! The glue's task operations (import module `__bridge_task`, `templates/task.js.j2`).
//! On the host (unit tests) there is no JS: each panics.

#[cfg(target_arch = "wasm32")]
mod imp {
    #[link(wasm_import_module = "__bridge_task")]
    unsafe extern "C" {
        /// Queue a microtask that runs the executor (`__bridge_task_run`).
        pub fn schedule();
        /// The async export task `task` finished after its first poll: settle its Promise.
        pub fn done(task: u32);
        /// Subscribe to the JS value `idx` as a promise (`key`: Rust's settlement slot);
        /// 0 when it is not a thenable (it is the result at once), 1 when subscribed. A
        /// `then` getter or method that throws rejects (the glue catches it). It runs
        /// user JS (a `then` getter), so `transforms/import_stack.rs` passes it wasm's
        /// stack pointer first.
        pub fn then(idx: u32, key: u32) -> u32;
        /// Withdraw slot `key`'s subscription (its `JsPromise` was dropped unsettled).
        pub fn unthen(key: u32);
        /// `console.error` the UTF-8 message (a spawned task's `Err`).
        pub fn report(ptr: u32, len: u32);
        /// Subscribe slot `key` to the abort of the `AbortSignal` `idx`:
        /// `ABORT_SUBSCRIBED`, or an entry holding the error to give at once (`abortable`).
        pub fn abort_then(idx: u32, key: u32) -> u32;
        /// Unsubscribe slot `key` from its signal.
        pub fn abort_forget(key: u32);
    }
}

#[cfg(target_arch = "wasm32")]
pub(crate) use imp::*;

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    const NO_JS: &str = "async tasks need JS: they only run in wasm built by cargo bridge";
    pub unsafe fn schedule() {
        panic!("{NO_JS}")
    }
    pub unsafe fn done(_task: u32) {
        panic!("{NO_JS}")
    }
    pub unsafe fn then(_idx: u32, _key: u32) -> u32 {
        panic!("{NO_JS}")
    }
    pub unsafe fn unthen(_key: u32) {
        panic!("{NO_JS}")
    }
    pub unsafe fn report(_ptr: u32, _len: u32) {
        panic!("{NO_JS}")
    }
    pub unsafe fn abort_then(_idx: u32, _key: u32) -> u32 {
        panic!("{NO_JS}")
    }
    pub unsafe fn abort_forget(_key: u32) {
        panic!("{NO_JS}")
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub(crate) use imp::*;
