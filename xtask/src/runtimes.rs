//! `cargo xtask test-runtimes`: packages in the JS runtimes besides Node's ESM, each pinned
//! in `xtask/js/runtimes/package.json` and installed on first use.
//!
//! 1. Deno 2 and Bun run fixtures' node:test suites unchanged (`deno test`, `bun test`),
//!    importing the packages by path. Bun's `globalThis.gc` comes from a preload
//!    (`bun-gc.mjs`).
//! 2. kitchen-sink's packed nodejs package, installed into a scratch project, imported by
//!    name from its `node_modules`: Deno and Bun (`consumer.mjs`), and `require()`d by Node
//!    (20.19+ loads ES modules synchronously) and Bun (`consumer.cjs`).
//! 3. Node 18 (before `require()` of ES modules): `--target nodejs-cjs` builds run fixtures'
//!    suites (copied beside the builds, under `target/runtimes/cjs/`), and a CommonJS
//!    program `require()`s an installed `nodejs-cjs` package by name (`require-cjs.cjs`).

use crate::fixtures::{
    CargoBridge, FIXTURES, build_fixture, build_fixture_with, install_cargo_bridge, project_root,
};
use crate::js_tools;
use crate::scratch::{consumer_project, expect, pack};
use anyhow::{Context, Result};
use serde_json::json;
use std::path::{Path, PathBuf};
use xshell::{Shell, cmd};

/// Suites Deno and Bun run unchanged: classes, identity in the three modes, pools,
/// records, errors and panics, imports, callbacks and closures, worker_threads, the ported
/// wasm-bindgen tests (`ported`, `structural`; `inspect` too: both have `node:util`), `this`
/// in free functions, untagged unions, mixed signatures. Left out:
/// the slow ones Node runs already (bench, model-fuzz, debug), and the ones that check
/// Node itself (`--expose-gc` in `process.execArgv`, spawning `node`, npm pack).
/// `cargo xtask test` runs [`QUICK_SUITES`]; `cargo xtask test-runtimes --all` all of these.
const SUITES: &[(&str, &[&str])] = &[
    ("kitchen-sink", &["classes", "types", "imports", "lifetime"]),
    ("identity", &["identity", "pools", "vectors", "workers"]),
    ("data", &["records", "results", "scalars", "wire"]),
    (
        "hostile",
        &[
            "panics", "wrappers", "messages", "memory", "thrown", "statics",
        ],
    ),
    (
        "js-interop",
        &[
            "imports",
            "callbacks",
            "closures",
            "values",
            "names-and-errors",
            "unwinding",
        ],
    ),
    ("linked-app", &["same-names"]),
    ("odd-names", &["hostile"]),
    ("rust-default", &["rust-default"]),
    (
        "async",
        &[
            "exports",
            "imports",
            "callbacks",
            "abort",
            "identity",
            "typed",
            "moves",
            "this-async",
        ],
    ),
    (
        "classes",
        &["fields", "members", "weak", "moves", "ported", "inspect"],
    ),
    ("closures", &["lent", "once", "optional", "owned"]),
    ("collections", &["buffers", "views"]),
    ("iterators", &["items", "trees"]),
    (
        "js-classes",
        &[
            "classes",
            "statics",
            "class-values",
            "build-values",
            "structural",
            "this-fns",
        ],
    ),
    (
        "shapes",
        &["maps", "tuples", "map_keys", "unions", "unions-hostile"],
    ),
    // Mixed signatures: #[bridge] items taking and returning #[wasm_bindgen] values.
    ("wasm-bindgen", &["mixed"]),
    ("moved-class/after", &["api", "reentrancy"]),
];

/// The representative subset of [`SUITES`] `cargo xtask test` runs in Deno and Bun (each
/// Bun suite is a process of its own): one suite per area the issue names (classes,
/// identity in the three modes, pools, worker_threads, records, errors and panics, imports,
/// callbacks and closures, the default mode; and the engine-sensitive newer ones: promises
/// and microtasks, `AbortSignal`, the iterator protocol, global JS classes; the string key
/// cache, whose keys each runtime's `TextDecoder` decodes, a leading BOM included), so a
/// runtime-specific break shows up in every CI run.
const QUICK_SUITES: &[(&str, &[&str])] = &[
    ("kitchen-sink", &["classes"]),
    ("identity", &["identity", "pools", "workers"]),
    ("data", &["records"]),
    ("hostile", &["panics"]),
    ("js-interop", &["imports", "closures"]),
    ("rust-default", &["rust-default"]),
    ("async", &["exports", "abort"]),
    ("iterators", &["items"]),
    ("js-classes", &["classes"]),
    ("shapes", &["map_keys"]),
];

