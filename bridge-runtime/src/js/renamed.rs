//! `JsValue` under another name in a `#[bridge]` signature (issue 45, item 6): `use
//! bridge_runtime::JsValue as BJsValue;` or `type Value = JsValue;`. The macro knows
//! `JsValue` by its name; a type it does not know crosses through the traits every user
//! type implements, so `JsValue` implements them too, with a type id of its own
//! (`#js-value`) that `cargo bridge` reads as a JS value of any type, typed `any`. The value
//! crosses as itself (an entry of the value table, `===` kept), as a `JsValue` spelled so
//! does.

use super::JsValue;
use crate::types::{BridgeType, FromJs, IntoJs};

impl BridgeType for JsValue {
    const TYPE_ID: &'static str = bridge_schema::JS_VALUE_TYPE_ID;
}

impl IntoJs for JsValue {
    type Abi = u32;
    #[inline]
    fn into_abi(self) -> u32 {
        JsValue::into_abi(self)
    }
}

impl FromJs for JsValue {
    type Abi = u32;
    #[inline]
    unsafe fn from_abi(idx: u32) -> JsValue {
        JsValue::from_abi(idx)
    }
}
