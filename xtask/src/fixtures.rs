//! Where things are (the project root, the fixture packages), and building fixture packages
//! with the real `cargo bridge` binary.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use xshell::{Shell, cmd};

/// A fixture package the node suites import.
pub struct Fixture {
    pub package: &'static str,
    /// Manifest of the workspace it belongs to.
    pub manifest: &'static str,
    /// Directory of the package (its `tests/` holds the suites).
    pub dir: &'static str,
}

pub const FIXTURES: &[Fixture] = &[
    in_fixtures("kitchen-sink", "fixtures/kitchen-sink"),
    in_fixtures("data", "fixtures/data"),
    in_fixtures("identity", "fixtures/identity"),
    in_fixtures("rust-default", "fixtures/rust-default"),
    in_fixtures("linked-app", "fixtures/linked-app"),
    in_fixtures("odd-names", "fixtures/odd-names"),
    in_fixtures("bench", "fixtures/bench"),
    in_fixtures("js-interop", "fixtures/js-interop"),
    in_fixtures("js-missing", "fixtures/js-missing"),
    in_fixtures("hostile", "fixtures/hostile"),
    Fixture {
        package: "ws-default",
        manifest: "fixtures/ws-default/Cargo.toml",
        dir: "fixtures/ws-default",
    },
    // Its own workspace: the only fixture that links wasm-bindgen.
    Fixture {
        package: "wbg-interop",
        manifest: "fixtures/wasm-bindgen/Cargo.toml",
        dir: "fixtures/wasm-bindgen",
    },
];

/// A member of the `fixtures/` workspace.
const fn in_fixtures(package: &'static str, dir: &'static str) -> Fixture {
    Fixture {
        package,
        manifest: "fixtures/Cargo.toml",
        dir,
    }
}

pub fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the project root")
        .to_path_buf()
}

/// Build `cargo-bridge` and return a PATH that puts it first, so `cargo bridge` runs it.
pub fn install_cargo_bridge(sh: &Shell) -> Result<String> {
    cmd!(sh, "cargo build --quiet --package cargo-bridge").run()?;
    let bin_dir = project_root().join("target/debug");
    let path = std::env::var("PATH").unwrap_or_default();
    Ok(format!("{}:{path}", bin_dir.display()))
}

/// Where `cargo bridge` keeps the tools it installs (the wasm-bindgen CLI of
/// `fixtures/wasm-bindgen`): `$CARGO_BRIDGE_HOME` if set, else `target/bridge-home`, so a
/// CI run on a fresh clone installs it once and every later build of the run reuses it.
pub fn bridge_home() -> PathBuf {
    std::env::var_os("CARGO_BRIDGE_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| project_root().join("target/bridge-home"))
}

/// `cargo bridge build` one fixture of `fixtures/` (or of its own workspace `dir`).
pub fn build_fixture(
    sh: &Shell,
    path: &str,
    manifest: &Path,
    package: Option<&str>,
    release: bool,
) -> Result<()> {
    let extra: &[&str] = if release { &["--release"] } else { &[] };
    build_fixture_with(sh, path, manifest, package, extra)
}

/// [`build_fixture`] with any `cargo bridge build` arguments (`--target`, `--out-dir`, ...).
pub fn build_fixture_with(
    sh: &Shell,
    path: &str,
    manifest: &Path,
    package: Option<&str>,
    extra: &[&str],
) -> Result<()> {
    let mut args = vec!["bridge".to_string(), "build".into(), "--quiet".into()];
    args.push("--manifest-path".into());
    args.push(manifest.display().to_string());
    if let Some(p) = package {
        args.push("--package".into());
        args.push(p.into());
    }
    args.extend(extra.iter().map(|a| a.to_string()));
    cmd!(sh, "cargo {args...}")
        .env("PATH", path)
        .env("CARGO_BRIDGE_HOME", bridge_home())
        .run()
        .with_context(|| format!("cargo bridge build of {}", package.unwrap_or("fixtures")))
}
