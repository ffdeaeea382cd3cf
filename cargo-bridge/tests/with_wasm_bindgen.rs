//! wasm-bindgen in a bridge crate: imports no tool provides are build errors, the CLI must
//! be the crate's wasm-bindgen version (a named CLI of another version, a failed install:
//! errors naming the version and the command), a crate without wasm-bindgen gets a package
//! with no trace of it, and (with the real CLI, the one `cargo xtask` caches in
//! `target/bridge-home`) a JS name both halves export is a build error naming both items.
//! The merged package itself is tested by `fixtures/wasm-bindgen` (cargo xtask test-node,
//! test-browser, test-types, test-packages).
//!
//! Crate names are unique per test (see `support`).

mod support;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use support::{Project, read, run_in_env, run_node_module};

/// A crate declaring a raw import from `env`, which neither tool provides.
const HOST_LIB: &str = r#"
#[link(wasm_import_module = "env")]
unsafe extern "C" {
    fn host_tick() -> u32;
}

pub fn tick() -> u32 {
    unsafe { host_tick() }
}
"#;

#[test]
fn an_import_nobody_provides_is_a_build_error_naming_module_field_and_crate() {
    let project = Project::workspace(&["app", "hostlib"], "");
    project
        .file(
            "hostlib/Cargo.toml",
            "[package]\nname = \"unprovided-hostlib\"\nversion = \"0.1.0\"\nedition = \"2024\"\n",
        )
        .file("hostlib/src/lib.rs", HOST_LIB);
    project.bridge_crate(
        "app",
        "unprovided-app",
        "\"cdylib\"",
        "unprovided-hostlib = { path = \"../hostlib\" }",
        "use bridge_runtime::bridge;\n\n#[bridge]\npub fn tick() -> u32 {\n    unprovided_hostlib::tick()\n}\n",
    );
    project.build(&[]).fails().stderr_has(&[
        "imports `host_tick` from module `env`, which nothing provides",
        "imported by the compiled code of crate `unprovided_hostlib`",
    ]);
    assert!(!project.path("app/pkg").exists(), "no package is written");
}

/// A crate that depends on wasm-bindgen (the version `fixtures/wasm-bindgen` pins).
fn wasm_bindgen_project(name: &str) -> Project {
    let project = Project::workspace(&["wb"], "");
    project.bridge_crate(
        "wb",
        name,
        "\"cdylib\"",
        "wasm-bindgen = \"=0.2.130\"",
        "use bridge_runtime::bridge;\n\n#[bridge]\npub fn one() -> u32 {\n    1\n}\n",
    );
    project
}

/// Where the real wasm-bindgen CLI is cached: `$CARGO_BRIDGE_HOME`, else the one `cargo
/// xtask` uses (`target/bridge-home`), so the CLI is installed once per checkout (under its
/// lock, by whichever build needs it first).
fn shared_bridge_home() -> String {
    std::env::var("CARGO_BRIDGE_HOME").unwrap_or_else(|_| {
        support::repo_root()
            .join("target/bridge-home")
            .display()
            .to_string()
    })
}

/// `cargo bridge build` of a crate with `lib_rs`, which links wasm-bindgen, through the
/// real CLI: it fails with an error whose text has `needles`, and writes no package.
fn collision_fails(name: &str, lib_rs: &str, needles: &[&str]) {
    let project = Project::workspace(&["wb"], "");
    project.bridge_crate(
        "wb",
        name,
        "\"cdylib\"",
        "wasm-bindgen = \"=0.2.130\"",
        lib_rs,
    );
    run_in_env(
        &project.root(),
        &["build"],
        &[("CARGO_BRIDGE_HOME", &shared_bridge_home())],
    )
    .fails()
    .stderr_has(needles);
    assert!(!project.path("wb/pkg").exists(), "no package is written");
}

#[test]
fn a_function_both_halves_export_under_one_js_name_is_a_build_error_naming_both() {
    collision_fails(
        "wbg-collide-fn",
        "use bridge_runtime::bridge;\nuse wasm_bindgen::prelude::*;\n\n\
         #[bridge]\npub fn greet() -> u32 {\n    1\n}\n\n\
         #[wasm_bindgen(js_name = \"greet\")]\npub fn wbg_greet() -> u32 {\n    2\n}\n",
        &[
            "two items are exported to JS as `greet`",
            "function `greet` of crate `wbg-collide-fn`",
            "wasm-bindgen's `greet` (a #[wasm_bindgen] item, in its wbg_collide_fn_bg.js)",
            "#[bridge(js_name = \"...\")] or #[wasm_bindgen(js_name = \"...\")]",
        ],
    );
}

