//! The message of a type that cannot cross: what it is, why, and what can.

use syn::Type;

const SUPPORTED: &str = "supported types: bool, i8..i32, u8..u32, f32, f64, i64, u64, i128, \
u128, usize, isize, char, String, &str, Option<T>, #[bridge] types (classes as C, Handle<C>, \
&C, &mut C), \
imported JS classes (`pub type T;` in a #[bridge] extern block), Vec<T>, Box<[T]>, \
tuples (A, B, ..) of up to 8 owned values, HashMap/BTreeMap<K, V> and HashSet/BTreeSet<K> \
(K: String, integers, char, fieldless enums), \
&[number] and &mut [number] parameters, &[number] results borrowed from &self (views), \
Result<T, E: Display> returns, iterator returns (impl Iterator<Item = T> + 'static, \
Box<dyn Iterator<Item = T>>), JsValue, &JsValue and JS functions (&dyn Fn(..) -> R, \
&mut dyn FnMut(..) -> R, Box<dyn Fn(..) -> R>, Box<dyn FnOnce(..) -> R>, and Option of these as parameters)";

/// `ty` cannot cross the boundary (`why`, if not empty).
pub fn unsupported(ty: &Type, why: &str) -> syn::Error {
    let shown = quote::ToTokens::to_token_stream(ty).to_string();
    let why = if why.is_empty() {
        String::new()
    } else {
        format!(": {why}")
    };
    syn::Error::new_spanned(
        ty,
        format!("type `{shown}` cannot cross the JS boundary{why}; {SUPPORTED}"),
    )
}

/// Why a `JsPromise` stands only where it stands.
pub const JS_PROMISE_ALONE: &str = "a `JsPromise` is the result of a JS function Rust calls \
(an import's, or a callback's: `&dyn Fn() -> JsPromise`), to be awaited; anywhere else \
(parameters, arguments to JS, exports' results, fields, Option, Vec) take a `JsValue` and \
wrap it with `JsPromise::new`";
