//! The `cargo bridge build` flags wasm-pack users type: `--out-name`, `--scope`,
//! `--dev`/`--profiling`/`--release`, `--no-typescript`, `--no-pack`, the feature flags and
//! cargo arguments after `--`; each one's effect, and bad values named with the flag.
//!
//! Crate names are unique per test (see `support`).

mod support;

use std::path::Path;
use support::{Project, read, run_node_module};

const LIB: &str = r#"
use bridge_runtime::bridge;

#[bridge]
pub fn base() -> u32 {
    1
}

#[cfg(feature = "loud")]
#[bridge]
pub fn shout() -> String {
    "LOUD".into()
}

#[cfg(feature = "extra")]
#[bridge]
pub fn extra() -> u32 {
    2
}
"#;

/// A workspace with the crate `dir/` named `name`, features `loud` and `extra`, and `extra`
/// TOML (e.g. `[package.metadata.bridge]`, `default = [...]` after `[features]`).
fn project(dir: &str, name: &str, features: &str, extra: &str) -> Project {
    let project = Project::workspace(&[dir], "");
    project.bridge_crate(
        dir,
        name,
        "\"cdylib\"",
        &format!("[features]\nloud = []\nextra = []\n{features}\n{extra}"),
        LIB,
    );
    project
}

fn package_json(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&read(&dir.join("package.json"))).unwrap()
}

fn has_names(wasm: &Path) -> bool {
    let module = walrus::Module::from_file(wasm).unwrap();
    module.funcs.iter().any(|f| f.name.is_some())
}

#[test]
fn out_name_scope_no_typescript_and_no_pack_shape_the_package() {
    let project = project("shape", "shape-crate", "", "");
    let pkg = project.path("shape/pkg");
    project
        .build(&[
            "--out-name",
            "shelf.v2",
            "--scope",
            "acme",
            "--no-typescript",
        ])
        .ok();
    let mut files: Vec<String> = std::fs::read_dir(&pkg)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            ".gitignore",
            "package.json",
            "shelf.v2.js",
            "shelf.v2_bg.wasm"
        ]
    );
    let manifest = package_json(&pkg);
    assert_eq!(manifest["name"], "@acme/shape-crate");
    assert_eq!(manifest["main"], "shelf.v2.js");
    assert_eq!(manifest.get("types"), None, "{manifest}");
    assert_eq!(
        manifest["exports"]["."],
        serde_json::json!({ "default": "./shelf.v2.js" })
    );
    assert_eq!(
        manifest["files"],
        serde_json::json!(["shelf.v2.js", "shelf.v2_bg.wasm"])
    );
    let out = run_node_module(
        &project.path("run.mjs"),
        &format!(
            "const m = await import({:?}); console.log(m.base());",
            pkg.join("shelf.v2.js").display().to_string()
        ),
    );
    assert_eq!(out, "1", "the glue loads the renamed .wasm");

    // `--scope @acme` is the same scope; --no-pack writes no package.json.
    let glue_only = project.path("glue-only");
    project
        .build(&[
            "--no-pack",
            "--scope",
            "@acme",
            "--out-dir",
            glue_only.to_str().unwrap(),
        ])
        .ok();
    assert!(!glue_only.join("package.json").exists());
    assert!(glue_only.join("shape_crate.js").is_file());
    assert!(glue_only.join("shape_crate.d.ts").is_file());
    assert!(glue_only.join("shape_crate_bg.wasm").is_file());
}

