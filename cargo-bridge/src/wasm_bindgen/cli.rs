//! The `wasm-bindgen` CLI of exactly the crate's locked version (its schema changes with
//! every release; a mismatched CLI refuses the module). In order:
//! 1. `$CARGO_BRIDGE_WASM_BINDGEN`, a CLI the user names: it must be that version;
//! 2. `wasm-bindgen` on `PATH`, if `--version` says that version;
//! 3. the shared cache, `<bridge home>/wasm-bindgen-cli-<version>/bin/wasm-bindgen`
//!    (`$CARGO_BRIDGE_HOME`, else `$CARGO_HOME/bridge`, else `~/.cargo/bridge`), installed
//!    there on first use with `cargo install` (a few minutes, once per version for every
//!    project on the machine). Installs are serialized by a lock file and land with a
//!    rename, so parallel builds neither compile it twice nor see half an install.
//!
//! Why the CLI rather than linking `wasm-bindgen-cli-support`: one cargo-bridge serves
//! crates locked to any wasm-bindgen version, and the version match holds by construction.

use crate::progress::Step;
use anyhow::{Context, Result, bail};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Names a CLI to use instead of searching (it must be the crate's version).
pub const ENV_OVERRIDE: &str = "CARGO_BRIDGE_WASM_BINDGEN";
const PROGRAM: &str = "wasm-bindgen";

/// The path of a `wasm-bindgen` CLI whose version is `version`, installing it if needed.
pub fn find_or_install(version: &str, quiet: bool) -> Result<PathBuf> {
    if let Some(path) = std::env::var_os(ENV_OVERRIDE) {
        let path = PathBuf::from(path);
        return match cli_version(&path) {
            Some(have) if have == version => Ok(path),
            have => bail!(
                "{ENV_OVERRIDE}={} is wasm-bindgen CLI {}, but the crate links wasm-bindgen \
                 {version}, and the two must be the same version; point {ENV_OVERRIDE} at a \
                 {version} CLI (`cargo install wasm-bindgen-cli --version {version}`) or unset \
                 it to let cargo bridge install one",
                path.display(),
                have.unwrap_or_else(|| "of no version (`--version` did not run)".into()),
            ),
        };
    }
    if cli_version(Path::new(PROGRAM)).as_deref() == Some(version) {
        return Ok(PathBuf::from(PROGRAM));
    }
    let home = crate::scaffold::bridge_home()?;
    let dir = home.join(format!("wasm-bindgen-cli-{version}"));
    let program = dir.join("bin").join(PROGRAM);
    if cli_version(&program).as_deref() == Some(version) {
        return Ok(program);
    }
    std::fs::create_dir_all(&home).with_context(|| {
        format!(
            "creating {}; set CARGO_BRIDGE_HOME to a writable directory",
            home.display()
        )
    })?;
    let lock = std::fs::File::create(home.join(format!("wasm-bindgen-cli-{version}.lock")))
        .with_context(|| format!("creating a lock file in {}", home.display()))?;
    lock.lock()
        .with_context(|| format!("locking {}", home.display()))?;
    // Another build may have installed it while this one waited.
    if cli_version(&program).as_deref() != Some(version) {
        // Holding the lock, no other install of this version runs: a staging directory of
        // it is what a killed or crashed install left behind.
        remove_stale_partials(&dir);
        install(version, &dir, quiet)?;
    }
    match cli_version(&program) {
        Some(have) if have == version => Ok(program),
        have => bail!(
            "{} reports version {} after installing wasm-bindgen-cli {version}; remove {} \
             and build again",
            program.display(),
            have.unwrap_or_else(|| "(none)".into()),
            dir.display()
        ),
    }
}

/// What of the `wasm-bindgen-cli` package `cargo bridge` builds: the `wasm-bindgen` binary
/// alone (not the test runner or wasm2es6js), without the default TLS feature (rustls and
/// ring, used only by the test runner's downloads), which is about a third less to compile.
/// The xtask's background install (`xtask/src/warm.rs`) fills its tests' bridge home with the
/// same flags, at opt-level 0 (the tests run it a dozen times; optimizing took 2.6× as long).
const INSTALL_ONLY_THE_CLI: [&str; 3] = ["--no-default-features", "--bin", "wasm-bindgen"];

/// `cargo install`'s output, its progress shown on `step` as it comes.
fn follow(stderr: impl std::io::Read, step: &Step, version: &str) -> Result<Vec<String>> {
    let mut log = Vec::new();
    let mut compiled = 0;
    for line in BufReader::new(stderr).lines() {
        let line = line.context("reading `cargo install`'s output")?;
        if let Some(what) = line.trim_start().strip_prefix("Compiling ") {
            compiled += 1;
            step.message(format!(
                "wasm-bindgen-cli {version}: {compiled} crates compiled, now {what}"
            ));
        }
        log.push(line);
    }
    Ok(log)
}

/// `cargo install wasm-bindgen-cli --version <version>` into a staging directory beside
/// `dir`, renamed to `dir` when complete; progress from cargo's `Compiling` lines.
fn install(version: &str, dir: &Path, quiet: bool) -> Result<()> {
    let staging = staging_dir(dir, std::process::id());
    let _ = std::fs::remove_dir_all(&staging);
    let step = Step::start(
        "Installing",
        &format!("wasm-bindgen-cli {version} (the crate's wasm-bindgen; once per version)"),
        quiet,
    );
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut child = Command::new(&cargo)
        .args(["install", "wasm-bindgen-cli", "--version"])
        .arg(format!("={version}"))
        .args(INSTALL_ONLY_THE_CLI)
        .arg("--root")
        .arg(&staging)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("running `{cargo} install`"))?;
    let stderr = child.stderr.take().expect("piped stderr");
    let log = follow(stderr, &step, version)?;
    let status = child.wait().context("waiting for `cargo install`")?;
    if !status.success() {
        let _ = std::fs::remove_dir_all(&staging);
        let tail: Vec<&str> = log
            .iter()
            .rev()
            .take(12)
            .rev()
            .map(String::as_str)
            .collect();
        bail!(
            "the crate links wasm-bindgen {version}, so cargo bridge needs wasm-bindgen's CLI of \
             that exact version, and installing it failed ({status}):\n{}\n\
             install it yourself with `cargo install wasm-bindgen-cli --version {version}` (it is \
             then found on PATH), or set {ENV_OVERRIDE} to such a CLI; offline, install it once \
             online (cargo bridge caches it in {})",
            tail.join("\n"),
            dir.parent().unwrap_or(dir).display()
        );
    }
    let _ = std::fs::remove_dir_all(dir);
    std::fs::rename(&staging, dir)
        .with_context(|| format!("moving {} to {}", staging.display(), dir.display()))?;
    step.done(
        "Installed",
        &format!("wasm-bindgen-cli {version} → {}", dir.display()),
    );
    Ok(())
}

