//! The test and example tasks.

use crate::fixtures::{self, build_fixture, install_cargo_bridge};
use anyhow::{Result, bail};
use xshell::{Shell, cmd};

/// Fixture packages the node suites import: (package, workspace manifest).
const FIXTURES: &[(&str, &str)] = &[
    ("kitchen-sink", "fixtures/Cargo.toml"),
    ("identity", "fixtures/Cargo.toml"),
    ("rust-default", "fixtures/Cargo.toml"),
    ("linked-app", "fixtures/Cargo.toml"),
    ("bench", "fixtures/Cargo.toml"),
    ("ws-default", "fixtures/ws-default/Cargo.toml"),
];

pub fn test_all(sh: &Shell) -> Result<()> {
    cmd!(sh, "cargo fmt --all -- --check").run()?;
    cmd!(sh, "cargo clippy --workspace --all-targets --quiet -- -D warnings").run()?;
    cmd!(sh, "cargo test --workspace --quiet").run()?;
    test_node(sh, None)
}

pub fn test_node(sh: &Shell, filter: Option<&str>) -> Result<()> {
    let path = install_cargo_bridge(sh)?;
    let root = fixtures::project_root();
    let mut suites = Vec::new();
    for (package, manifest) in FIXTURES {
        if filter.is_some_and(|f| !package.contains(f)) {
            continue;
        }
        build_fixture(sh, &path, &root.join(manifest), Some(package), false)?;
        let dir = root.join(manifest).parent().unwrap().join(if *manifest == "fixtures/Cargo.toml" { package } else { "" });
        let tests = dir.join("tests");
        if tests.is_dir() {
            for entry in std::fs::read_dir(&tests)? {
                let file = entry?.path();
                if file.to_string_lossy().ends_with(".test.mjs") {
                    suites.push(file.display().to_string());
                }
            }
        }
    }
    if suites.is_empty() {
        bail!("no node test suites matched");
    }
    suites.sort();
    cmd!(sh, "node --expose-gc --test {suites...}").env("PATH", &path).run()?;
    Ok(())
}

pub fn example(sh: &Shell) -> Result<()> {
    let path = install_cargo_bridge(sh)?;
    let root = fixtures::project_root();
    build_fixture(sh, &path, &root.join("fixtures/Cargo.toml"), Some("example"), true)?;
    cmd!(sh, "node fixtures/example/main.mjs").run()?;
    Ok(())
}
