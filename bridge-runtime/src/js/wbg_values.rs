//! `JsValue` ⇄ `wasm_bindgen::JsValue` (cargo feature `wasm-bindgen`): the same JS value
//! (`===`) moves from one tool's value table to the other's in one call into JS.
//!
//! The JS half is `wbg_values.js`, imported through wasm-bindgen's own `module = ...`
//! mechanism (so wasm-bindgen's CLI copies it into the package and writes the import's
//! adapter, whichever ABI it uses for its values); cargo bridge's glue hands it the
//! bridge value table when the module is instantiated. Both conversions take ownership:
//! the source entry is freed, so converting back and forth leaves both tables flat.
//!
//! A class handle converts too (`wasm_bindgen::JsValue::from(handle)`): it is lowered as
//! any class return is (one strong reference, through the class's identity hook) and the
//! glue's lift of that class makes or finds its wrapper, so `rust` and `pointer` mode give
//! the wrapper JS already holds (`===`) and `none` mode a fresh one.

use super::JsValue;
use crate::{BridgeClass, Handle};
use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(module = "/src/js/wbg_values.js")]
extern "C" {
    #[wasm_bindgen(js_name = "__bridgeToWasmBindgen")]
    fn to_wasm_bindgen(idx: u32) -> wasm_bindgen::JsValue;
    #[wasm_bindgen(js_name = "__bridgeFromWasmBindgen")]
    fn from_wasm_bindgen(value: wasm_bindgen::JsValue) -> u32;
    /// The wrapper of the class `type_id` for the lowered value `abi` (`lower_class`).
    #[wasm_bindgen(js_name = "__bridgeClassToWasmBindgen")]
    fn class_to_wasm_bindgen(type_id: &str, abi: u32) -> wasm_bindgen::JsValue;
}

impl<C: BridgeClass> From<Handle<C>> for wasm_bindgen::JsValue {
    fn from(handle: Handle<C>) -> wasm_bindgen::JsValue {
        class_to_wasm_bindgen(C::TYPE_ID, crate::types::lower_class(handle))
    }
}

impl<C: BridgeClass> From<&Handle<C>> for wasm_bindgen::JsValue {
    fn from(handle: &Handle<C>) -> wasm_bindgen::JsValue {
        wasm_bindgen::JsValue::from(handle.clone())
    }
}

impl From<wasm_bindgen::JsValue> for JsValue {
    fn from(value: wasm_bindgen::JsValue) -> JsValue {
        JsValue::from_abi(from_wasm_bindgen(value))
    }
}

impl From<JsValue> for wasm_bindgen::JsValue {
    fn from(value: JsValue) -> wasm_bindgen::JsValue {
        to_wasm_bindgen(value.into_abi())
    }
}

impl From<&wasm_bindgen::JsValue> for JsValue {
    fn from(value: &wasm_bindgen::JsValue) -> JsValue {
        JsValue::from(value.clone())
    }
}

impl From<&JsValue> for wasm_bindgen::JsValue {
    fn from(value: &JsValue) -> wasm_bindgen::JsValue {
        wasm_bindgen::JsValue::from(value.clone())
    }
}
