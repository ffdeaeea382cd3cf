//! Which binaryen `wasm-opt` a build runs, in order:
//! 1. `$CARGO_BRIDGE_WASM_OPT`, a `wasm-opt` the user names (any version: their choice);
//! 2. `wasm-opt` on `PATH`, if it is binaryen [`MIN_VERSION`] or newer;
//! 3. npm's `binaryen` package, version [`PINNED`], in the shared bridge home
//!    (`<home>/binaryen-<version>/`), installed there with `npm` on first use, once per
//!    machine (serialized by a lock file, landed with a rename, as the wasm-bindgen CLI).
//!
//! Why: rustc ≥ 1.87 emits bulk-memory, sign-ext, non-trapping float-to-int, reference
//! types and multi-value by default, and names them in `target_features` with names
//! binaryen learnt only in 2025 (`bulk-memory-opt`, `call-indirect-overlong`); Debian's
//! binaryen (108) rejects such modules (`invalid code after misc prefix`). npm's
//! `binaryen` runs binaryen compiled to wasm under Node, which every user of a JS package
//! has: no native download per platform, one pinned version everywhere (2-3× slower than
//! native; only optimized builds pay).

use crate::progress::Step;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Names a `wasm-opt` to use instead of searching.
pub const ENV_OVERRIDE: &str = "CARGO_BRIDGE_WASM_OPT";
/// The npm `binaryen` cargo bridge installs.
pub const PINNED: &str = "132.0.0";
/// The oldest binaryen on PATH that is used: the first that knows every feature name
/// rustc writes in `target_features` (108 does not; 132 is the one tested).
pub const MIN_VERSION: u32 = 123;

/// A `wasm-opt` and its binaryen version.
pub struct WasmOpt {
    pub program: PathBuf,
    pub version: u32,
}

/// The `wasm-opt` to run, installing the pinned one if no other fits.
pub fn find(quiet: bool) -> Result<WasmOpt> {
    if let Some(path) = std::env::var_os(ENV_OVERRIDE) {
        let program = PathBuf::from(path);
        let Some(version) = version_of(&program) else {
            bail!(
                "{ENV_OVERRIDE}={} does not run as binaryen's wasm-opt (`--version` failed); \
                 point it at a wasm-opt, or unset it to let cargo bridge pick one",
                program.display()
            );
        };
        return Ok(WasmOpt { program, version });
    }
    let on_path = version_of(Path::new("wasm-opt"));
    if let Some(version) = on_path
        && version >= MIN_VERSION
    {
        return Ok(WasmOpt {
            program: PathBuf::from("wasm-opt"),
            version,
        });
    }
    let home = crate::scaffold::bridge_home()?;
    let dir = home.join(format!("binaryen-{PINNED}"));
    let program = dir.join("node_modules/binaryen/bin/wasm-opt");
    // The directory names the version: not asked again (`--version` starts Node and
    // loads binaryen, ~0.4 s of CPU per build).
    if program.is_file() {
        return Ok(WasmOpt {
            program,
            version: pinned_major(),
        });
    }
    let why = match on_path {
        Some(version) => format!(
            "the wasm-opt on PATH is binaryen {version}, older than {MIN_VERSION}, which \
             rustc's modules need"
        ),
        None => "there is no wasm-opt on PATH".to_string(),
    };
    install(&home, &dir, &why, quiet)?;
    match version_of(&program) {
        Some(version) => Ok(WasmOpt { program, version }),
        None => bail!(
            "{} does not run after installing npm's binaryen {PINNED} (is `node` on PATH?); \
             remove {} and build again",
            program.display(),
            dir.display()
        ),
    }
}

/// The bridge home, created, locked for this process (held until the guard drops) so
/// that one build at a time installs.
fn lock_home(home: &Path) -> Result<std::fs::File> {
    std::fs::create_dir_all(home).with_context(|| {
        format!(
            "creating {}; set CARGO_BRIDGE_HOME to a writable directory",
            home.display()
        )
    })?;
    let lock = std::fs::File::create(home.join(format!("binaryen-{PINNED}.lock")))
        .with_context(|| format!("creating a lock file in {}", home.display()))?;
    lock.lock()
        .with_context(|| format!("locking {}", home.display()))?;
    Ok(lock)
}

/// `npm install binaryen@PINNED` into `prefix`.
fn npm_install(prefix: &Path) -> std::io::Result<std::process::Output> {
    let npm = if cfg!(windows) { "npm.cmd" } else { "npm" };
    Command::new(npm)
        .args([
            "install",
            "--no-save",
            "--no-package-lock",
            "--no-audit",
            "--no-fund",
        ])
        .args(["--loglevel=error", "--prefix"])
        .arg(prefix)
        .arg(format!("binaryen@{PINNED}"))
        .stdin(Stdio::null())
        .output()
}

/// `npm install binaryen@<PINNED>` into a staging directory beside `dir`, renamed to it.
fn install(home: &Path, dir: &Path, why: &str, quiet: bool) -> Result<()> {
    let fix = format!(
        "install binaryen {MIN_VERSION} or newer so that `wasm-opt` on PATH is it (e.g. \
         `npm install -g binaryen@{PINNED}`), or set {ENV_OVERRIDE} to such a wasm-opt, or \
         turn wasm-opt off for the profile (`wasm-opt = false` in \
         [package.metadata.bridge])"
    );
    let _lock = lock_home(home)?;
    if dir.join("node_modules/binaryen/bin/wasm-opt").is_file() {
        return Ok(()); // another build installed it while this one waited
    }
    let step = Step::start(
        "Installing",
        &format!("npm's binaryen {PINNED} for wasm-opt ({why}; once per machine)"),
        quiet,
    );
    let staging = dir.with_file_name(format!("binaryen-{PINNED}.partial-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging).with_context(|| format!("creating {}", staging.display()))?;
    let output = match npm_install(&staging) {
        Ok(output) => output,
        Err(error) => {
            let _ = std::fs::remove_dir_all(&staging);
            bail!(
                "{why}, and npm, with which cargo bridge installs binaryen {PINNED}, does not \
                 run ({error}); {fix}"
            );
        }
    };
    if !output.status.success() {
        let _ = std::fs::remove_dir_all(&staging);
        bail!(
            "{why}, and installing npm's binaryen {PINNED} failed ({}):\n{}\n{fix}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let _ = std::fs::remove_dir_all(dir);
    std::fs::rename(&staging, dir)
        .with_context(|| format!("moving {} to {}", staging.display(), dir.display()))?;
    step.done(
        "Installed",
        &format!("binaryen {PINNED} → {}", dir.display()),
    );
    Ok(())
}

fn pinned_major() -> u32 {
    PINNED
        .split('.')
        .next()
        .and_then(|major| major.parse().ok())
        .expect("PINNED starts with a number")
}

/// The binaryen version `<program> --version` reports (`wasm-opt version 132
/// (version_132)`), if it runs.
pub fn version_of(program: &Path) -> Option<u32> {
    let output = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    parse_version(&String::from_utf8_lossy(&output.stdout))
}

fn parse_version(text: &str) -> Option<u32> {
    let rest = text.trim().strip_prefix("wasm-opt version ")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::parse_version;

    #[test]
    fn reads_binaryens_version_lines() {
        assert_eq!(
            parse_version("wasm-opt version 132 (version_132)\n"),
            Some(132)
        );
        assert_eq!(parse_version("wasm-opt version 108\n"), Some(108));
        assert_eq!(parse_version("wasm-bindgen 0.2.130"), None);
        assert_eq!(parse_version("wasm-opt version unknown"), None);
    }
}
