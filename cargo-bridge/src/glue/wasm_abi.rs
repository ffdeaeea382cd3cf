//! The names and offsets of the wasm ABI that the templates use, taken from
//! `bridge-schema` (the one source the macro, the runtime and the passes share), so no
//! template spells them by hand. Templates read it as `wasm_abi`: runtime exports as
//! `wasm_abi.exports.<name>` (`$wasm.{{ ... }}`), the box header's identity slot and the
//! return area's fields as offsets.

use bridge_schema::abi::{
    exports, flat_area, header, host, js_values, refusal, released_wrapper, ret_area, tasks,
};
use serde::Serialize;

#[derive(Serialize)]
pub struct WasmAbi {
    /// Exported shadow-stack pointer global (see `transforms/stack_pointer.rs`).
    pub stack_pointer: &'static str,
    /// Exported global: where the innermost call of wasm-bindgen's half began
    /// (`transforms/wbg_entry.rs`).
    pub wbg_entry: &'static str,
    pub exports: RuntimeExports,
    /// Import modules the glue provides.
    pub imports: ImportModules,
    /// Byte offsets in an object's box header.
    pub header: Header,
    /// The `JsValue` table's reserved entries and `type_of` codes.
    pub js_values: JsValues,
    /// Fields of the return area as indices of `u32`s from its start (the glue reads it
    /// through a `Uint32Array`: `heap[($retArea >> 2) + ret.len]`).
    pub ret: RetArea,
    /// What a fast-pool drain describes: one entry per released wrapper.
    pub released: ReleasedWrapper,
    /// The async executor's imports and exports (`bridge_schema::abi::tasks`).
    pub tasks: Tasks,
    /// The flat area's size, in slots and in 32-bit words (its views' lengths).
    pub flat: FlatArea,
    /// Why a thunk refused its first borrow (`refused` returns it).
    pub refusal: Refusal,
}

#[derive(Serialize)]
pub struct Refusal {
    pub mutably_borrowed: u32,
    pub borrowed: u32,
    pub moved: u32,
    pub released: u32,
}

#[derive(Serialize)]
pub struct FlatArea {
    pub slots: u32,
    pub words: u32,
}

#[derive(Serialize)]
pub struct Tasks {
    pub module: &'static str,
    pub schedule: &'static str,
    pub done: &'static str,
    pub then: &'static str,
    pub unthen: &'static str,
    pub report: &'static str,
    pub abort_then: &'static str,
    pub abort_forget: &'static str,
    /// What `abort_then` returns when it subscribed, as the i32 JS returns.
    pub abort_subscribed: i32,
    pub poll_first: &'static str,
    pub run: &'static str,
    pub settle: &'static str,
    pub abandon: &'static str,
    pub live: &'static str,
    pub awaiting: &'static str,
}

/// The runtime's exports the glue calls (`bridge_schema::abi::exports`).
#[derive(Serialize)]
pub struct RuntimeExports {
    pub memory: &'static str,
    pub alloc: &'static str,
    pub realloc: &'static str,
    pub free: &'static str,
    pub init: &'static str,
    pub panic_reclaim: &'static str,
    pub ret_area: &'static str,
    pub unborrow: &'static str,
    pub unborrow_shared: &'static str,
    pub refused: &'static str,
    pub wire_in: &'static str,
    pub error_data: &'static str,
    pub js_exception_cell: &'static str,
    pub pool_begin: &'static str,
    pub pool_set_active: &'static str,
    pub pool_drain: &'static str,
    pub pool_released: &'static str,
    pub pool_keep: &'static str,
    /// Not the runtime's: the global `cargo bridge` adds for the `rust`-mode classes.
    pub identity_table_len: &'static str,
    pub closure_call: &'static str,
    pub closure_free: &'static str,
    pub flat_area: &'static str,
}

#[derive(Serialize)]
pub struct ImportModules {
    /// The runtime's own host functions: `throw`, `panic_parts`.
    pub host: &'static str,
    pub host_throw: &'static str,
    pub host_panic_message: &'static str,
    pub host_guards_ended: &'static str,
    pub host_guards_resumed: &'static str,
    /// `JsValue` operations.
    pub js_values: &'static str,
    /// `#[bridge] extern` functions and callback trampolines.
    pub js_imports: &'static str,
}

