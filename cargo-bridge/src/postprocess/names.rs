//! JS name checks over the whole module, before any glue is rendered: every name the
//! package exports (classes, functions, the glue's own exports) is unique, and so is
//! every member name within a class. Collisions are build errors naming both items and
//! their crates and suggesting `#[bridge(js_name = "...")]`. (Each name on its own, e.g.
//! a `js_name` that is not a JS identifier, is checked by the macro at compile time.)

use crate::postprocess::exports::{ClassExport, Exports};
use anyhow::{Result, bail};
use bridge_schema::FunctionKind;

/// Exports the glue adds to every package, with what they are. The pool API's flat names
/// (`withPool`, `keep`, ... : `glue::POOL_API`) are not here: a user item of that name
/// takes it, and the API stays reachable as `__bridge.withPool`, ...
const GLUE_EXPORTS: &[(&str, &str)] = &[
    ("__bridge", "the release pool API and identity statistics"),
    ("__bridgeStats", "identity statistics"),
    ("__bridgeLeaks", "the leak report of debug builds"),
    (
        "default",
        "the module's default export (`init` of the web target)",
    ),
    ("initSync", "the web target's synchronous initialisation"),
    ("ReleasePool", "a type of the TypeScript declarations"),
    ("BridgeClassStats", "a type of the TypeScript declarations"),
];

/// One name a package exports, and who exports it (for messages).
struct Exported<'a> {
    js_name: &'a str,
    what: String,
}

/// Every name the bridge half of a package exports (classes, functions, records, enums).
fn bridge_items(exports: &Exports) -> Vec<Exported<'_>> {
    let classes = exports.classes.iter().map(|c| Exported {
        js_name: &c.name,
        what: format!("class `{}` of crate `{}`", c.rust_name, c.crate_name),
    });
    let functions = exports.functions.iter().map(|f| Exported {
        js_name: &f.function.js_name,
        what: format!(
            "function `{}` of crate `{}`",
            f.function.rust_name, f.crate_name
        ),
    });
    // Records and enums are TypeScript types (fieldless enums also a frozen object): one
    // name space with the classes and functions.
    let records = exports.records.iter().map(|r| Exported {
        js_name: &r.def.name,
        what: format!("record `{}` of crate `{}`", r.def.rust_name, r.crate_name),
    });
    let enums = exports.enums.iter().map(|e| Exported {
        js_name: &e.def.name,
        what: format!("enum `{}` of crate `{}`", e.def.rust_name, e.crate_name),
    });
    classes
        .chain(functions)
        .chain(records)
        .chain(enums)
        .collect()
}

/// The wasm-bindgen half's exports (`wasm_bindgen`: the names its JS, `bg_js`, exports)
/// share the package's one name space with the bridge half and the glue's own exports.
pub fn check_wasm_bindgen(exports: &Exports, wasm_bindgen: &[String], bg_js: &str) -> Result<()> {
    for name in wasm_bindgen {
        if let Some(item) = bridge_items(exports).iter().find(|i| i.js_name == name) {
            bail!(
                "two items are exported to JS as `{name}`: {} and wasm-bindgen's `{name}` (a \
                 #[wasm_bindgen] item, in its {bg_js}); names must be unique in one package: \
                 rename one with #[bridge(js_name = \"...\")] or #[wasm_bindgen(js_name = \"...\")]",
                item.what
            );
        }
        if let Some((_, glue)) = GLUE_EXPORTS.iter().find(|(n, _)| n == name) {
            bail!(
                "wasm-bindgen's `{name}` (a #[wasm_bindgen] item, in its {bg_js}) has a name the \
                 generated glue exports itself ({glue}); rename it with \
                 #[wasm_bindgen(js_name = \"...\")]"
            );
        }
    }
    Ok(())
}

