//! Rendering of the JS module and its TypeScript declarations from `templates/`.
//! The templates are compiled into the binary, so an installed `cargo bridge` needs no
//! files beside it.
//!
//! The view model is layered; a file imports only the layers below it (`cargo xtask
//! circles` checks there is no circle): (1) leaves importing nothing of `glue/`: `numbers.rs`,
//! `type_names.rs` (reads only `ts_names.rs`), `wasm_abi.rs`, `comments.rs`, `text.rs`,
//! `flat.rs`, `wasm_bindgen.rs`, `prune.rs`, `module_exports.rs`; (2) `ts.rs`, all TypeScript the `.d.ts` spells;
//! (3) `wire.rs` (codecs), `data.rs` (records' and enums' TypeScript); (4) `types.rs`
//! (`Kind`, `TyView`); (5) `calls.rs` (function and closure views); (6) `js.rs` (calls into
//! JS, imported classes); (7) `model.rs` (`GlueModel`); (8) this file: the minijinja
//! environment (`fail(...)` stops the build from a template, `kinds` lists the marshalling
//! kinds) and rendering. What each template does: `templates/README.md`.

mod bindings;
mod calls;
mod comments;
mod data;
mod flat;
mod js;
mod model;
mod module_exports;
mod numbers;
mod prune;
#[cfg(test)]
mod test_support;
mod text;
mod ts;
mod ts_names;
mod type_names;
mod types;
mod untagged;
mod wasm_abi;
mod wasm_bindgen;
mod wire;

pub use js::view as js_view;
pub use model::{ClassPlan, GlueModel};
pub use wasm_bindgen::{ModuleImport, WasmBindgenView};
pub use wire::CodecView;

use anyhow::{Context, Result};
use minijinja::Environment;
use std::collections::BTreeMap;

const TEMPLATES: &[(&str, &str)] = &[
    ("glue.js.j2", include_str!("../../../templates/glue.js.j2")),
    (
        "glue.d.ts.j2",
        include_str!("../../../templates/glue.d.ts.j2"),
    ),
    (
        "bg_wasm.d.ts.j2",
        include_str!("../../../templates/bg_wasm.d.ts.j2"),
    ),
    (
        "runtime.js.j2",
        include_str!("../../../templates/runtime.js.j2"),
    ),
    (
        "load_nodejs.js.j2",
        include_str!("../../../templates/load_nodejs.js.j2"),
    ),
    (
        "load_bundler.js.j2",
        include_str!("../../../templates/load_bundler.js.j2"),
    ),
    (
        "load_nodejs-cjs.js.j2",
        include_str!("../../../templates/load_nodejs-cjs.js.j2"),
    ),
    (
        "exports_cjs.js.j2",
        include_str!("../../../templates/exports_cjs.js.j2"),
    ),
    (
        "load_web.js.j2",
        include_str!("../../../templates/load_web.js.j2"),
    ),
    (
        "pools.js.j2",
        include_str!("../../../templates/pools.js.j2"),
    ),
    ("task.js.j2", include_str!("../../../templates/task.js.j2")),
    ("abi.js.j2", include_str!("../../../templates/abi.js.j2")),
    (
        "debug/leaks.js.j2",
        include_str!("../../../templates/debug/leaks.js.j2"),
    ),
    (
        "debug/wire.js.j2",
        include_str!("../../../templates/debug/wire.js.j2"),
    ),
    (
        "debug/args.js.j2",
        include_str!("../../../templates/debug/args.js.j2"),
    ),
    (
        "debug/views.js.j2",
        include_str!("../../../templates/debug/views.js.j2"),
    ),
    ("data.js.j2", include_str!("../../../templates/data.js.j2")),
    ("wire.js.j2", include_str!("../../../templates/wire.js.j2")),
    ("flat.js.j2", include_str!("../../../templates/flat.js.j2")),
    (
        "flat_params.js.j2",
        include_str!("../../../templates/flat_params.js.j2"),
    ),
    (
        "wasm_bindgen.js.j2",
        include_str!("../../../templates/wasm_bindgen.js.j2"),
    ),
    (
        "class.js.j2",
        include_str!("../../../templates/class.js.j2"),
    ),
    (
        "identity/common.js.j2",
        include_str!("../../../templates/identity/common.js.j2"),
    ),
    (
        "identity/none.js.j2",
        include_str!("../../../templates/identity/none.js.j2"),
    ),
    (
        "identity/pointer.js.j2",
        include_str!("../../../templates/identity/pointer.js.j2"),
    ),
    (
        "identity/rust.js.j2",
        include_str!("../../../templates/identity/rust.js.j2"),
    ),
    (
        "js/closures.js.j2",
        include_str!("../../../templates/js/closures.js.j2"),
    ),
    (
        "js/owned_closures.js.j2",
        include_str!("../../../templates/js/owned_closures.js.j2"),
    ),
    (
        "js/imports.js.j2",
        include_str!("../../../templates/js/imports.js.j2"),
    ),
    (
        "js/marshal.js.j2",
        include_str!("../../../templates/js/marshal.js.j2"),
    ),
    (
        "js/values.js.j2",
        include_str!("../../../templates/js/values.js.j2"),
    ),
];

