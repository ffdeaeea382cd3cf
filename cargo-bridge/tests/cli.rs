//! End-to-end tests of `cargo bridge build`: the real binary on throwaway workspaces.
//!
//! Crate names are unique per test (see `support`): tests run in parallel and share one
//! target directory.

mod support;

use std::path::Path;
use support::{Project, class_banner, read, run_in_env, run_node_module};

/// `"none", "pointer" or "rust"` as every identity-mode config error lists them.
const VALID_VALUES: &str = r#"valid values are "none", "pointer" or "rust""#;

/// A small library with two classes and a few functions.
const LIB_WITH_CLASSES: &str = r#"
use bridge_runtime::bridge;

/// A thing with a value.
#[bridge]
pub struct Zebra {
    stripes: u32,
}

#[bridge]
impl Zebra {
    #[bridge(constructor)]
    pub fn new(stripes: u32) -> Zebra {
        Zebra { stripes }
    }

    #[bridge(getter)]
    pub fn stripes(&self) -> u32 {
        self.stripes
    }
}

#[bridge]
pub struct Aardvark {
    name: String,
}

#[bridge]
impl Aardvark {
    #[bridge(constructor)]
    pub fn new(name: &str) -> Aardvark {
        Aardvark { name: name.to_string() }
    }

    pub fn greet(&self, other: &str) -> String {
        format!("{} greets {other}", self.name)
    }
}

#[bridge]
pub fn twice(x: i32) -> i32 {
    x * 2
}

#[bridge]
pub fn add_all(a: f64, b: f64) -> f64 {
    a + b
}
"#;

fn one_class_lib(class: &str, attr: &str) -> String {
    format!(
        r#"
use bridge_runtime::bridge;

#[bridge{attr}]
pub struct {class} {{
    value: i32,
}}

#[bridge]
impl {class} {{
    #[bridge(constructor)]
    pub fn new(value: i32) -> {class} {{
        {class} {{ value }}
    }}

    pub fn value(&self) -> i32 {{
        self.value
    }}
}}
"#
    )
}

/// Names of the exports of a wasm file.
fn wasm_exports(path: &Path) -> Vec<String> {
    let module = walrus::Module::from_file(path)
        .unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()));
    module.exports.iter().map(|e| e.name.clone()).collect()
}

// ---- help ----

#[test]
fn build_help_lists_the_options() {
    let run = support::run_in(Path::new(env!("CARGO_MANIFEST_DIR")), &["build", "--help"]);
    run.ok();
    for option in [
        "--release",
        "-p, --package",
        "--manifest-path",
        "--out-dir",
        "--target",
    ] {
        assert!(
            run.stdout.contains(option),
            "`build --help` lacks {option:?}:\n{}",
            run.stdout
        );
    }
    assert!(run.stdout.contains("nodejs"), "{}", run.stdout);
    assert!(run.stdout.contains("web"), "{}", run.stdout);
}

// ---- 1. bad identity-mode configuration: an error before anything is built ----

/// A workspace with one member `cfg/` whose manifest ends with `package_extra`.
fn config_project(name: &str, workspace_extra: &str, package_extra: &str) -> Project {
    let project = Project::workspace(&["cfg"], workspace_extra);
    project.bridge_crate(
        "cfg",
        name,
        "\"cdylib\"",
        package_extra,
        &one_class_lib("Thing", ""),
    );
    project
}

#[track_caller]
fn assert_config_error(project: &Project, expected: &[&str]) {
    let run = project.build(&[]);
    run.fails().stderr_has(expected).compiled_nothing();
    assert!(
        !project.path("cfg/pkg").exists(),
        "a package was written despite the bad config"
    );
}

#[test]
fn bad_package_identity_mode_string() {
    let project = config_project(
        "cfg-string",
        "",
        "[package.metadata.bridge]\nidentity-mode = \"swfit\"",
    );
    let manifest = project.path("cfg/Cargo.toml");
    assert_config_error(
        &project,
        &[
            &format!(
                "error: {}: invalid [package.metadata.bridge] identity-mode = \"swfit\"",
                manifest.display()
            ),
            VALID_VALUES,
        ],
    );
}

