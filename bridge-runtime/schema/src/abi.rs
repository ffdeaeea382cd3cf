//! The wasm ABI between `bridge-runtime` and the generated glue: the names of the
//! runtime's exports and host imports, and the layout of the memory both read (box
//! header, return area). The runtime spells its exports with [`runtime_export!`], the
//! glue model (`cargo-bridge/src/glue/wasm_abi.rs`) reads the constants below, and the
//! runtime's tests pin its structs' `offset_of!` against them: nothing is written twice.

/// The wasm export name of a runtime function, as a literal (an `export_name` attribute
/// takes a literal or a macro, not a constant): `#[unsafe(export_name =
/// bridge_schema::runtime_export!(alloc))]`. [`exports`] holds the same names as constants.
#[macro_export]
macro_rules! runtime_export {
    (alloc) => {
        "__bridge_alloc"
    };
    (realloc) => {
        "__bridge_realloc"
    };
    (free) => {
        "__bridge_free"
    };
    (init) => {
        "__bridge_init"
    };
    (panic_reclaim) => {
        "__bridge_panic_reclaim"
    };
    (ret_area) => {
        "__bridge_ret_area"
    };
    (unborrow) => {
        "__bridge_unborrow"
    };
    (unborrow_shared) => {
        "__bridge_unborrow_shared"
    };
    (refused) => {
        "__bridge_refused"
    };
    (wire_in) => {
        "__bridge_wire_in"
    };
    (error_data) => {
        "__bridge_error_data"
    };
    (js_exception_cell) => {
        "__bridge_js_exception_cell"
    };
    (pool_note) => {
        "__bridge_pool_note"
    };
    (pool_active) => {
        "__bridge_pool_active"
    };
    (pool_begin) => {
        "__bridge_pool_begin"
    };
    (pool_set_active) => {
        "__bridge_pool_set_active"
    };
    (pool_drain) => {
        "__bridge_pool_drain"
    };
    (pool_released) => {
        "__bridge_pool_released"
    };
    (pool_keep) => {
        "__bridge_pool_keep"
    };
    (closure_call) => {
        "__bridge_closure_call"
    };
    (closure_free) => {
        "__bridge_closure_free"
    };
    (flat_area) => {
        "__bridge_flat_area"
    };
}

/// The runtime's exports (see [`runtime_export!`]).
pub mod exports {
    /// The module's linear memory (exported by the linker).
    pub const MEMORY: &str = "memory";
    /// `(size, align) -> ptr`: a buffer JS fills (0: out of memory).
    pub const ALLOC: &str = crate::runtime_export!(alloc);
    /// `(ptr, old_size, new_size) -> ptr` of an align-1 buffer (0: out of memory).
    pub const REALLOC: &str = crate::runtime_export!(realloc);
    /// `(ptr, size, align)`.
    pub const FREE: &str = crate::runtime_export!(free);
    /// Installs the panic hook; the glue calls it once after instantiation.
    pub const INIT: &str = crate::runtime_export!(init);
    /// Frees what the last panic's trap abandoned; the glue calls it after the trap.
    pub const PANIC_RECLAIM: &str = crate::runtime_export!(panic_reclaim);
    /// `() -> addr` of the return area ([`super::ret_area`]).
    pub const RET_AREA: &str = crate::runtime_export!(ret_area);
    /// `(addr)`: end the exclusive borrow an unwound call held.
    pub const UNBORROW: &str = crate::runtime_export!(unborrow);
    /// `(addr)`: end one shared borrow an unwound call held.
    pub const UNBORROW_SHARED: &str = crate::runtime_export!(unborrow_shared);
    /// `() -> code`: after a trap, why a thunk refused to borrow its first argument, if one
    /// did ([`super::refusal`]; 0: no refusal is waiting). The glue words the message: it
    /// knows the call, so the module carries no site of the refusal.
    pub const REFUSED: &str = crate::runtime_export!(refused);
    /// `(bytes) -> addr` of the wire's in-buffer, grown to `bytes`.
    pub const WIRE_IN: &str = crate::runtime_export!(wire_in);
    /// `() -> 0|1`: the error just thrown carries data on the wire.
    pub const ERROR_DATA: &str = crate::runtime_export!(error_data);
    /// `() -> addr` of the cell where JS records an exception for a catching call.
    pub const JS_EXCEPTION_CELL: &str = crate::runtime_export!(js_exception_cell);
    /// `(class, addr)`: called by the `rust`-mode identity hook `cargo bridge` writes.
    pub const POOL_NOTE: &str = crate::runtime_export!(pool_note);
    /// A static byte, non-zero while a fast pool records: the identity hook reads it in
    /// place and calls [`POOL_NOTE`] only then (the linker exports a static as a constant
    /// global holding its address).
    pub const POOL_ACTIVE: &str = crate::runtime_export!(pool_active);
    /// Fast release pool (present only when some class is in `rust` mode).
    pub const POOL_BEGIN: &str = crate::runtime_export!(pool_begin);
    pub const POOL_SET_ACTIVE: &str = crate::runtime_export!(pool_set_active);
    pub const POOL_DRAIN: &str = crate::runtime_export!(pool_drain);
    pub const POOL_RELEASED: &str = crate::runtime_export!(pool_released);
    pub const POOL_KEEP: &str = crate::runtime_export!(pool_keep);
    /// `(slot, args) -> idx`: call the Rust-owned closure (`bridge_runtime::Closure`) at
    /// `slot` with the JS array `args` (a table entry it takes); its result as a new entry.
    pub const CLOSURE_CALL: &str = crate::runtime_export!(closure_call);
    /// `(slot)`: free a Rust-owned closure (runs its captured state's `Drop`).
    pub const CLOSURE_FREE: &str = crate::runtime_export!(closure_free);
    /// `() -> addr` of the flat area ([`super::flat_area`]): a flat record's fields.
    pub const FLAT_AREA: &str = crate::runtime_export!(flat_area);