/// The rendered glue of one package.
pub struct Glue {
    pub js: String,
    pub dts: String,
    /// Further files of the package the glue imports (JS module snippets), relative paths.
    pub imported_files: Vec<String>,
}

fn environment() -> Result<Environment<'static>> {
    let mut env = Environment::new();
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_keep_trailing_newline(true);
    env.add_filter("comment_text", comment_text);
    env.add_filter("property_key", text::property_key);
    env.add_filter("property", |name: &str| text::property(name, "."));
    env.add_filter("js_text", |t: &str| text::js_text(t));
    env.add_filter("optional_property", |name: &str| text::property(name, "?."));
    // "an Item", "a Node": the article before a name (`bridge_schema::js::article`), and
    // the initials `$an` reads at run time.
    env.add_filter("an", |name: &str| {
        format!("{} {name}", bridge_schema::js::article(name))
    });
    env.add_global("an_initials", bridge_schema::js::AN_INITIALS);
    env.add_function("fail", fail);
    env.add_global(
        "kinds",
        minijinja::Value::from_serialize(types::Kind::all()),
    );
    // The lowering table's scalars and their facts: the per-scalar helpers of
    // `data.js.j2`, `wire.js.j2` and `debug/wire.js.j2` are written from them.
    env.add_global(
        "scalars",
        minijinja::Value::from_serialize(numbers::scalar_views()),
    );
    for (name, source) in TEMPLATES {
        env.add_template(name, source)
            .with_context(|| format!("template {name} does not parse"))?;
    }
    Ok(env)
}

/// `{{ fail("...") }}`: a template met what it cannot render (an unknown marshalling
/// kind); the build stops with the message rather than write broken JS.
fn fail(message: String) -> Result<String, minijinja::Error> {
    Err(minijinja::Error::new(
        minijinja::ErrorKind::InvalidOperation,
        format!("{message} (a bug in cargo-bridge: the glue model and templates/ disagree)"),
    ))
}

/// Text for the inside of a `/* */` comment: a `*/` in it would end the comment (and
/// let the rest run as code), so its `/` is escaped.
fn comment_text(text: &str) -> String {
    text.replace("*/", "*\\/")
}

/// The pool API's names the package exports flat (`withPool`, `keep`, ...): each unless a
/// user item (a bridge item or a wasm-bindgen export) is named so, which then takes the
/// name. The API stays whole under `__bridge` (`__bridge.withPool`).
pub const POOL_API: [&str; 5] = ["withPool", "pushPool", "popPool", "keep", "autorelease"];

/// The bindings of `pools.js.j2` the rest of the glue uses: a wrapper, closure or
/// iterator joining the innermost pool (`$POOLS.top`), a class's `[$KEEP]()`.
const POOL_BINDINGS: [&str; 2] = ["$POOLS", "$KEEP"];

fn pool_exports(model: &GlueModel) -> Vec<&'static str> {
    let taken = |name: &str| {
        model.classes.iter().any(|c| c.name == name)
            || model.functions.iter().any(|f| f.js_name == name)
            || model.records.iter().any(|r| r.name == name)
            || model.enums.iter().any(|e| e.name == name)
            || model.wbg.exports.iter().any(|e| e == name)
    };
    POOL_API.into_iter().filter(|name| !taken(name)).collect()
}

