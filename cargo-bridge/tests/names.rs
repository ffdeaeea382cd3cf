//! JS names across crates and items: collisions are build errors naming both items and
//! their crates and suggesting `js_name`; `js_name` resolves them.
//!
//! Crate names are unique per test (see `support`).

mod support;

use support::Project;

/// A library crate `dir` named `name` exporting a class `Node` with `attr` on it.
fn node_lib(project: &Project, dir: &str, name: &str, attr: &str) {
    project.bridge_crate(
        dir,
        name,
        "\"rlib\"",
        "",
        &format!(
            r#"use bridge_runtime::bridge;

#[bridge{attr}]
pub struct Node {{
    pub id: u32,
}}
"#
        ),
    );
}

/// An app crate linking `deps` (dir, crate) and returning each one's `Node`.
fn app(project: &Project, name: &str, deps: &[(&str, &str)]) {
    let mut lib = String::from("use bridge_runtime::bridge;\n");
    let mut toml = String::new();
    for (dir, krate) in deps {
        let module = krate.replace('-', "_");
        lib.push_str(&format!(
            "\n#[bridge]\npub fn make_{module}() -> {module}::Node {{\n    {module}::Node {{ id: 1 }}\n}}\n"
        ));
        toml.push_str(&format!("{krate} = {{ path = \"../{dir}\" }}\n"));
    }
    // `extra` lands in the app's `[dependencies]` table, after bridge-runtime.
    project.bridge_crate("app", name, "\"cdylib\"", &toml, &lib);
}

#[test]
fn two_crates_with_a_class_of_one_name() {
    let project = Project::workspace(&["app", "a", "b"], "");
    node_lib(&project, "a", "names-dup-a", "");
    node_lib(&project, "b", "names-dup-b", "");
    app(
        &project,
        "names-dup-app",
        &[("a", "names-dup-a"), ("b", "names-dup-b")],
    );
    let run = project.build(&["-p", "names-dup-app"]);
    run.fails().stderr_has(&[
        "two items are exported to JS as `Node`: class `Node` of crate `names-dup-a` and \
         class `Node` of crate `names-dup-b`; names must be unique in one package: give one \
         of them another JS name with #[bridge(js_name = \"...\")]",
    ]);
    assert!(
        !project.path("app/pkg").exists(),
        "no package on a name error"
    );
}

#[test]
fn js_name_separates_them() {
    let project = Project::workspace(&["app", "a", "b"], "");
    node_lib(&project, "a", "names-ok-a", "");
    node_lib(&project, "b", "names-ok-b", "(js_name = \"OtherNode\")");
    app(
        &project,
        "names-ok-app",
        &[("a", "names-ok-a"), ("b", "names-ok-b")],
    );
    project.build(&["-p", "names-ok-app"]).ok();
    let dts = support::read(&project.path("app/pkg/names_ok_app.d.ts"));
    assert!(dts.contains("export class Node {"), "{dts}");
    assert!(dts.contains("export class OtherNode {"), "{dts}");
    assert!(
        dts.contains("export function makeNamesOkA(): Node;"),
        "{dts}"
    );
    assert!(
        dts.contains("export function makeNamesOkB(): OtherNode;"),
        "{dts}"
    );
}

/// Build a one-crate workspace with `lib_rs`; return the failed run (no package written).
#[track_caller]
fn failing_build(dir: &str, name: &str, lib_rs: &str) -> support::Run {
    let project = Project::workspace(&[dir], "");
    project.bridge_crate(dir, name, "\"cdylib\"", "", lib_rs);
    let run = project.build(&[]);
    run.fails();
    assert!(
        !project.path(&format!("{dir}/pkg")).exists(),
        "no package from a failed build"
    );
    run
}

