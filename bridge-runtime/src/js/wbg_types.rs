//! `#[wasm_bindgen]` types in `#[bridge]` signatures (cargo feature `wasm-bindgen`):
//! exported wasm-bindgen structs and enums, imported `extern "C"` types, `js_sys` and
//! `web_sys` types, `wasm_bindgen::JsValue` — any type wasm-bindgen converts to and from
//! a `wasm_bindgen::JsValue` (`TryFromJsValue` and `Into<JsValue>`, which wasm-bindgen
//! implements for every one of them).
//!
//! Why blanket impls of bridge's own traits rather than a second set of traits the macro
//! picks between: the macro cannot tell from a path whether `Level` is a `#[bridge]` or a
//! `#[wasm_bindgen]` enum, and every place a user type crosses (a parameter, a result, an
//! `Option`, a `Vec`, a JS import's argument, a callback's) already goes through
//! `BridgeType`/`FromJs`/`IntoJs`. Coherence allows the blanket beside each `#[bridge]`
//! type's own impls because those types are local to their crate and are not wasm-bindgen
//! types. So such a value crosses as an imported JS class does (`#[bridge] extern` types):
//! as its JS value in bridge's value table, moved into wasm-bindgen's table and converted
//! by wasm-bindgen's own code (`TryFromJsValue`: a struct is taken out of its JS object,
//! an enum read from its number or string), and back through `Into<JsValue>` (a struct gets
//! its wasm-bindgen JS object). The value JS sees is the one wasm-bindgen gives it.
//!
//! The type id is `"#wasm-bindgen"`: the macro appends whether it is an imported type
//! (`ExternProbe`) and the type as written (the record then says
//! `#wasm-bindgen:extern:web_sys::HtmlElement` or `#wasm-bindgen:value:Level`), and
//! `cargo bridge` types it in the `.d.ts` by wasm-bindgen's name for it (`postprocess/exports.rs`, `wasm_bindgen/types.rs`).

use super::JsValue;
use crate::types::{BridgeType, ExternProbe, FromJs, IntoJs};
use wasm_bindgen::convert::TryFromJsValue;

/// What every wasm-bindgen type is to `#[bridge]`: converted by wasm-bindgen from and to
/// its `JsValue`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is neither a #[bridge] type nor a wasm-bindgen type",
    label = "not #[bridge], not #[wasm_bindgen]",
    note = "a #[bridge] signature takes #[bridge] classes, records and enums, and wasm-bindgen \
            types (#[wasm_bindgen] structs and enums, imported types, js_sys and web_sys types)"
)]
pub trait WasmBindgenType: TryFromJsValue + Into<wasm_bindgen::JsValue> + 'static {}

impl<T: TryFromJsValue + Into<wasm_bindgen::JsValue> + 'static> WasmBindgenType for T {}

pub use bridge_schema::WASM_BINDGEN_TYPE_ID;

impl<T: WasmBindgenType> BridgeType for T {
    const TYPE_ID: &'static str = WASM_BINDGEN_TYPE_ID;
    const WASM_BINDGEN: bool = true;
}

/// Crosses as its JS value (an entry of bridge's value table, which JS takes).
impl<T: WasmBindgenType> IntoJs for T {
    type Abi = u32;
    #[inline]
    fn into_abi(self) -> u32 {
        JsValue::from(self.into()).into_abi()
    }
}

/// The glue checked the value where it can (an instance of a wasm-bindgen class, a value
/// of a wasm-bindgen enum); wasm-bindgen converts it.
impl<T: WasmBindgenType> FromJs for T {
    type Abi = u32;
    #[inline]
    unsafe fn from_abi(idx: u32) -> T {
        let value = wasm_bindgen::JsValue::from(JsValue::from_abi(idx));
        match T::try_from_js_value(value) {
            Ok(v) => v,
            Err(_) => refused(core::any::type_name::<T>()),
        }
    }
}

/// An imported JS type (the record says so: its `.d.ts` name is its `typescript_type`).
impl<T: wasm_bindgen::JsCast> ExternProbe<T> {
    pub const IS_EXTERN: bool = true;
}

#[cold]
#[inline(never)]
fn refused(ty: &str) -> ! {
    panic!("wasm-bindgen could not convert the JS value passed as `{ty}`")
}
