//! The glue's `JsValue` operations (import module `bridge_schema::JS_VALUE_MODULE`, see
//! `templates/js/values.js.j2`). Their names are `bridge_schema::abi::js_values::ops`
//! (an `extern` block cannot take constants: the post-process check holds these function
//! names to that list). On the host (unit tests, clippy) there is no JS: every
//! operation panics, except dropping, which does nothing.

#[cfg(target_arch = "wasm32")]
mod imp {
    #[link(wasm_import_module = "__bridge_js")]
    unsafe extern "C" {
        pub fn drop(idx: u32);
        pub fn clone(idx: u32) -> u32;
        pub fn eq(a: u32, b: u32) -> u32;
        pub fn type_of(idx: u32) -> u32;
        pub fn as_f64(idx: u32) -> f64;
        pub fn is_number(idx: u32) -> u32;
        /// Writes `[ptr, len, cap]` of a new UTF-8 buffer to the return area (ptr 0: not a string).
        pub fn as_string(idx: u32);
        /// As `as_string`, for `String(value)`.
        pub fn to_string(idx: u32);
        pub fn from_f64(value: f64) -> u32;
        pub fn from_str(ptr: u32, len: u32) -> u32;
        pub fn get(idx: u32, key_ptr: u32, key_len: u32) -> u32;
        pub fn set(idx: u32, key_ptr: u32, key_len: u32, value: u32);
        /// Call the function `idx` with `len` table indices at `args`; a JS exception goes to
        /// the exception cell (see `crate::js::take_exception`).
        pub fn call(idx: u32, args: u32, len: u32) -> u32;
        /// As `as_string`, for `value[key]`; catches what reading it throws (ptr 0).
        pub fn get_text(idx: u32, key_ptr: u32, key_len: u32);
        /// Throw the value `idx` (its entry is taken).
        pub fn throw(idx: u32) -> !;
        /// The wrapper of the class `type_id` for the lowered class value `abi`.
        pub fn from_class(type_ptr: u32, type_len: u32, abi: u32) -> u32;
        /// The live wrapper's address (0: released; -1: not a wrapper of that class).
        pub fn class_addr(idx: u32, type_ptr: u32, type_len: u32) -> i32;
        pub fn new_object() -> u32;
        pub fn new_array() -> u32;
        pub fn push(idx: u32, value: u32);
        /// The JS function of the Rust-owned closure at `slot` (`bridge_runtime::Closure`).
        pub fn closure_new(slot: u32, once: u32, label_ptr: u32, label_len: u32) -> u32;
        /// Rust dropped the `Closure` of the function `idx`: invalidate it, free the slot.
        pub fn closure_drop(idx: u32);
        /// `Closure::forget`: JS owns the function `idx` from now on.
        pub fn closure_forget(idx: u32);
    }
}

#[cfg(target_arch = "wasm32")]
pub(crate) use imp::*;

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    const NO_JS: &str = "JsValue operations need JS: they only work in wasm built by cargo bridge";
    pub unsafe fn drop(_idx: u32) {}
    pub unsafe fn clone(_idx: u32) -> u32 {
        panic!("{NO_JS}")
    }
    pub unsafe fn eq(_a: u32, _b: u32) -> u32 {
        panic!("{NO_JS}")
    }
    pub unsafe fn type_of(_idx: u32) -> u32 {
        panic!("{NO_JS}")
    }
    pub unsafe fn as_f64(_idx: u32) -> f64 {
        panic!("{NO_JS}")
    }
    pub unsafe fn is_number(_idx: u32) -> u32 {
        panic!("{NO_JS}")
    }
    pub unsafe fn as_string(_idx: u32) {
        panic!("{NO_JS}")
    }
    pub unsafe fn to_string(_idx: u32) {
        panic!("{NO_JS}")
    }
    pub unsafe fn from_f64(_value: f64) -> u32 {
        panic!("{NO_JS}")
    }
    pub unsafe fn from_str(_ptr: u32, _len: u32) -> u32 {
        panic!("{NO_JS}")
    }
    pub unsafe fn get(_idx: u32, _key_ptr: u32, _key_len: u32) -> u32 {
        panic!("{NO_JS}")
    }
    pub unsafe fn set(_idx: u32, _key_ptr: u32, _key_len: u32, _value: u32) {
        panic!("{NO_JS}")
    }
    pub unsafe fn call(_idx: u32, _args: u32, _len: u32) -> u32 {
        panic!("{NO_JS}")
    }
    pub unsafe fn get_text(_idx: u32, _key_ptr: u32, _key_len: u32) {
        panic!("{NO_JS}")
    }
    pub unsafe fn throw(_idx: u32) -> ! {
        panic!("{NO_JS}")
    }
    pub unsafe fn from_class(_type_ptr: u32, _type_len: u32, _abi: u32) -> u32 {
        panic!("{NO_JS}")
    }
    pub unsafe fn class_addr(_idx: u32, _type_ptr: u32, _type_len: u32) -> i32 {
        panic!("{NO_JS}")
    }
    pub unsafe fn new_object() -> u32 {
        panic!("{NO_JS}")
    }
    pub unsafe fn new_array() -> u32 {
        panic!("{NO_JS}")
    }
    pub unsafe fn push(_idx: u32, _value: u32) {
        panic!("{NO_JS}")
    }
    pub unsafe fn closure_new(_slot: u32, _once: u32, _label_ptr: u32, _label_len: u32) -> u32 {
        panic!("{NO_JS}")
    }
    pub unsafe fn closure_drop(_idx: u32) {}
    pub unsafe fn closure_forget(_idx: u32) {}
}

#[cfg(not(target_arch = "wasm32"))]
pub(crate) use imp::*;