/// `<dir>.partial-<pid>`: the whole directory name with a suffix (`Path::with_extension`
/// would take the version's last component for an extension: `…-0.2.partial-<pid>`).
fn staging_dir(dir: &Path, pid: u32) -> PathBuf {
    let mut name = dir.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".partial-{pid}"));
    dir.with_file_name(name)
}

/// Removes every staging directory of `dir` (`<dir>.partial-<any pid>`), best effort.
fn remove_stale_partials(dir: &Path) {
    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
        return;
    };
    let prefix = format!("{}.partial-", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let stale = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()));
        if stale {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The version `<program> --version` reports (`wasm-bindgen 0.2.130`), if it runs.
pub fn cli_version(program: &Path) -> Option<String> {
    let output = Command::new(program).arg("--version").output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let mut words = text.split_whitespace();
    (words.next()? == PROGRAM).then_some(())?;
    Some(words.next()?.to_string())
}

#[cfg(test)]
mod tests {
    use super::{remove_stale_partials, staging_dir};
    use std::path::Path;

    #[test]
    fn the_staging_directory_keeps_the_whole_version_in_its_name() {
        let dir = Path::new("/home/u/.cargo/bridge/wasm-bindgen-cli-0.2.130");
        assert_eq!(
            staging_dir(dir, 10088),
            Path::new("/home/u/.cargo/bridge/wasm-bindgen-cli-0.2.130.partial-10088")
        );
    }

    #[test]
    fn stale_staging_directories_of_the_version_are_removed_and_nothing_else() {
        let home = std::env::temp_dir().join(format!("bridge-cli-partials-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&home);
        let dir = home.join("wasm-bindgen-cli-0.2.130");
        let stale = [staging_dir(&dir, 10088), staging_dir(&dir, 7)];
        let kept = [
            home.join("wasm-bindgen-cli-0.2.131.partial-10088"),
            home.join("wasm-bindgen-cli-0.2.130.partial-notes"),
            home.join("wasm-bindgen-cli-0.2.1300.partial-5"),
            dir.join("bin"),
        ];
        for d in stale.iter().chain(&kept) {
            std::fs::create_dir_all(d.join("bin")).unwrap();
            std::fs::write(d.join("bin/wasm-bindgen"), "half an install").unwrap();
        }
        remove_stale_partials(&dir);
        for d in &stale {
            assert!(!d.exists(), "{} is removed", d.display());
        }
        for d in &kept {
            assert!(d.exists(), "{} is kept", d.display());
        }
        std::fs::remove_dir_all(&home).unwrap();
    }
}
