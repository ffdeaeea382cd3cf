//! Boundary types `#[bridge]` rejects: each is a compile error that names the type, says
//! why and what to write instead. One crate holds every rejected shape (the compiler
//! reports all of them), so the test costs one build.

mod support;

use support::Project;

#[test]
fn rejected_data_shapes_are_compile_errors_with_a_fix() {
    let project = Project::workspace(&["shapes"], "");
    project.bridge_crate(
        "shapes",
        "data-shapes",
        "\"cdylib\"",
        "",
        r#"use bridge_runtime::{bridge, Handle, JsValue};

#[bridge]
pub struct Node {
    id: u32,
}

#[bridge]
pub fn value_refs(values: Vec<&JsValue>) -> u32 {
    values.len() as u32
}

#[bridge]
pub fn maybe_ref(value: Option<&JsValue>) -> bool {
    value.is_some()
}

#[bridge]
pub fn words(values: &[String]) -> u32 {
    values.len() as u32
}

#[bridge]
pub fn nested(value: Option<Option<u32>>) -> u32 {
    value.flatten().unwrap_or(0)
}

#[bridge]
pub fn borrowed(values: Vec<&str>) -> u32 {
    values.len() as u32
}

#[bridge]
pub fn twice() -> Result<Result<u32, String>, String> {
    Ok(Ok(1))
}

#[bridge]
pub fn owned_nodes(nodes: Vec<Option<Node>>) -> u32 {
    nodes.len() as u32
}

#[bridge]
pub fn handles(nodes: Vec<Option<Handle<Node>>>) -> u32 {
    nodes.len() as u32
}
"#,
    );
    let run = project.build(&[]);
    run.fails().stderr_has(&[
        "type `& [String]` cannot cross the JS boundary: slices cross as `&[number]` parameters",
        "type `Option < Option < u32 > >` cannot cross the JS boundary: `Option<Option<T>>` is not supported: JS has one null, so the two Nones would be one value; take `Option<T>`, or a #[bridge] enum naming the cases",
        "type `Vec < & str >` cannot cross the JS boundary: Vec holds owned values (numbers, String, classes, Option, Vec, JsValue)",
        "type `Vec < & JsValue >` cannot cross the JS boundary: Vec holds owned values",
        "type `Option < & JsValue >` cannot cross the JS boundary: Option of a &JsValue or a function is not supported: take Option<JsValue> (owned)",
        "type `Result < Result < u32, String > , String >` cannot cross the JS boundary: Result of Result is not supported",
        // Known from the class's own traits, not from the spelling (`Node` could be a record).
        "`Node` cannot be taken by value from JS inside an Option, Vec, record or enum",
        "inside Option, Vec or a tuple, take a class as `Handle<Node>`",
    ]);
    // The valid `handles` produced no error of its own.
    run.stderr_lacks(&["Vec < Option < Handle < Node > > >"]);
    assert!(
        !project.path("shapes/pkg").exists(),
        "no package from a failed build"
    );
}

#[test]
fn rejected_record_and_enum_shapes_are_compile_errors_with_a_fix() {
    let project = Project::workspace(&["shapes"], "");
    project.bridge_crate(
        "shapes",
        "data-enum-shapes",
        "\"cdylib\"",
        "",
        r#"use bridge_runtime::{bridge, Handle};

#[bridge]
pub struct Node {
    id: u32,
}

#[bridge]
pub enum Pair {
    Two(u32, u32),
    One(u32),
}

#[bridge(record)]
pub struct Tuple(f64, f64);

#[bridge]
pub enum Tagged {
    Item { kind: String },
}

#[bridge]
pub enum Never {}

#[bridge(record)]
pub struct Borrowed {
    pub name: &'static str,
}

#[bridge(record)]
pub struct Owner {
    pub node: Node,
    pub ok: Handle<Node>,
}
"#,
    );
    let run = project.build(&[]);
    run.fails().stderr_has(&[
        "`Pair::Two` has 2 unnamed fields: a tuple variant crosses as `{ kind, value }` and can hold one field; name the fields (`Two { a: .., b: .. }`) to send several",
        "#[bridge(record)] `Tuple` is a tuple struct: records cross as JS objects, so give the fields names (`struct Tuple { x: f64, y: f64 }`)",
        "`Tagged::Item` has a field `kind`, but `kind` is the tag of a JS enum object (`{ kind: \"Item\", ... }`): rename the field",
        "#[bridge] enum `Never` has no variants: no value of it can cross",
        "type `& 'static str` cannot cross the JS boundary: a record or enum field owns its value: use String, Vec<T> or Handle<C>",
        // A class by value in a record: known from the class's traits.
        "`Node` cannot be taken by value from JS inside an Option, Vec, record or enum",
    ]);
    assert!(
        !project.path("shapes/pkg").exists(),
        "no package from a failed build"
    );
}
