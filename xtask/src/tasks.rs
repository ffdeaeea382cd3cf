//! The test and example tasks.

use crate::fixtures::{self, FIXTURES, build_fixture, install_cargo_bridge};
use crate::{browser, bundlers, js_tools, packages, runtimes, typescript, workers};
use anyhow::{Result, bail};
use xshell::{Shell, cmd};

/// Everything CI runs: format, lints, Rust tests, a benchmark smoke run, types, the
/// browser, package, bundler, worker and runtime checks, the bundled example, node suites.
pub fn test_all(sh: &Shell) -> Result<()> {
    cmd!(sh, "cargo fmt --all -- --check").run()?;
    cmd!(
        sh,
        "cargo clippy --workspace --all-targets --quiet -- -D warnings"
    )
    .run()?;
    // Install the wasm32 target once, up front: the CLI tests run `cargo bridge` in
    // parallel, and parallel first-time `rustup target add`s can trip over each other.
    cmd!(sh, "rustup target add wasm32-unknown-unknown")
        .quiet()
        .run()?;
    // `cargo bridge test --chromium` is tested in cargo-bridge/tests/bridge_test.rs.
    let chromium = js_tools::chromium(sh)?;
    cmd!(sh, "cargo test --workspace --quiet")
        .env("CHROMIUM", &chromium)
        .run()?;
    // Release builds (the benchmark's, the browser's) run wasm-opt: install it first.
    js_tools::wasm_opt(sh)?;
    // Smoke only: speed is never asserted by a timed test.
    cmd!(sh, "cargo xtask bench --quick").run()?;
    typescript::test_types(sh, None)?;
    browser::test_browser(sh, None)?;
    packages::test_packages(sh)?;
    bundlers::test_bundlers(sh)?;
    workers::test_workers(sh)?;
    runtimes::test_runtimes(sh)?;
    // The README's other command: the bundled example must keep running in every commit.
    example(sh)?;
    // Last, so node's test summary closes the output.
    test_node(sh, None)
}

pub fn test_node(sh: &Shell, filter: Option<&str>) -> Result<()> {
    let bridge = install_cargo_bridge(sh)?;
    let root = fixtures::project_root();
    let mut suites = Vec::new();
    for f in FIXTURES {
        if filter.is_some_and(|filter| !f.package.contains(filter)) {
            continue;
        }
        build_fixture(sh, &bridge, &root.join(f.manifest), Some(f.package), false)?;
        let tests = root.join(f.dir).join("tests");
        if !tests.is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(&tests)? {
            let file = entry?.path();
            if file.to_string_lossy().ends_with(".test.mjs") {
                suites.push(file.display().to_string());
            }
        }
    }
    if suites.is_empty() {
        bail!("no node test suites matched");
    }
    suites.sort();
    // A suite that builds a package itself runs the same binary.
    cmd!(sh, "node --expose-gc --test {suites...}")
        .env("CARGO_BRIDGE_EXE", &bridge.exe)
        .run()?;
    Ok(())
}

pub fn example(sh: &Shell) -> Result<()> {
    let bridge = install_cargo_bridge(sh)?;
    let root = fixtures::project_root();
    let manifest = root.join("fixtures/Cargo.toml");
    build_fixture(sh, &bridge, &manifest, Some("example"), true)?;
    cmd!(sh, "node fixtures/example/main.mjs").run()?;
    Ok(())
}
