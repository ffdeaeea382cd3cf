//! The JS naming convention of each crate's exports: `[package.metadata.bridge] js-names`
//! (else `[workspace.metadata.bridge] js-names`, else camelCase; `mod.rs` resolves it). `"camelCase"` (the
//! default) names functions, methods, properties and record fields in camelCase;
//! `"as-written"` keeps them as written in Rust, as wasm-bindgen does (`make_svg`,
//! `background_color`; a setter `set_x` is still the property `x`), so a class moved from
//! `#[wasm_bindgen]` keeps its JS API. A `js_name` wins either way. The macro records both
//! names (`as_written` beside `js_name` where they differ and no `js_name` was given);
//! `apply` picks per crate, before the name checks, so collisions the choice makes are
//! reported like any other. The messages a crate's thunks build in Rust pick too: its
//! `cargo build` sets `bridge_schema::as_written_variable` (`build/cargo.rs`), which the
//! expansion reads at compile time.

use crate::postprocess::exports::Exports;
use anyhow::{Result, bail};
use bridge_schema::Field;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

pub const KEY: &str = "js-names";
const VALID: &str = "\"camelCase\" (the default: `make_svg` is `makeSvg` in JS) or \
                     \"as-written\" (wasm-bindgen's convention: `make_svg`)";

/// A crate's (or the workspace's) choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsNames {
    CamelCase,
    AsWritten,
}

/// The value of `js-names` in `[<table>]` of `manifest`.
pub fn from_value(value: &Value, manifest: &Path, table: &str) -> Result<JsNames> {
    match value.as_str() {
        Some("camelCase") => Ok(JsNames::CamelCase),
        Some("as-written") => Ok(JsNames::AsWritten),
        _ => bail!(
            "{}: invalid [{table}] {KEY} = {value}; valid values are {VALID}",
            manifest.display()
        ),
    }
}

/// Give the items of `as_written` crates their Rust names (where no `js_name` was given).
pub fn apply(exports: &mut Exports, as_written: &BTreeSet<String>) {
    if as_written.is_empty() {
        return;
    }
    let keeps = |krate: &str| as_written.contains(krate);
    let rename = |name: &mut String, written: &mut Option<String>| {
        if let Some(w) = written.take() {
            *name = w;
        }
    };
    let fields = |fields: &mut Vec<Field>| {
        for f in fields {
            rename(&mut f.name, &mut f.as_written);
        }
    };
    for class in exports.classes.iter_mut().filter(|c| keeps(&c.crate_name)) {
        for m in &mut class.members {
            rename(&mut m.js_name, &mut m.as_written);
        }
    }
    for f in exports
        .functions
        .iter_mut()
        .filter(|f| keeps(&f.crate_name))
    {
        rename(&mut f.function.js_name, &mut f.function.as_written);
    }
    for r in exports.records.iter_mut().filter(|r| keeps(&r.crate_name)) {
        fields(&mut r.def.fields);
    }
    for e in exports.enums.iter_mut().filter(|e| keeps(&e.crate_name)) {
        for v in &mut e.def.variants {
            fields(&mut v.fields);
        }
    }
}

