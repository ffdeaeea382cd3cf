//! The executor: tasks in a slab (id = index + 1, 0 is none), a FIFO of woken tasks, and
//! the settlement slots of awaited JS promises. Single-threaded and never busy: a waker
//! queues its task and, unless the executor is running, asks the glue for one microtask
//! (`schedule`) that runs every ready task (`__bridge_task_run`); a promise settling runs
//! the executor directly from its reaction job (`__bridge_task_settle`), so an await of
//! JS costs one microtask.
//!
//! No state is borrowed while user code runs: each access is a short `with` that calls
//! nothing outside this file, and a task's future is moved out of its slot while it is
//! polled (a trap then loses only that future; the glue tells us with `abandon`).

use super::host;
use crate::global::global;
use std::any::Any;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, RawWaker, RawWakerVTable, Waker};

pub(crate) type BoxFuture = Pin<Box<dyn Future<Output = ()>>>;

struct Slot {
    fut: Option<BoxFuture>,
    live: bool,
    queued: bool,
    /// An async export's task: it stays live after it finished, its output waiting for
    /// the finish export.
    export: bool,
    output: Option<Box<dyn Any>>,
}

/// Where an awaited JS promise's outcome waits for its `JsPromise`.
enum Settlement {
    Free,
    Waiting(Option<Waker>),
    /// The value's table index, and whether the promise fulfilled.
    Settled(u32, bool),
}

/// The host calls, reached through these pointers so that only code that makes the
/// executor (an async export, `spawn_local`, `JsPromise`) links the imports: a module
/// without async items imports nothing from `__bridge_task` and its glue has no task half.
struct Hooks {
    schedule: fn(),
    done: fn(u32),
    drop_value: fn(u32),
}

struct Executor {
    slots: Vec<Slot>,
    free: Vec<u32>,
    ready: VecDeque<u32>,
    /// Tasks being polled, innermost last (an async export called from a task polls its
    /// own task inside).
    polling: Vec<u32>,
    running: bool,
    scheduled: bool,
    promises: Vec<Settlement>,
    free_promises: Vec<u32>,
    hooks: Hooks,
}

global! {
    /// Null until the first task: zero-initialized, so it costs a module no data bytes.
    static EXEC: *mut Executor = std::ptr::null_mut();
}

fn drop_value(idx: u32) {
    drop(crate::js::JsValue::from_abi(idx));
}

/// `f` on the executor, if there is one. `f` calls nothing outside this file.
fn with<R>(f: impl FnOnce(&mut Executor) -> R) -> Option<R> {
    EXEC.with(|cell| {
        let p = cell.get();
        // SAFETY: single-threaded; `f` does not re-enter `with` (see above).
        (!p.is_null()).then(|| f(unsafe { &mut *p }))
    })
}

/// `f` on the executor, made on first use.
fn with_init<R>(f: impl FnOnce(&mut Executor) -> R) -> R {
    EXEC.with(|cell| {
        if cell.get().is_null() {
            cell.set(Box::into_raw(Box::new(Executor {
                slots: Vec::new(),
                free: Vec::new(),
                ready: VecDeque::new(),
                polling: Vec::new(),
                running: false,
                scheduled: false,
                promises: Vec::new(),
                free_promises: Vec::new(),
                hooks: Hooks {
                    // SAFETY (both): host calls taking nothing or a number.
                    schedule: || unsafe { host::schedule() },
                    done: |task| unsafe { host::done(task) },
                    drop_value,
                },
            })));
        }
        // SAFETY: as in `with`.
        f(unsafe { &mut *cell.get() })
    })
}

/// A new task running the future `make` builds from its id. Not polled yet.
pub(crate) fn insert(export: bool, make: impl FnOnce(u32) -> BoxFuture) -> u32 {
    let id = with_init(|e| {
        let slot = Slot {
            fut: None,
            live: true,
            queued: false,
            export,
            output: None,
        };
        match e.free.pop() {
            Some(id) => {
                e.slots[id as usize - 1] = slot;
                id
            }
            None => {
                e.slots.push(slot);
                e.slots.len() as u32
            }
        }
    });
    let fut = make(id);
    with(|e| e.slots[id as usize - 1].fut = Some(fut));
    id
}

fn slot(e: &mut Executor, id: u32) -> Option<&mut Slot> {
    e.slots
        .get_mut((id as usize).wrapping_sub(1))
        .filter(|s| s.live)
}

