//! `JsValue`: an owned handle to any JS value, kept in the glue's value table.

use super::host;
use std::fmt;

/// Table indices the glue reserves for constants (never freed).
use bridge_schema::abi::js_values::{FALSE, NULL, RESERVED, TRUE, UNDEFINED, type_code};

/// An owned handle to a JS value (object, function, string, number, …).
///
/// The value lives in a table in the JS glue; the handle is its index. `Clone` takes a new
/// table entry for the same value and `Drop` frees the entry, so the table holds a JS
/// value exactly as long as some Rust handle does. Crossing back to JS gives the original
/// value (`===`). Two handles compare equal (`==`) when their values are `===` in JS.
pub struct JsValue {
    idx: u32,
}

/// What `typeof` says about a value (with `null` split out of `"object"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsType {
    Undefined,
    Null,
    Boolean,
    Number,
    BigInt,
    String,
    Symbol,
    Object,
    Function,
}

impl JsValue {
    /// Take over the table entry `idx` (the glue made it for this handle).
    #[doc(hidden)]
    pub fn from_abi(idx: u32) -> JsValue {
        JsValue { idx }
    }

    /// The table index, keeping the entry (for `&JsValue` crossings).
    #[doc(hidden)]
    pub fn abi(&self) -> u32 {
        self.idx
    }

    /// Give the table entry to the glue (for owned crossings).
    #[doc(hidden)]
    pub fn into_abi(self) -> u32 {
        let idx = self.idx;
        std::mem::forget(self);
        idx
    }

    pub fn undefined() -> JsValue {
        JsValue { idx: UNDEFINED }
    }

    /// What an `Option<&T>` argument of an import lends JS: the object, or `undefined`
    /// for `None` (as wasm-bindgen passes it).
    #[doc(hidden)]
    pub fn lent_or_undefined<T: AsRef<JsValue>>(value: Option<&T>) -> &JsValue {
        static LENT_UNDEFINED: JsValue = JsValue { idx: UNDEFINED };
        match value {
            Some(v) => v.as_ref(),
            None => &LENT_UNDEFINED,
        }
    }

    pub fn null() -> JsValue {
        JsValue { idx: NULL }
    }

    pub fn from_bool(value: bool) -> JsValue {
        JsValue {
            idx: if value { TRUE } else { FALSE },
        }
    }

    pub fn from_f64(value: f64) -> JsValue {
        // SAFETY: plain value in, new table entry out.
        JsValue::from_abi(unsafe { host::from_f64(value) })
    }

    #[allow(clippy::should_implement_trait)] // infallible, unlike FromStr
    pub fn from_str(value: &str) -> JsValue {
        // SAFETY: JS decodes the bytes before returning.
        JsValue::from_abi(unsafe { host::from_str(value.as_ptr() as u32, value.len() as u32) })
    }

    /// A new empty JS object (`{}`): fill it with [`JsValue::set`].
    pub fn object() -> JsValue {
        // SAFETY: no arguments; a new table entry out.
        JsValue::from_abi(unsafe { host::new_object() })
    }

    /// A new empty JS array (`[]`): fill it with [`JsValue::push`].
    pub fn array() -> JsValue {
        // SAFETY: no arguments; a new table entry out.
        JsValue::from_abi(unsafe { host::new_array() })
    }

    /// `Array.prototype.push` of `value` onto this array (a JS exception, e.g. for a frozen
    /// array, propagates to the JS caller, as for [`JsValue::set`]).
    pub fn push(&self, value: &JsValue) {
        // SAFETY: live table indices.
        unsafe { host::push(self.idx, value.idx) }
    }

    pub fn type_of(&self) -> JsType {
        match self.idx {
            UNDEFINED => return JsType::Undefined,
            NULL => return JsType::Null,
            TRUE | FALSE => return JsType::Boolean,
            _ => {}
        }
        // SAFETY: a live table index.
        match unsafe { host::type_of(self.idx) } {
            type_code::UNDEFINED => JsType::Undefined,
            type_code::NULL => JsType::Null,
            type_code::BOOLEAN => JsType::Boolean,
            type_code::NUMBER => JsType::Number,
            type_code::BIGINT => JsType::BigInt,
            type_code::STRING => JsType::String,
            type_code::SYMBOL => JsType::Symbol,
            type_code::FUNCTION => JsType::Function,
            _ => JsType::Object,
        }
    }

    pub fn is_undefined(&self) -> bool {
        self.type_of() == JsType::Undefined
    }

    pub fn is_null(&self) -> bool {
        self.type_of() == JsType::Null
    }

    pub fn is_function(&self) -> bool {
        self.type_of() == JsType::Function
    }

    /// The number, if the value is one.
    pub fn as_f64(&self) -> Option<f64> {
        if self.idx < RESERVED {
            return None;
        }
        // SAFETY: a live table index.
        unsafe { (host::is_number(self.idx) != 0).then(|| host::as_f64(self.idx)) }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.idx {
            TRUE => Some(true),
            FALSE => Some(false),
            _ => None,
        }
    }