pub fn render(model: &GlueModel) -> Result<Glue> {
    let env = environment()?;
    // Release pools ship only where something the glue hands JS joins them (a class's
    // wrappers in any mode, a Rust closure, an iterator: each refers to `$POOLS`); without
    // that the API could release nothing of this package. A class's module bindings
    // (`<Class>$lift`, ...) ship only where other glue reads them (`bindings.rs`). The glue
    // says both itself: it is first rendered without the pools and without any class's
    // module bindings, again with the pools if what is left refers to one of their
    // bindings (the naming rule `prune` keeps helpers by), and the bindings are read from
    // that text (the one the package ships, pools included) for the last render.
    let render_js = |pools: bool,
                     module_bindings: &BTreeMap<String, Vec<&str>>|
     -> Result<(minijinja::Value, String)> {
        let context = minijinja::context! {
            pools => pools,
            pool_exports => if pools { pool_exports(model) } else { Vec::new() },
            module_bindings => module_bindings,
            ..minijinja::Value::from_serialize(model)
        };
        let js = env
            .get_template("glue.js.j2")?
            .render(&context)
            .context("rendering the JS glue")?;
        // Only the helpers this package's code uses.
        Ok((context, prune::unused_helpers(&js)))
    };
    let (mut context, mut js) = render_js(false, &BTreeMap::new())?;
    let pools = prune::refers_to(&js, &POOL_BINDINGS);
    if pools {
        (context, js) = render_js(true, &BTreeMap::new())?;
    }
    let module_bindings = bindings::read_by(&js, model.classes.iter().map(|c| c.name.as_str()));
    if !module_bindings.is_empty() {
        (context, js) = render_js(pools, &module_bindings)?;
    }
    // Release glue without comments and indentation.
    let js = if model.debug {
        js
    } else {
        comments::unindent(&comments::strip(&js))
    };
    let dts = env
        .get_template("glue.d.ts.j2")?
        .render(&context)
        .context("rendering the TypeScript declarations")?;
    let imported_files = model.js.modules.iter().map(|m| m.dest.clone()).collect();
    Ok(Glue {
        js,
        dts,
        imported_files,
    })
}

/// `<stem>_bg.wasm.d.ts`: the exports of the package's module `wasm` (its final bytes),
/// typed for a project that imports the `.wasm` itself (`module_exports.rs`).
pub fn render_module_dts(crate_name: &str, stem: &str, wasm: &[u8]) -> Result<String> {
    let exports = module_exports::read(wasm)?;
    let context = minijinja::context! {
        crate_name => crate_name,
        generator => format!("cargo-bridge {}", env!("CARGO_PKG_VERSION")),
        wasm_file => format!("{stem}_bg.wasm"),
        glue_file => format!("{stem}.js"),
        exports => exports,
    };
    environment()?
        .get_template("bg_wasm.d.ts.j2")?
        .render(context)
        .context("rendering the module's TypeScript declarations")
}

#[cfg(test)]
mod tests {
    use super::comment_text;
    use super::environment;
    use super::type_names::TypeNames;
    use super::types::{self, Base, Kind};
    use super::{js, wire};
    use crate::postprocess::exports::{ClassExport, DataExport, Exports};
    use bridge_schema::Scalar;
    use bridge_schema::lowering::Site;
    use bridge_schema::{Callback, EnumDef, Field, RecordDef, Ty, Variant};
    use serde_json::json;

    /// Exports with a class `Item`, a record `Rec` and a fieldless enum `Color`.
    fn sample_exports() -> Exports {
        Exports {
            classes: vec![ClassExport {
                crate_name: "a".into(),
                type_id: "a::Item".into(),
                name: "Item".into(),
                rust_name: "Item".into(),
                identity_mode: None,
                inspectable: false,
                doc: String::new(),
                members: Vec::new(),
            }],
            records: vec![DataExport {
                crate_name: "a".into(),
                def: RecordDef {
                    type_id: "a::Rec".into(),
                    name: "Rec".into(),
                    rust_name: "Rec".into(),
                    fields: vec![Field {
                        name: "n".into(),
                        ty: Ty::Scalar(Scalar::U8),
                        as_written: None,
                    }],
                    doc: String::new(),
                },
            }],
            enums: vec![DataExport {
                crate_name: "a".into(),
                def: EnumDef {
                    type_id: "a::Color".into(),
                    name: "Color".into(),
                    rust_name: "Color".into(),
                    variants: vec![Variant {
                        name: "Red".into(),
                        fields: Vec::new(),
                        js_name: None,
                        discriminant: None,
                    }],
                    doc: String::new(),
                    repr: None,
                    untagged: false,
                    fallback: false,
                },
            }],
            ..Exports::default()
        }
    }