#[test]
fn profiles_choose_optimization_glue_and_names() {
    let project = project(
        "prof",
        "prof-crate",
        "",
        "[package.metadata.bridge]\nwasm-opt = false",
    );
    let build = |flag: &str| {
        let out = project.path(flag.trim_start_matches('-'));
        project
            .build(&[flag, "--out-dir", out.to_str().unwrap()])
            .ok();
        let js = read(&out.join("prof_crate.js"));
        // Functions only: no `rust`-mode wrapper a leak detector could report.
        assert!(!js.contains("__bridgeLeaks"), "{flag}: a leak detector");
        (
            js.contains("// ---- debug glue: argument checks"),
            has_names(&out.join("prof_crate_bg.wasm")),
            out,
        )
    };
    // (debug glue, names kept)
    let (dev_glue, dev_names, _) = build("--dev");
    assert!(dev_glue && dev_names);
    let (prof_glue, prof_names, prof) = build("--profiling");
    assert!(!prof_glue && prof_names);
    let (rel_glue, rel_names, rel) = build("--release");
    assert!(!rel_glue && !rel_names);
    // --profiling and --release are both optimized: the same code, names aside.
    let size = |dir: &Path| {
        std::fs::metadata(dir.join("prof_crate_bg.wasm"))
            .unwrap()
            .len()
    };
    assert!(size(&prof) > size(&rel));
    let dev_size = std::fs::metadata(project.path("dev/prof_crate_bg.wasm"))
        .unwrap()
        .len();
    assert!(dev_size > size(&prof), "--profiling is optimized");

    for (a, b) in [
        ("--dev", "--release"),
        ("--dev", "--profiling"),
        ("--profiling", "--release"),
    ] {
        let run = project.build(&[a, b]);
        assert_eq!(run.code, Some(2), "{}", run.stderr);
        assert!(
            run.stderr
                .contains(&format!("'{a}' cannot be used with '{b}'"))
                || run
                    .stderr
                    .contains(&format!("'{b}' cannot be used with '{a}'")),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn features_reach_cargo_directly_and_after_the_double_dash() {
    let project = project("feat", "feat-crate", "default = [\"extra\"]", "");
    let glue = project.path("feat/pkg/feat_crate.js");
    let exports = || {
        let js = read(&glue);
        (js.contains("function shout"), js.contains("function extra"))
    };
    project.build(&[]).ok();
    assert_eq!(exports(), (false, true), "default features only");
    project.build(&["--features", "loud"]).ok();
    assert_eq!(exports(), (true, true));
    project.build(&["--no-default-features"]).ok();
    assert_eq!(exports(), (false, false));
    project.build(&["--no-default-features", "-F", "loud"]).ok();
    assert_eq!(exports(), (true, false));
    project.build(&["--all-features"]).ok();
    assert_eq!(exports(), (true, true));
    project
        .build(&["--", "--features", "loud", "--no-default-features"])
        .ok();
    assert_eq!(exports(), (true, false));

    // A feature the crate lacks: cargo's error names it.
    project
        .build(&["--features", "nosuch"])
        .fails()
        .stderr_has(&["nosuch"]);
}

#[test]
fn bad_flag_values_are_named_with_their_flag() {
    let project = project(
        "badflag",
        "badflag-crate",
        "",
        "[package.metadata.bridge]\nnpm-name = \"@mine/badflag\"",
    );
    let error = |args: &[&str]| project.build(args).fails().error_line().to_string();
    let e = error(&["--out-name", "a/b"]);
    assert!(
        e.contains("invalid --out-name `a/b`: `/` is not allowed"),
        "{e}"
    );
    let e = error(&["--scope", "Big Co"]);
    assert!(e.contains("invalid --scope `Big Co`"), "{e}");
    let e = error(&["--scope", "acme"]);
    assert!(
        e.contains("--scope acme: the package name of `badflag-crate` is `@mine/badflag`"),
        "{e}"
    );
    for (arg, flag, fix) in [
        (
            "--target=x86_64-unknown-linux-gnu",
            "--target",
            "wasm32-unknown-unknown",
        ),
        ("--release", "--release", "--profiling"),
        ("-pother", "-p", "before the `--`"),
        (
            "--message-format=short",
            "--message-format",
            "JSON messages",
        ),
    ] {
        let e = error(&["--", arg]);
        assert!(
            e.contains(&format!("`{arg}` after `--` sets `{flag}`")) && e.contains(fix),
            "{e}"
        );
    }
    // Nothing was built for any of them.
    assert!(!project.path("badflag/pkg").exists());
}

#[test]
fn out_name_is_refused_for_several_crates_at_once() {
    let project = Project::workspace(&["one", "two"], "");
    for (dir, name) in [("one", "outname-one"), ("two", "outname-two")] {
        project.bridge_crate(dir, name, "\"cdylib\"", "", LIB);
    }
    project
        .build(&["--out-name", "x"])
        .fails()
        .stderr_has(&[
            "--out-name x names the files of one package, but this builds 2 crates (outname-one, outname-two); choose one with -p",
        ]);
}

/// A crate exporting to JS through neither tool, and a bridge crate asking for a target
/// only wasm-bindgen's own glue has: errors naming the fix and the targets there are,
/// before anything compiles.
#[test]
fn crates_without_either_tool_and_targets_bridge_glue_lacks_are_refused() {
    let project = Project::workspace(&["nothing", "bridged"], "");
    project
        .file(
            "nothing/Cargo.toml",
            "[package]\nname = \"nothing-here\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\
             publish = false\n\n[lib]\ncrate-type = [\"cdylib\"]\n",
        )
        .file("nothing/src/lib.rs", "pub fn f() {}\n");
    project.bridge_crate(
        "bridged",
        "bridged-targets",
        "\"cdylib\"",
        "",
        "use bridge_runtime::bridge;\n#[bridge]\npub fn f() -> u32 { 1 }\n",
    );
    project
        .build(&["-p", "nothing-here"])
        .fails()
        .stderr_has(&[
            "crate `nothing-here`",
            "depends on neither `bridge-runtime` nor `wasm-bindgen`",
        ])
        .compiled_nothing();
    for target in ["deno", "no-modules"] {
        project
            .build(&["-p", "bridged-targets", "--target", target])
            .fails()
            .stderr_has(&[
                &format!("no `--target {target}` form"),
                "nodejs, web, bundler and nodejs-cjs",
            ])
            .compiled_nothing();
    }
}
