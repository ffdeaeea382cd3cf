//! `cargo xtask test-workers`: the package instantiated per worker, each with its own
//! identity table.
//!
//! 1. Chromium: the identity fixture's `--target web --release` build in two module Web
//!    Workers and the page (`xtask/js/workers/`, served from `target/workers/` with the
//!    fixture's `tests/worker-ops.mjs`), run by `xtask/js/browser/page.mjs`.
//! 2. Node: `fixtures/identity/tests/workers.test.mjs` (worker_threads; `test-node` runs it
//!    too, with every suite, so `cargo xtask test` leaves it to that phase).

use crate::fixtures::{build_fixture, build_fixture_with, install_cargo_bridge, project_root};
use crate::js_tools;
use crate::scratch::expect;
use anyhow::{Context, Result};
use serde_json::json;
use xshell::{Shell, cmd};

/// `node`: also the worker_threads suite (`cargo xtask test` runs it in `test-node`).
pub fn test_workers(sh: &Shell, node: bool) -> Result<()> {
    let js = js_tools::npm_packages(sh)?;
    let chromium = js_tools::chromium(sh)?;
    js_tools::wasm_opt(sh)?;
    let path = install_cargo_bridge(sh)?;
    let root = project_root();
    let manifest = root.join("fixtures/Cargo.toml");

    let site = root.join("target/workers");
    if site.exists() {
        std::fs::remove_dir_all(&site).with_context(|| format!("clearing {}", site.display()))?;
    }
    let out_dir = site.join("pkg").display().to_string();
    build_fixture_with(
        sh,
        &path,
        &manifest,
        Some("identity"),
        &["--release", "--target", "web", "--out-dir", &out_dir],
    )?;
    for file in ["index.html", "main.js", "worker.js"] {
        std::fs::copy(js.join("workers").join(file), site.join(file))?;
    }
    std::fs::copy(
        root.join("fixtures/identity/tests/worker-ops.mjs"),
        site.join("worker-ops.mjs"),
    )?;
    let page = js.join("browser/page.mjs");
    let out = cmd!(sh, "node {page} {site} {chromium}").read()?;
    // Worker a's table holds its 3 nodes, b's its 5 (then 7), never the sum; a's release
    // empties a's only; the page's own instance took none.
    let made = |table: u32, live: u32| json!({"table": table, "live": live, "same": true});
    expect(
        &out,
        json!({
            "ready": ["ready", "ready"],
            "steps": [made(3, 3), made(5, 5), {"table": 0, "live": 3, "same": null}, made(7, 7)],
            "page": 0,
        }),
        "two module Web Workers in Chromium",
    )?;

    if !node {
        println!(
            "workers: 1 passed, 0 failed (module Web Workers in Chromium; worker_threads: test-node)"
        );
        return Ok(());
    }
    build_fixture(sh, &path, &manifest, Some("identity"), false)?;
    let suite = root.join("fixtures/identity/tests/workers.test.mjs");
    cmd!(sh, "node --test {suite}").run()?;
    println!("workers: 2 passed, 0 failed (module Web Workers in Chromium, Node worker_threads)");
    Ok(())
}