/// Suites Node 18 runs on `--target nodejs-cjs` builds (ESM suites importing CommonJS
/// glue: Node reads its export names). Left out: fixtures importing JS modules (which
/// `nodejs-cjs` refuses), and suites loading a second instance by URL query (CommonJS
/// caches by file) or comparing the ESM golden glue.
const CJS_SUITES: &[(&str, &[&str])] = &[
    ("identity", &["pools", "vectors", "leaks"]),
    (
        "data",
        &["records", "results", "scalars", "wire", "hostile"],
    ),
    (
        "hostile",
        &[
            "panics",
            "wrappers",
            "messages",
            "memory",
            "finalizer-panics",
        ],
    ),
    ("odd-names", &["attrs", "hostile", "signatures"]),
    ("rust-default", &["rust-default"]),
];

/// `all`: every suite of [`SUITES`] in Deno and Bun, else [`QUICK_SUITES`].
pub fn test_runtimes(sh: &Shell, all: bool) -> Result<()> {
    let bin = js_tools::runtimes(sh)?;
    let path = install_cargo_bridge(sh)?;
    let root = project_root();
    let work = root.join("target/runtimes");
    if work.exists() {
        std::fs::remove_dir_all(&work).with_context(|| format!("clearing {}", work.display()))?;
    }
    let here = Here {
        sh,
        bin: &bin,
        bridge: &path,
        root: &root,
        work: &work,
    };
    let passed = fixture_suites(&here, all)? + installed_package(&here)? + node18_cjs(&here)?;
    println!(
        "runtimes: {passed} passed, 0 failed (Deno and Bun: {} suites, installed package in \
         Deno, Bun, Node require(); Node 18 on nodejs-cjs)",
        if all { "all" } else { "the quick subset of" }
    );
    Ok(())
}

/// What every part of the run uses: the runtimes' directory, the cargo bridge under test,
/// the project root, the scratch directory.
struct Here<'a> {
    sh: &'a Shell,
    bin: &'a Path,
    bridge: &'a CargoBridge,
    root: &'a Path,
    work: &'a Path,
}

/// The fixtures' suites, unchanged, on debug builds (suites import each other's), in
/// Deno and in Bun; the runs that passed.
fn fixture_suites(here: &Here, all: bool) -> Result<usize> {
    let Here {
        sh,
        bin,
        bridge,
        root,
        ..
    } = *here;
    let mut passed = 0;
    for f in FIXTURES {
        build_fixture(sh, bridge, &root.join(f.manifest), Some(f.package), false)?;
    }
    let suites = suite_files(root, if all { SUITES } else { QUICK_SUITES });
    let bun_suites = suites.clone();
    let (deno, bun) = (bin.join("deno"), bin.join("bun"));
    cmd!(
        sh,
        "{deno} test --allow-read --allow-env --v8-flags=--expose-gc {suites...}"
    )
    .run()
    .context("Deno ran the fixtures' suites (see the FAILED lines above)")?;
    passed += 1;
    let preload = js_tools::js_dir().join("runtimes/bun-gc.mjs");
    // One process per file, as Node runs them: `bun test` runs all files in one global
    // scope, where a suite would see the JsValues another left in a shared package.
    // Bun's default limit is 5 s a test; Node's test runner has none, and the 64 MiB
    // buffer test of a debug build takes longer on a loaded machine.
    for suite in &bun_suites {
        cmd!(
            sh,
            "{bun} test --timeout 120000 --preload {preload} {suite}"
        )
        .run()
        .with_context(|| format!("Bun ran {} (see the (fail) lines above)", suite.display()))?;
    }
    passed += 1;
    Ok(passed)
}

/// An installed package by name: ESM from node_modules, and require(), in Deno, Bun and
/// Node; the runs that passed.
fn installed_package(here: &Here) -> Result<usize> {
    let Here {
        sh,
        bin,
        bridge,
        root,
        work,
    } = *here;
    let (deno, bun) = (bin.join("deno"), bin.join("bun"));
    let mut passed = 0;
    let pkg = work.join("kitchen-sink-pkg");
    let out_dir = pkg.display().to_string();
    let manifest = root.join("fixtures/Cargo.toml");
    build_fixture_with(
        sh,
        bridge,
        &manifest,
        Some("kitchen-sink"),
        &["--out-dir", &out_dir],
    )?;
    let tarball = pack(sh, &pkg, &work.join("tgz"))?;
    let app = work.join("app");
    consumer_project(sh, &app, "kitchen-sink", &tarball)?;
    let js = js_tools::js_dir();
    std::fs::copy(js.join("packages/consumer.mjs"), app.join("consumer.mjs"))?;
    std::fs::copy(js.join("runtimes/consumer.cjs"), app.join("consumer.cjs"))?;
    let want = json!({"count": 42, "name": "pkg", "shout": "HI"});
    let node = "node";
    let runs: [(&str, &Path, &[&str]); 4] = [
        (
            "Deno importing it from node_modules",
            &deno,
            &["run", "--allow-read", "consumer.mjs"],
        ),
        ("Bun importing it", &bun, &["consumer.mjs"]),
        ("Bun require()ing it", &bun, &["consumer.cjs"]),
        ("Node require()ing it", Path::new(node), &["consumer.cjs"]),
    ];
    for (what, program, args) in runs {
        let _cd = sh.push_dir(&app);
        let out = cmd!(sh, "{program} {args...}")
            .read()
            .with_context(|| format!("{what} failed"))?;
        expect(&out, want.clone(), what)?;
        passed += 1;
    }
    Ok(passed)
}