#[derive(Serialize)]
pub struct JsValues {
    pub undefined_idx: u32,
    pub null_idx: u32,
    pub true_idx: u32,
    pub false_idx: u32,
    pub reserved: u32,
    /// `typeof` result → code, and the code of `null`.
    pub type_codes: Vec<(&'static str, u32)>,
    pub null_type_code: u32,
    /// Names of the operations the glue provides (`bridge_schema::abi::js_values::ops`).
    pub ops: JsValueOps,
}

#[derive(Serialize)]
pub struct JsValueOps {
    pub drop: &'static str,
    pub clone: &'static str,
    pub eq: &'static str,
    pub type_of: &'static str,
    pub as_f64: &'static str,
    pub is_number: &'static str,
    pub as_string: &'static str,
    pub to_string: &'static str,
    pub from_f64: &'static str,
    pub from_str: &'static str,
    pub get: &'static str,
    pub set: &'static str,
    pub call: &'static str,
    pub get_text: &'static str,
    pub throw: &'static str,
    pub from_class: &'static str,
    pub class_addr: &'static str,
    pub new_object: &'static str,
    pub new_array: &'static str,
    pub closure_new: &'static str,
    pub closure_drop: &'static str,
    pub closure_forget: &'static str,
    pub push: &'static str,
}

/// Layout of a released-wrapper entry (`bridge_schema::abi::released_wrapper`), in `u32`
/// words.
#[derive(Serialize)]
pub struct ReleasedWrapper {
    pub class: u32,
    pub slot: u32,
    pub words: u32,
}

#[derive(Serialize)]
pub struct Header {
    pub slot: u32,
    /// The low bit of a `rust`-mode hit's value (`header::HIT_TAG`): the rest is the slot.
    pub hit_tag: i32,
    /// The borrow flag's offset, and its value once a call took the object by value.
    pub borrow: u32,
    pub moved: i32,
}

#[derive(Serialize)]
pub struct RetArea {
    pub ptr: u32,
    pub len: u32,
    pub cap: u32,
    pub is_some: u32,
}

/// Index of the `u32` at byte `offset` of the return area.
const fn word(offset: u32) -> u32 {
    assert!(
        offset.is_multiple_of(4),
        "return-area and released-wrapper fields are aligned u32s"
    );
    offset / 4
}

impl WasmAbi {
    pub fn new() -> Self {
        WasmAbi {
            stack_pointer: bridge_schema::STACK_POINTER_EXPORT,
            wbg_entry: bridge_schema::WBG_ENTRY_EXPORT,
            exports: RuntimeExports::new(),
            imports: ImportModules::new(),
            header: Header {
                slot: header::SLOT_OFFSET,
                hit_tag: header::HIT_TAG,
                borrow: header::BORROW_OFFSET,
                moved: header::BORROW_MOVED,
            },
            js_values: JsValues::new(),
            released: ReleasedWrapper {
                class: word(released_wrapper::CLASS_OFFSET),
                slot: word(released_wrapper::SLOT_OFFSET),
                words: word(released_wrapper::SIZE),
            },
            tasks: Tasks::new(),
            ret: RetArea {
                ptr: word(ret_area::PTR_OFFSET),
                len: word(ret_area::LEN_OFFSET),
                cap: word(ret_area::CAP_OFFSET),
                is_some: word(ret_area::IS_SOME_OFFSET),
            },
            flat: FlatArea {
                slots: flat_area::SLOTS,
                words: flat_area::SIZE / 4,
            },
            refusal: Refusal {
                mutably_borrowed: refusal::MUTABLY_BORROWED,
                borrowed: refusal::BORROWED,
                moved: refusal::MOVED,
                released: refusal::RELEASED,
            },
        }
    }
}

impl RuntimeExports {
    /// The runtime's exports, by the schema's names.
    fn new() -> Self {
        RuntimeExports {
            memory: exports::MEMORY,
            alloc: exports::ALLOC,
            realloc: exports::REALLOC,
            free: exports::FREE,
            init: exports::INIT,
            panic_reclaim: exports::PANIC_RECLAIM,
            ret_area: exports::RET_AREA,
            unborrow: exports::UNBORROW,
            unborrow_shared: exports::UNBORROW_SHARED,
            refused: exports::REFUSED,
            wire_in: exports::WIRE_IN,
            error_data: exports::ERROR_DATA,
            js_exception_cell: exports::JS_EXCEPTION_CELL,
            pool_begin: exports::POOL_BEGIN,
            pool_set_active: exports::POOL_SET_ACTIVE,
            pool_drain: exports::POOL_DRAIN,
            identity_table_len: bridge_schema::IDENTITY_TABLE_LEN_EXPORT,
            pool_released: exports::POOL_RELEASED,
            pool_keep: exports::POOL_KEEP,
            closure_call: exports::CLOSURE_CALL,
            closure_free: exports::CLOSURE_FREE,
            flat_area: exports::FLAT_AREA,
        }
    }
}

impl ImportModules {
    /// The modules and names of the imports the glue provides.
    fn new() -> Self {
        ImportModules {
            host: host::MODULE,
            host_throw: host::THROW,
            host_panic_message: host::PANIC_MESSAGE,
            host_guards_ended: host::GUARDS_ENDED,
            host_guards_resumed: host::GUARDS_RESUMED,
            js_values: bridge_schema::JS_VALUE_MODULE,
            js_imports: bridge_schema::JS_IMPORT_MODULE,
        }
    }
}

impl JsValues {
    /// The `JsValue` table's layout and the ops the runtime calls on it.
    fn new() -> Self {
        use js_values::type_code as t;
        JsValues {
            undefined_idx: js_values::UNDEFINED,
            null_idx: js_values::NULL,
            true_idx: js_values::TRUE,
            false_idx: js_values::FALSE,
            reserved: js_values::RESERVED,
            type_codes: vec![
                ("undefined", t::UNDEFINED),
                ("boolean", t::BOOLEAN),
                ("number", t::NUMBER),
                ("bigint", t::BIGINT),
                ("string", t::STRING),
                ("symbol", t::SYMBOL),
                ("function", t::FUNCTION),
                ("object", t::OBJECT),
            ],
            null_type_code: t::NULL,
            ops: {
                use js_values::ops as o;
                JsValueOps {
                    drop: o::DROP,
                    clone: o::CLONE,
                    eq: o::EQ,
                    type_of: o::TYPE_OF,
                    as_f64: o::AS_F64,
                    is_number: o::IS_NUMBER,
                    as_string: o::AS_STRING,
                    to_string: o::TO_STRING,
                    from_f64: o::FROM_F64,
                    from_str: o::FROM_STR,
                    get: o::GET,
                    set: o::SET,
                    call: o::CALL,
                    get_text: o::GET_TEXT,
                    throw: o::THROW,
                    from_class: o::FROM_CLASS,
                    class_addr: o::CLASS_ADDR,
                    new_object: o::NEW_OBJECT,
                    new_array: o::NEW_ARRAY,
                    push: o::PUSH,
                    closure_new: o::CLOSURE_NEW,
                    closure_drop: o::CLOSURE_DROP,
                    closure_forget: o::CLOSURE_FORGET,
                }
            },
        }
    }
}

impl Tasks {
    /// The async runtime's import names and constants.
    fn new() -> Self {
        Tasks {
            module: tasks::MODULE,
            schedule: tasks::SCHEDULE,
            done: tasks::DONE,
            then: tasks::THEN,
            unthen: tasks::UNTHEN,
            report: tasks::REPORT,
            abort_then: tasks::ABORT_THEN,
            abort_forget: tasks::ABORT_FORGET,
            abort_subscribed: tasks::ABORT_SUBSCRIBED as i32,
            poll_first: tasks::POLL_FIRST,
            run: tasks::RUN,
            settle: tasks::SETTLE,
            abandon: tasks::ABANDON,
            live: tasks::LIVE,
            awaiting: tasks::AWAITING,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Templates write `$wasm.{{ name }}` and `{ {{ name }}: ... }`: every name must be a
    /// plain JS identifier (a name that is not would need quoting and break the glue).
    #[test]
    fn every_name_is_a_js_identifier() {
        let abi = serde_json::to_value(WasmAbi::new()).unwrap();
        let mut names = vec![
            abi["stack_pointer"].as_str().unwrap().to_string(),
            abi["wbg_entry"].as_str().unwrap().to_string(),
        ];
        for group in ["exports", "imports"] {
            let fields = abi[group].as_object().unwrap();
            names.extend(fields.values().map(|v| v.as_str().unwrap().to_string()));
        }
        assert!(names.len() > 20, "{names:?}");
        for name in names {
            assert_eq!(
                bridge_schema::js::identifier_problem(&name),
                None,
                "`{name}` cannot be spelled as a JS property access"
            );
        }
    }
}
