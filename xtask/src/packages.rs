//! `cargo xtask test-packages`: packages are used the way users use them.
//!
//! 1. npm: `npm pack` kitchen-sink's nodejs package, install the tarball into a scratch
//!    project, import it by name in Node (`xtask/js/packages/consumer.mjs`) and type-check
//!    a `.mts` importing it by name (`consumer.mts`).
//! 2. bundler: build it with `--target bundler --release`, install that tarball into a
//!    Vite app (`xtask/js/packages/vite-app/`), `vite build` it and run the bundle in
//!    headless Chromium (`xtask/js/browser/page.mjs`).
//! 3. wasm-bindgen beside #[bridge]: the same for `fixtures/wasm-bindgen`'s bundler
//!    package (`xtask/js/packages/vite-wasm-bindgen/`): both halves in one bundle.

use crate::fixtures::{CargoBridge, build_fixture_with, install_cargo_bridge, project_root};
use crate::js_tools;
use crate::scratch::{consumer_project, expect, pack};
use anyhow::{Context, Result, bail};
use serde_json::json;
use std::path::Path;
use xshell::{Shell, cmd};

const FIXTURE: &str = "kitchen-sink";
const WBG_FIXTURE: &str = "wbg-interop";

pub fn test_packages(sh: &Shell) -> Result<()> {
    let js = js_tools::npm_packages(sh)?;
    let chromium = js_tools::chromium(sh)?;
    let bridge = install_cargo_bridge(sh)?;
    let root = project_root();
    let work = root.join("target/pkg-check");
    if work.exists() {
        std::fs::remove_dir_all(&work).with_context(|| format!("clearing {}", work.display()))?;
    }
    let here = Here {
        sh,
        js: &js,
        chromium: &chromium,
        bridge: &bridge,
        root: &root,
        work: &work,
    };
    // 1. npm pack → install → import by name, in Node and in tsc.
    let mut passed = npm_package(&here)?;
    // 2. --target bundler → Vite → Chromium.
    passed += vite_app(&here)?;
    // 3. A bridge crate that also uses wasm-bindgen, bundled the same way.
    passed += vite_wasm_bindgen(&here)?;
    println!(
        "packages: {passed} passed, 0 failed (npm pack + install + import, tsc, Vite bundles in Chromium)"
    );
    Ok(())
}

/// What every part uses: the npm packages' and Chromium's directories, the cargo bridge
/// under test, the project root, the scratch directory.
struct Here<'a> {
    sh: &'a Shell,
    js: &'a Path,
    chromium: &'a Path,
    bridge: &'a CargoBridge,
    root: &'a Path,
    work: &'a Path,
}

/// kitchen-sink's nodejs package, packed and installed, imported by name in Node and
/// type-checked by tsc; the checks that passed.
fn npm_package(here: &Here) -> Result<usize> {
    let Here {
        sh,
        js,
        bridge,
        root,
        work,
        ..
    } = *here;
    let manifest = root.join("fixtures/Cargo.toml");
    let node_pkg = work.join("node-pkg");
    build(sh, bridge, &manifest, &node_pkg, &[])?;
    let tarball = pack(sh, &node_pkg, &work.join("node-tgz"))?;
    let app = work.join("node-app");
    consumer_project(sh, &app, FIXTURE, &tarball)?;
    std::fs::copy(js.join("packages/consumer.mjs"), app.join("consumer.mjs"))?;
    std::fs::copy(js.join("packages/consumer.mts"), app.join("consumer.mts"))?;
    let out = {
        let _cd = sh.push_dir(&app);
        cmd!(sh, "node consumer.mjs").read()?
    };
    expect(
        &out,
        json!({"count": 42, "name": "pkg", "shout": "HI"}),
        "Node",
    )?;
    std::fs::write(
        app.join("tsconfig.json"),
        serde_json::to_string_pretty(&json!({
            "compilerOptions": {
                "strict": true, "noEmit": true, "skipLibCheck": false,
                "lib": ["es2020", "dom"], "target": "es2020",
                "module": "nodenext", "moduleResolution": "nodenext", "types": [],
            },
            "files": ["consumer.mts"],
        }))?,
    )?;
    let tsc = js.join("node_modules/.bin/tsc");
    cmd!(sh, "{tsc} -p {app}/tsconfig.json")
        .run()
        .context("tsc rejected a .mts importing the installed package by name")?;
    Ok(2)
}

