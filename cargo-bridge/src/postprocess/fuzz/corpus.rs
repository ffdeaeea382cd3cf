//! The modules the fuzzer mutates: real fixture crates built for wasm32 (release, so each
//! case parses ~100 KB, not megabytes of debug info), built once per test process.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Fixture packages of `fixtures/` whose modules seed the fuzzer.
const FIXTURES: [&str; 3] = ["kitchen-sink", "identity", "data"];

/// `(file name, bytes)` of each fixture module, as `cargo build` left it.
pub fn modules() -> &'static [(String, Vec<u8>)] {
    static MODULES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    MODULES.get_or_init(build)
}

/// Crate name → directory, for the JS snippet files the fixtures import.
pub fn package_dirs() -> &'static BTreeMap<String, PathBuf> {
    static DIRS: OnceLock<BTreeMap<String, PathBuf>> = OnceLock::new();
    DIRS.get_or_init(|| {
        FIXTURES
            .iter()
            .map(|package| (package.to_string(), fixtures_dir().join(package)))
            .collect()
    })
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cargo-bridge lives in the repository root")
        .join("fixtures")
}

fn build() -> Vec<(String, Vec<u8>)> {
    let dir = fixtures_dir();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "--quiet", "--release", "--lib"])
        .args(["--target", crate::build::cargo::WASM_TARGET])
        .arg("--manifest-path")
        .arg(dir.join("Cargo.toml"));
    for package in FIXTURES {
        cmd.args(["--package", package]);
    }
    let status = cmd
        .status()
        .expect("run cargo to build the fuzz corpus (fixture crates for wasm32)");
    assert!(
        status.success(),
        "building the fuzz corpus ({FIXTURES:?} for wasm32) failed"
    );
    FIXTURES
        .iter()
        .map(|package| {
            let file = format!("{}.wasm", package.replace('-', "_"));
            let path = dir
                .join("target")
                .join(crate::build::cargo::WASM_TARGET)
                .join("release")
                .join(&file);
            let bytes = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("reading the fuzz corpus {}: {e}", path.display()));
            (file, bytes)
        })
        .collect()
}