#[test]
fn a_class_both_halves_export_under_one_js_name_is_a_build_error_naming_both() {
    collision_fails(
        "wbg-collide-class",
        "use bridge_runtime::bridge;\nuse wasm_bindgen::prelude::*;\n\n\
         #[bridge(js_name = \"Point\")]\npub struct BridgePoint {\n    x: f64,\n}\n\n\
         #[bridge]\nimpl BridgePoint {\n    #[bridge(getter)]\n    pub fn x(&self) -> f64 {\n        self.x\n    }\n}\n\n\
         #[wasm_bindgen]\npub struct Point {\n    pub y: f64,\n}\n",
        &[
            "two items are exported to JS as `Point`",
            "class `BridgePoint` of crate `wbg-collide-class`",
            "wasm-bindgen's `Point` (a #[wasm_bindgen] item",
        ],
    );
}

/// A `#[bridge]` signature may name wasm-bindgen's types (mixed signatures, with the
/// runtime's `wasm-bindgen` feature); a type that is neither a #[bridge] nor a wasm-bindgen
/// type is a compile error naming it and both kinds.
#[test]
fn a_type_neither_bridge_nor_wasm_bindgen_is_a_compile_error_naming_it() {
    let project = Project::workspace(&["wb"], "");
    let runtime = support::runtime_dependency().replace(" }", ", features = [\"wasm-bindgen\"] }");
    project.bridge_crate(
        "wb",
        "wbg-neither",
        "\"cdylib\"",
        &format!(
            "wasm-bindgen = \"=0.2.130\"\n\n[target.'cfg(target_arch = \"wasm32\")'.dependencies]\n{runtime}"
        ),
        "use bridge_runtime::bridge;\nuse wasm_bindgen::prelude::*;\n\n\
         #[wasm_bindgen]\npub enum Level {\n    Low,\n    High,\n}\n\n\
         pub struct Plain;\n\n\
         #[bridge]\npub fn fine(level: Level) -> Level {\n    level\n}\n\n\
         #[bridge]\npub fn refused(plain: Plain) -> u32 {\n    let _ = plain;\n    0\n}\n",
    );
    run_in_env(
        &project.root(),
        &["build"],
        &[("CARGO_BRIDGE_HOME", &shared_bridge_home())],
    )
    .fails()
    .stderr_has(&["`Plain` is neither a #[bridge] type nor a wasm-bindgen type"]);
    assert!(!project.path("wb/pkg").exists(), "no package is written");
}

/// `&T` (also in an `Option`) of a wasm-bindgen enum or imported type is lent as the thunk's
/// own converted value; `&mut` of one (also in an `Option`) is refused at compile time, naming the type (wasm-bindgen refuses it too:
/// only its structs are `RefMutFromWasmAbi`), while `&` of the same types compiles.
#[test]
fn a_mut_borrow_of_a_wasm_bindgen_enum_or_imported_type_is_a_compile_error_naming_it() {
    let project = Project::workspace(&["wb"], "");
    let runtime = support::runtime_dependency().replace(" }", ", features = [\"wasm-bindgen\"] }");
    project.bridge_crate(
        "wb",
        "wbg-lent-mut",
        "\"cdylib\"",
        &format!(
            "wasm-bindgen = \"=0.2.130\"\n\n[target.'cfg(target_arch = \"wasm32\")'.dependencies]\n{runtime}"
        ),
        "use bridge_runtime::bridge;\nuse wasm_bindgen::prelude::*;\n\n\
         #[wasm_bindgen]\npub enum Level {\n    Low,\n    High,\n}\n\n\
         #[wasm_bindgen]\nextern \"C\" {\n    pub type Gauge;\n}\n\n\
         #[bridge]\npub fn fine(level: &Level, gauge: &Gauge) -> u32 {\n    let _ = (level, gauge);\n    0\n}\n\n\
         #[bridge]\npub fn gauge_mut(gauge: &mut Gauge) -> u32 {\n    let _ = gauge;\n    0\n}\n\n\
         #[bridge]\npub fn level_mut(first: u32, level: &mut Level) -> u32 {\n    let _ = level;\n    first\n}\n\n\
         #[bridge]\npub fn fine_opt(level: Option<&Level>, gauge: Option<&Gauge>) -> u32 {\n    let _ = (level, gauge);\n    0\n}\n\n\
         #[bridge]\npub fn gauge_opt_mut(gauge: Option<&mut Gauge>) -> u32 {\n    let _ = gauge;\n    0\n}\n",
    );
    run_in_env(
        &project.root(),
        &["build"],
        &[("CARGO_BRIDGE_HOME", &shared_bridge_home())],
    )
    .fails()
    .stderr_has(&[
        "`&mut Gauge` cannot be a #[bridge] parameter: `Gauge` is no #[wasm_bindgen] struct",
        "`&mut Level` cannot be a #[bridge] parameter: `Level` is no #[wasm_bindgen] struct",
        "take `&Gauge` (JS keeps the value) or `Gauge` by value",
    ])
    // `&` of the same types compiles: no error points at it. `Option<&mut T>` is refused
    // the same way, and that refusal is the only error (no `DerefMut` one beside it).
    .stderr_lacks(&["pub fn fine(", "pub fn fine_opt(", "DerefMut"])
    .stderr_has(&["pub fn gauge_opt_mut("]);
    assert!(!project.path("wb/pkg").exists(), "no package is written");
}