#[test]
fn bad_package_identity_mode_number() {
    let project = config_project(
        "cfg-number",
        "",
        "[package.metadata.bridge]\nidentity-mode = 3",
    );
    let manifest = project.path("cfg/Cargo.toml");
    assert_config_error(
        &project,
        &[
            &format!(
                "error: {}: invalid [package.metadata.bridge] identity-mode = 3;",
                manifest.display()
            ),
            VALID_VALUES,
        ],
    );
}

#[test]
fn bad_package_identity_mode_table() {
    let project = config_project(
        "cfg-table",
        "",
        "[package.metadata.bridge]\nidentity-mode = { a = 1 }",
    );
    let manifest = project.path("cfg/Cargo.toml");
    assert_config_error(
        &project,
        &[
            &format!(
                "error: {}: invalid [package.metadata.bridge] identity-mode = a table ({{\"a\":1}})",
                manifest.display()
            ),
            VALID_VALUES,
        ],
    );
}

#[test]
fn bad_workspace_identity_mode_string() {
    let project = config_project(
        "cfg-workspace",
        "[workspace.metadata.bridge]\nidentity-mode = \"swfit\"",
        "",
    );
    let manifest = project.path("Cargo.toml");
    assert_config_error(
        &project,
        &[
            &format!(
                "error: {}: invalid [workspace.metadata.bridge] identity-mode = \"swfit\"",
                manifest.display()
            ),
            VALID_VALUES,
        ],
    );
}

#[test]
fn misspelled_identity_mode_key() {
    let project = config_project(
        "cfg-key",
        "",
        "[package.metadata.bridge]\nidentity_mode = \"rust\"",
    );
    let manifest = project.path("cfg/Cargo.toml");
    assert_config_error(
        &project,
        &[
            &format!(
                "error: {}: unknown key `identity_mode` in [package.metadata.bridge]",
                manifest.display()
            ),
            "valid keys: `identity-mode`, `js-names`, `npm-name`, `wasm-opt`",
        ],
    );
}

// ---- 3. crate selection errors ----

#[test]
fn package_that_is_not_a_cdylib() {
    let project = Project::workspace(&["plain"], "");
    project.bridge_crate("plain", "sel-rlib", "\"rlib\"", "", "pub fn f() {}\n");
    let manifest = project.path("plain/Cargo.toml");
    project
        .build(&["-p", "sel-rlib"])
        .fails()
        .stderr_has(&[
            "error: crate `sel-rlib` is not a cdylib",
            "crate-type = [\"cdylib\"]",
            &manifest.display().to_string(),
        ])
        .compiled_nothing();
    assert!(!project.path("plain/pkg").exists());
}

#[test]
fn missing_package_lists_the_members() {
    let project = Project::workspace(&["one", "two"], "");
    project
        .bridge_crate("one", "sel-one", "\"cdylib\"", "", "")
        .bridge_crate("two", "sel-two", "\"cdylib\"", "", "");
    let run = project.build(&["-p", "nope"]);
    run.fails()
        .stderr_has(&[
            &format!(
                "error: package `nope` is not a member of the workspace at {}; members: ",
                project.path("Cargo.toml").display()
            ),
            "sel-one",
            "sel-two",
        ])
        .compiled_nothing();
}

#[test]
fn manifest_path_that_does_not_exist() {
    let project = Project::empty();
    let missing = project.path("nowhere/Cargo.toml");
    project
        .build(&["--manifest-path", missing.to_str().unwrap()])
        .fails()
        .stderr_has(&[&format!(
            "error: manifest `{}` does not exist",
            missing.display()
        )])
        .compiled_nothing();
}

// ---- 4. a cdylib that exports nothing ----