    /// The exports the glue needs in every module, for the post-process's check.
    pub const REQUIRED: &[&str] = &[
        MEMORY,
        ALLOC,
        REALLOC,
        FREE,
        INIT,
        PANIC_RECLAIM,
        RET_AREA,
        UNBORROW,
        UNBORROW_SHARED,
        REFUSED,
    ];
}

/// What the runtime imports from the glue besides user imports.
pub mod host {
    /// Import module of the runtime's own host functions. (The runtime's `#[link]`
    /// attribute cannot take a constant: it spells this literal, which the post-process
    /// check holds it to.)
    pub const MODULE: &str = "__bridge";
    /// `(ptr, len) -> !`: throw a JS `Error` with the UTF-8 message.
    pub const THROW: &str = "throw";
    /// `(file_ptr, file_len, line, column, payload_ptr, payload_len)`: the pieces of the
    /// message of the panic whose trap follows (line 0: no location; payload_ptr 0: the
    /// payload is not a string); the glue joins them into `Rust panic: panicked at ...`.
    pub const PANIC_MESSAGE: &str = "panic_parts";
    /// `(from, frame)`: the export running now has ended its borrow guards from index
    /// `from` on (0: all of them) and runs code that may panic or throw (a doomed box's
    /// `Drop`, an error's `Display`): should that code leave wasm by an exception, the glue
    /// ends only the borrows before `from` (see `$rethrow`). `frame` is a shadow-stack
    /// address of the runtime's frame that called: below the stack base of the JS call
    /// this export runs in, at or above those of the calls it makes. Cold paths only.
    pub const GUARDS_ENDED: &str = "guards_ended";
    /// `()`: that code returned; the marker of [`GUARDS_ENDED`] is dropped.
    pub const GUARDS_RESUMED: &str = "guards_resumed";
}