/// Within each record and enum variant, one JS name per field: Rust names are unique, but
/// a `js_name` of one field may be another's Rust name.
pub fn check_fields(exports: &Exports) -> Result<()> {
    let data = exports
        .records
        .iter()
        .map(|r| (&r.crate_name, r.def.rust_name.clone(), &r.def.fields))
        .chain(exports.enums.iter().flat_map(|e| {
            e.def.variants.iter().map(|v| {
                (
                    &e.crate_name,
                    format!("{}::{}", e.def.rust_name, v.name),
                    &v.fields,
                )
            })
        }));
    for (krate, owner, fields) in data {
        for (i, f) in fields.iter().enumerate() {
            if fields[..i].iter().any(|o| o.name == f.name) {
                bail!(
                    "`{owner}` of crate `{krate}` has two fields named `{}` in JS (its crate \
                     sets {KEY} = \"as-written\", and one field's js_name is another's Rust \
                     name); give one of them another JS name with #[bridge(js_name = \"...\")]",
                    f.name
                );
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::postprocess::exports::{ClassExport, DataExport, FunctionExport};
    use bridge_schema::Scalar;
    use bridge_schema::{Function, FunctionKind, Receiver, RecordDef, Ty};
    use serde_json::json;

    #[test]
    fn values_and_bad_values() {
        let read = |v: Value| {
            let value = &v["bridge"]["js-names"];
            from_value(value, Path::new("/x/Cargo.toml"), "package.metadata.bridge").map(Some)
        };
        assert_eq!(
            read(json!({"bridge": {"js-names": "as-written"}})).unwrap(),
            Some(JsNames::AsWritten)
        );
        assert_eq!(
            read(json!({"bridge": {"js-names": "camelCase"}})).unwrap(),
            Some(JsNames::CamelCase)
        );
        for bad in [json!("snake_case"), json!(true), json!(["as-written"])] {
            let err = read(json!({"bridge": {"js-names": bad.clone()}}))
                .unwrap_err()
                .to_string();
            assert_eq!(
                err,
                format!(
                    "/x/Cargo.toml: invalid [package.metadata.bridge] js-names = {bad}; valid \
                     values are {VALID}"
                )
            );
        }
    }

    fn function(js: &str, written: Option<&str>) -> Function {
        Function {
            kind: FunctionKind::Method,
            js_name: js.into(),
            rust_name: written.unwrap_or(js).into(),
            symbol: js.into(),
            receiver: Receiver::Shared,
            params: vec![],
            ret: Ty::Unit,
            doc: String::new(),
            field: false,
            is_async: false,
            refuses_released: false,
            as_written: written.map(str::to_string),
            js_this: false,
        }
    }

    fn field(js: &str, written: Option<&str>) -> Field {
        Field {
            name: js.into(),
            ty: Ty::Scalar(Scalar::U8),
            as_written: written.map(str::to_string),
        }
    }

    fn exports(krate: &str) -> Exports {
        Exports {
            classes: vec![ClassExport {
                crate_name: krate.into(),
                type_id: bridge_schema::type_id(krate, "Svg"),
                name: "Svg".into(),
                rust_name: "Svg".into(),
                identity_mode: None,
                inspectable: false,
                doc: String::new(),
                members: vec![
                    function("backgroundColor", Some("background_color")),
                    function("given", None),
                ],
            }],
            functions: vec![FunctionExport {
                crate_name: krate.into(),
                function: function("makeSvg", Some("make_svg")),
            }],
            records: vec![DataExport {
                crate_name: krate.into(),
                def: RecordDef {
                    type_id: bridge_schema::type_id(krate, "Opts"),
                    name: "Opts".into(),
                    rust_name: "Opts".into(),
                    fields: vec![field("lineWidth", Some("line_width")), field("x", None)],
                    doc: String::new(),
                },
            }],
            ..Exports::default()
        }
    }

    #[test]
    fn only_the_crates_that_keep_rust_names_change() {
        let names = |e: &Exports| {
            let c = &e.classes[0];
            vec![
                c.members[0].js_name.clone(),
                c.members[1].js_name.clone(),
                e.functions[0].function.js_name.clone(),
                e.records[0].def.fields[0].name.clone(),
                e.records[0].def.fields[1].name.clone(),
            ]
        };
        let mut camel = exports("a");
        apply(&mut camel, &BTreeSet::from(["b".to_string()]));
        assert_eq!(
            names(&camel),
            ["backgroundColor", "given", "makeSvg", "lineWidth", "x"]
        );
        let mut written = exports("a");
        apply(&mut written, &BTreeSet::from(["a".to_string()]));
        assert_eq!(
            names(&written),
            ["background_color", "given", "make_svg", "line_width", "x"]
        );
        check_fields(&written).unwrap();
    }

    #[test]
    fn a_js_name_taking_another_fields_rust_name_is_an_error() {
        let mut e = exports("a");
        e.records[0].def.fields[1].name = "line_width".into();
        check_fields(&e).unwrap();
        apply(&mut e, &BTreeSet::from(["a".to_string()]));
        let err = check_fields(&e).unwrap_err().to_string();
        assert!(
            err.contains("`Opts` of crate `a` has two fields named `line_width` in JS"),
            "{err}"
        );
    }
}