    /// A type of marshalling kind `kind` (adding a base breaks this match: give it one).
    fn sample(kind: Kind) -> Ty {
        let vec = |t| Ty::Vec(Box::new(t));
        if kind.option {
            return Ty::Option(Box::new(sample(kind.base())));
        }
        match kind.base {
            Base::Unit => Ty::Unit,
            Base::Scalar(s) => s.ty(),
            Base::String => Ty::String,
            Base::Enum => Ty::Named("a::Color".into()),
            Base::Class => Ty::Named("a::Item".into()),
            Base::JsValue => Ty::JsValue,
            Base::JsValueRef => Ty::JsValueRef,
            Base::Callback => Ty::Callback(Callback {
                params: vec![Ty::Scalar(Scalar::U32)],
                ret: Box::new(Ty::Unit),
                catch: false,
                names: Vec::new(),
                hold: bridge_schema::Hold::Owned,
            }),
            Base::NumVec => vec(Ty::Scalar(Scalar::F64)),
            Base::ClassVec => vec(sample(Kind::of(Base::Class))),
            Base::Wire => vec(Ty::String),
            Base::Data => Ty::Named("a::Rec".into()),
            Base::DataVec => vec(sample(Kind::of(Base::Data))),
            Base::View => Ty::View(Box::new(Ty::Scalar(Scalar::U8))),
            Base::MutSlice => Ty::SliceMut(Box::new(Ty::Scalar(Scalar::F64))),
        }
    }

    /// The views of a type of the kind tagged `kind` as a parameter and as a result (of an
    /// export, or of a call into JS for `js/` templates); an unknown tag replaces the
    /// kind of an `Option<u32>`'s views.
    fn views(template: &str, kind: &str) -> (serde_json::Value, serde_json::Value) {
        let exports = sample_exports();
        let names = TypeNames::new(&exports);
        let known = Kind::all().into_iter().find(|k| k.tag() == kind);
        let ty = sample(known.unwrap_or(Kind::opt(Base::Scalar(Scalar::U32))));
        let (param, result) = if template.starts_with("js/") {
            (
                js::js_ty(&ty, &names, Site::JsArg),
                js::js_ty(&ty, &names, Site::JsResult),
            )
        } else {
            let view = types::view(&ty, &names);
            (
                types::at(view.clone(), &ty, Site::ExportParam),
                types::at(view, &ty, Site::ExportResult),
            )
        };
        let json = |view| {
            let mut json = serde_json::to_value(view).unwrap();
            json["kind"] = kind.into();
            json
        };
        (json(param), json(result))
    }

    /// Renders `call` (a macro call of `template`, imported as `m`) for a parameter `p`
    /// (named `x`) or type `ty` of marshalling kind `kind` (of wire leaf kind `kind` for
    /// `wire.js.j2`).
    fn render_macro(template: &str, call: &str, kind: &str) -> Result<String, String> {
        let env = environment().unwrap();
        let (param, ty) = if template == "wire.js.j2" {
            let exports = sample_exports();
            let leaf = match kind {
                "i16" => serde_json::to_value(wire::leaf(
                    &Ty::Scalar(Scalar::I16),
                    &TypeNames::new(&exports),
                )),
                _ => Ok(json!({ "kind": kind })),
            };
            let leaf = leaf.unwrap();
            (leaf.clone(), leaf)
        } else {
            views(template, kind)
        };
        let source = format!("{{% import \"{template}\" as m %}}{{{{ {call} }}}}");
        let abi = super::wasm_abi::WasmAbi::new();
        let context = json!({
            "p": { "name": "x", "ty": param }, "ty": ty, "wasm_abi": abi, "js": { "enabled": false },
        });
        env.render_str(&source, context).map_err(|e| {
            let mut text = format!("{e:#}");
            let mut source = std::error::Error::source(&e);
            while let Some(cause) = source {
                text.push_str(&format!("\ncaused by: {cause:#}"));
                source = cause.source();
            }
            text
        })
    }

    const ABI_PARAM_MACROS: [&str; 5] = [
        "m.convert(p, 'f', '')",
        "m.check(p, 'f', '')",
        "m.pass(p, 'f', '')",
        "m.free(p, '')",
        "m.arg(p)",
    ];

