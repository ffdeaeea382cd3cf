//! `JsError`: a JS exception caught by an import or callback declared
//! `-> Result<T, JsError>`.

use super::{JsType, JsValue};
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
