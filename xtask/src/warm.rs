//! Warming `cargo bridge`'s tool cache before the tests need it: `cargo xtask test` starts
//! the wasm-bindgen CLI install on a thread at its very start, so the few minutes of
//! `cargo install` overlap fmt and clippy instead of stalling the first CLI test that
//! builds a crate linking wasm-bindgen (`cargo-bridge/tests/with_wasm_bindgen.rs`).
//!
//! It fills the cache as `cargo-bridge/src/wasm_bindgen/cli.rs` does (same directory,
//! same lock file, same `cargo install` flags, a staging directory renamed when complete),
//! so a build that wants the CLI meanwhile waits on the lock and then finds it installed;
//! only compiled without optimizations ([`UNOPTIMIZED`]), which is a third of the CPU.

use crate::fixtures::{bridge_home, project_root};
use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::Command;

/// The wasm-bindgen version `fixtures/wasm-bindgen` is locked to (the bench peer pins the
/// same one).
pub fn wasm_bindgen_version() -> Result<String> {
    let lock = project_root().join("fixtures/wasm-bindgen/Cargo.lock");
    let text =
        std::fs::read_to_string(&lock).with_context(|| format!("reading {}", lock.display()))?;
    locked_version(&text, "wasm-bindgen")
        .with_context(|| format!("{} locks no wasm-bindgen version", lock.display()))
}

/// The `version` of package `name` in a Cargo.lock's text.
fn locked_version(lock: &str, name: &str) -> Option<String> {
    let wanted = format!("name = \"{name}\"");
    let mut lines = lock.lines().map(str::trim);
    while let Some(line) = lines.next() {
        if line == wanted {
            let version = lines.next()?.strip_prefix("version = \"")?;
            return Some(version.strip_suffix('"')?.to_string());
        }
    }
    None
}

/// The release profile's `opt-level` of the CLI this install compiles: 0. Measured on one
/// core (CPU seconds of the cold `cargo install`, 150 crates): 350 at cargo's default 3,
/// 297 at 1, 133 at 0; the unoptimized CLI writes the same files, in 0.8 s rather than
/// 0.2 s for the largest module the tests give it (`fixtures/wasm-bindgen`'s debug build),
/// and the tests run it a dozen times. Debug assertions stay off (the release profile's).
const UNOPTIMIZED: &str = "0";

/// Install the wasm-bindgen CLI of fixtures/wasm-bindgen's version into the bridge home
/// unless it is there; quiet (cargo's output goes to a log file named on failure).
pub fn wasm_bindgen_cli() -> Result<()> {
    let version = wasm_bindgen_version()?;
    // `cargo bridge` uses a CLI the user names, or the one on PATH, before its cache.
    if std::env::var_os("CARGO_BRIDGE_WASM_BINDGEN").is_some()
        || cli_version(Path::new("wasm-bindgen")).as_deref() == Some(&version)
    {
        return Ok(());
    }
    let home = bridge_home();
    let dir = home.join(format!("wasm-bindgen-cli-{version}"));
    let program = dir.join("bin/wasm-bindgen");
    if cli_version(&program).as_deref() == Some(&version) {
        return Ok(());
    }
    std::fs::create_dir_all(&home).with_context(|| format!("creating {}", home.display()))?;
    let lock = std::fs::File::create(home.join(format!("wasm-bindgen-cli-{version}.lock")))?;
    lock.lock()
        .with_context(|| format!("locking {}", home.display()))?;
    if cli_version(&program).as_deref() == Some(&version) {
        return Ok(());
    }
    let staging = home.join(format!(
        "wasm-bindgen-cli-{version}.partial-{}",
        std::process::id()
    ));
    let log_path = home.join(format!("wasm-bindgen-cli-{version}.install.log"));
    let log = std::fs::File::create(&log_path)?;
    eprintln!(
        "installing wasm-bindgen-cli {version} in the background (first use; log: {})",
        log_path.display()
    );
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["install", "wasm-bindgen-cli", "--version"])
        .arg(format!("={version}"))
        // As `cargo bridge` installs it (`INSTALL_ONLY_THE_CLI` in
        // cargo-bridge/src/wasm_bindgen/cli.rs): the one binary, no TLS feature.
        .args(["--no-default-features", "--bin", "wasm-bindgen"])
        // But not optimized (`UNOPTIMIZED`): this compile shares the cores with clippy
        // and the test build.
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", UNOPTIMIZED)
        .arg("--root")
        .arg(&staging)
        .stdout(log.try_clone()?)
        .stderr(log)
        .status()
        .context("running `cargo install wasm-bindgen-cli`")?;
    if !status.success() {
        let _ = std::fs::remove_dir_all(&staging);
        bail!(
            "`cargo install wasm-bindgen-cli --version ={version}` failed ({status}); see {}",
            log_path.display()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::rename(&staging, &dir)
        .with_context(|| format!("moving {} to {}", staging.display(), dir.display()))?;
    Ok(())
}

/// What `<program> --version` says after `wasm-bindgen `, if it runs.
fn cli_version(program: &Path) -> Option<String> {
    let output = Command::new(program).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    Some(
        text.strip_prefix("wasm-bindgen ")?
            .split_whitespace()
            .next()?
            .to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_locked_version_is_read_from_the_package_entry() {
        let lock = "[[package]]\nname = \"wasm-bindgen-macro\"\nversion = \"0.2.1\"\n\n\
                    [[package]]\nname = \"wasm-bindgen\"\nversion = \"0.2.130\"\n";
        assert_eq!(
            locked_version(lock, "wasm-bindgen").as_deref(),
            Some("0.2.130")
        );
        assert_eq!(locked_version(lock, "walrus"), None);
    }

    #[test]
    fn the_fixture_is_locked_to_one_version() {
        let version = wasm_bindgen_version().unwrap();
        assert!(version.starts_with("0.2."), "{version}");
    }
}
