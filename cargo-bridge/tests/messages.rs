//! Signatures `#[bridge]` refuses (issue 14, items 4 and 11): each is a compile error that
//! says what is actually wrong and what to write instead. One crate holds them all (the
//! compiler reports every item's error; a `#[bridge] impl` stops at its first bad member,
//! so each bad member has an impl block of its own), so the test costs one build.

mod support;

use support::Project;

#[test]
fn refused_signatures_say_what_is_wrong() {
    let project = Project::workspace(&["bad"], "");
    project.bridge_crate(
        "bad",
        "refused-signatures",
        "\"cdylib\"",
        "",
        r#"use bridge_runtime::bridge;

type Id = u32;

#[bridge]
pub struct Widget {
    value: i32,
}

#[bridge]
impl Widget {
    pub unsafe fn unsafe_method(&self) -> i32 {
        self.value
    }
}

#[bridge]
impl Widget {
    #[bridge(getter, skip)]
    pub fn skipped_getter(&self) -> i32 {
        self.value
    }
}

#[bridge]
impl Widget {
    pub fn boxed_self(self: Box<Self>) -> i32 {
        self.value
    }
}

#[bridge]
pub unsafe fn unsafe_free(p: u32) -> u32 {
    p
}

#[bridge]
pub fn alias(x: Id) -> u32 {
    x
}

#[bridge]
pub fn static_str(s: &'static str) -> u32 {
    s.len() as u32
}

#[bridge]
pub fn generic<T: Copy>(x: T) -> T {
    x
}

#[bridge]
fn private_free() -> u32 {
    1
}
"#,
    );
    let run = project.build(&[]);
    run.fails().stderr_has(&[
        // item 4
        "error: `unsafe_method` is an `unsafe fn`: JS cannot uphold its safety contract, so #[bridge] does not export it; export a safe function that checks the contract and calls it",
        "error: `unsafe_free` is an `unsafe fn`",
        // item 11
        "error: `Widget::skipped_getter` has #[bridge(skip)], which keeps it Rust-only, and also says how to export it (constructor, getter, setter or js_name): remove `skip` to export it, or the other arguments to keep it Rust-only",
        "error: exported methods take `&self`, `&mut self` or `self` (or `this: &Handle<Self>`), not `self: Box < Self >`",
        "a type alias of a supported type (`type Id = u32;`) must be written as that type",
        "cannot cross the JS boundary: a `&'static` parameter cannot borrow from JS (what JS passes lives only for the call): take `&str`/`&C`, or an owned `String`/`Handle<C>`",
        "error: exported functions cannot have type or const parameters: JS calls one concrete function; export a non-generic wrapper per type",
        "error: `private_free` has #[bridge] but is not `pub`: only `pub` functions are exported (as in a #[bridge] impl block): make it `pub`",
    ]);
    // The old, misleading messages are gone.
    run.stderr_lacks(&[
        "is not `pub`: make it `pub` to export it",
        "not `self` by value",
        "E0716",
    ]);
    assert!(
        !project.path("bad/pkg").exists(),
        "no package from a failed build"
    );
}

/// A one-class crate `tiny/` named `name`, version 0.1.0.
fn tiny_project(name: &str) -> Project {
    let project = Project::workspace(&["tiny"], "");
    project.bridge_crate(
        "tiny",
        name,
        "\"cdylib\"",
        "",
        "use bridge_runtime::bridge;\n\n#[bridge]\npub fn one() -> u32 {\n    1\n}\n",
    );
    project
}

#[test]
fn package_spec_with_a_version_selects_the_member() {
    let project = tiny_project("spec-version");
    project
        .build(&["-p", "spec-version@0.1.0", "--out-dir", "pkg-full"])
        .ok();
    assert!(project.path("pkg-full/spec_version.js").is_file());
    project
        .build(&["-p", "spec-version@0.1", "--out-dir", "pkg-prefix"])
        .ok();
    assert!(project.path("pkg-prefix/spec_version.js").is_file());
    project
        .build(&["-p", "spec-version@2.0.0"])
        .fails()
        .stderr_has(&[
            "error: package `spec-version@2.0.0`: the workspace member `spec-version` is version 0.1.0, not 2.0.0; pass `-p spec-version` or `-p spec-version@0.1.0`",
        ]);
}

#[test]
fn manifest_path_of_a_directory_names_the_manifest_to_pass() {
    let project = tiny_project("manifest-dir");
    let dir = project.path("tiny");
    let run = project.build(&["--manifest-path", &dir.display().to_string()]);
    run.fails().stderr_has(&[
        &format!(
            "error: --manifest-path `{}` is a directory, not a manifest; pass the manifest in it: --manifest-path {}",
            dir.display(),
            dir.join("Cargo.toml").display()
        ),
    ]);
    run.stderr_lacks(&["does not exist"]);
    let empty = project.path("empty");
    std::fs::create_dir_all(&empty).expect("create a directory");
    project
        .build(&["--manifest-path", &empty.display().to_string()])
        .fails()
        .stderr_has(&["is a directory, not a manifest; pass --manifest-path with the path of a Cargo.toml file"]);
}

#[test]
fn web_target_export_before_init_is_a_clear_error() {
    let project = tiny_project("web-before-init");
    project.build(&["--target", "web"]).ok();
    let glue = project.path("tiny/pkg/web_before_init.js");
    let script = format!(
        "const m = await import({:?});\n\
         try {{ m.one(); console.log('no error'); }} catch (e) {{ console.log(e.message); }}",
        format!("file://{}", glue.display())
    );
    let out = std::process::Command::new("node")
        .args(["--input-type=module", "-e", &script])
        .output()
        .expect("run node");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(
            "web-before-init: the module is not initialized yet; `await init()` (the default export) or call `initSync(bytes)` before using its exports"
        ),
        "stdout: {stdout}\nstderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
