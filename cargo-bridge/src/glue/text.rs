//! User names and strings made safe in generated JS: as object keys, property reads and
//! text inside string literals. Imports nothing of the glue (templates use these as
//! filters, the view model to prepare messages).

/// A name as the key of an object literal: `__proto__: v` would set the prototype instead
/// of a property, so it is written computed (`["__proto__"]: v`), which defines one.
pub fn property_key(name: &str) -> String {
    if name == "__proto__" {
        "[\"__proto__\"]".to_string()
    } else {
        name.to_string()
    }
}

/// `name` read as a property: `<dot>name` when it is an identifier, else a quoted key
/// (`["kebab-case"]`, `?.["kebab-case"]`): import names may be any string.
pub fn property(name: &str, dot: &str) -> String {
    // `$` is a JS identifier character (the glue reserves it only for its own bindings).
    if bridge_schema::js::identifier_problem(&name.replace('$', "_")).is_none() {
        format!("{dot}{name}")
    } else {
        let key = serde_json::to_string(name).expect("a string serializes");
        let dot = if dot == "." { "" } else { dot };
        format!("{dot}[{key}]")
    }
}

/// `text` escaped for the inside of any JS string literal (`"…"`, `'…'` or `` `…` ``):
/// user strings (import names, module paths) in the glue's messages.
pub fn js_text(text: &str) -> String {
    let json = serde_json::to_string(text).expect("a string serializes");
    json[1..json.len() - 1]
        .replace('\'', "\\'")
        .replace('`', "\\`")
        .replace('$', "\\$")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_are_dotted_or_quoted() {
        assert_eq!(property("log", "."), ".log");
        assert_eq!(property("$x", "?."), "?.$x");
        assert_eq!(property("kebab-case", "."), "[\"kebab-case\"]");
        assert_eq!(property("with space", "?."), "?.[\"with space\"]");
        assert_eq!(property("a\"b", "."), "[\"a\\\"b\"]");
        assert_eq!(property("", "."), "[\"\"]");
    }

    #[test]
    fn object_keys_keep_proto_an_own_property() {
        assert_eq!(property_key("__proto__"), "[\"__proto__\"]");
        assert_eq!(property_key("constructor"), "constructor");
    }

    #[test]
    fn text_is_safe_in_any_string_literal() {
        assert_eq!(js_text(r#"a"b'c`d${e}\f"#), r#"a\"b\'c\`d\${e}\\f"#);
        assert_eq!(js_text("line\nnext"), "line\\nnext");
    }
}
