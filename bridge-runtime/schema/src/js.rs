//! What JavaScript accepts as a name, shared by the macro (which validates `js_name` at
//! compile time) and `cargo bridge` (which decides how the glue binds each name).
//!
//! A name the package exports or a class member may be any identifier name, reserved
//! words included: the glue never binds a user's name in its module scope (it exports
//! `Node$class as Node`), and property names may be reserved words. Only a parameter is a
//! binding, and one that is not a valid binding is escaped (`new` → `new_`).

/// Words that cannot be bindings in module code (strict mode), plus `arguments`/`eval`.
pub const RESERVED: &[&str] = &[
    "await",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "implements",
    "import",
    "in",
    "instanceof",
    "interface",
    "let",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "static",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
    "arguments",
    "eval",
];

/// Why `name` is not a JS identifier name, or `None` if it is one. `$` is refused too: the
/// glue spells its own names with it (see ARCHITECTURE.md, "Glue hygiene").
pub fn identifier_problem(name: &str) -> Option<&'static str> {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return Some("it is empty");
    };
    if name.contains('$') {
        return Some("`$` is reserved for the generated glue's own names");
    }
    if !(first == '_' || unicode_ident::is_xid_start(first)) {
        return Some("a JS identifier starts with a letter or `_`");
    }
    if !chars.all(|c| unicode_ident::is_xid_continue(c) || c == '\u{200c}' || c == '\u{200d}') {
        return Some("a JS identifier holds only letters, digits and `_`");
    }
    None
}

/// Whether `name` (an identifier name) can be a binding in module code. `undefined`,
/// `NaN` and `Infinity` could, but the glue's code means the globals by them (`None` is
/// `undefined`): a parameter named so would change what a call returns.
pub fn is_bindable(name: &str) -> bool {
    !RESERVED.contains(&name) && !["undefined", "NaN", "Infinity"].contains(&name)
}

/// The initials after which a message writes "an" before a name ("an Item", "an apple",
/// "a Node"): the one rule for the article before a class or type name, read by the
/// runtime's messages ([`article`]), the glue's at render time (the CLI's `an` filter) and
/// at run time (`$an` in `templates/runtime.js.j2`, its character class written from this).
pub const AN_INITIALS: &str = "AEIOUaeiou";

/// The article before `name` in a message: "an" before [`AN_INITIALS`], else "a".
pub fn article(name: &str) -> &'static str {
    if name.starts_with(|c| AN_INITIALS.contains(c)) {
        "an"
    } else {
        "a"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_article_before_a_name() {
        for an in ["Item3", "Ordered", "apple", "Unit"] {
            assert_eq!(article(an), "an", "{an}");
        }
        for a in ["Node", "Counter", "", "_Item", "Éclair", "$x"] {
            assert_eq!(article(a), "a", "{a}");
        }
        // The glue's `$an` puts the initials in a regular expression's character class.
        assert!(AN_INITIALS.chars().all(|c| c.is_ascii_alphabetic()));
    }

    #[test]
    fn identifier_names() {
        for ok in ["a", "_x", "camelCase", "delete", "ñandú", "Ωmega", "x1"] {
            assert_eq!(identifier_problem(ok), None, "{ok}");
        }
        for bad in ["", "get-value", "compute total", "1st", "a$b", "$", "a.b"] {
            assert!(identifier_problem(bad).is_some(), "{bad}");
        }
        assert!(!is_bindable("delete") && !is_bindable("eval") && is_bindable("type"));
        assert!(!is_bindable("undefined") && !is_bindable("NaN") && !is_bindable("Infinity"));
    }
}
