//! Decoding of the `__bridge_exports` custom section into the module's exports:
//! classes with their members, and free functions.

use anyhow::{Result, bail};
use bridge_schema::{Function, FunctionKind, Item, Record};

#[derive(Debug, Clone)]
pub struct ClassExport {
    pub crate_name: String,
    pub name: String,
    /// From the class attribute, if any.
    pub identity_mode: Option<String>,
    pub doc: String,
    pub members: Vec<Function>,
}

#[derive(Debug, Clone, Default)]
pub struct Exports {
    /// Sorted by name, so the glue does not depend on link order.
    pub classes: Vec<ClassExport>,
    pub functions: Vec<Function>,
    /// Crates that contributed records.
    pub crates: Vec<String>,
}

/// Read the records of `section` (the custom section's bytes); `wasm` names the file.
pub fn decode(section: &[u8], wasm: &str) -> Result<Exports> {
    let records =
        bridge_schema::decode_section(section).map_err(|e| anyhow::anyhow!("{wasm}: {e}"))?;
    from_records(records, wasm)
}

fn from_records(records: Vec<Record>, wasm: &str) -> Result<Exports> {
    let mut exports = Exports::default();
    let mut impls = Vec::new();
    for record in records {
        if !exports.crates.contains(&record.crate_name) {
            exports.crates.push(record.crate_name.clone());
        }
        match record.item {
            Item::Class(c) => {
                if let Some(other) = exports.classes.iter().find(|o| o.name == c.name) {
                    bail!(
                        "{wasm}: class `{}` is exported by both crate `{}` and crate `{}`; JS needs \
                         unique class names in one module: rename one of them",
                        c.name,
                        other.crate_name,
                        record.crate_name
                    );
                }
                exports.classes.push(ClassExport {
                    crate_name: record.crate_name,
                    name: c.name,
                    identity_mode: c.identity_mode,
                    doc: c.doc,
                    members: Vec::new(),
                });
            }
            Item::Impl(i) => impls.push(i),
            Item::Function(f) => exports.functions.push(f),
        }
    }
    for i in impls {
        let Some(class) = exports.classes.iter_mut().find(|c| c.name == i.class) else {
            bail!(
                "{wasm}: a #[bridge] impl block exports members of `{}`, but `{}` is not a \
                 #[bridge] struct: add #[bridge] to the struct",
                i.class,
                i.class
            );
        };
        class.members.extend(i.members);
    }
    for class in &exports.classes {
        let ctors = class
            .members
            .iter()
            .filter(|m| m.kind == FunctionKind::Constructor)
            .count();
        if ctors > 1 {
            bail!(
                "{wasm}: class `{}` has {ctors} #[bridge(constructor)]s across impl blocks; keep one",
                class.name
            );
        }
    }
    exports.classes.sort_by(|a, b| a.name.cmp(&b.name));
    exports.functions.sort_by(|a, b| a.js_name.cmp(&b.js_name));
    exports.crates.sort();
    Ok(exports)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bridge_schema::{Class, Impl, Receiver, Ty};

    fn class(crate_name: &str, name: &str) -> Record {
        Record {
            crate_name: crate_name.into(),
            item: Item::Class(Class {
                name: name.into(),
                identity_mode: None,
                doc: String::new(),
            }),
        }
    }

    fn method(name: &str) -> Function {
        Function {
            kind: FunctionKind::Method,
            js_name: name.into(),
            rust_name: name.into(),
            symbol: format!("bridge_X_{name}"),
            receiver: Receiver::Shared,
            params: vec![],
            ret: Ty::Unit,
            doc: String::new(),
        }
    }

    #[test]
    fn impls_attach_to_classes_in_any_order_and_classes_sort() {
        let records = vec![
            Record {
                crate_name: "a".into(),
                item: Item::Impl(Impl {
                    class: "Zed".into(),
                    members: vec![method("m")],
                }),
            },
            class("a", "Zed"),
            class("a", "Alpha"),
        ];
        let e = from_records(records, "x.wasm").unwrap();
        assert_eq!(e.classes[0].name, "Alpha");
        assert_eq!(e.classes[1].members.len(), 1);
    }

    #[test]
    fn duplicate_class_names_across_crates_are_an_error() {
        let err = from_records(vec![class("a", "C"), class("b", "C")], "x.wasm")
            .unwrap_err()
            .to_string();
        assert!(err.contains("crate `a` and crate `b`"), "{err}");
    }

    #[test]
    fn impl_without_struct_is_an_error() {
        let records = vec![Record {
            crate_name: "a".into(),
            item: Item::Impl(Impl {
                class: "Ghost".into(),
                members: vec![],
            }),
        }];
        let err = from_records(records, "x.wasm").unwrap_err().to_string();
        assert!(err.contains("`Ghost` is not a #[bridge] struct"), "{err}");
    }
}
