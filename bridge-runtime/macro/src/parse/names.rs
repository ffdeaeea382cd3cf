//! Compile-time checks of the JS names one item gives itself: a `js_name` must be a JS
//! identifier, and a member may not take a name the glue gives every class. Collisions
//! between items (two classes, two members across impl blocks) are `cargo bridge`'s.

use bridge_schema::FunctionKind;
use proc_macro2::Span;

/// `js_name = "..."` must be a JS identifier (without `$`, which the glue reserves).
pub fn check_js_name(lit: &syn::LitStr) -> syn::Result<()> {
    let name = lit.value();
    let Some(problem) = bridge_schema::js::identifier_problem(&name) else {
        return Ok(());
    };
    let suggestion = suggest(&name)
        .map(|s| format!(", e.g. js_name = \"{s}\""))
        .unwrap_or_default();
    Err(syn::Error::new(
        lit.span(),
        format!("js_name \"{name}\" is not a JS identifier: {problem}; use one{suggestion}"),
    ))
}

/// `get-value` → `getValue`: the words of `name`, camelCased, if that is an identifier.
fn suggest(name: &str) -> Option<String> {
    let mut out = String::new();
    for (i, word) in name
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .enumerate()
    {
        let mut chars = word.chars();
        let first = chars.next()?;
        if i == 0 {
            out.push(first);
        } else {
            out.extend(first.to_uppercase());
        }
        out.extend(chars);
    }
    bridge_schema::js::identifier_problem(&out)
        .is_none()
        .then_some(out)
}

/// Type names the bridge reads by name in signatures (it cannot resolve paths) besides
/// the scalars' (`Scalar::from_rust`): a bridge type with one of these names would be read
/// as the built-in type wherever it appears.
const TYPES_READ_BY_NAME: &[&str] = &[
    "str", "String", "Option", "Vec", "Box", "Result", "Handle", "JsValue", "JsError",
];

/// A class, record or enum may not be named like a type the bridge reads by name.
pub fn check_type_name(ident: &syn::Ident, what: &str) -> syn::Result<()> {
    let name = syn::ext::IdentExt::unraw(ident).to_string();
    if bridge_schema::Scalar::from_rust(&name).is_none()
        && !TYPES_READ_BY_NAME.contains(&name.as_str())
    {
        return Ok(());
    }
    Err(syn::Error::new(
        ident.span(),
        format!(
            "{what} `{name}` cannot be exported under the Rust name `{name}`: #[bridge] reads \
             `{name}` in signatures as the built-in type, so a parameter or return of your type \
             would be taken for it; rename the Rust type (its JS name can be set apart with \
             #[bridge(js_name = \"...\")])"
        ),
    ))
}

/// Names the glue gives every class's instances, and why.
const RESERVED_MEMBERS: &[(&str, &str)] = &[
    (
        "constructor",
        "JS reserves it for the class's constructor (mark the Rust constructor with #[bridge(constructor)])",
    ),
    ("release", "the glue gives every class `release()`"),
];

/// Names a static may not take: the class function's own properties.
const RESERVED_STATICS: &[&str] = &["prototype", "name", "length"];

/// A member's final JS name must not be one the glue or JS gives every class.
pub fn check_member_name(
    span: Span,
    class: &str,
    rust_name: &str,
    kind: FunctionKind,
    is_static: bool,
    js_name: &str,
) -> syn::Result<()> {
    let problem = if kind == FunctionKind::Constructor {
        None
    } else if is_static {
        RESERVED_STATICS.contains(&js_name).then(|| {
            format!("a static named `{js_name}` would replace the class's own `{class}.{js_name}`")
        })
    } else if let Some((_, why)) = RESERVED_MEMBERS.iter().find(|(n, _)| *n == js_name) {
        Some(format!("`{js_name}` is reserved: {why}"))
    } else {
        None
    };
    match problem {
        None => Ok(()),
        Some(problem) => Err(syn::Error::new(
            span,
            format!(
                "member `{class}::{rust_name}` cannot be `{js_name}` in JS: {problem}; give it \
                 another JS name with #[bridge(js_name = \"...\")]"
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn suggestions() {
        assert_eq!(super::suggest("get-value").as_deref(), Some("getValue"));
        assert_eq!(
            super::suggest("compute total").as_deref(),
            Some("computeTotal")
        );
        assert_eq!(super::suggest("--"), None);
        assert_eq!(super::suggest("1st"), None);
    }

    #[test]
    fn types_read_by_name_are_the_scalars_and_the_others() {
        let check = |name: &str| {
            let ident = syn::Ident::new(name, proc_macro2::Span::call_site());
            super::check_type_name(&ident, "class").is_err()
        };
        for s in bridge_schema::Scalar::ALL {
            assert!(check(s.rust()), "{s:?}");
        }
        assert!(check("String") && check("JsValue"));
        assert!(!check("Point") && !check("i128"));
    }
}