    #[test]
    fn a_template_meeting_an_unknown_kind_fails_the_build() {
        let abi = ABI_PARAM_MACROS
            .iter()
            .chain(&["m.lift(ty)"])
            .map(|c| ("abi.js.j2", *c));
        let marshal = [
            "m.wasm_params([p])",
            "m.lift_arg(p)",
            "m.lower_ret(ty, 'f', '')",
            "m.caught_ret(ty)",
        ]
        .map(|c| ("js/marshal.js.j2", c));
        for (template, call) in abi.chain(marshal) {
            let error = render_macro(template, call, "opt_tuple")
                .expect_err(&format!("{template} {call} rendered an unknown kind"));
            assert!(
                error.contains("marshalling") && error.contains("kind `opt_tuple`"),
                "{template} {call}: {error}"
            );
            assert!(error.contains(template), "{error}");
        }
    }

    /// Every kind the model can give a parameter renders in each phase of an export call,
    /// and every result kind lifts: a kind no template handles fails here first.
    #[test]
    fn every_kind_renders_through_the_export_templates() {
        for kind in Kind::all() {
            let tag = kind.tag();
            let tag = tag.as_str();
            // A view is a result only.
            if !matches!(kind.base, Base::Unit | Base::View) {
                for call in ABI_PARAM_MACROS {
                    render_macro("abi.js.j2", call, tag)
                        .unwrap_or_else(|e| panic!("{call} of a `{tag}` parameter: {e}"));
                }
            }
            // `()` has no value to lift; `&JsValue` is a parameter only; a Rust closure
            // result is made by `$makeClosure` in `body` (an optional one is no result).
            if !matches!(
                kind.base,
                Base::Unit | Base::JsValueRef | Base::Callback | Base::MutSlice
            ) {
                let lifted = render_macro("abi.js.j2", "m.lift(ty)", tag)
                    .unwrap_or_else(|e| panic!("lift of a `{tag}` result: {e}"));
                assert!(!lifted.trim().is_empty(), "lift of `{tag}` is empty");
            }
        }
    }

    /// Every scalar of the lowering table has its glue: the wire's reader, writer, key
    /// reader and key converter its leaf names are defined (release and debug), a checked
    /// scalar has its `$data$<rust>` and every scalar that is not a number its `$wire$<rust>`
    /// check (the flat area's parameters call them), and each lifts and lowers through the
    /// export and call-into-JS templates (`every_kind_renders_...`). A scalar added to the
    /// table without them fails here (ARCHITECTURE.md, "Adding a scalar").
    #[test]
    fn every_scalar_has_its_glue() {
        let env = environment().unwrap();
        let exports = sample_exports();
        let names = TypeNames::new(&exports);
        let render = |name: &str, debug: bool| {
            let context = json!({
                "debug": debug, "wasm_abi": super::wasm_abi::WasmAbi::new(),
                "js": { "enabled": false }, "enums": [], "wire_codecs": [],
            });
            env.get_template(name)
                .and_then(|t| t.render(context))
                .unwrap_or_else(|e| panic!("{name}: {e:#}"))
        };
        for debug in [false, true] {
            let wire = render("wire.js.j2", debug);
            let data = render("data.js.j2", debug);
            let defined = |text: &str, function: String| {
                assert!(
                    text.contains(&format!("function {function}(")),
                    "{function} is not defined (debug: {debug})"
                );
            };
            for s in Scalar::ALL {
                let leaf = wire::leaf(&s.ty(), &names);
                let rust = s.rust();
                let read = leaf.read.unwrap_or_else(|| panic!("{rust}: no reader"));
                defined(&wire, format!("$wire$read{read}"));
                let write = leaf.write.unwrap_or_else(|| panic!("{rust}: no writer"));
                defined(&wire, format!("$wire$write{write}"));
                for key in leaf.key_read.into_iter().filter(|_| s.map_key()) {
                    defined(&wire, format!("$wire$read{key}"));
                }
                if let Some(canon) = leaf.canon {
                    defined(&wire, format!("$wire$canon{canon}"));
                }
                if s.checked() {
                    defined(&data, format!("$data${rust}"));
                }
                if !s.is_number() {
                    defined(&wire, format!("$wire${rust}"));
                }
            }
        }
    }

    /// Every identity mode has its template, defining the four macros `class.js.j2`
    /// calls (ARCHITECTURE.md, "Adding an identity mode").
    #[test]
    fn every_identity_mode_has_its_template() {
        for mode in crate::settings::identity::IdentityMode::ALL {
            let name = format!("identity/{mode}.js.j2");
            let source = super::TEMPLATES
                .iter()
                .find(|(n, _)| *n == name)
                .unwrap_or_else(|| panic!("no template {name}"))
                .1;
            for m in ["state", "fields", "fill", "private"] {
                assert!(
                    source.contains(&format!("{{% macro {m}(")),
                    "{name}: macro {m}"
                );
            }
        }
    }

