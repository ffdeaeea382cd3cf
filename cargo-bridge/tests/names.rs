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
    project.bridge_crate("app", name, "\"cdylib\"", "", &lib);
    let manifest = project.path("app/Cargo.toml");
    let text =
        support::read(&manifest).replace("[dependencies]\n", &format!("[dependencies]\n{toml}"));
    project.file("app/Cargo.toml", &text);
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