/// kitchen-sink's `--target bundler --release` package in a Vite app, run in Chromium;
/// the checks that passed.
fn vite_app(here: &Here) -> Result<usize> {
    let Here {
        sh,
        js,
        chromium,
        bridge,
        root,
        work,
    } = *here;
    let manifest = root.join("fixtures/Cargo.toml");
    let bundler_pkg = work.join("bundler-pkg");
    build(
        sh,
        bridge,
        &manifest,
        &bundler_pkg,
        &["--release", "--target", "bundler"],
    )?;
    let tarball = pack(sh, &bundler_pkg, &work.join("bundler-tgz"))?;
    let out = vite_bundle(
        sh,
        js,
        chromium,
        &work.join("vite-app"),
        "vite-app",
        FIXTURE,
        &tarball,
    )?;
    expect(
        &out,
        json!({"count": 42, "name": "vite", "shout": "HI", "items": 2}),
        "the Vite bundle in Chromium",
    )?;
    Ok(1)
}

/// The wasm-bindgen fixture's bundler package (both halves in one bundle) in a Vite app,
/// run in Chromium; the checks that passed.
fn vite_wasm_bindgen(here: &Here) -> Result<usize> {
    let Here {
        sh,
        js,
        chromium,
        bridge,
        root,
        work,
    } = *here;
    let wbg_pkg = work.join("wbg-pkg");
    let wbg_out = wbg_pkg.display().to_string();
    build_fixture_with(
        sh,
        bridge,
        &root.join("fixtures/wasm-bindgen/Cargo.toml"),
        Some(WBG_FIXTURE),
        &["--out-dir", &wbg_out, "--release", "--target", "bundler"],
    )?;
    let tarball = pack(sh, &wbg_pkg, &work.join("wbg-tgz"))?;
    let out = vite_bundle(
        sh,
        js,
        chromium,
        &work.join("vite-wbg"),
        "vite-wasm-bindgen",
        WBG_FIXTURE,
        &tarball,
    )?;
    expect(
        &out,
        json!({"started": 1, "greet": "hello, vite", "uuid": true, "label": "bundled",
               "same": true, "norm": 5, "tag": "SECTION"}),
        "the Vite bundle of the wasm-bindgen fixture in Chromium",
    )?;
    Ok(1)
}

/// Install `tarball` (the package `name`) into a copy of the Vite app `xtask/js/packages/<app>`
/// at `dir`, bundle it and run the bundle in Chromium; what the page printed.
fn vite_bundle(
    sh: &Shell,
    js: &Path,
    chromium: &Path,
    dir: &Path,
    app: &str,
    name: &str,
    tarball: &Path,
) -> Result<String> {
    consumer_project(sh, dir, name, tarball)?;
    for file in ["index.html", "main.js"] {
        std::fs::copy(js.join("packages").join(app).join(file), dir.join(file))?;
    }
    let vite = js.join("node_modules/vite/bin/vite.js");
    {
        let _cd = sh.push_dir(dir);
        cmd!(sh, "node {vite} build --logLevel warn")
            .run()
            .with_context(|| format!("vite build of the app importing {name} failed"))?;
    }
    let dist = dir.join("dist");
    let assets: Vec<String> = std::fs::read_dir(dist.join("assets"))?
        .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect::<Result<_, _>>()?;
    if !assets.iter().any(|a| a.ends_with(".wasm")) {
        bail!("vite did not emit {name}'s .wasm as an asset; dist/assets has {assets:?}");
    }
    let page = js.join("browser/page.mjs");
    Ok(cmd!(sh, "node {page} {dist} {chromium}").read()?)
}

fn build(
    sh: &Shell,
    bridge: &CargoBridge,
    manifest: &Path,
    out: &Path,
    extra: &[&str],
) -> Result<()> {
    let out_arg = out.display().to_string();
    let mut args = vec!["--out-dir", out_arg.as_str()];
    args.extend_from_slice(extra);
    build_fixture_with(sh, bridge, manifest, Some(FIXTURE), &args)
}