/// The async executor's host imports (`bridge-runtime/src/task/host.rs`,
/// `templates/task.js.j2`) and the runtime's exports the glue calls. A module imports
/// from [`tasks::MODULE`] only when it has async items: the glue includes its task half
/// exactly then.
pub mod tasks {
    pub const MODULE: &str = "__bridge_task";
    pub const SCHEDULE: &str = "schedule";
    pub const DONE: &str = "done";
    pub const THEN: &str = "then";
    pub const REPORT: &str = "report";
    /// `(key)`: slot `key`'s `JsPromise` was dropped before its promise settled: the
    /// settlement does nothing (Rust reuses the slot at once).
    pub const UNTHEN: &str = "unthen";
    /// `(idx, key) -> idx`: subscribe settlement slot `key` to the abort of the
    /// `AbortSignal` `idx` (it rejects with the signal's reason, from a microtask);
    /// [`ABORT_SUBSCRIBED`] when subscribed, else an entry holding the error to give at
    /// once (the reason of a signal already aborted, a TypeError for a value that is no
    /// `AbortSignal`, or what a signal subclass's getter threw).
    pub const ABORT_THEN: &str = "abort_then";
    /// What [`ABORT_THEN`] returns when it subscribed (any other value is an entry, and
    /// entries include the constants 0..3: `undefined` may be a subclass's reason).
    pub const ABORT_SUBSCRIBED: u32 = u32::MAX;
    /// `(key)`: unsubscribe slot `key` from its signal (the work finished or was dropped).
    pub const ABORT_FORGET: &str = "abort_forget";
    pub const ALL: &[&str] = &[
        SCHEDULE,
        DONE,
        THEN,
        UNTHEN,
        REPORT,
        ABORT_THEN,
        ABORT_FORGET,
    ];
    /// Those that run user JS (a thenable's `then`; a signal subclass's getters and
    /// listener methods): they get wasm's stack pointer.
    pub const REENTRANT: &[&str] = &[THEN, ABORT_THEN, ABORT_FORGET];

    /// `(task) -> 0|1`: the first poll of a new async export task (1: it finished).
    pub const POLL_FIRST: &str = "__bridge_task_poll_first";
    /// `()`: poll every woken task until none is ready.
    pub const RUN: &str = "__bridge_task_run";
    /// `(key, idx, ok)`: the promise of settlement slot `key` settled with the value
    /// `idx` (fulfilled when `ok` is 1); then runs the executor.
    pub const SETTLE: &str = "__bridge_task_settle";
    /// `(task) -> task`: after a trap while polling, forget the task being polled (the
    /// given one, or with 0 the innermost); 0 when none was being polled.
    pub const ABANDON: &str = "__bridge_task_abandon";
    /// `() -> n`: live tasks (for `__bridgeTasks()`).
    pub const LIVE: &str = "__bridge_task_live";
    /// `() -> n`: settlement slots in use (promises awaited or dropped unsettled).
    pub const AWAITING: &str = "__bridge_task_awaiting";
}

/// The glue's `JsValue` table, as Rust sees it: the entries reserved for constants (never
/// freed; Rust compares them by index) and the codes of the `type_of` host import.
pub mod js_values {
    pub const UNDEFINED: u32 = 0;
    pub const NULL: u32 = 1;
    pub const TRUE: u32 = 2;
    pub const FALSE: u32 = 3;
    /// Entries below this are the constants above.
    pub const RESERVED: u32 = 4;