/// Explicit beats implicit: a `pub` field whose JS name an explicit instance member of its
/// class already takes (a `#[bridge(getter)] fn title` beside `pub title`, as crates were
/// written before fields became properties) is not a JS property: the explicit member is.
/// Its accessors leave the exports (their wasm exports then go as unused); the one note
/// returned names them, for the build to print once.
pub fn drop_shadowed_fields(exports: &mut Exports) -> Option<String> {
    let instance = |f: &bridge_schema::Function| {
        f.kind != FunctionKind::Static && f.receiver != bridge_schema::Receiver::None
    };
    let mut dropped = Vec::new();
    for class in &mut exports.classes {
        let mut shadowed = Vec::new();
        for f in class.members.iter().filter(|f| f.field && instance(f)) {
            if let Some(m) = class.members.iter().find(|m| {
                !m.field
                    && m.kind != FunctionKind::Constructor
                    && instance(m)
                    && m.js_name == f.js_name
            }) && !shadowed.contains(&f.rust_name)
            {
                dropped.push(format!(
                    "`{c}::{}` (by `{c}::{}`)",
                    f.rust_name,
                    m.rust_name,
                    c = class.rust_name
                ));
                shadowed.push(f.rust_name.clone());
            }
        }
        class
            .members
            .retain(|f| !(f.field && instance(f) && shadowed.contains(&f.rust_name)));
    }
    if dropped.is_empty() {
        return None;
    }
    let what = if dropped.len() == 1 {
        "a `pub` field is not a JS property"
    } else {
        "`pub` fields are not JS properties"
    };
    Some(format!(
        "{what}: an explicit member of the same JS name is the property: {} (#[bridge(skip)] \
         on the field says so and silences this note)",
        dropped.join(", ")
    ))
}

pub fn check(exports: &Exports) -> Result<()> {
    let mut seen: Vec<Exported> = Vec::new();
    for item in bridge_items(exports) {
        if let Some((_, glue)) = GLUE_EXPORTS.iter().find(|(n, _)| *n == item.js_name) {
            bail!(
                "{} is exported to JS as `{}`, a name the generated glue exports itself \
                 ({glue}); give it another JS name with #[bridge(js_name = \"...\")]",
                item.what,
                item.js_name
            );
        }
        if let Some(first) = seen.iter().find(|s| s.js_name == item.js_name) {
            bail!(
                "two items are exported to JS as `{}`: {} and {}; names must be unique in one \
                 package: give one of them another JS name with #[bridge(js_name = \"...\")]",
                item.js_name,
                first.what,
                item.what
            );
        }
        seen.push(item);
    }
    for class in &exports.classes {
        check_members(class)?;
    }
    Ok(())
}