/// Free task `id`'s slot; its output (if any) to drop outside.
fn free_task(e: &mut Executor, id: u32) -> Option<Box<dyn Any>> {
    let s = slot(e, id)?;
    s.live = false;
    s.fut = None;
    let out = s.output.take();
    e.free.push(id);
    out
}

/// Queue task `id`; ask for a microtask unless the executor runs or one is asked for.
pub(crate) fn wake_task(id: u32) {
    let schedule = with(|e| {
        let s = slot(e, id)?;
        if s.queued {
            return None;
        }
        s.queued = true;
        e.ready.push_back(id);
        if e.running || e.scheduled {
            return None;
        }
        e.scheduled = true;
        Some(e.hooks.schedule)
    })
    .flatten();
    if let Some(schedule) = schedule {
        schedule();
    }
}

static VTABLE: RawWakerVTable =
    RawWakerVTable::new(waker_clone, waker_wake, waker_wake, waker_drop);

unsafe fn waker_clone(data: *const ()) -> RawWaker {
    RawWaker::new(data, &VTABLE)
}
unsafe fn waker_wake(data: *const ()) {
    wake_task(data as usize as u32);
}
unsafe fn waker_drop(_: *const ()) {}

fn waker(id: u32) -> Waker {
    // SAFETY: the vtable's functions take the data as a task id and own nothing.
    unsafe { Waker::from_raw(RawWaker::new(id as usize as *const (), &VTABLE)) }
}

/// Poll task `id` once: `Some(true)` when it finished (an export's output then waits).
fn poll_task(id: u32) -> Option<bool> {
    let mut fut = with(|e| {
        let f = slot(e, id)?.fut.take()?;
        e.polling.push(id);
        Some(f)
    })
    .flatten()?;
    let waker = waker(id);
    let ready = fut
        .as_mut()
        .poll(&mut Context::from_waker(&waker))
        .is_ready();
    let (finished, done) = with(|e| {
        e.polling.pop();
        let Some(s) = slot(e, id) else {
            return (Some(fut), None);
        };
        if !ready {
            s.fut = Some(fut);
            return (None, None);
        }
        let export = s.export;
        let out = if export { None } else { free_task(e, id) };
        (Some(fut), Some((export, out)))
    })?;
    // Dropping a finished future (and a spawned task's unit output) runs user code.
    drop(finished);
    let (export, _) = done?;
    Some(export)
}

/// Poll the ready tasks until none is; the caller set `running`.
fn run_loop() {
    loop {
        let next = with(|e| {
            let id = e.ready.pop_front();
            match id {
                Some(id) => {
                    if let Some(s) = slot(e, id) {
                        s.queued = false;
                    }
                }
                None => e.running = false,
            }
            id.map(|id| (id, e.hooks.done))
        })
        .flatten();
        let Some((id, done)) = next else { return };
        if poll_task(id) == Some(true) {
            // The glue settles the export's Promise after the executor returns.
            done(id);
        }
    }
}

/// The first poll of a new async export task, inside its call: as a JS `async function`
/// runs up to its first `await` before it returns. 1 when it finished.
#[unsafe(export_name = "__bridge_task_poll_first")] // bridge_schema::abi::tasks::POLL_FIRST
pub extern "C" fn __bridge_task_poll_first(task: u32) -> u32 {
    u32::from(poll_task(task) == Some(true))
}

/// The microtask `schedule` asked for: run every ready task.
#[unsafe(export_name = "__bridge_task_run")] // bridge_schema::abi::tasks::RUN
pub extern "C" fn __bridge_task_run() {
    let run = with(|e| {
        e.scheduled = false;
        !std::mem::replace(&mut e.running, true)
    });
    if run == Some(true) {
        run_loop();
    }
}

/// A promise awaited through settlement slot `key` settled with the value `idx` (its table
/// entry is ours): wake its task and run the executor, in the promise's reaction job.
#[unsafe(export_name = "__bridge_task_settle")] // bridge_schema::abi::tasks::SETTLE
pub extern "C" fn __bridge_task_settle(key: u32, idx: u32, ok: u32) {
    let woken = with(|e| {
        let index = (key as usize).wrapping_sub(1);
        let waiting = match e.promises.get_mut(index) {
            Some(s @ Settlement::Waiting(_)) => {
                let Settlement::Waiting(w) =
                    std::mem::replace(s, Settlement::Settled(idx, ok != 0))
                else {
                    unreachable!()
                };
                Ok(w)
            }
            // The glue settles only live subscriptions (`unthen` withdraws one): this is
            // defence, letting the value go.
            _ => Err(e.hooks.drop_value),
        };
        let run = waiting.is_ok() && !std::mem::replace(&mut e.running, true);
        (waiting, run)
    });
    let Some((waiting, run)) = woken else { return };
    match waiting {
        Ok(waker) => {
            if let Some(waker) = waker {
                waker.wake();
            }
        }
        Err(drop_value) => drop_value(idx),
    }
    if run {
        run_loop();
    }
}