fn script(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn a_named_cli_of_another_version_is_an_error_before_anything_is_built() {
    let project = wasm_bindgen_project("wbg-mismatch");
    let fake = project.path("fake-wasm-bindgen");
    script(&fake, "#!/bin/sh\necho 'wasm-bindgen 0.2.1'\n");
    run_in_env(
        &project.root(),
        &["build"],
        &[("CARGO_BRIDGE_WASM_BINDGEN", fake.to_str().unwrap())],
    )
    .fails()
    .compiled_nothing()
    .stderr_has(&[
        "is wasm-bindgen CLI 0.2.1, but the crate links wasm-bindgen 0.2.130",
        "cargo install wasm-bindgen-cli --version 0.2.130",
    ]);
}

#[test]
fn a_failed_cli_install_names_the_version_and_the_command() {
    let project = wasm_bindgen_project("wbg-offline");
    let home = project.path("bridge-home");
    // What a killed install left behind: its staging directory.
    let stale = home.join("wasm-bindgen-cli-0.2.130.partial-1");
    std::fs::create_dir_all(stale.join("bin")).unwrap();
    // `cargo install` fails as it does offline (noting its arguments); everything else is
    // the real cargo.
    let fake = project.path("fake-cargo");
    let args = project.path("install-args");
    let real = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    script(
        &fake,
        &format!(
            "#!/bin/sh\nif [ \"$1\" = install ]; then\n  echo \"$@\" > '{}'\n  echo 'error: failed to query replaced \
             source registry `crates-io` (simulated: offline)' >&2\n  exit 101\nfi\nexec '{real}' \"$@\"\n",
            args.display()
        ),
    );
    // No wasm-bindgen on this PATH: the cache is empty, so it must install.
    let path = format!(
        "{}:/usr/bin:/bin",
        Path::new(&real).parent().unwrap().display()
    );
    run_in_env(
        &project.root(),
        &["build"],
        &[
            ("CARGO", fake.to_str().unwrap()),
            ("CARGO_BRIDGE_HOME", home.to_str().unwrap()),
            ("PATH", &path),
        ],
    )
    .fails()
    .compiled_nothing()
    .stderr_has(&[
        "the crate links wasm-bindgen 0.2.130",
        "(simulated: offline)",
        "`cargo install wasm-bindgen-cli --version 0.2.130`",
        &format!("caches it in {}", home.display()),
    ]);
    assert!(
        !home.join("wasm-bindgen-cli-0.2.130").exists(),
        "a failed install leaves no cache entry"
    );
    let args = read(&args);
    assert!(
        args.contains(&format!(
            "--root {}",
            home.join("wasm-bindgen-cli-0.2.130.partial-").display()
        )),
        "the staging directory is named after the whole version: {args}"
    );
    let left: Vec<String> = std::fs::read_dir(&home)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.contains("partial"))
        .collect();
    assert!(
        left.is_empty(),
        "no staging directory is left behind, neither the stale one nor its own: {left:?}"
    );
}