#[test]
fn crate_without_bridge_exports() {
    let project = Project::workspace(&["empty"], "");
    project.bridge_crate(
        "empty",
        "no-exports",
        "\"cdylib\"",
        "",
        "#[unsafe(no_mangle)]\npub extern \"C\" fn plain() -> u32 {\n    1\n}\n",
    );
    project.build(&[]).fails().stderr_has(&[
        "no_exports.wasm has no `__bridge_exports` section",
        "exports nothing with #[bridge]",
    ]);
    assert!(!project.path("empty/pkg").exists());
}

// ---- 5. determinism and package layout ----

#[test]
fn packages_are_deterministic() {
    let project = Project::workspace(&["det"], "");
    project.bridge_crate("det", "det-crate", "\"cdylib\"", "", LIB_WITH_CLASSES);
    let first = project.path("out-1");
    let second = project.path("out-2");
    project
        .build(&["--out-dir", first.to_str().unwrap()])
        .ok()
        .stderr_has(&[&format!("Packaged det-crate → {}", first.display())]);
    project
        .build(&["--out-dir", second.to_str().unwrap()])
        .ok()
        .stderr_has(&[&format!("Packaged det-crate → {}", second.display())]);

    let mut names: Vec<String> = std::fs::read_dir(&first)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ".gitignore",
            "det_crate.d.ts",
            "det_crate.js",
            "det_crate_bg.wasm",
            "det_crate_bg.wasm.d.ts",
            "package.json"
        ]
    );
    for file in [
        "det_crate.js",
        "det_crate.d.ts",
        "package.json",
        "det_crate_bg.wasm",
        "det_crate_bg.wasm.d.ts",
    ] {
        let a = std::fs::read(first.join(file)).unwrap();
        let b = std::fs::read(second.join(file)).unwrap();
        assert!(a == b, "{file} differs between two builds");
    }

    let manifest: serde_json::Value =
        serde_json::from_str(&read(&first.join("package.json"))).unwrap();
    assert_eq!(manifest["type"], "module");
    assert_eq!(manifest["name"], "det-crate");
    assert_eq!(manifest["main"], "det_crate.js");
    assert_eq!(manifest["types"], "det_crate.d.ts");

    let js = read(&first.join("det_crate.js"));
    assert!(js.contains("  Aardvark$class as Aardvark,\n"), "{js}");
    assert!(js.contains("  Zebra$class as Zebra,\n"), "{js}");
    // Classes are emitted sorted by name, whatever the source order.
    assert!(js.find("class Aardvark").unwrap() < js.find("class Zebra").unwrap());
    assert!(
        js.contains("det_crate_bg.wasm"),
        "the glue loads its wasm file"
    );
}

// ---- 6. targets ----

