//! End-to-end tests of what `cargo bridge build` packages for the JS ecosystem: the
//! `bundler` target, package.json fields from the crate's metadata, `npm-name`, and
//! `wasm-opt` on `--release` (driven through a stand-in `wasm-opt` that records its
//! arguments; the real binaryen runs in `cargo xtask test-browser`).
//!
//! Crate names are unique per test (see `support`).

mod support;

use std::path::Path;
use support::{Project, read, run_in_env, run_node_module};

const LIB: &str = r#"
use bridge_runtime::bridge;

/// A counter.
#[bridge]
pub struct Counter {
    n: u32,
}

#[bridge]
impl Counter {
    #[bridge(constructor)]
    pub fn new(n: u32) -> Counter {
        Counter { n }
    }

    #[bridge(getter)]
    pub fn n(&self) -> u32 {
        self.n
    }
}
"#;

const METADATA: &str = "description = \"Counts\"\nlicense = \"MIT\"\n\
                        repository = \"https://example.com/acme/counter\"\n";

/// A workspace with one crate `dir/` named `name`, with `package_fields` added to its
/// `[package]` table and `extra` after its dependencies.
fn project(dir: &str, name: &str, package_fields: &str, extra: &str) -> Project {
    let project = Project::workspace(&[dir], "");
    project.bridge_crate(dir, name, "\"cdylib\"", extra, LIB);
    let manifest = project.path(&format!("{dir}/Cargo.toml"));
    let text = read(&manifest).replacen(
        "publish = false\n",
        &format!("publish = false\n{package_fields}"),
        1,
    );
    std::fs::write(&manifest, text).unwrap();
    project
}

fn package_json(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&read(&dir.join("package.json"))).unwrap()
}