#[test]
fn a_crate_without_wasm_bindgen_gets_no_trace_of_it() {
    let project = Project::workspace(&["plain"], "");
    project.bridge_crate(
        "plain",
        "wbg-free",
        "\"cdylib\"",
        "",
        "use bridge_runtime::{bridge, JsValue};\n\n#[bridge]\npub fn same(v: JsValue) -> JsValue {\n    v\n}\n",
    );
    project
        .build(&[])
        .ok()
        .stderr_lacks(&["wasm-bindgen", "Binding"]);
    let pkg = project.path("plain/pkg");
    let mut names: Vec<String> = std::fs::read_dir(&pkg)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ".gitignore",
            "package.json",
            "wbg_free.d.ts",
            "wbg_free.js",
            "wbg_free_bg.wasm",
            "wbg_free_bg.wasm.d.ts"
        ]
    );
    let js = read(&pkg.join("wbg_free.js"));
    for trace in ["_bg.js", "__wbg", "__wbindgen", "$wbg"] {
        assert!(!js.contains(trace), "the glue mentions {trace}:\n{js}");
    }
}

/// Nothing until used: a crate that depends on bridge-runtime but has no #[bridge] item
/// yet gets wasm-bindgen's own package, byte for byte its CLI's output (no bridge glue,
/// none of the runtime's exports), in CommonJS too; its first #[bridge] item brings the
/// joined package, in CommonJS too.
#[test]
fn a_crate_without_bridge_items_gets_wasm_bindgens_package_and_nothing_of_the_runtime() {
    let project = Project::workspace(&["wb"], "");
    let wasm_bindgen_only = "use wasm_bindgen::prelude::*;\n\n#[wasm_bindgen]\npub fn greet(name: &str) -> String {\n    format!(\"hi {name}\")\n}\n";
    project.bridge_crate(
        "wb",
        "unused-runtime",
        "\"cdylib\"",
        "wasm-bindgen = \"=0.2.130\"",
        wasm_bindgen_only,
    );
    let home = shared_bridge_home();
    let env = [("CARGO_BRIDGE_HOME", home.as_str())];
    let out = project.path("cjs");
    run_in_env(
        &project.root(),
        &[
            "build",
            "--target",
            "nodejs-cjs",
            "--out-dir",
            out.to_str().unwrap(),
        ],
        &env,
    )
    .ok()
    .stderr_has(&["wasm-bindgen --target nodejs"]);
    let js = read(&out.join("unused_runtime.js"));
    for word in [
        "withPool",
        "__bridgeStats",
        "__bridgeJsValues",
        "keep",
        "$bridge",
    ] {
        assert!(!js.contains(word), "{word} in the glue:\n{js}");
    }
    let source = format!(
        "const m = require({:?});\nconsole.log(m.greet('x'), Object.keys(m).sort().join(','));\n",
        out.join("unused_runtime.js").display().to_string()
    );
    let script = project.path("use.cjs");
    assert_eq!(run_node_module(&script, &source), "hi x __wasm,greet");
    // The first #[bridge] item: the joined package, CommonJS too (both halves).
    project.file(
        "wb/src/lib.rs",
        &format!(
            "{wasm_bindgen_only}\n#[bridge_runtime::bridge]\npub fn one() -> u32 {{\n    1\n}}\n"
        ),
    );
    run_in_env(
        &project.root(),
        &[
            "build",
            "--target",
            "nodejs-cjs",
            "--out-dir",
            out.to_str().unwrap(),
        ],
        &env,
    )
    .ok();
    let source = format!(
        "const m = require({:?});\nconsole.log(m.greet('x'), m.one());\n",
        out.join("unused_runtime.js").display().to_string()
    );
    assert_eq!(run_node_module(&script, &source), "hi x 1");
}

