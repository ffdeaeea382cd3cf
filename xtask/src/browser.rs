//! `cargo xtask test-browser`: the fixtures' node:test suites in headless Chromium.
//!
//! Builds every fixture (with `--filter`, only those the chosen suites need: see
//! [`crate::fixtures::selection`]) with `--target web --release` (so wasm-opt runs: the suites check
//! optimized output; but those in `DEBUG_BUILD`) into `target/browser/<fixture>/`, then hands a config to
//! `xtask/js/browser/run.mjs`, which serves the repository on 127.0.0.1, maps each
//! suite's `pkg/` imports to those builds and its `node:test`/`node:assert/strict` to
//! shims, and runs every suite in a fresh page (see that file).
//!
//! The page's import map sends `node:test` and `node:assert/strict` to the shims beside
//! `run.mjs` (`node-test.mjs`, `assert.mjs`, checked against Node's own by `assert.test.mjs`;
//! `fs.mjs`: `readFileSync` of a served file) and `pkg/<lib>.js` to a wrapper that awaits the
//! web build's `init()`: one set of test bodies, two hosts. The browser checks share
//! `serve.mjs` (the static server) and `chromium.mjs` (the launch flags).

use crate::fixtures::{build_fixture_with, install_cargo_bridge, project_root, selection};
use crate::js_tools;
use anyhow::{Context, Result, bail};
use serde_json::json;
use xshell::{Shell, cmd};

/// Fixtures built without `--release` here: `wbg-interop` links web-sys, js-sys, chrono and
/// uuid, whose LTO release build costs minutes of CI; its debug build (made for the node
/// suites already) runs its suites in Chromium just as well, and a release build of a
/// crate linking wasm-bindgen, through wasm-opt, is the bench's alongside package.
/// `wbg-plain`'s suites are Node-only (they build every target and spawn Node), so its web
/// package only has to exist. The `moved-class` pair's suites check API, not optimized
/// output: their debug builds keep CI from paying two release builds of wasm-bindgen.
const DEBUG_BUILD: &[&str] = &[
    "wbg-interop",
    "wbg-plain",
    "moved-class-before",
    "moved-class-after",
];

pub fn test_browser(sh: &Shell, filter: Option<&str>) -> Result<()> {
    let js = js_tools::npm_packages(sh)?;
    let chromium = js_tools::chromium(sh)?;
    js_tools::wasm_opt(sh)?;
    // The shims first: they must agree with Node's own node:assert/strict.
    let shim_tests = js.join("browser/assert.test.mjs");
    cmd!(sh, "node --test {shim_tests}").run()?;

    let root = project_root();
    let (build, mut suites) = selection(&root, filter)?;
    if suites.is_empty() {
        bail!("no test suites matched");
    }
    let bridge = install_cargo_bridge(sh)?;
    let out = root.join("target/browser");
    let mut packages = Vec::new();
    for f in build {
        let lib = f.package.replace('-', "_");
        let web_dir = out.join(f.package);
        let web_dir_arg = web_dir.display().to_string();
        let profile: &[&str] = if DEBUG_BUILD.contains(&f.package) {
            &[]
        } else {
            &["--release"]
        };
        let mut args = profile.to_vec();
        args.extend(["--target", "web", "--out-dir", &web_dir_arg]);
        build_fixture_with(sh, &bridge, &root.join(f.manifest), Some(f.package), &args)?;
        packages.push(json!({
            "glue": root.join(f.dir).join("pkg").join(format!("{lib}.js")),
            "web": web_dir.join(format!("{lib}.js")),
        }));
    }
    suites.sort();
    let config = json!({
        "root": root,
        "chromium": chromium,
        "packages": packages,
        "suites": suites,
    });
    let config_path = out.join("config.json");
    std::fs::write(&config_path, serde_json::to_string_pretty(&config)?)?;
    let runner = js.join("browser/run.mjs");
    cmd!(sh, "node {runner} {config_path}")
        .run()
        .context("browser suites failed (see the `not ok` lines above)")?;
    Ok(())
}