#[test]
fn names_one_item_cannot_take_are_compile_errors() {
    let run = failing_build(
        "bad",
        "names-bad-one",
        r#"use bridge_runtime::bridge;

#[bridge(js_name = "a$b")]
pub struct Widget {
    value: u32,
}

#[bridge]
impl Widget {
    #[bridge(js_name = "get-value")]
    pub fn value(&self) -> u32 {
        self.value
    }

    pub fn constructor(&self) -> u32 {
        1
    }

    pub fn release(&self) {}

    pub fn prototype() -> u32 {
        1
    }

    #[bridge(js_name = "name")]
    pub fn label() -> u32 {
        1
    }

    /// Wrapper state is private (`#addr`): a member may be called `__addr`.
    #[bridge(getter = "__addr")]
    pub fn addr(&self) -> u32 {
        1
    }
}

#[bridge(js_name = "compute total")]
pub fn compute() -> u32 {
    1
}
"#,
    );
    run.stderr_has(&[
        "error: js_name \"a$b\" is not a JS identifier: `$` is reserved for the generated glue's own names; use one, e.g. js_name = \"aB\"",
        "error: js_name \"get-value\" is not a JS identifier: a JS identifier holds only letters, digits and `_`; use one, e.g. js_name = \"getValue\"",
        "error: member `Widget::constructor` cannot be `constructor` in JS: `constructor` is reserved: JS reserves it for the class's constructor (mark the Rust constructor with #[bridge(constructor)]); give it another JS name with #[bridge(js_name = \"...\")]",
        "error: member `Widget::release` cannot be `release` in JS: `release` is reserved: the glue gives every class `release()`; give it another JS name with #[bridge(js_name = \"...\")]",
        "error: member `Widget::prototype` cannot be `prototype` in JS: a static named `prototype` would replace the class's own `Widget.prototype`; give it another JS name with #[bridge(js_name = \"...\")]",
        "error: member `Widget::label` cannot be `name` in JS: a static named `name` would replace the class's own `Widget.name`",
        "error: js_name \"compute total\" is not a JS identifier: a JS identifier holds only letters, digits and `_`; use one, e.g. js_name = \"computeTotal\"",
    ]);
    run.stderr_lacks(&["cannot be `__addr`"]);
}

#[test]
fn types_named_like_types_the_bridge_reads_by_name_are_compile_errors() {
    let run = failing_build(
        "shadow",
        "names-shadow",
        r#"use bridge_runtime::bridge;

#[bridge]
pub struct Option {
    value: u32,
}

#[bridge(record)]
pub struct Vec {
    pub x: f64,
}

#[bridge]
pub enum Result {
    Ok,
    Err,
}

#[bridge]
pub struct r#bool {
    value: u32,
}
"#,
    );
    let message = |what: &str, name: &str| {
        format!(
            "error: {what} `{name}` cannot be exported under the Rust name `{name}`: #[bridge] \
             reads `{name}` in signatures as the built-in type, so a parameter or return of \
             your type would be taken for it; rename the Rust type (its JS name can be set \
             apart with #[bridge(js_name = \"...\")])"
        )
    };
    run.stderr_has(&[
        &message("class", "Option"),
        &message("record", "Vec"),
        &message("enum", "Result"),
        &message("class", "bool"),
    ]);
}

#[test]
fn a_function_named_like_a_glue_export() {
    failing_build(
        "pool",
        "names-glue",
        "use bridge_runtime::bridge;\n\n#[bridge(js_name = \"__bridge\")]\npub fn pools() -> u32 {\n    1\n}\n",
    )
    .stderr_has(&[
        "function `pools` of crate `names-glue` is exported to JS as `__bridge`, a name the \
         generated glue exports itself (the release pool API and identity statistics); give it \
         another JS name with #[bridge(js_name = \"...\")]",
    ]);
}