    /// The operations the glue provides in import module [`crate::JS_VALUE_MODULE`].
    /// (The runtime's `extern` block spells them as its function names, which the
    /// post-process check holds to this list.)
    pub mod ops {
        pub const DROP: &str = "drop";
        pub const CLONE: &str = "clone";
        pub const EQ: &str = "eq";
        pub const TYPE_OF: &str = "type_of";
        pub const AS_F64: &str = "as_f64";
        pub const IS_NUMBER: &str = "is_number";
        pub const AS_STRING: &str = "as_string";
        pub const TO_STRING: &str = "to_string";
        pub const FROM_F64: &str = "from_f64";
        pub const FROM_STR: &str = "from_str";
        pub const GET: &str = "get";
        pub const SET: &str = "set";
        pub const CALL: &str = "call";
        /// `value[key]` when it is a string, as `AS_STRING` writes it; none when it is not
        /// or reading it threw (a throwing getter, a revoked proxy): how `JsError` reads a
        /// thrown value's parts without an exception escaping through Rust.
        pub const GET_TEXT: &str = "get_text";
        /// `(idx) -> !`: throw the value itself (an export's `Err(JsValue)`).
        pub const THROW: &str = "throw";
        /// `(type_id_ptr, type_id_len, abi) -> idx`: the wrapper of the class `type_id`
        /// for a lowered class value (`JsValue::from(handle)`), as a new entry.
        pub const FROM_CLASS: &str = "from_class";
        /// `(idx, type_id_ptr, type_id_len) -> i32`: the address of the live wrapper of
        /// the class `type_id` the entry holds, 0 for a released one, -1 for anything else
        /// (`Handle::<C>::try_from(&JsValue)`).
        pub const CLASS_ADDR: &str = "class_addr";
        /// `() -> idx`: a new empty object (`{}`), for `JsValue::object()`.
        pub const NEW_OBJECT: &str = "new_object";
        /// `() -> idx`: a new empty array (`[]`), for `JsValue::array()`.
        pub const NEW_ARRAY: &str = "new_array";
        /// `(idx, value)`: `Array.prototype.push.call(value_of(idx), value_of(value))`.
        pub const PUSH: &str = "push";
        /// `(slot, once, label_ptr, label_len) -> idx`: the JS function of a Rust-owned
        /// closure (`bridge_runtime::Closure`), calling it through
        /// [`crate::abi::exports::CLOSURE_CALL`]. A module importing it gets the glue's
        /// owned-closure half.
        pub const CLOSURE_NEW: &str = "closure_new";
        /// `(idx)`: Rust dropped the `Closure` whose function `idx` is: the function only
        /// throws from now on, and the closure is freed (at the end of its call if it runs).
        pub const CLOSURE_DROP: &str = "closure_drop";
        /// `(idx)`: `Closure::forget`: JS owns the function (its `release()` or the
        /// FinalizationRegistry frees the closure).
        pub const CLOSURE_FORGET: &str = "closure_forget";
        pub const ALL: &[&str] = &[
            DROP,
            CLONE,
            EQ,
            TYPE_OF,
            AS_F64,
            IS_NUMBER,
            AS_STRING,
            TO_STRING,
            FROM_F64,
            FROM_STR,
            GET,
            SET,
            CALL,
            GET_TEXT,
            THROW,
            FROM_CLASS,
            CLASS_ADDR,
            NEW_OBJECT,
            NEW_ARRAY,
            PUSH,
            CLOSURE_NEW,
            CLOSURE_DROP,
            CLOSURE_FORGET,
        ];
        /// Those that run user JS (`toString`, a getter, a setter, the called function),
        /// which may call back into wasm: like the imports of [`crate::JS_IMPORT_MODULE`],
        /// they receive wasm's stack pointer so that an exception out of such an inner
        /// call puts the shadow stack back to where Rust called JS, not to its base.
        /// (`CLOSURE_DROP` runs the closure's `Drop`, which may call JS.)
        pub const REENTRANT: &[&str] = &[TO_STRING, GET, SET, CALL, GET_TEXT, PUSH, CLOSURE_DROP];
    }

    /// What `type_of` returns: `typeof`, with `null` split out of `"object"`.
    pub mod type_code {
        pub const UNDEFINED: u32 = 0;
        pub const NULL: u32 = 1;
        pub const BOOLEAN: u32 = 2;
        pub const NUMBER: u32 = 3;
        pub const BIGINT: u32 = 4;
        pub const STRING: u32 = 5;
        pub const SYMBOL: u32 = 6;
        pub const FUNCTION: u32 = 7;
        pub const OBJECT: u32 = 8;
    }
}

/// Why a thunk refused to borrow its first argument, as [`exports::REFUSED`] returns it;
/// the glue words each (`$refusal` in `templates/runtime.js.j2`) with the call's class,
/// member and parameter, so no thunk carries them.
pub mod refusal {
    /// A `&mut` borrow of the object is live.
    pub const MUTABLY_BORROWED: u32 = 1;
    /// Shared borrows of it are live (the thunk asked for an exclusive one).
    pub const BORROWED: u32 = 2;
    /// A call took it by value: its value left the box.
    pub const MOVED: u32 = 3;
    /// The receiver's wrapper was released (the glue passed its address, 0, unchecked).
    pub const RELEASED: u32 = 4;
}

/// Layout of what `__bridge_pool_drain`/`__bridge_pool_released` describe in the return
/// area: one entry per wrapper a fast-pool drain released, for JS to forget.
pub mod released_wrapper {
    /// `u32` class index (the order of the `rust`-mode class dispatch).
    pub const CLASS_OFFSET: u32 = 0;
    /// `u32` identity slot the wrapper had.
    pub const SLOT_OFFSET: u32 = 4;
    pub const SIZE: u32 = 8;
}