    #[test]
    fn the_wire_template_fails_on_an_unknown_leaf_kind() {
        for call in ["m.read(ty)", "m.write(ty, 'v')"] {
            let error = render_macro("wire.js.j2", call, "u128").expect_err(call);
            assert!(error.contains("unknown wire leaf kind `u128`"), "{error}");
        }
        assert_eq!(
            render_macro("wire.js.j2", "m.read(ty)", "i16").unwrap(),
            "$wire$readI16()"
        );
    }

    #[test]
    fn kind_all_lists_each_kind_once() {
        let all = Kind::all();
        for (i, a) in all.iter().enumerate() {
            assert!(!all[..i].contains(a), "{a:?} is listed twice");
            assert!(
                !all[..i].iter().any(|b| b.tag() == a.tag()),
                "{a:?}'s tag twice"
            );
        }
        // 14 other bases, 5 of them optional; each scalar alone and optional.
        assert_eq!(all.len(), 14 + 5 + 2 * Scalar::ALL.len());
        assert_eq!(Kind::opt(Base::Scalar(Scalar::U32)).tag(), "opt_u32");
        assert_eq!(Kind::of(Base::JsValueRef).tag(), "js_value_ref");
    }

    /// No template lists kind names (`kind in ["opt_u32", ...]`) or slices them
    /// (`k[4:]`): what a template asks of a kind is the view's (exhaustive `Kind` methods,
    /// the lowering table), so a kind added later cannot be missing from a list.
    #[test]
    fn no_template_lists_or_slices_kind_names() {
        // `[` digits `:` digits `]` with a digit: a slice by a literal index.
        let sliced = |line: &str| {
            line.match_indices('[').any(|(at, _)| {
                let rest = &line[at + 1..];
                let Some(end) = rest.find(']') else {
                    return false;
                };
                let inner = &rest[..end];
                inner.contains(':')
                    && inner.chars().any(|c| c.is_ascii_digit())
                    && inner.chars().all(|c| c.is_ascii_digit() || c == ':')
            })
        };
        // The marshalling kinds' and wire leaves' tags, and the scalars' names.
        let tags: Vec<String> = Kind::all()
            .iter()
            .map(|k| serde_json::to_value(k).unwrap())
            .chain(
                [
                    wire::LeafKind::Value,
                    wire::LeafKind::Class,
                    wire::LeafKind::Codec,
                ]
                .iter()
                .map(|k| serde_json::to_value(k).unwrap()),
            )
            .map(|v| v.as_str().unwrap().to_string())
            .chain(bridge_schema::lowering::Scalar::ALL.map(|s| s.rust().to_string()))
            .collect();
        // `in [...]` whose list holds a kind's tag as a string literal.
        let lists_kinds = |line: &str| {
            line.match_indices(" in [").any(|(at, _)| {
                let list = &line[at + 5..];
                let list = &list[..list.find(']').unwrap_or(list.len())];
                list.split('"')
                    .skip(1)
                    .step_by(2)
                    .any(|item| tags.iter().any(|t| t == item))
            })
        };
        let mut found = Vec::new();
        for (name, source) in super::TEMPLATES {
            for (i, line) in source.lines().enumerate() {
                if lists_kinds(line) || sliced(line) {
                    found.push(format!("{name}:{}: {}", i + 1, line.trim()));
                }
            }
        }
        assert!(
            found.is_empty(),
            "kind lists or slices:\n{}",
            found.join("\n")
        );
        assert!(sliced(r#"{{ k[4:] }}"#) && sliced("kind[:4]") && !sliced("params[:f.required]"));
        assert!(lists_kinds(r#"{% elif k in ["number", "u32"] %}"#));
        assert!(lists_kinds(r#"{%- if leaf.kind in ["f32", "f64"] -%}"#));
        assert!(!lists_kinds(r#"{% for name in ["withPool", "keep"] %}"#));
    }

    #[test]
    fn comment_text_cannot_end_the_comment() {
        let hostile = "Returns one */ globalThis.INJECTED = \"ran\"; /* **/";
        let escaped = comment_text(hostile);
        assert!(!escaped.contains("*/"), "{escaped}");
        assert_eq!(
            escaped,
            "Returns one *\\/ globalThis.INJECTED = \"ran\"; /* **\\/"
        );
        assert_eq!(
            comment_text("plain `code` and a/b*c"),
            "plain `code` and a/b*c"
        );
    }
}