/// Node 18: --target nodejs-cjs, by path (the suites) and required by name; the runs
/// that passed.
fn node18_cjs(here: &Here) -> Result<usize> {
    let Here {
        sh,
        bin,
        bridge,
        root,
        work,
    } = *here;
    let manifest = root.join("fixtures/Cargo.toml");
    let node18 = bin.join("node");
    let cjs = work.join("cjs");
    copy_dir(
        &root.join("fixtures/support"),
        &cjs.join("fixtures/support"),
    )?;
    for (fixture, _) in CJS_SUITES {
        let dir = cjs.join("fixtures").join(fixture);
        let out_dir = dir.join("pkg").display().to_string();
        build_fixture_with(
            sh,
            bridge,
            &manifest,
            Some(fixture),
            &["--target", "nodejs-cjs", "--out-dir", &out_dir],
        )?;
        copy_dir(
            &root.join("fixtures").join(fixture).join("tests"),
            &dir.join("tests"),
        )?;
    }
    let suites = suite_files(&cjs, CJS_SUITES);
    cmd!(
        sh,
        "{node18} --expose-gc --test --test-reporter=spec {suites...}"
    )
    .run()
    .context("Node 18 ran the fixtures' suites on --target nodejs-cjs builds")?;
    Ok(1 + require_cjs(here, &node18, &cjs)?)
}

/// The identity fixture's nodejs-cjs package (built in `cjs`), installed and required by
/// name in Node 18; the checks that passed.
fn require_cjs(here: &Here, node18: &Path, cjs: &Path) -> Result<usize> {
    let Here { sh, work, .. } = *here;
    let js = js_tools::js_dir();
    let tarball = pack(
        sh,
        &cjs.join("fixtures/identity/pkg"),
        &work.join("cjs-tgz"),
    )?;
    let app = work.join("cjs-app");
    consumer_project(sh, &app, "identity", &tarball)?;
    std::fs::copy(
        js.join("runtimes/require-cjs.cjs"),
        app.join("require-cjs.cjs"),
    )?;
    let out = {
        let _cd = sh.push_dir(&app);
        cmd!(sh, "{node18} require-cjs.cjs").read()?
    };
    expect(
        &out,
        json!({
            "modes": {
                "none": {"same": false, "id": 1},
                "pointer": {"same": true, "id": 1},
                "rust": {"same": true, "id": 1},
            },
            "pooled": 2,
            "afterPool": 1,
            "pair": [7, true, "x"],
            "error": true,
        }),
        "Node 18 require()ing a --target nodejs-cjs package",
    )?;
    Ok(1)
}

/// `<root>/fixtures/<fixture>/tests/<suite>.test.mjs` for each listed suite (absolute:
/// `bun test` takes a bare relative name as a filter, not a path).
fn suite_files(root: &Path, suites: &[(&str, &[&str])]) -> Vec<PathBuf> {
    suites
        .iter()
        .flat_map(|(fixture, names)| {
            names.iter().map(move |name| {
                root.join("fixtures")
                    .join(fixture)
                    .join("tests")
                    .join(format!("{name}.test.mjs"))
            })
        })
        .collect()
}

/// Copy the folder `from` (with its subfolders) to `to`.
fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)
                .with_context(|| format!("copying {}", entry.path().display()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quick_suites_are_listed_suites_and_every_listed_suite_exists() {
        let root = project_root();
        let all = suite_files(&root, SUITES);
        for suite in suite_files(&root, QUICK_SUITES) {
            assert!(all.contains(&suite), "{} is not in SUITES", suite.display());
        }
        for suite in all.iter().chain(&suite_files(&root, CJS_SUITES)) {
            assert!(suite.is_file(), "{} does not exist", suite.display());
        }
    }
}
