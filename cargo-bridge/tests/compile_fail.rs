//! Bad `#[bridge(...)]` class attributes: the build fails with the macro's compile error,
//! which cargo prints and `cargo bridge` passes through, and no package is written.
//!
//! Crate names are unique per test (see `support`).

mod support;

use support::Project;

const VALID_MODES: &str = r#"valid values are "none", "pointer", "rust""#;

/// Build a one-crate workspace whose class `Widget` carries `#[bridge(<args>)]`, and
/// return the run after checking it failed in the compiler without writing a package.
#[track_caller]
fn build_with_class_args(name: &str, args: &str) -> support::Run {
    let project = Project::workspace(&["bad"], "");
    project.bridge_crate(
        "bad",
        name,
        "\"cdylib\"",
        "",
        &format!(
            r#"use bridge_runtime::bridge;

#[bridge({args})]
pub struct Widget {{
    value: i32,
}}

#[bridge]
impl Widget {{
    pub fn value(&self) -> i32 {{
        self.value
    }}
}}
"#
        ),
    );
    let run = project.build(&[]);
    run.fails().stderr_has(&[
        "error: could not compile",
        &format!("error: `cargo build` of `{name}` for wasm32-unknown-unknown failed; see the compiler errors above"),
    ]);
    assert!(
        !project.path("bad/pkg").exists(),
        "a package was written despite the compile error"
    );
    run
}

#[test]
fn class_identity_mode_unknown_string() {
    build_with_class_args("attr-string", r#"identity_mode = "swfit""#).stderr_has(&[
        r#"error: invalid `identity_mode` value "swfit" on class `Widget`"#,
        VALID_MODES,
        // The error points at the value.
        r#"#[bridge(identity_mode = "swfit")]"#,
    ]);
}

#[test]
fn class_identity_mode_number() {
    build_with_class_args("attr-number", "identity_mode = 3").stderr_has(&[
        "error: invalid `identity_mode` value `3` on class `Widget`",
        VALID_MODES,
    ]);
}

#[test]
fn class_identity_mode_misspelled_argument() {
    build_with_class_args("attr-key", r#"identity_mod = "rust""#).stderr_has(&[
        "error: unknown #[bridge] argument on class `Widget`",
        r#"`identity_mode = "none" | "pointer" | "rust"`"#,
    ]);
}

/// Build a one-crate workspace with `lib_rs`, expecting the compiler to reject it.
#[track_caller]
fn build_lib_failing(name: &str, lib_rs: &str) -> support::Run {
    let project = Project::workspace(&["bad"], "");
    project.bridge_crate("bad", name, "\"cdylib\"", "", lib_rs);
    let run = project.build(&[]);
    run.fails().stderr_has(&["error: could not compile"]);
    assert!(!project.path("bad/pkg").exists());
    run
}

#[test]
fn js_import_module_file_missing() {
    build_lib_failing(
        "import-missing-file",
        r#"use bridge_runtime::bridge;

#[bridge(module = "js/nope.mjs")]
extern "C" {
    fn host_add(a: u32, b: u32) -> u32;
}
"#,
    )
    .stderr_has(&[
        r#"error: JS module "js/nope.mjs" does not exist"#,
        "create it, or fix the path (relative to the crate's Cargo.toml)",
    ]);
}

#[test]
fn js_import_unsupported_parameter() {
    build_lib_failing(
        "import-bad-param",
        r#"use bridge_runtime::bridge;

#[bridge]
pub struct Widget {
    value: i32,
}

#[bridge]
extern "C" {
    #[bridge(js_namespace = "host")]
    fn look(w: &Widget);
}
"#,
    )
    .stderr_has(&["the JS import `look` cannot take it: pass a class as Handle<C>"]);
}

#[test]
fn js_import_takes_no_borrowed_fn_once() {
    build_lib_failing(
        "import-borrowed-once",
        r#"use bridge_runtime::bridge;

#[bridge]
extern "C" {
    #[bridge(js_namespace = "host")]
    fn keep(f: &dyn FnOnce(u32) -> u32);
}
"#,
    )
    .stderr_has(&[
        "a borrowed `dyn FnOnce` cannot be called (calling it moves it): take \
         `Box<dyn FnOnce(A, ..) -> R>`",
    ]);
}

#[test]
fn rust_closure_returned_to_js_must_be_boxed_and_plain() {
    build_lib_failing(
        "closure-return",
        r#"use bridge_runtime::{bridge, JsError};

#[bridge]
pub fn borrowed_closure() -> &'static dyn Fn(u32) -> u32 {
    &|x| x
}

#[bridge]
pub fn catching_closure() -> Box<dyn Fn(u32) -> Result<u32, JsError>> {
    Box::new(|x| Ok(x))
}
"#,
    )
    .stderr_has(&[
        "a closure returned to JS is owned: return `Box<dyn Fn(A, ..) -> R>`",
        "a Rust closure called from JS does not return `Result<_, JsError>`",
    ]);
}