#[test]
fn web_and_nodejs_targets() {
    let project = Project::workspace(&["tgt"], "");
    project.bridge_crate("tgt", "target-crate", "\"cdylib\"", "", LIB_WITH_CLASSES);
    let web = project.path("web");
    let node = project.path("node");
    let default = project.path("default");
    project
        .build(&["--target", "web", "--out-dir", web.to_str().unwrap()])
        .ok();
    project
        .build(&["--target", "nodejs", "--out-dir", node.to_str().unwrap()])
        .ok();
    project
        .build(&["--out-dir", default.to_str().unwrap()])
        .ok();

    let web_js = read(&web.join("target_crate.js"));
    assert!(web_js.contains("export default function init("), "{web_js}");
    assert!(web_js.contains("export function initSync("), "{web_js}");
    assert!(
        !web_js.contains("node:fs"),
        "the web glue must not import node:fs"
    );

    let node_js = read(&node.join("target_crate.js"));
    assert!(node_js.contains("new WebAssembly.Instance("), "{node_js}");
    assert!(node_js.contains("readFileSync"), "{node_js}");
    assert!(
        !node_js.contains("export default function init"),
        "{node_js}"
    );
    assert!(!node_js.contains("initSync"), "{node_js}");

    assert_eq!(
        read(&default.join("target_crate.js")),
        node_js,
        "nodejs is the default target"
    );

    // Both glues really run: web after initSync(bytes), nodejs on import.
    // The web module is instantiated once: a second initSync() or init() is a no-op (were
    // it another instance, `b` would sit at `a`'s address and `a` would read 4); a failed
    // init() (bad bytes, in a fresh copy of the module) can be retried.
    let source = format!(
        r#"import {{ readFileSync }} from "node:fs";
const bytes = readFileSync({wasm:?});
const web = await import({web:?});
web.initSync(bytes);
const a = new web.Zebra(3);
web.initSync(bytes);
await web.default(bytes);
const b = new web.Zebra(4);
if (a.stripes !== 3 || b.stripes !== 4) throw new Error(`re-initialized: ${{a.stripes}} ${{b.stripes}}`);
const fresh = await import({web:?} + "?fresh");
const failed = await fresh.default(new Uint8Array([0, 1, 2])).then(() => "resolved", (e) => e.constructor.name);
if (failed !== "CompileError") throw new Error(`bad bytes: ${{failed}}`);
await fresh.default(bytes);
if (new fresh.Zebra(5).stripes !== 5) throw new Error("the retried init() did not instantiate");
const node = await import({node:?});
console.log(new web.Zebra(3).stripes + new node.Zebra(4).stripes);
"#,
        web = web.join("target_crate.js").display().to_string(),
        wasm = web.join("target_crate_bg.wasm").display().to_string(),
        node = node.join("target_crate.js").display().to_string(),
    );
    let stdout = run_node_module(&project.path("run-targets.mjs"), &source);
    assert_eq!(stdout, "7");
}

/// `--target nodejs-cjs`: CommonJS glue (`require()` on Node before 20.19) in a
/// `"type": "commonjs"` package, whose exports Node's ESM import finds by name too; a crate
/// importing a JS module (ESM, which CommonJS cannot load synchronously) is refused by name.
#[test]
fn nodejs_cjs_target() {
    let project = Project::workspace(&["tgt", "mod"], "");
    project.bridge_crate("tgt", "target-crate", "\"cdylib\"", "", LIB_WITH_CLASSES);
    project
        .file(
            "mod/js/host.mjs",
            "export function hostAdd(a, b) { return a + b; }\n",
        )
        .bridge_crate(
            "mod",
            "with-module",
            "\"cdylib\"",
            "",
            "use bridge_runtime::bridge;\n#[bridge(module = \"js/host.mjs\")]\nextern \"C\" {\n    \
             #[bridge(js_name = \"hostAdd\")]\n    fn host_add(a: u32, b: u32) -> u32;\n}\n\
             #[bridge]\npub fn add(a: u32, b: u32) -> u32 { host_add(a, b) }\n",
        );
    let cjs = project.path("cjs");
    project
        .build(&[
            "-p",
            "target-crate",
            "--target",
            "nodejs-cjs",
            "--out-dir",
            cjs.to_str().unwrap(),
        ])
        .ok();
    let manifest: serde_json::Value =
        serde_json::from_str(&read(&cjs.join("package.json"))).unwrap();
    assert_eq!(manifest["type"], "commonjs");
    let js = read(&cjs.join("target_crate.js"));
    assert!(
        js.starts_with("// target-crate: JS glue") && js.contains("\n\"use strict\";\n"),
        "{js}"
    );
    assert!(
        !js.contains("import.meta") && !js.contains("\nexport "),
        "{js}"
    );
    let source = format!(
        r#"import {{ createRequire }} from "node:module";
import {{ Zebra as Imported }} from {glue:?};
const {{ Zebra, withPool }} = createRequire(import.meta.url)({glue:?});
if (Zebra !== Imported) throw new Error("import and require give two modules");
console.log(withPool(() => new Zebra(3).stripes));
"#,
        glue = cjs.join("target_crate.js").display().to_string(),
    );
    assert_eq!(run_node_module(&project.path("run-cjs.mjs"), &source), "3");

    project
        .build(&["-p", "with-module", "--target", "nodejs-cjs"])
        .fails()
        .stderr_has(&[
            "`with-module` imports the JS module",
            "js/host.mjs",
            "--target nodejs",
        ]);
}

