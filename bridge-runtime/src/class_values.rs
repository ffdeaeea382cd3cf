//! Class handles as `JsValue`s: `JsValue::from(handle)` (the class's wrapper, with its
//! identity mode: `===` the wrapper JS holds in `pointer`/`rust` mode; a new wrapper joins
//! an active pool, as any return does) and `Handle::<C>::try_from(&JsValue)` (only a live
//! wrapper of `C`), so a `Vec<JsValue>` can hold objects of several classes.
//!
//! The handle is lowered as any class return (`lower_class`), and the glue's lift of
//! the class named by its type id makes or finds the wrapper (as `js/wbg_values.rs` does
//! for `wasm_bindgen::JsValue`).

use crate::Handle;
use crate::js::JsValue;
use crate::types::{BridgeClass, lower_class};
use std::fmt;

impl<C: BridgeClass> From<Handle<C>> for JsValue {
    fn from(handle: Handle<C>) -> JsValue {
        JsValue::from_lowered_class(C::TYPE_ID, lower_class(handle))
    }
}

impl<C: BridgeClass> From<&Handle<C>> for JsValue {
    fn from(handle: &Handle<C>) -> JsValue {
        JsValue::from(handle.clone())
    }
}

/// Why a `JsValue` is not a handle to a class `C` (`Handle::<C>::try_from`): its message
/// names the class and what the value is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAClass {
    /// The class's JS name.
    pub class: &'static str,
    /// What the value is: `"a released Book"`, `"Shelf"` (its constructor's name),
    /// `"number"`, `"null"`, ...
    pub got: String,
}

impl NotAClass {
    /// `expected a live Book object, got Shelf`.
    pub fn message(&self) -> String {
        crate::text::concat(&["expected a live ", self.class, " object, got ", &self.got])
    }
}

impl fmt::Display for NotAClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for NotAClass {}

impl<C: BridgeClass> TryFrom<&JsValue> for Handle<C> {
    type Error = NotAClass;
    fn try_from(value: &JsValue) -> Result<Handle<C>, NotAClass> {
        match value.class_addr(C::TYPE_ID) {
            // SAFETY: the address of a live wrapper of C, whose reference JS keeps while
            // the value (held by this `JsValue`) is in the table; the clone is Rust's own.
            Ok(addr) => Ok(unsafe { Handle::clone_from_raw(addr as usize) }),
            Err(released) => Err(NotAClass {
                class: C::NAME,
                got: if released {
                    crate::text::concat(&["a released ", C::NAME])
                } else {
                    describe(value)
                },
            }),
        }
    }
}

impl<C: BridgeClass> TryFrom<JsValue> for Handle<C> {
    type Error = NotAClass;
    fn try_from(value: JsValue) -> Result<Handle<C>, NotAClass> {
        Handle::try_from(&value)
    }
}

/// `typeof`, or for an object its constructor's name (as the glue's messages say it).
fn describe(value: &JsValue) -> String {
    use crate::js::JsType;
    match value.type_of() {
        JsType::Object | JsType::Function => value
            .get("constructor")
            .get("name")
            .as_string()
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "object".into()),
        JsType::Null => "null".into(),
        JsType::Undefined => "undefined".into(),
        JsType::Boolean => "boolean".into(),
        JsType::Number => "number".into(),
        JsType::BigInt => "bigint".into(),
        JsType::String => "string".into(),
        JsType::Symbol => "symbol".into(),
    }
}