/// Layout of the reference-counted box header every exported object lives in.
pub mod header {
    /// `u32` strong count (Rust handles + JS references).
    pub const STRONG_OFFSET: u32 = 0;
    /// `i32` borrow flag: 0 free, 1.. shared borrows, [`BORROW_EXCLUSIVE`] exclusive, plus
    /// [`BORROW_DOOMED`] once the last reference is gone while borrowed.
    pub const BORROW_OFFSET: u32 = 4;
    /// The borrow flag of an exclusive borrow (`i32::MIN`: negative, so is every flag a
    /// shared borrow must refuse).
    pub const BORROW_EXCLUSIVE: i32 = i32::MIN;
    /// Flag bit: no reference is left, the last borrow to end frees the box. One unsigned
    /// comparison (`flag as u32 >= BORROW_DOOMED`) tells a shared borrow's hot path that the
    /// flag is neither exclusive nor doomed, and lets the compiler drop the free from the
    /// guard's end when the borrowed call cannot reach the object again.
    pub const BORROW_DOOMED: i32 = 1 << 30;
    /// The borrow flag of a box whose value a call took by value (`self`, a `C`
    /// parameter): negative, so every borrow refuses it; the last reference frees the box
    /// without dropping a value. The glue reads it after a call that failed, to release
    /// the wrappers of the objects that moved before the failure.
    pub const BORROW_MOVED: i32 = i32::MIN + 1;
    /// The borrow flag while a thunk checks the objects it takes by value, before it moves
    /// any (so the same object passed twice is refused, and a refusal restores 0).
    pub const BORROW_MOVING: i32 = i32::MIN + 2;
    /// `i32` identity slot: 0 = no JS cache entry, -1 = handed to JS, slot not yet
    /// assigned, >0 = index of the object's wrapper in the class's JS cache.
    pub const SLOT_OFFSET: u32 = 8;
    pub const SLOT_PENDING: i32 = -1;
    /// What a `rust`-mode identity hook hands JS on a hit (slot > 0): `slot << 1 |
    /// HIT_TAG`, odd where a box address is aligned (`handle.rs` asserts it), so the glue
    /// tells the two apart with one `&` and reads the wrapper at `v >>> 1` without reading
    /// memory. A miss or a pending slot hands the address.
    pub const HIT_TAG: i32 = 1;
    /// `u32` weak count: `WeakHandle`s plus one the strong references own together. Only
    /// the runtime reads it (the value drops at strong 0, the allocation goes at weak 0).
    pub const WEAK_OFFSET: u32 = 12;
}

/// Layout of the return area (one per module, at the address [`exports::RET_AREA`]
/// returns): how a thunk describes a string, vector or `Option` result. Every field is
/// a `u32`; offsets in bytes.
/// The flat area: where a record of scalars (`lowering::flat_record`) an export takes or
/// returns sits, one slot per field in declaration order, each holding the field's wasm
/// value (`Scalar::abi`) at the slot's start (little-endian: a 32-bit value in its low
/// half). No per-call bookkeeping: the glue writes parameters after the last user code
/// of the call's conversions and the thunk reads them before user code runs; the thunk
/// writes a result after user code returned and the glue reads it right after the call.
pub mod flat_area {
    /// Slots, so the most fields a flat record has.
    pub const SLOTS: u32 = 16;
    pub const SLOT_SIZE: u32 = 8;
    pub const SIZE: u32 = SLOTS * SLOT_SIZE;
    /// Set in the `u32` an export's record parameter is passed as when the glue wrote it
    /// into the flat area (the low bits: its first slot); clear, it is a wire offset.
    pub const TAG: u32 = 1 << 31;
}

pub mod ret_area {
    /// Address of the buffer (0 for `None` of an optional string).
    pub const PTR_OFFSET: u32 = 0;
    /// Elements (bytes of a string) used.
    pub const LEN_OFFSET: u32 = 4;
    /// Elements allocated (what the glue frees).
    pub const CAP_OFFSET: u32 = 8;
    /// 1 when an `Option` result is `Some`.
    pub const IS_SOME_OFFSET: u32 = 12;
    pub const SIZE: u32 = 16;
}