/// wasm-pack's `[package.metadata.wasm-pack.profile.<profile>.wasm-bindgen]` keys reach the
/// wasm-bindgen CLI of a joined crate (#[bridge] items beside wasm-bindgen ones) as they do
/// a plain crate's: seen through a wrapper of the real CLI that notes its arguments.
#[test]
fn wasm_packs_wasm_bindgen_keys_reach_the_cli_of_a_joined_crate() {
    let project = Project::workspace(&["wb"], "");
    let lib = "use wasm_bindgen::prelude::*;\n\n#[wasm_bindgen]\npub fn greet() -> u32 {\n    2\n}\n\n\
               #[bridge_runtime::bridge]\npub fn one() -> u32 {\n    1\n}\n";
    let home = shared_bridge_home();
    let real = Path::new(&home).join("wasm-bindgen-cli-0.2.130/bin/wasm-bindgen");
    let args = project.path("cli-args");
    let wrapper = project.path("wasm-bindgen-wrapper");
    script(
        &wrapper,
        &format!(
            "#!/bin/sh\n[ \"$1\" = --version ] || echo \"$@\" >> '{}'\nexec '{}' \"$@\"\n",
            args.display(),
            real.display()
        ),
    );
    let build = |metadata: &str| -> String {
        let _ = std::fs::remove_file(&args);
        project.bridge_crate(
            "wb",
            "joined-settings",
            "\"cdylib\"",
            &format!("wasm-bindgen = \"=0.2.130\"\n\n{metadata}"),
            lib,
        );
        // The real CLI first (installed once into the shared home), then the wrapper.
        run_in_env(
            &project.root(),
            &["build"],
            &[("CARGO_BRIDGE_HOME", home.as_str())],
        )
        .ok();
        let _ = std::fs::remove_file(&args);
        run_in_env(
            &project.root(),
            &["build"],
            &[
                ("CARGO_BRIDGE_HOME", home.as_str()),
                ("CARGO_BRIDGE_WASM_BINDGEN", wrapper.to_str().unwrap()),
            ],
        )
        .ok();
        read(&args)
    };
    // Defaults (wasm-pack's): the dev profile's JS glue has wasm-bindgen's debug checks.
    let defaults = build("");
    assert!(defaults.contains("--debug"), "{defaults}");
    for flag in [
        "--no-demangle",
        "--omit-default-module-path",
        "--split-linked-modules",
    ] {
        assert!(!defaults.contains(flag), "{flag} in {defaults}");
    }
    let set = build(
        "[package.metadata.wasm-pack.profile.dev.wasm-bindgen]\ndebug-js-glue = false\n\
         demangle-name-section = false\ndwarf-debug-info = true\nomit-default-module-path = true\n\
         split-linked-modules = true\n",
    );
    for flag in [
        "--no-demangle",
        "--keep-debug",
        "--omit-default-module-path",
        "--split-linked-modules",
    ] {
        assert!(set.contains(flag), "{flag} not in {set}");
    }
    assert!(!set.contains("--debug "), "{set}");
    assert!(project.path("wb/pkg/joined_settings.js").exists());
}

/// A joined crate whose wasm-bindgen half imports an `inline_js` snippet: the CLI's
/// `snippets/` folder lands in the package (ES modules and CommonJS), and a `#[bridge]`
/// export calling through it works from both.
#[test]
fn a_joined_crate_ships_wasm_bindgens_snippets_in_every_module_format() {
    let project = Project::workspace(&["wb"], "");
    project.bridge_crate(
        "wb",
        "snippet-joined",
        "\"cdylib\"",
        "wasm-bindgen = \"=0.2.130\"",
        "use wasm_bindgen::prelude::*;\n\n\
         #[wasm_bindgen(inline_js = \"export function twice(x) { return 2 * x; }\")]\n\
         extern \"C\" {\n    fn twice(x: u32) -> u32;\n}\n\n\
         #[bridge_runtime::bridge]\npub fn quadruple(x: u32) -> u32 {\n    twice(twice(x))\n}\n",
    );
    let home = shared_bridge_home();
    let env = [("CARGO_BRIDGE_HOME", home.as_str())];
    for (target, runner, load) in [
        ("nodejs", "use.mjs", "const m = await import"),
        ("nodejs-cjs", "use.cjs", "const m = require"),
    ] {
        let out = project.path(target);
        run_in_env(
            &project.root(),
            &[
                "build",
                "--target",
                target,
                "--out-dir",
                out.to_str().unwrap(),
            ],
            &env,
        )
        .ok();
        // snippets/<crate and hash>/inline0.js, as the CLI writes it.
        let snippets: Vec<_> = std::fs::read_dir(out.join("snippets"))
            .unwrap()
            .flat_map(|dir| std::fs::read_dir(dir.unwrap().path()).unwrap())
            .map(|file| file.unwrap().file_name())
            .collect();
        assert_eq!(snippets, ["inline0.js"], "{target}");
        let source = format!(
            "{load}({:?});\nconsole.log(m.quadruple(5));\n",
            out.join("snippet_joined.js").display().to_string()
        );
        let script = project.path(runner);
        assert_eq!(run_node_module(&script, &source), "20", "{target}");
    }
}