#[test]
fn a_class_and_a_function_and_two_members_of_one_name() {
    let lib = r#"use bridge_runtime::bridge;

#[bridge]
pub struct Shape {
    sides: u32,
}

#[bridge]
impl Shape {
    #[bridge(getter)]
    pub fn sides(&self) -> u32 {
        self.sides
    }
}

#[bridge]
pub fn shape() -> u32 {
    1
}
"#;
    failing_build("both", "names-both", &lib.replace("pub fn shape", "#[bridge(js_name = \"Shape\")]\npub fn shape").replace("#[bridge]\n#[bridge(", "#[bridge("))
        .stderr_has(&["two items are exported to JS as `Shape`: class `Shape` of crate `names-both` and function `shape` of crate `names-both`"]);
    let second_impl = "\nmod more {\n    use super::Shape;\n    use bridge_runtime::bridge;\n\n    #[bridge]\n    impl Shape {\n        #[bridge(js_name = \"sides\")]\n        pub fn side_count(&self) -> u32 {\n            self.sides\n        }\n    }\n}\n";
    failing_build("members", "names-members", &format!("{lib}{second_impl}")).stderr_has(&[
        // Impl records merge by their members' Rust names: `side_count` < `sides`.
        "class `Shape` of crate `names-members` has two members named `sides` in JS: \
         `Shape::side_count` (method) and `Shape::sides` (getter); give one of them another JS \
         name with #[bridge(js_name = \"...\")]",
    ]);
}

/// A crate with a class `Point`, a record `PointData` and a fieldless enum `Shade`, with
/// `record_attr` and `enum_attr` inside their `#[bridge(...)]`.
fn data_lib(record_attr: &str, enum_attr: &str) -> String {
    format!(
        r#"use bridge_runtime::bridge;

#[bridge]
pub struct Point {{
    x: f64,
}}

#[bridge]
impl Point {{
    #[bridge(constructor)]
    pub fn new(x: f64) -> Point {{
        Point {{ x }}
    }}

    pub fn data(&self) -> PointData {{
        PointData {{ x: self.x }}
    }}
}}

#[bridge(record{record_attr})]
pub struct PointData {{
    pub x: f64,
}}

#[bridge{enum_attr}]
pub enum Shade {{
    Light,
    Dark,
}}

#[bridge]
pub fn shift(p: PointData, shade: Shade) -> PointData {{
    PointData {{ x: p.x + if matches!(shade, Shade::Dark) {{ 1.0 }} else {{ 0.0 }} }}
}}
"#
    )
}