    /// The string, if the value is one.
    pub fn as_string(&self) -> Option<String> {
        if self.idx < RESERVED {
            return None;
        }
        // SAFETY: a live table index; the glue describes a buffer it allocated for us.
        unsafe {
            host::as_string(self.idx);
            crate::ret::take_ret_string()
        }
    }

    /// `String(value)` in JS.
    pub fn to_js_string(&self) -> String {
        // SAFETY: as `as_string`; `String(v)` always gives a string (or throws).
        unsafe {
            host::to_string(self.idx);
            crate::ret::take_ret_string().unwrap_or_default()
        }
    }

    /// `value[key]` (`undefined` for a missing property; throws to the JS caller if the
    /// value is `null` or `undefined`).
    pub fn get(&self, key: &str) -> JsValue {
        // SAFETY: a live index; JS reads the key before returning.
        JsValue::from_abi(unsafe { host::get(self.idx, key.as_ptr() as u32, key.len() as u32) })
    }

    /// `value[key]` if it is a string; `None` when it is not, or when reading it threw
    /// (the exception is dropped: it never unwinds Rust frames).
    pub(crate) fn get_text(&self, key: &str) -> Option<String> {
        // SAFETY: as `as_string`; JS reads the key before returning.
        unsafe {
            host::get_text(self.idx, key.as_ptr() as u32, key.len() as u32);
            crate::ret::take_ret_string()
        }
    }

    /// `value[key] = new_value`.
    pub fn set(&self, key: &str, new_value: &JsValue) {
        // SAFETY: live indices; JS reads the key before returning.
        unsafe {
            host::set(
                self.idx,
                key.as_ptr() as u32,
                key.len() as u32,
                new_value.idx,
            )
        }
    }
}

// Class handles as JS values (`crate::class_values` builds on these).
impl JsValue {
    /// The wrapper JS gets for the class value `abi` (lowered through the class's
    /// identity hook) of the class `type_id`.
    pub(crate) fn from_lowered_class(type_id: &str, abi: u32) -> JsValue {
        // SAFETY: JS reads the type id before returning; `abi` carries one reference.
        JsValue::from_abi(unsafe {
            host::from_class(type_id.as_ptr() as u32, type_id.len() as u32, abi)
        })
    }

    /// The address of the live wrapper of the class `type_id` this value is: `Ok(addr)`,
    /// `Err(true)` for a released wrapper of that class, `Err(false)` for anything else.
    pub(crate) fn class_addr(&self, type_id: &str) -> Result<u32, bool> {
        if self.idx < RESERVED {
            return Err(false);
        }
        // SAFETY: a live index; JS reads the type id before returning.
        match unsafe { host::class_addr(self.idx, type_id.as_ptr() as u32, type_id.len() as u32) } {
            addr if addr > 0 => Ok(addr as u32),
            0 => Err(true),
            _ => Err(false),
        }
    }
}

impl Clone for JsValue {
    fn clone(&self) -> JsValue {
        if self.idx < RESERVED {
            return JsValue { idx: self.idx };
        }
        // SAFETY: a live table index.
        JsValue::from_abi(unsafe { host::clone(self.idx) })
    }
}

impl Drop for JsValue {
    fn drop(&mut self) {
        if self.idx >= RESERVED {
            // SAFETY: this handle owns the entry.
            unsafe { host::drop(self.idx) }
        }
    }
}

impl PartialEq for JsValue {
    /// `===` in JS (so `NaN != NaN`).
    fn eq(&self, other: &JsValue) -> bool {
        // The glue keeps undefined, null, true and false only in their reserved entries.
        if self.idx == other.idx || self.idx < RESERVED || other.idx < RESERVED {
            return self.idx == other.idx;
        }
        // SAFETY: live table indices.
        unsafe { host::eq(self.idx, other.idx) != 0 }
    }
}

impl fmt::Debug for JsValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JsValue({:?} #{})", self.type_of(), self.idx)
    }
}

impl From<bool> for JsValue {
    fn from(value: bool) -> JsValue {
        JsValue::from_bool(value)
    }
}

impl From<f64> for JsValue {
    fn from(value: f64) -> JsValue {
        JsValue::from_f64(value)
    }
}

macro_rules! from_number {
    ($($t:ty),*) => {$(
        impl From<$t> for JsValue {
            /// A JS number (`f64`; 64-bit integers beyond 2^53 round, as `Number(n)`).
            fn from(value: $t) -> JsValue {
                JsValue::from_f64(value as f64)
            }
        }
    )*};
}
from_number!(i8, i16, i32, u8, u16, u32, f32, i64, u64, usize, isize);

impl From<&String> for JsValue {
    fn from(value: &String) -> JsValue {
        JsValue::from_str(value)
    }
}

impl From<&str> for JsValue {
    fn from(value: &str) -> JsValue {
        JsValue::from_str(value)
    }
}

impl From<String> for JsValue {
    fn from(value: String) -> JsValue {
        JsValue::from_str(&value)
    }
}
