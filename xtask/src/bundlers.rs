//! `cargo xtask test-bundlers`: kitchen-sink's packed `--target bundler --release` package,
//! installed into a scratch app per bundler (`target/bundlers/<bundler>/`), bundled by
//! `xtask/js/bundlers/bundle.mjs` (webpack 5 as configured by default and with the
//! `asyncWebAssembly` experiment, esbuild, Rollup; pinned in
//! `xtask/js/bundlers/package.json`) and run in headless Chromium by
//! `xtask/js/browser/page.mjs`, like the Vite app of `test-packages`.

use crate::fixtures::{build_fixture_with, install_cargo_bridge, project_root};
use crate::js_tools;
use crate::scratch::{consumer_project, expect, pack};
use anyhow::{Context, Result, bail};
use serde_json::json;
use std::path::Path;
use xshell::{Shell, cmd};

const FIXTURE: &str = "kitchen-sink";
const BUNDLERS: &[&str] = &["webpack", "webpack-async-wasm", "esbuild", "rollup"];

pub fn test_bundlers(sh: &Shell) -> Result<()> {
    let js = js_tools::npm_packages(sh)?;
    let bundlers = js_tools::bundlers(sh)?;
    let chromium = js_tools::chromium(sh)?;
    js_tools::wasm_opt(sh)?;
    let path = install_cargo_bridge(sh)?;
    let root = project_root();
    let work = root.join("target/bundlers");
    if work.exists() {
        std::fs::remove_dir_all(&work).with_context(|| format!("clearing {}", work.display()))?;
    }
    let pkg = work.join("pkg");
    let out_dir = pkg.display().to_string();
    build_fixture_with(
        sh,
        &path,
        &root.join("fixtures/Cargo.toml"),
        Some(FIXTURE),
        &["--release", "--target", "bundler", "--out-dir", &out_dir],
    )?;
    let tarball = pack(sh, &pkg, &work.join("tgz"))?;
    let bundle = bundlers.join("bundle.mjs");
    let page = js.join("browser/page.mjs");
    let mut passed = 0;
    for bundler in BUNDLERS {
        let app = work.join(bundler);
        consumer_project(sh, &app, FIXTURE, &tarball)?;
        for file in ["index.html", "main.js"] {
            std::fs::copy(js.join("packages/vite-app").join(file), app.join(file))?;
        }
        cmd!(sh, "node {bundle} {bundler} {app}")
            .env("BRIDGE_PACKAGE", FIXTURE)
            .run()
            .with_context(|| format!("{bundler} could not bundle the app importing {FIXTURE}"))?;
        let dist = app.join("dist");
        if !has_wasm(&dist)? {
            bail!("{bundler} emitted no .wasm into {}", dist.display());
        }
        let out = cmd!(sh, "node {page} {dist} {chromium}").read()?;
        expect(
            &out,
            json!({"count": 42, "name": "vite", "shout": "HI", "items": 2}),
            &format!("the {bundler} bundle in Chromium"),
        )?;
        passed += 1;
    }
    println!(
        "bundlers: {passed} passed, 0 failed ({} bundles of a --target bundler package in Chromium)",
        BUNDLERS.join(", ")
    );
    Ok(())
}

/// Whether `dir` or a folder in it holds a `.wasm` file (the module, emitted as an asset).
fn has_wasm(dir: &Path) -> Result<bool> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let entry = entry?;
        let found = if entry.file_type()?.is_dir() {
            has_wasm(&entry.path())?
        } else {
            entry.path().extension().is_some_and(|e| e == "wasm")
        };
        if found {
            return Ok(true);
        }
    }
    Ok(false)
}