/// After a trap: forget the task the trap left mid-poll (`task`, or with 0 the innermost
/// one being polled, and the executor stops running). Its future is lost (a trap runs no
/// destructor). Returns the task forgotten, 0 if none.
#[unsafe(export_name = "__bridge_task_abandon")] // bridge_schema::abi::tasks::ABANDON
pub extern "C" fn __bridge_task_abandon(task: u32) -> u32 {
    let found = with(|e| {
        let id = if task == 0 {
            e.running = false;
            e.polling.pop()
        } else {
            if let Some(at) = e.polling.iter().rposition(|&t| t == task) {
                e.polling.truncate(at);
            }
            Some(task)
        };
        let id = id?;
        let out = free_task(e, id);
        Some((id, out))
    })
    .flatten();
    match found {
        Some((id, out)) => {
            drop(out);
            id
        }
        None => 0,
    }
}

/// Store an export task's output (its future's last step).
pub(crate) fn set_output(id: u32, out: Box<dyn Any>) {
    with(|e| {
        if let Some(s) = slot(e, id) {
            s.output = Some(out);
        }
    });
}

/// Take a finished export task's output and free the task.
pub(crate) fn take_output(id: u32) -> Option<Box<dyn Any>> {
    with(|e| {
        let s = slot(e, id)?;
        if !s.export || s.output.is_none() {
            return None;
        }
        free_task(e, id)
    })
    .flatten()
}

/// A settlement slot waiting for a promise, `waker` to wake.
pub(crate) fn promise_slot(waker: &Waker) -> u32 {
    with_init(|e| {
        let s = Settlement::Waiting(Some(waker.clone()));
        match e.free_promises.pop() {
            Some(key) => {
                e.promises[key as usize - 1] = s;
                key
            }
            None => {
                e.promises.push(s);
                e.promises.len() as u32
            }
        }
    })
}

/// The outcome in slot `key` (the slot is then free), or `None` with `waker` noted.
pub(crate) fn promise_poll(key: u32, waker: &Waker) -> Option<(u32, bool)> {
    with(|e| {
        let s = e.promises.get_mut(key as usize - 1)?;
        match s {
            Settlement::Settled(idx, ok) => {
                let out = (*idx, *ok);
                *s = Settlement::Free;
                e.free_promises.push(key);
                Some(out)
            }
            Settlement::Waiting(w) => {
                if !w.as_ref().is_some_and(|w| w.will_wake(waker)) {
                    *w = Some(waker.clone());
                }
                None
            }
            Settlement::Free => None,
        }
    })
    .flatten()
}

/// Slot `key` will never settle (its subscription was withdrawn: a `JsPromise` dropped
/// before it settled, an `abortable` whose work ended first): free it now, with the value
/// it settled with if it did.
pub(crate) fn promise_cancel(key: u32) {
    let settled = with(|e| {
        let s = std::mem::replace(&mut e.promises[key as usize - 1], Settlement::Free);
        e.free_promises.push(key);
        match s {
            Settlement::Settled(idx, _) => Some(idx),
            _ => None,
        }
    })
    .flatten();
    if let Some(idx) = settled {
        drop_value(idx);
    }
}

/// Frees a slot that never subscribed (the value was not a thenable).
pub(crate) fn promise_unused(key: u32) {
    with(|e| {
        e.promises[key as usize - 1] = Settlement::Free;
        e.free_promises.push(key);
    });
}

/// Live tasks, for leak checks (`__bridgeTasks()` in the glue).
#[unsafe(export_name = "__bridge_task_live")] // bridge_schema::abi::tasks::LIVE
pub extern "C" fn __bridge_task_live() -> u32 {
    with(|e| e.slots.iter().filter(|s| s.live).count() as u32).unwrap_or(0)
}

/// Settlement slots in use (promises awaited, or dropped before they settled).
#[unsafe(export_name = "__bridge_task_awaiting")] // bridge_schema::abi::tasks::AWAITING
pub extern "C" fn __bridge_task_awaiting() -> u32 {
    with(|e| (e.promises.len() - e.free_promises.len()) as u32).unwrap_or(0)
}