// ---- 7. identity-mode resolution: class attribute > crate > workspace ----

#[test]
fn identity_mode_resolution_across_workspace_crate_and_class() {
    let project = Project::workspace(
        &["ws-only", "crate-set"],
        "[workspace.metadata.bridge]\nidentity-mode = \"rust\"",
    );
    project
        .bridge_crate(
            "ws-only",
            "res-ws",
            "\"cdylib\"",
            "",
            &one_class_lib("Plain", ""),
        )
        .bridge_crate(
            "crate-set",
            "res-crate",
            "\"cdylib\"",
            "[package.metadata.bridge]\nidentity-mode = \"pointer\"",
            &format!(
                "{}\n{}",
                one_class_lib("Gadget", ""),
                one_class_lib("Opted", "(identity_mode = \"none\")")
                    .replace("use bridge_runtime::bridge;", "")
            ),
        );
    // No -p in a virtual workspace: every bridge crate is built, each into its own pkg/.
    let run = project.build(&[]);
    run.ok().stderr_has(&[
        &format!(
            "Packaged res-ws → {} (1 class by identity mode: 1 rust)",
            project.path("ws-only/pkg").display()
        ),
        &format!(
            "Packaged res-crate → {} (2 classes by identity mode: 1 none, 1 pointer)",
            project.path("crate-set/pkg").display()
        ),
    ]);

    let ws_js = read(&project.path("ws-only/pkg/res_ws.js"));
    assert!(
        ws_js.contains(&class_banner("Plain", "res-ws", "rust")),
        "{ws_js}"
    );
    let ws_exports = wasm_exports(&project.path("ws-only/pkg/res_ws_bg.wasm"));
    // The package's one class is class 0 (postprocess/export_names.rs).
    for export in [bridge_schema::IDENTITY_TABLE_LEN_EXPORT, "0:r"] {
        assert!(
            ws_exports.iter().any(|e| e == export),
            "rust mode exports {export}: {ws_exports:?}"
        );
    }
    assert!(
        ws_exports.iter().any(|e| e == "0:0") && !ws_exports.iter().any(|e| e.contains("Plain")),
        "a class's exports are named by its index, not its type id: {ws_exports:?}"
    );

    let crate_js = read(&project.path("crate-set/pkg/res_crate.js"));
    assert!(
        crate_js.contains(&class_banner("Gadget", "res-crate", "pointer")),
        "{crate_js}"
    );
    assert!(
        crate_js.contains(&class_banner("Opted", "res-crate", "none")),
        "{crate_js}"
    );
    let crate_exports = wasm_exports(&project.path("crate-set/pkg/res_crate_bg.wasm"));
    assert!(
        !crate_exports
            .iter()
            .any(|e| e == bridge_schema::IDENTITY_TABLE_LEN_EXPORT || e.contains("#release")),
        "no rust-mode class in res-crate: {crate_exports:?}"
    );
}

// ---- 8. legacy boolean spellings ----