#[test]
fn bundler_target_imports_its_wasm_and_runs() {
    let project = project(
        "bnd",
        "bundled-counter",
        METADATA,
        "[package.metadata.bridge]\nnpm-name = \"@acme/counter\"",
    );
    let bundler = project.path("bundler");
    let web = project.path("web");
    project
        .build(&[
            "--target",
            "bundler",
            "--out-dir",
            bundler.to_str().unwrap(),
        ])
        .ok();
    project
        .build(&["--target", "web", "--out-dir", web.to_str().unwrap()])
        .ok();

    let js = read(&bundler.join("bundled_counter.js"));
    assert!(
        js.contains(r#"new URL("./bundled_counter_bg.wasm", import.meta.url)"#),
        "bundlers find the wasm through new URL(…, import.meta.url):\n{js}"
    );
    assert!(!js.contains("node:fs"), "no Node built-ins in bundler glue");
    assert!(
        !js.contains("export default function init"),
        "ready on import"
    );
    let dts = read(&bundler.join("bundled_counter.d.ts"));
    assert!(!dts.contains("init("), "{dts}");

    let manifest = package_json(&bundler);
    assert_eq!(manifest["name"], "@acme/counter");
    assert_eq!(manifest["version"], "0.1.0");
    assert_eq!(manifest["description"], "Counts");
    assert_eq!(manifest["license"], "MIT");
    // As wasm-pack writes it (npm takes both forms).
    assert_eq!(
        manifest["repository"],
        serde_json::json!({"type": "git", "url": "https://example.com/acme/counter"})
    );
    assert_eq!(
        manifest["sideEffects"],
        serde_json::json!(["./bundled_counter.js"]),
        "the bundler glue instantiates on import"
    );
    assert_eq!(
        package_json(&web)["sideEffects"],
        serde_json::json!(false),
        "the web glue does nothing until init()"
    );

    // It really runs: a fetch that reads the file stands in for the bundler's server.
    let source = format!(
        r#"import {{ readFileSync }} from "node:fs";
globalThis.fetch = async (url) => new Response(readFileSync(url), {{ headers: {{ "content-type": "application/wasm" }} }});
const m = await import({glue:?});
console.log(new m.Counter(41).n + 1);
"#,
        glue = bundler.join("bundled_counter.js").display().to_string(),
    );
    let stdout = run_node_module(&project.path("run-bundler.mjs"), &source);
    assert_eq!(stdout, "42");
}

#[test]
fn package_json_without_optional_metadata() {
    let project = project("plain", "plain-counter", "", "");
    let out = project.path("out");
    project.build(&["--out-dir", out.to_str().unwrap()]).ok();
    let manifest = package_json(&out);
    assert_eq!(manifest["name"], "plain-counter");
    for key in [
        "description",
        "license",
        "repository",
        "collaborators",
        "homepage",
        "keywords",
    ] {
        assert!(
            manifest.get(key).is_none(),
            "{key} was invented: {manifest}"
        );
    }
    assert_eq!(
        manifest["sideEffects"],
        serde_json::json!(["./plain_counter.js"])
    );
}

#[test]
fn bad_npm_name_is_an_error_before_building() {
    let project = project(
        "badnpm",
        "badnpm-counter",
        "",
        "[package.metadata.bridge]\nnpm-name = \"Acme/Counter\"",
    );
    let manifest = project.path("badnpm/Cargo.toml");
    project
        .build(&[])
        .fails()
        .stderr_has(&[
            &format!(
                "{}: invalid [package.metadata.bridge] npm-name = \"Acme/Counter\"",
                manifest.display()
            ),
            "use lowercase letters",
        ])
        .compiled_nothing();
}

/// A stand-in `wasm-opt` on PATH that logs its arguments and copies input to output.
fn fake_wasm_opt(project: &Project) -> (String, std::path::PathBuf) {
    let bin = project.path("fake-bin");
    let log = project.path("wasm-opt.log");
    std::fs::create_dir_all(&bin).unwrap();
    let script = bin.join("wasm-opt");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'wasm-opt version 132 (version_132)'; \
             exit 0; fi\necho \"$@\" >> {log:?}\nin=\"\"; out=\"\"\nwhile [ $# -gt 0 ]; do\n  \
             case \"$1\" in -o) out=\"$2\"; shift;; --refuse) exit 3;; *.wasm) in=\"$1\";; esac; \
             shift\ndone\ncp \"$in\" \"$out\"\n",
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    (path, log)
}

#[test]
fn release_runs_wasm_opt_with_the_crate_flags() {
    let project = project(
        "opt",
        "opt-counter",
        "",
        "[package.metadata.bridge]\nwasm-opt = [\"-O3\", \"--strip-debug\"]",
    );
    let (path, log) = fake_wasm_opt(&project);
    let timings = project.path("timings.json");
    let env = [("PATH", path.as_str())];
    // Debug builds are never optimized.
    run_in_env(&project.root(), &["build"], &env).ok();
    assert!(!log.exists(), "wasm-opt ran on a debug build");
    assert!(
        !timings.exists(),
        "timings written without CARGO_BRIDGE_TIMINGS"
    );
    let timed = [
        ("PATH", path.as_str()),
        ("CARGO_BRIDGE_TIMINGS", timings.to_str().unwrap()),
    ];
    run_in_env(&project.root(), &["build", "--release"], &timed)
        .ok()
        .stderr_has(&["Optimized opt_counter"]);
    let args = read(&log);
    assert!(
        args.starts_with("-O3 --strip-debug "),
        "the crate's flags come first: {args}"
    );
    assert!(args.contains("opt_counter.pre-opt.wasm -o "), "{args}");
    // The phases of the build, each once, in order, with the part it counts toward.
    let json: serde_json::Value = serde_json::from_str(&read(&timings)).unwrap();
    assert_eq!(json["version"], 1);
    let phases: Vec<String> = json["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            assert!(p["ms"].as_f64().unwrap() >= 0.0, "{p}");
            format!(
                "{} {} {}",
                p["crate"].as_str().unwrap(),
                p["phase"].as_str().unwrap(),
                p["part"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        phases,
        [
            " metadata setup",
            " wasm-target setup",
            "opt-counter cargo cargo",
            "opt-counter import-check bridge",
            "opt-counter decode bridge",
            "opt-counter check bridge",
            "opt-counter transform bridge",
            "opt-counter glue bridge",
            "opt-counter emit bridge",
            "opt-counter wasm-opt wasm-opt",
            "opt-counter write bridge",
        ]
    );
}

#[test]
fn a_failing_wasm_opt_keeps_its_input_and_names_it() {
    let project = project(
        "badopt",
        "badopt-counter",
        "",
        "[package.metadata.bridge]\nwasm-opt = [\"-O\", \"--refuse\"]",
    );
    let (path, _log) = fake_wasm_opt(&project);
    let run = run_in_env(
        &project.root(),
        &["build", "--release"],
        &[("PATH", path.as_str())],
    );
    run.fails().stderr_has(&[
        "`wasm-opt -O --refuse` (binaryen 132, wasm-opt) failed on ",
        "wasm-opt = false",
    ]);
    let kept = run
        .stderr
        .split("failed on ")
        .nth(1)
        .and_then(|rest| rest.split(":\n").next())
        .expect("the message names the input");
    assert!(
        kept.ends_with("badopt_counter.pre-opt.wasm"),
        "{}",
        run.stderr
    );
    assert!(
        std::path::Path::new(kept).is_file(),
        "the named input is kept: {kept}"
    );
}

#[test]
fn wasm_opt_false_turns_it_off() {
    let project = project(
        "noopt",
        "noopt-counter",
        "",
        "[package.metadata.bridge]\nwasm-opt = false",
    );
    let (path, log) = fake_wasm_opt(&project);
    run_in_env(
        &project.root(),
        &["build", "--release"],
        &[("PATH", path.as_str())],
    )
    .ok()
    .stderr_lacks(&["Optimized", "warning"]);
    assert!(!log.exists(), "wasm-opt ran although wasm-opt = false");
}

/// Does the module have a name section (function names)?
fn has_names(wasm: &Path) -> bool {
    let module = walrus::Module::from_file(wasm).unwrap();
    module.funcs.iter().any(|f| f.name.is_some())
}

#[test]
fn release_packages_are_lean_and_run() {
    let project = project(
        "lean",
        "lean-counter",
        "",
        "[package.metadata.bridge]\nwasm-opt = false",
    );
    let debug = project.path("debug");
    let release = project.path("release");
    project.build(&["--out-dir", debug.to_str().unwrap()]).ok();
    project
        .build(&["--release", "--out-dir", release.to_str().unwrap()])
        .ok();

    // Comments: debug glue explains itself, release glue has only its header line.
    let comment_lines = |js: &str| {
        js.lines()
            .skip(1)
            .filter(|l| l.trim_start().starts_with("//") || l.trim_start().starts_with("/*"))
            .count()
    };
    let debug_js = read(&debug.join("lean_counter.js"));
    let release_js = read(&release.join("lean_counter.js"));
    assert!(comment_lines(&debug_js) > 20, "{debug_js}");
    assert_eq!(comment_lines(&release_js), 0, "{release_js}");
    assert!(release_js.starts_with("// lean-counter: JS glue generated by"));
    // Indentation: debug glue keeps it, release glue has none (issue 48: ~4.5% of a small
    // package's gzip'd glue).
    assert!(debug_js.lines().any(|l| l.starts_with("  ")), "{debug_js}");
    assert!(
        !release_js.lines().any(|l| l.starts_with([' ', '\t'])),
        "{release_js}"
    );
    // Helpers the package does not use are not there (no strings, arrays or wire).
    for js in [&debug_js, &release_js] {
        for unused in ["function $passString", "function $takeArray", "$data$usize"] {
            assert!(!js.contains(unused), "{unused} in\n{js}");
        }
    }
    // Names: kept in debug modules only.
    assert!(has_names(&debug.join("lean_counter_bg.wasm")));
    assert!(!has_names(&release.join("lean_counter_bg.wasm")));
    // Runtime exports the glue does not call are gone, with their code.
    for dir in [&debug, &release] {
        let module = walrus::Module::from_file(dir.join("lean_counter_bg.wasm")).unwrap();
        let exports: Vec<&str> = module.exports.iter().map(|e| e.name.as_str()).collect();
        for unused in [
            "__bridge_wire_in",
            "__bridge_realloc",
            "__bridge_error_data",
        ] {
            assert!(!exports.contains(&unused), "{unused}: {exports:?}");
        }
        assert!(exports.contains(&"__bridge_init"), "{exports:?}");
    }

    // The release package runs.
    let script = project.path("run-release.mjs");
    std::fs::write(
        &script,
        format!(
            r#"const m = await import({glue:?});
const c = new m.Counter(41);
console.log(c.n + 1);
c.release();
try {{ c.n; }} catch (e) {{ console.log(e.message); }}
"#,
            glue = release.join("lean_counter.js").display().to_string(),
        ),
    )
    .unwrap();
    let out = std::process::Command::new("node")
        .arg(&script)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("42\n"), "{stdout}");
    assert!(stdout.contains("already released"), "{stdout}");
}

#[test]
fn wasm_packs_fields_readme_and_licenses_come_along() {
    let project = project(
        "extras",
        "extras-counter",
        "authors = [\"Ada <ada@example.com>\"]\nhomepage = \"https://example.com/x\"\n\
         keywords = [\"wasm\", \"counter\"]\nlicense-file = \"COPYING-TEXT\"\n",
        "",
    );
    project
        .file("extras/README.md", "# extras\n")
        .file("extras/COPYING-TEXT", "all rights\n");
    let out = project.path("out");
    project.build(&["--out-dir", out.to_str().unwrap()]).ok();
    let manifest = package_json(&out);
    assert_eq!(
        manifest["collaborators"],
        serde_json::json!(["Ada <ada@example.com>"])
    );
    assert_eq!(manifest["homepage"], "https://example.com/x");
    assert_eq!(manifest["keywords"], serde_json::json!(["wasm", "counter"]));
    assert_eq!(manifest["license"], "SEE LICENSE IN COPYING-TEXT");
    assert_eq!(read(&out.join("README.md")), "# extras\n");
    assert_eq!(read(&out.join("COPYING-TEXT")), "all rights\n");
    assert_eq!(read(&out.join(".gitignore")), "*");
    // --no-pack: the glue and the module only (and the .gitignore, as wasm-pack).
    let bare = project.path("bare");
    project
        .build(&["--no-pack", "--out-dir", bare.to_str().unwrap()])
        .ok();
    assert!(!bare.join("README.md").exists() && !bare.join("package.json").exists());
}

/// `<name>_bg.wasm.d.ts` declares every export of the module the package ships, under
/// its own name (the ABI's `<class index>:<member index>` names as string names), and nothing
/// else; `--no-typescript` leaves it out (flags.rs).
#[test]
fn the_modules_exports_are_declared_each_under_its_own_name() {
    let project = project("mdts", "typed-module", "", "");
    let out = project.path("out");
    project.build(&["--out-dir", out.to_str().unwrap()]).ok();
    let dts = read(&out.join("typed_module_bg.wasm.d.ts"));
    let mut declared: Vec<String> = dts
        .lines()
        .filter_map(|line| {
            if let Some(rest) = line.strip_prefix("export const ") {
                return Some(rest.split(':').next().unwrap().to_string());
            }
            let literal = line.strip_prefix("export { ")?.split_once(" as ")?.1;
            let literal = literal.strip_suffix(" };")?;
            Some(serde_json::from_str::<String>(literal).unwrap())
        })
        .collect();
    declared.sort();
    let source = format!(
        r#"import {{ readFileSync }} from "node:fs";
const module = new WebAssembly.Module(readFileSync({wasm:?}));
console.log(JSON.stringify(WebAssembly.Module.exports(module).map((e) => e.name).sort()));
"#,
        wasm = out.join("typed_module_bg.wasm").display().to_string(),
    );
    let stdout = run_node_module(&project.path("exports.mjs"), &source);
    let mut exported: Vec<String> = serde_json::from_str(&stdout).unwrap();
    exported.sort();
    assert_eq!(declared, exported, "{dts}");
    // `Counter::new`, the constructor: the module's class 0, its member 0.
    assert!(dts.contains(r#" as "0:0" };"#), "{dts}");
    assert!(dts.contains("export const memory: __WasmMemory;"), "{dts}");
}

/// A module built with `strip = true` has no `target_features` section: wasm-opt gets
/// rustc's default features, unless the crate's flags name features (wasm-pack's
/// metadata), which are then passed as they are, as wasm-pack passes them.
#[test]
fn a_stripped_module_gets_rustcs_features_unless_the_crate_names_its_own() {
    let project = Project::workspace(&["strip"], "[profile.release]\nstrip = true\n");
    let metadata = |flags: &str| {
        format!("[package.metadata.wasm-pack.profile.release]\nwasm-opt = [{flags}]\n")
    };
    project.bridge_crate(
        "strip",
        "stripped-counter",
        "\"cdylib\"",
        &metadata("\"-O\""),
        LIB,
    );
    let (path, log) = fake_wasm_opt(&project);
    let env = [("PATH", path.as_str())];
    run_in_env(&project.root(), &["build", "--release"], &env).ok();
    let args = read(&log);
    assert!(
        args.starts_with("-O --enable-bulk-memory --enable-bulk-memory-opt --enable-sign-ext "),
        "rustc's default features follow the crate's flags: {args}"
    );
    std::fs::remove_file(&log).unwrap();
    let manifest = project.path("strip/Cargo.toml");
    let text = read(&manifest).replace(
        &metadata("\"-O\""),
        &metadata("\"-Oz\", \"--enable-bulk-memory\""),
    );
    std::fs::write(&manifest, text).unwrap();
    run_in_env(&project.root(), &["build", "--release"], &env).ok();
    let args = read(&log);
    assert!(
        args.starts_with("-Oz --enable-bulk-memory ") && !args.contains("--enable-sign-ext"),
        "the crate's features are the whole list: {args}"
    );
}
