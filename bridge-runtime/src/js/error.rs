//! `JsError`: a JS exception caught by an import or callback declared
//! `-> Result<T, JsError>`, and the calls that catch one (`JsValue::call`, `caught`).

use super::exception::{clear_exception, take_exception};
use super::host;
use super::value::{JsType, JsValue};
use std::fmt;

/// A value JS threw, with the text of its `name`, `message` and `stack` (empty when the
/// thrown value has none, or reading it throws: a throwing getter, a revoked proxy; a
/// thrown non-object gives `String(value)` as the message).
pub struct JsError {
    pub name: String,
    pub message: String,
    pub stack: String,
    /// The thrown value itself.
    pub value: JsValue,
}

impl JsError {
    /// Read the parts of a thrown value. Nothing it reads can throw: the value's getters
    /// run inside the glue's catch, so any thrown value becomes a `JsError`.
    pub fn from_thrown(value: JsValue) -> JsError {
        let text = |key: &str| value.get_text(key).unwrap_or_default();
        let (name, message, stack) = match value.type_of() {
            JsType::Object | JsType::Function => (text("name"), text("message"), text("stack")),
            _ => (String::new(), value.to_js_string(), String::new()),
        };
        JsError {
            name,
            message,
            stack,
            value,
        }
    }
}

impl fmt::Display for JsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.name.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.name, self.message)
        }
    }
}

impl fmt::Debug for JsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JsError")
            .field("name", &self.name)
            .field("message", &self.message)
            .finish_non_exhaustive()
    }
}

impl std::error::Error for JsError {}

impl JsValue {
    /// Call the value as a function (with `this` undefined). A JS exception, or a value
    /// that is not a function, is an `Err`.
    pub fn call(&self, args: &[&JsValue]) -> Result<JsValue, JsError> {
        let indices: Vec<u32> = args.iter().map(|a| a.abi()).collect();
        clear_exception();
        // SAFETY: live indices; JS reads them before returning.
        let ret = unsafe { host::call(self.abi(), indices.as_ptr() as u32, indices.len() as u32) };
        match take_exception() {
            Some(thrown) => Err(JsError::from_thrown(thrown)),
            None => Ok(JsValue::from_abi(ret)),
        }
    }
}

/// The result of a catching call whose JS function returned `value` (already lifted).
#[doc(hidden)]
#[inline(always)]
pub fn caught<T>(value: impl FnOnce() -> T) -> Result<T, JsError> {
    match take_exception() {
        Some(thrown) => Err(JsError::from_thrown(thrown)),
        None => Ok(value()),
    }
}