#[test]
fn legacy_boolean_identity_modes() {
    let project = Project::workspace(
        &["ws-true", "pkg-false"],
        "[workspace.metadata.bridge]\nidentity-mode = true",
    );
    project
        .bridge_crate(
            "ws-true",
            "legacy-ws",
            "\"cdylib\"",
            "",
            &one_class_lib("Shared", ""),
        )
        .bridge_crate(
            "pkg-false",
            "legacy-pkg",
            "\"cdylib\"",
            "[package.metadata.bridge]\nidentity-mode = false",
            &format!(
                "{}\n{}",
                one_class_lib("Off", ""),
                one_class_lib("On", "(identity_mode = true)")
                    .replace("use bridge_runtime::bridge;", "")
            ),
        );
    project.build(&[]).ok();

    let ws_js = read(&project.path("ws-true/pkg/legacy_ws.js"));
    assert!(
        ws_js.contains(&class_banner("Shared", "legacy-ws", "pointer")),
        "workspace identity-mode = true means pointer:\n{ws_js}"
    );
    let pkg_js = read(&project.path("pkg-false/pkg/legacy_pkg.js"));
    assert!(
        pkg_js.contains(&class_banner("Off", "legacy-pkg", "none")),
        "package identity-mode = false means none (and overrides the workspace):\n{pkg_js}"
    );
    assert!(
        pkg_js.contains(&class_banner("On", "legacy-pkg", "pointer")),
        "class identity_mode = true means pointer:\n{pkg_js}"
    );
}

/// The glue's pool API never takes a name from the user: functions named `keep`,
/// `withPool` and `release` are the crate's own exports (in ESM and CommonJS), and the
/// whole pool API stays reachable as `__bridge` (`__bridge.withPool`, ...), with the flat
/// names no user item took still exported as before.
#[test]
fn user_exports_named_like_the_pool_api_are_the_users_and_the_api_is_under_bridge() {
    let project = Project::workspace(&["pooled"], "");
    project.bridge_crate(
        "pooled",
        "pool-names",
        "\"cdylib\"",
        "[package.metadata.bridge]\nidentity-mode = \"rust\"",
        r#"
use bridge_runtime::bridge;

#[bridge]
pub struct Thing {
    n: u32,
}

#[bridge]
impl Thing {
    #[bridge(constructor)]
    pub fn new(n: u32) -> Thing {
        Thing { n }
    }
    #[bridge(getter)]
    pub fn n(&self) -> u32 {
        self.n
    }
}

#[bridge]
pub fn keep(n: u32) -> u32 {
    n + 1
}

#[bridge(js_name = "withPool")]
pub fn with_pool(s: String) -> String {
    format!("mine: {s}")
}

#[bridge]
pub fn release() -> String {
    "released by the crate".to_string()
}
"#,
    );
    let esm = project.path("esm");
    let cjs = project.path("cjs");
    project.build(&["--out-dir", esm.to_str().unwrap()]).ok();
    project
        .build(&["--target", "nodejs-cjs", "--out-dir", cjs.to_str().unwrap()])
        .ok();
    let check = r#"
const out = [m.keep(1), m.withPool("x"), m.release()];
const kept = m.__bridge.withPool(() => m.__bridge.keep(new m.Thing(7)));
out.push(kept.n, m.__bridge.stats().Thing.jsCache, typeof m.pushPool, typeof m.autorelease);
const pool = m.__bridge.pushPool();
new m.Thing(8);
out.push(m.__bridge.stats().Thing.jsCache);
m.__bridge.popPool(pool);
out.push(m.__bridge.stats().Thing.jsCache);
console.log(JSON.stringify(out));
"#;
    let want = r#"[2,"mine: x","released by the crate",7,1,"function","function",2,1]"#;
    let esm_source = format!(
        "import * as m from {:?};\n{check}",
        esm.join("pool_names.js").display().to_string()
    );
    assert_eq!(run_node_module(&project.path("esm.mjs"), &esm_source), want);
    let cjs_source = format!(
        "const m = require({:?});\n{check}",
        cjs.join("pool_names.js").display().to_string()
    );
    assert_eq!(run_node_module(&project.path("cjs.cjs"), &cjs_source), want);
    let dts = read(&esm.join("pool_names.d.ts"));
    assert!(dts.contains("export declare const __bridge"), "{dts}");
    assert!(!dts.contains("export function withPool<T>"), "{dts}");
    assert!(
        dts.contains("export function pushPool(): ReleasePool"),
        "{dts}"
    );
}

