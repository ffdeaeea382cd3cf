//! The message of a type that cannot cross: what it is, why, and what can (the scalars
//! from the scalar table, so a new one needs no edit here).

use bridge_schema::Scalar;
use syn::Type;

/// What crosses besides the scalars (`Scalar::ALL`, listed first from the table).
const SUPPORTED_OTHERS: &str = "i128, u128, String, &str, Option<T>, #[bridge] types \
(classes as C, Handle<C>, &C, &mut C), \
imported JS classes (`pub type T;` in a #[bridge] extern block), Vec<T>, Box<[T]>, \
tuples (A, B, ..) of up to 8 owned values, HashMap/BTreeMap<K, V> and HashSet/BTreeSet<K> \
(K: String, integers, char, fieldless enums), \
&[number] and &mut [number] parameters, &[number] results borrowed from &self (views), \
Result<T, E: Display> returns, iterator returns (impl Iterator<Item = T> + 'static, \
Box<dyn Iterator<Item = T>>), JsValue, &JsValue and JS functions (&dyn Fn(..) -> R, \
&mut dyn FnMut(..) -> R, Box<dyn Fn(..) -> R>, Box<dyn FnOnce(..) -> R>, and Option of these as parameters)";

/// Every type that crosses, for the message: the scalar table's, then the others.
fn supported() -> String {
    let scalars: Vec<&str> = Scalar::ALL.iter().map(|s| s.rust()).collect();
    format!(
        "supported types: {}, {SUPPORTED_OTHERS}",
        scalars.join(", ")
    )
}

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
        format!(
            "type `{shown}` cannot cross the JS boundary{why}; {}",
            supported()
        ),
    )
}

/// Why a `JsPromise` stands only where it stands.
pub const JS_PROMISE_ALONE: &str = "a `JsPromise` is the result of a JS function Rust calls \
(an import's, or a callback's: `&dyn Fn() -> JsPromise`), to be awaited; anywhere else \
(parameters, arguments to JS, exports' results, fields, Option, Vec) take a `JsValue` and \
wrap it with `JsPromise::new`";

#[cfg(test)]
mod tests {
    use super::*;

    /// The list is the table's: a scalar added to `Scalar::ALL` is named without an edit
    /// here, and a hand-kept list that forgot one fails.
    #[test]
    fn the_message_names_every_scalar() {
        let message = unsupported(&syn::parse_quote!(Foo), "").to_string();
        let listed = message
            .split_once("supported types: ")
            .and_then(|(_, rest)| rest.split_once(", i128"))
            .map(|(scalars, _)| scalars.split(", ").collect::<Vec<_>>())
            .expect("the list of scalars, then i128");
        for s in Scalar::ALL {
            assert!(
                listed.contains(&s.rust()),
                "{} missing from: {message}",
                s.rust()
            );
        }
    }
}