/// Within one class (all its impl blocks): one JS name per instance member (a getter and
/// a setter of one property share theirs, if both are a field's or neither is) and per
/// static. Fields an explicit member shadows must be dropped first
/// (`drop_shadowed_fields`).
fn check_members(class: &ClassExport) -> Result<()> {
    let role = |kind: FunctionKind| match kind {
        FunctionKind::Getter => "getter",
        FunctionKind::Setter => "setter",
        FunctionKind::Static => "static",
        _ => "method",
    };
    let members = class
        .members
        .iter()
        .filter(|m| m.kind != FunctionKind::Constructor)
        .collect::<Vec<_>>();
    // Statics, and getters and setters without a receiver, are the class's own members.
    let of_class = |f: &bridge_schema::Function| {
        f.kind == FunctionKind::Static || f.receiver == bridge_schema::Receiver::None
    };
    for (i, m) in members.iter().enumerate() {
        let is_static = of_class(m);
        let clash = members[..i].iter().find(|o| {
            let pair = matches!(
                (o.kind, m.kind),
                (FunctionKind::Getter, FunctionKind::Setter)
                    | (FunctionKind::Setter, FunctionKind::Getter)
            );
            // A field's getter pairs only with its own setter.
            let one_property =
                !o.field && !m.field || o.field && m.field && o.rust_name == m.rust_name;
            o.js_name == m.js_name && of_class(o) == is_static && !(pair && one_property)
        });
        let Some(o) = clash else { continue };
        let (c, krate, js) = (&class.rust_name, &class.crate_name, &m.js_name);
        // A field against an explicit member is gone by now (`drop_shadowed_fields`).
        if o.field && m.field {
            bail!(
                "class `{c}` of crate `{krate}` has two `pub` fields named `{js}` in JS: \
                 `{c}::{}` and `{c}::{}`; give one of them another JS name with \
                 #[bridge(js_name = \"...\")] (or keep it Rust-only with #[bridge(skip)])",
                o.rust_name,
                m.rust_name,
            );
        }
        bail!(
            "class `{c}` of crate `{krate}` has two {}members named `{js}` in JS: `{c}::{}` ({}) \
             and `{c}::{}` ({}); give one of them another JS name with #[bridge(js_name = \"...\")]",
            if is_static { "static " } else { "" },
            o.rust_name,
            role(o.kind),
            m.rust_name,
            role(m.kind),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::postprocess::exports::{ClassExport, FunctionExport};
    use bridge_schema::{Function, FunctionKind, Receiver, Ty};

    fn class(krate: &str, rust: &str, js: &str) -> ClassExport {
        ClassExport {
            crate_name: krate.into(),
            type_id: bridge_schema::type_id(krate, rust),
            name: js.into(),
            rust_name: rust.into(),
            identity_mode: None,
            inspectable: false,
            doc: String::new(),
            members: Vec::new(),
        }
    }

    fn function(krate: &str, rust: &str, js: &str) -> FunctionExport {
        FunctionExport {
            crate_name: krate.into(),
            function: Function {
                is_async: false,
                refuses_released: false,
                as_written: None,
                js_this: false,
                kind: FunctionKind::Free,
                js_name: js.into(),
                rust_name: rust.into(),
                symbol: bridge_schema::function_symbol(krate, rust),
                receiver: Receiver::None,
                params: vec![],
                ret: Ty::Unit,
                doc: String::new(),
                field: false,
            },
        }
    }

    fn error(exports: Exports) -> String {
        check(&exports).unwrap_err().to_string()
    }

    #[test]
    fn two_classes_with_one_js_name() {
        let err = error(Exports {
            classes: vec![class("pa", "Node", "Node"), class("pb", "Node", "Node")],
            ..Exports::default()
        });
        assert_eq!(
            err,
            "two items are exported to JS as `Node`: class `Node` of crate `pa` and class \
             `Node` of crate `pb`; names must be unique in one package: give one of them \
             another JS name with #[bridge(js_name = \"...\")]"
        );
    }

    #[test]
    fn a_wasm_bindgen_item_with_a_bridge_name_is_an_error_naming_both() {
        let exports = Exports {
            classes: vec![class("pa", "Point", "Point")],
            functions: vec![function("pa", "hello", "greet")],
            ..Exports::default()
        };
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        check_wasm_bindgen(&exports, &names(&["norm", "area"]), "pa_bg.js").unwrap();
        let err = check_wasm_bindgen(&exports, &names(&["norm", "greet"]), "pa_bg.js")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(
                "two items are exported to JS as `greet`: function `hello` of crate `pa` and \
                 wasm-bindgen's `greet` (a #[wasm_bindgen] item, in its pa_bg.js)"
            ),
            "{err}"
        );
        assert!(err.contains("#[wasm_bindgen(js_name = \"...\")]"), "{err}");
        let err = check_wasm_bindgen(&exports, &names(&["Point"]), "pa_bg.js")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("class `Point` of crate `pa` and wasm-bindgen's `Point`"),
            "{err}"
        );
        let err = check_wasm_bindgen(&exports, &names(&["__bridge"]), "pa_bg.js")
            .unwrap_err()
            .to_string();
        assert!(err.contains("wasm-bindgen's `__bridge`"), "{err}");
        assert!(err.contains("release pool API"), "{err}");
        // The pool API's flat names yield to wasm-bindgen's items.
        check_wasm_bindgen(&exports, &names(&["withPool", "keep"]), "pa_bg.js").unwrap();
    }

    #[test]
    fn js_name_resolves_it() {
        let exports = Exports {
            classes: vec![class("pa", "Node", "Node"), class("pb", "Node", "BNode")],
            ..Exports::default()
        };
        check(&exports).unwrap();
    }

    #[test]
    fn class_and_function_and_two_functions() {
        let err = error(Exports {
            classes: vec![class("pa", "Shape", "Shape")],
            functions: vec![function("pb", "shape", "Shape")],
            ..Exports::default()
        });
        assert!(
            err.contains("class `Shape` of crate `pa` and function `shape` of crate `pb`"),
            "{err}"
        );
        let err = error(Exports {
            functions: vec![function("pa", "a_b", "aB"), function("pa", "aB", "aB")],
            ..Exports::default()
        });
        assert!(
            err.contains("function `a_b` of crate `pa` and function `aB` of crate `pa`"),
            "{err}"
        );
    }

    fn member(kind: FunctionKind, rust: &str, js: &str) -> Function {
        Function {
            is_async: false,
            refuses_released: false,
            as_written: None,
            js_this: false,
            kind,
            js_name: js.into(),
            rust_name: rust.into(),
            symbol: rust.into(),
            receiver: Receiver::Shared,
            params: vec![],
            ret: Ty::Unit,
            doc: String::new(),
            field: false,
        }
    }

    /// Crate `pa`'s one class `Node`, with these members.
    fn node_with(members: Vec<Function>) -> Exports {
        let mut c = class("pa", "Node", "Node");
        c.members = members;
        Exports {
            classes: vec![c],
            ..Exports::default()
        }
    }

    #[test]
    fn members_of_one_class() {
        use FunctionKind::*;
        // A getter and a setter share a property; a static may share an instance name.
        check(&node_with(vec![
            member(Getter, "value", "value"),
            member(Setter, "set_value", "value"),
            member(Static, "value_of", "value"),
        ]))
        .unwrap();
        assert_eq!(
            error(node_with(vec![
                member(Getter, "value", "value"),
                member(Method, "get_value", "value"),
            ])),
            "class `Node` of crate `pa` has two members named `value` in JS: `Node::value` \
             (getter) and `Node::get_value` (method); give one of them another JS name with \
             #[bridge(js_name = \"...\")]"
        );
        let err = error(node_with(vec![
            member(Static, "make", "make"),
            member(Static, "make_it", "make"),
        ]));
        assert!(err.contains("two static members named `make`"), "{err}");
    }

    #[test]
    fn a_field_against_a_member() {
        use FunctionKind::*;
        let field = |kind, rust: &str, js: &str| Function {
            field: true,
            ..member(kind, rust, js)
        };
        // A field's getter and setter are one property.
        let mut exports = node_with(vec![
            field(Getter, "size", "size"),
            field(Setter, "size", "size"),
            member(Method, "grow", "grow"),
        ]);
        assert_eq!(drop_shadowed_fields(&mut exports), None);
        check(&exports).unwrap();
        assert_eq!(exports.classes[0].members.len(), 3);
        let err = error(node_with(vec![
            field(Getter, "a_b", "aB"),
            field(Getter, "aB", "aB"),
        ]));
        assert!(
            err.contains("two `pub` fields named `aB` in JS: `Node::a_b` and `Node::aB`"),
            "{err}"
        );
    }

    #[test]
    fn an_explicit_member_shadows_a_field_of_its_js_name() {
        use FunctionKind::*;
        let field = |kind, rust: &str, js: &str| Function {
            field: true,
            ..member(kind, rust, js)
        };
        let names = |e: &Exports| {
            e.classes[0]
                .members
                .iter()
                .map(|m| format!("{}{}", if m.field { "field " } else { "" }, m.rust_name))
                .collect::<Vec<_>>()
        };
        // Written before fields were properties: the explicit getter and setter are the
        // property, the field (both accessors) is not exported; one note names it.
        let mut exports = node_with(vec![
            field(Getter, "title", "title"),
            field(Setter, "title", "title"),
            field(Getter, "width", "width"),
            member(Getter, "title", "title"),
            member(Setter, "set_title", "title"),
        ]);
        let note = drop_shadowed_fields(&mut exports).unwrap();
        assert_eq!(
            note,
            "a `pub` field is not a JS property: an explicit member of the same JS name is the \
             property: `Node::title` (by `Node::title`) (#[bridge(skip)] on the field says so \
             and silences this note)"
        );
        assert_eq!(
            names(&exports),
            ["field width", "title", "set_title"],
            "the field's two accessors go, the rest stay"
        );
        check(&exports).unwrap();
        // Any explicit instance member takes the name: a method, a lone setter (the
        // property is then write-only, as it was before fields were properties).
        let mut exports = node_with(vec![
            member(Method, "size", "size"),
            field(Getter, "size", "size"),
            field(Setter, "size", "size"),
            field(Getter, "len", "length"),
            member(Setter, "set_length", "length"),
        ]);
        let note = drop_shadowed_fields(&mut exports).unwrap();
        assert!(
            note.starts_with("`pub` fields are not JS properties"),
            "{note}"
        );
        assert!(
            note.contains("`Node::size` (by `Node::size`), `Node::len` (by `Node::set_length`)"),
            "{note}"
        );
        assert_eq!(names(&exports), ["size", "set_length"]);
        check(&exports).unwrap();
        // A static of the same name is the class's, not the instance's: the field stays.
        let mut exports = node_with(vec![
            field(Getter, "count", "count"),
            Function {
                receiver: Receiver::None,
                ..member(Static, "count", "count")
            },
        ]);
        assert_eq!(drop_shadowed_fields(&mut exports), None);
        assert_eq!(names(&exports), ["field count", "count"]);
        check(&exports).unwrap();
    }

    #[test]
    fn user_export_against_a_glue_export() {
        let err = error(Exports {
            functions: vec![function("pa", "stats", "__bridgeStats")],
            ..Exports::default()
        });
        assert_eq!(
            err,
            "function `stats` of crate `pa` is exported to JS as `__bridgeStats`, a name the \
             generated glue exports itself (identity statistics); give it another JS name \
             with #[bridge(js_name = \"...\")]"
        );
        // The pool API's flat names are the user's to take (`__bridge.withPool` stays).
        check(&Exports {
            functions: vec![
                function("pa", "with_pool", "withPool"),
                function("pa", "keep", "keep"),
                function("pa", "release", "release"),
            ],
            ..Exports::default()
        })
        .unwrap();
    }

    #[test]
    fn records_and_enums_share_the_name_space() {
        use crate::postprocess::exports::DataExport;
        use bridge_schema::{EnumDef, RecordDef};
        let err = error(Exports {
            classes: vec![class("pa", "Point", "Point")],
            records: vec![DataExport {
                crate_name: "pb".into(),
                def: RecordDef {
                    type_id: "pb::Point".into(),
                    name: "Point".into(),
                    rust_name: "Point".into(),
                    fields: vec![],
                    doc: String::new(),
                },
            }],
            ..Exports::default()
        });
        assert!(
            err.contains("class `Point` of crate `pa` and record `Point` of crate `pb`"),
            "{err}"
        );
        let err = error(Exports {
            functions: vec![function("pa", "with_pool", "Color")],
            enums: vec![DataExport {
                crate_name: "pa".into(),
                def: EnumDef {
                    type_id: "pa::Color".into(),
                    name: "Color".into(),
                    rust_name: "Color".into(),
                    variants: vec![],
                    doc: String::new(),
                    repr: None,
                    untagged: false,
                    fallback: false,
                },
            }],
            ..Exports::default()
        });
        assert!(
            err.contains("function `with_pool` of crate `pa` and enum `Color` of crate `pa`"),
            "{err}"
        );
    }
}