/// Nothing until used: a crate whose bridge items are functions only has nothing a release
/// pool could release, so its package exports no pool API (no `withPool`, ..., no
/// `__bridge`, no `__bridgeStats`) and its glue has no pool code, in ESM and CommonJS.
/// A `pointer`-mode class's wrappers do join pools (a drain releases them), so that crate
/// keeps the API (`rust` mode: the test above).
#[test]
fn a_package_without_anything_a_pool_releases_has_no_pool_api() {
    let project = Project::workspace(&["plain", "pointed"], "");
    project
        .bridge_crate(
            "plain",
            "plain-fns",
            "\"cdylib\"",
            "",
            r#"
use bridge_runtime::bridge;

#[bridge]
pub fn greet(name: String) -> String {
    format!("hello {name}")
}
"#,
        )
        .bridge_crate(
            "pointed",
            "pointed-class",
            "\"cdylib\"",
            "[package.metadata.bridge]\nidentity-mode = \"pointer\"",
            &one_class_lib("Pt", ""),
        );
    let esm = project.path("esm");
    let cjs = project.path("cjs");
    // Release glue: debug glue adds the leak detector (`__bridgeLeaks`), whose warning
    // names withPool.
    project
        .build(&["--release", "--out-dir", esm.to_str().unwrap()])
        .ok();
    project
        .build(&[
            "--release",
            "--target",
            "nodejs-cjs",
            "--out-dir",
            cjs.to_str().unwrap(),
        ])
        .ok();
    // Several crates: each package in its own directory under --out-dir.
    let (plain, pointed) = (esm.join("plain-fns"), esm.join("pointed-class"));
    let plain_cjs = cjs.join("plain-fns");
    let pool_names = ["withPool", "pushPool", "popPool", "keep", "autorelease"];
    for dir in [&plain, &plain_cjs] {
        let js = read(&dir.join("plain_fns.js"));
        // (`$wasm.__bridge_alloc` and the like are the module's own exports.)
        let glue_names = [
            "const __bridge",
            "\"__bridge\"",
            "__bridgeStats",
            "$POOLS",
            "$KEEP",
        ];
        for word in pool_names.iter().chain(&glue_names) {
            assert!(!js.contains(word), "{word} in {}:\n{js}", dir.display());
        }
    }
    let dts = read(&plain.join("plain_fns.d.ts"));
    for word in pool_names
        .iter()
        .chain(&["__bridge", "ReleasePool", "BridgeClassStats"])
    {
        assert!(!dts.contains(word), "{word} in the .d.ts:\n{dts}");
    }
    // Nothing borrows an object: no unborrow code in the glue, nor in the module (its
    // exports went with it), while a class's methods borrow `this`.
    let names = |wasm: &Path| {
        let bytes = std::fs::read(wasm).unwrap();
        bytes.windows(17).any(|w| w == b"__bridge_unborrow")
    };
    let plain_js = read(&plain.join("plain_fns.js"));
    assert!(!plain_js.contains("unborrow") && !plain_js.contains("__bridge_refused"));
    assert!(!names(&plain.join("plain_fns_bg.wasm")));
    let pointed_js = read(&pointed.join("pointed_class.js"));
    assert!(pointed_js.contains("__bridge_unborrow") && pointed_js.contains("__bridge_refused"));
    assert!(names(&pointed.join("pointed_class_bg.wasm")));
    let check = r#"console.log(JSON.stringify([m.greet("x"), Object.keys(m).sort()]));"#;
    let want = r#"["hello x",["greet"]]"#;
    let esm_source = format!(
        "import * as m from {:?};\n{check}",
        plain.join("plain_fns.js").display().to_string()
    );
    assert_eq!(
        run_node_module(&project.path("plain.mjs"), &esm_source),
        want
    );
    let cjs_source = format!(
        "const m = require({:?});\n{check}",
        plain_cjs.join("plain_fns.js").display().to_string()
    );
    assert_eq!(
        run_node_module(&project.path("plain.cjs"), &cjs_source),
        want
    );

    // Pointer mode: a wrapper made inside withPool is released by its drain.
    let pointed_source = format!(
        r#"import * as m from {:?};
const live = () => m.__bridgeStats().Pt.jsCache;
const inside = m.withPool(() => new m.Pt(1).value());
const afterPool = live();
const outside = new m.Pt(2);
console.log(JSON.stringify([inside, afterPool, live(), outside.value(), typeof m.__bridge.keep]));
"#,
        pointed.join("pointed_class.js").display().to_string()
    );
    assert_eq!(
        run_node_module(&project.path("pointed.mjs"), &pointed_source),
        r#"[1,0,1,2,"function"]"#
    );
    let dts = read(&pointed.join("pointed_class.d.ts"));
    assert!(dts.contains("export function withPool<T>"), "{dts}");
    assert!(dts.contains("export declare const __bridge"), "{dts}");
}