#[test]
fn records_and_enums_take_js_name_like_classes() {
    // The collision messages suggest js_name for records and enums too...
    failing_build(
        "data-clash",
        "names-data-clash",
        &data_lib(", js_name = \"Point\"", ""),
    )
    .stderr_has(&[
        "two items are exported to JS as `Point`: class `Point` of crate `names-data-clash` \
         and record `PointData` of crate `names-data-clash`; names must be unique in one \
         package: give one of them another JS name with #[bridge(js_name = \"...\")]",
    ]);
    failing_build(
        "enum-clash",
        "names-enum-clash",
        &data_lib("", "(js_name = \"Point\")"),
    )
    .stderr_has(&[
        "two items are exported to JS as `Point`: class `Point` of crate `names-enum-clash` \
         and enum `Shade` of crate `names-enum-clash`",
    ]);

    // ...and js_name gives them their JS names.
    let project = Project::workspace(&["data"], "");
    project.bridge_crate(
        "data",
        "names-data-js",
        "\"cdylib\"",
        "",
        &data_lib(", js_name = \"Coords\"", "(js_name = \"Tone\")"),
    );
    project.build(&[]).ok();
    let dts = support::read(&project.path("data/pkg/names_data_js.d.ts"));
    for expected in [
        "export interface Coords {",
        "data(): Coords;",
        "export function shift(p: Coords, shade: Tone): Coords;",
    ] {
        assert!(dts.contains(expected), "missing `{expected}` in:\n{dts}");
    }
    assert!(
        !dts.contains("PointData") && !dts.contains("Shade"),
        "{dts}"
    );
    let glue = project.path("data/pkg/names_data_js.js");
    let source = format!(
        "const m = await import({:?});\n\
         console.log(JSON.stringify([new m.Point(1).data(), m.shift({{ x: 2 }}, m.Tone.Dark), Object.keys(m.Tone)]));",
        glue.display().to_string()
    );
    let stdout = support::run_node_module(&project.path("run-data.mjs"), &source);
    assert_eq!(stdout, r#"[{"x":1},{"x":3},["Light","Dark"]]"#);
}

#[test]
fn a_bad_argument_on_a_record_or_enum_names_what_is_valid() {
    failing_build(
        "bad-data",
        "names-bad-data",
        "use bridge_runtime::bridge;\n\n#[bridge(record, identity_mode = \"rust\")]\npub struct P {\n    pub x: f64,\n}\n\n#[bridge(js_name = \"a-b\")]\npub enum E {\n    A,\n}\n",
    )
    .stderr_has(&[
        "unknown #[bridge] argument on record `P`: valid arguments are `record` and `js_name = \"Name\"`",
        "error: js_name \"a-b\" is not a JS identifier",
    ]);
}

#[test]
fn records_and_enums_of_a_library_crate_that_exports_nothing_else() {
    // The library's object file has no symbol the app needs: only the anchor export the
    // macro writes beside each record keeps the records in the link.
    let project = Project::workspace(&["app", "a"], "");
    project.bridge_crate(
        "a",
        "names-lib-data",
        "\"rlib\"",
        "",
        "use bridge_runtime::bridge;\n\n#[bridge(record)]\npub struct Point {\n    pub x: f64,\n}\n\n\
         #[bridge]\npub enum Tone {\n    Light,\n    Dark,\n}\n",
    );
    project.bridge_crate(
        "app",
        "names-lib-app",
        "\"cdylib\"",
        "names-lib-data = { path = \"../a\" }\n",
        "use bridge_runtime::bridge;\nuse names_lib_data::{Point, Tone};\n\n#[bridge]\n\
         pub fn moved(p: Point, t: Tone) -> Point {\n    Point { x: p.x + if matches!(t, Tone::Dark) { 1.0 } else { 0.0 } }\n}\n",
    );
    project.build(&["-p", "names-lib-app"]).ok();
    let glue = project.path("app/pkg/names_lib_app.js");
    let source = format!(
        "const m = await import({:?});\nconsole.log(JSON.stringify([m.moved({{ x: 1 }}, m.Tone.Dark)]));",
        glue.display().to_string()
    );
    let stdout = support::run_node_module(&project.path("run-lib.mjs"), &source);
    assert_eq!(stdout, r#"[{"x":2}]"#);
    let wasm = std::fs::read(project.path("app/pkg/names_lib_app_bg.wasm")).unwrap();
    assert!(
        !wasm.windows(7).any(|w| w == b"#anchor"),
        "the package keeps no anchor export"
    );
}

#[test]
fn two_crates_with_a_record_of_one_name() {
    // Records are JS interfaces and plain objects, but one package still has one namespace
    // of type names: two `Point`s would make the .d.ts declare `Point` twice.
    let project = Project::workspace(&["app", "a", "b"], "");
    for (dir, name) in [("a", "names-rec-a"), ("b", "names-rec-b")] {
        project.bridge_crate(
            dir,
            name,
            "\"rlib\"",
            "",
            "use bridge_runtime::bridge;\n\n#[bridge(record)]\npub struct Point {\n    pub x: f64,\n}\n",
        );
    }
    project.bridge_crate(
        "app",
        "names-rec-app",
        "\"cdylib\"",
        "names-rec-a = { path = \"../a\" }\nnames-rec-b = { path = \"../b\" }\n",
        "use bridge_runtime::bridge;\n\n#[bridge]\npub fn a(p: names_rec_a::Point) -> f64 {\n    p.x\n}\n\n\
         #[bridge]\npub fn b(p: names_rec_b::Point) -> f64 {\n    p.x\n}\n",
    );
    let run = project.build(&["-p", "names-rec-app"]);
    run.fails().stderr_has(&[
        "two items are exported to JS as `Point`: record `Point` of crate `names-rec-a` and \
         record `Point` of crate `names-rec-b`; names must be unique in one package: give one \
         of them another JS name with #[bridge(js_name = \"...\")]",
    ]);
    assert!(
        !project.path("app/pkg").exists(),
        "no package on a name error"
    );
}

/// The lib of `js_names_*`: a class, a free function, a record, each with Rust names that
/// camelCase differently, and one `js_name` (which wins either way).
const SVG_LIB: &str = r#"use bridge_runtime::bridge;

#[bridge]
pub struct Svg {
    pub line_width: u32,
    color: String,
}

#[bridge]
impl Svg {
    #[bridge(constructor)]
    pub fn new() -> Svg {
        Svg { line_width: 1, color: "red".into() }
    }
    #[bridge(getter)]
    pub fn background_color(&self) -> String {
        self.color.clone()
    }
    #[bridge(setter)]
    pub fn set_background_color(&mut self, color: String) {
        self.color = color;
    }
    pub fn to_markup(&self) -> String {
        format!("<svg fill={} width={}/>", self.color, self.line_width)
    }
    #[bridge(js_name = "makeDefault")]
    pub fn make_default() -> Svg {
        Svg::new()
    }
}

#[bridge(record)]
pub struct ViewBox {
    pub min_x: i32,
    #[bridge(js_name = "wide")]
    pub full_width: u32,
}

#[bridge]
pub fn make_svg(view_box: ViewBox) -> String {
    format!("{} {}", view_box.min_x, view_box.full_width)
}
"#;

#[test]
fn js_names_as_written_keeps_rust_names_workspace_wide_and_js_name_wins() {
    // The workspace keeps Rust names; crate `b` sets camelCase for itself.
    let project = Project::workspace(
        &["a", "b"],
        "[workspace.metadata.bridge]\njs-names = \"as-written\"\n",
    );
    project.bridge_crate("a", "js-names-a", "\"cdylib\"", "", SVG_LIB);
    project.bridge_crate(
        "b",
        "js-names-b",
        "\"cdylib\"",
        "\n[package.metadata.bridge]\njs-names = \"camelCase\"\n",
        SVG_LIB,
    );
    project.build(&[]).ok();
    let a = support::read(&project.path("a/pkg/js_names_a.d.ts"));
    for decl in [
        "get line_width(): number;",
        "get background_color(): string;",
        "set background_color(color: string);",
        "to_markup(): string;",
        "static makeDefault(): Svg;",
        "min_x: number;",
        "wide: number;",
        "export function make_svg(",
    ] {
        assert!(a.contains(decl), "as-written: no `{decl}` in\n{a}");
    }
    let b = support::read(&project.path("b/pkg/js_names_b.d.ts"));
    for decl in [
        "get lineWidth(): number;",
        "get backgroundColor(): string;",
        "toMarkup(): string;",
        "static makeDefault(): Svg;",
        "minX: number;",
        "wide: number;",
        "export function makeSvg(",
    ] {
        assert!(b.contains(decl), "camelCase: no `{decl}` in\n{b}");
    }
    // And the glue answers to those names.
    let out = support::run_node_module(
        &project.path("a/run.mjs"),
        r#"import * as a from "./pkg/js_names_a.js";
const svg = new a.Svg();
svg.background_color = "blue";
svg.line_width = 3;
console.log(svg.to_markup(), a.make_svg({ min_x: -1, wide: 9 }), a.Svg.makeDefault().background_color);
"#,
    );
    assert_eq!(out, "<svg fill=blue width=3/> -1 9 red");
}

#[test]
fn js_names_bad_value_names_file_key_value_and_valid_values() {
    let project = Project::workspace(&["a"], "");
    project.bridge_crate(
        "a",
        "js-names-bad",
        "\"cdylib\"",
        "\n[package.metadata.bridge]\njs-names = \"snake_case\"\n",
        SVG_LIB,
    );
    let run = project.build(&[]);
    run.fails().stderr_has(&[
        "a/Cargo.toml: invalid [package.metadata.bridge] js-names = \"snake_case\"; valid values \
         are \"camelCase\" (the default: `make_svg` is `makeSvg` in JS) or \"as-written\" \
         (wasm-bindgen's convention: `make_svg`)",
    ]);
    let project = Project::workspace(&["a"], "[workspace.metadata.bridge]\njs-names = false\n");
    project.bridge_crate("a", "js-names-bad-ws", "\"cdylib\"", "", SVG_LIB);
    project.build(&[]).fails().stderr_has(&[
        "Cargo.toml: invalid [workspace.metadata.bridge] js-names = false; valid values are",
    ]);
}