/// `cargo metadata`'s answer is kept between builds (`settings/metadata_cache.rs`): a
/// rebuild after a source edit does not run it, and every change it depends on is seen
/// (a manifest's metadata, a new member under a glob, the features asked for).
#[test]
fn a_rebuild_reuses_cargo_metadata_until_what_it_read_changes() {
    let project = Project::workspace(&["crates/*"], "");
    project.bridge_crate(
        "crates/first",
        "cache-first",
        "\"cdylib\"",
        "[features]\nextra = []\n",
        &one_class_lib("Thing", ""),
    );
    // A cargo that notes each `metadata` it runs, then is the real one.
    let real = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let log = project.path("metadata.log");
    let wrapper = project.path("bin/cargo");
    project.file(
        "bin/cargo",
        &format!(
            "#!/bin/sh\nif [ \"$1\" = metadata ]; then echo metadata >> {log:?}; fi\nexec {real:?} \"$@\"\n"
        ),
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    // A bridge home of its own: the entries of other tests are not this one's.
    let home = project.path("bridge-home");
    let build = |args: &[&str]| {
        let mut all = vec!["build", "-p", "cache-first"];
        all.extend_from_slice(args);
        run_in_env(
            &project.root(),
            &all,
            &[
                ("CARGO", wrapper.to_str().unwrap()),
                ("CARGO_BRIDGE_HOME", home.to_str().unwrap()),
            ],
        )
        .ok();
    };
    let runs = || read(&log).lines().count();
    build(&[]);
    assert_eq!(runs(), 1);
    project.file(
        "crates/first/src/lib.rs",
        &format!("{}\n// edited\n", one_class_lib("Thing", "")),
    );
    build(&[]);
    assert_eq!(runs(), 1, "a source edit reuses the answer");
    build(&["--features", "extra"]);
    assert_eq!(runs(), 2, "other features: another answer");
    build(&[]);
    assert_eq!(runs(), 2, "each is kept");
    let manifest = project.path("crates/first/Cargo.toml");
    let text = read(&manifest).replacen(
        "publish = false\n",
        "publish = false\ndescription = \"Changed\"\n",
        1,
    );
    std::fs::write(&manifest, text).unwrap();
    build(&[]);
    assert_eq!(runs(), 3, "a manifest edit is seen");
    let package: serde_json::Value =
        serde_json::from_str(&read(&project.path("crates/first/pkg/package.json"))).unwrap();
    assert_eq!(package["description"], "Changed");
    project.bridge_crate(
        "crates/second",
        "cache-second",
        "\"cdylib\"",
        "",
        &one_class_lib("Other", ""),
    );
    run_in_env(
        &project.root(),
        &["build", "-p", "cache-second"],
        &[
            ("CARGO", wrapper.to_str().unwrap()),
            ("CARGO_BRIDGE_HOME", home.to_str().unwrap()),
        ],
    )
    .ok();
    assert_eq!(runs(), 4, "a new member under the glob is seen");
}
