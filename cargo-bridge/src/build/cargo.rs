//! Running `cargo build --target wasm32-unknown-unknown` (installing the target with rustup
//! when it is missing) and finding the `.wasm` each crate produced.
//!
//! Also every crate's `.rlib`, for `import_check.rs` (this directory).

use crate::build::import_check::CrateArtifact;
use crate::cli::Profile;
use crate::progress::Step;
use crate::settings::workspace::{BridgeCrate, Workspace};
use anyhow::{Context, Result, bail};
use cargo_metadata::{Artifact, CrateType, Message};
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub use crate::settings::workspace::WASM_TARGET;

/// Make sure the standard library for wasm32 is installed.
pub fn ensure_wasm_target(quiet: bool) -> Result<()> {
    if target_installed()? {
        return Ok(());
    }
    if !quiet {
        eprintln!(
            "  Installing the {WASM_TARGET} target with `rustup target add {WASM_TARGET}` (one-time)"
        );
    }
    let status = Command::new("rustup")
        .args(["target", "add", WASM_TARGET])
        .status()
        .with_context(|| {
            format!(
                "the {WASM_TARGET} target is missing and `rustup` could not be run; install the \
                 target for your toolchain (with rustup: `rustup target add {WASM_TARGET}`)"
            )
        })?;
    if !status.success() {
        bail!("`rustup target add {WASM_TARGET}` failed ({status}); run it by hand to see why");
    }
    Ok(())
}

fn target_installed() -> Result<bool> {
    if cargos_toolchain_has_target(std::env::var_os("CARGO"), std::env::var_os("RUSTC")) {
        return Ok(true);
    }
    let out = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .args(["--print", "sysroot"])
        .output()
        .context("running `rustc --print sysroot`")?;
    let sysroot = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    Ok(has_target(&sysroot))
}

fn has_target(sysroot: &Path) -> bool {
    sysroot
        .join("lib/rustlib")
        .join(WASM_TARGET)
        .join("lib")
        .is_dir()
}

/// Whether the toolchain of the cargo that runs `cargo bridge` (`$CARGO`, e.g.
/// `~/.rustup/toolchains/stable-…/bin/cargo`) has the target, seen without running
/// anything: that toolchain's rustc, beside its cargo, is the one cargo compiles with when
/// `$RUSTC` names none, and its sysroot is the toolchain's directory. This saves a
/// `rustc --print sysroot` per build (a fixed cost of every rebuild); any other layout
/// (no `$CARGO`, a `$RUSTC`, a cargo without a rustc beside it) asks rustc.
fn cargos_toolchain_has_target(
    cargo: Option<std::ffi::OsString>,
    rustc: Option<std::ffi::OsString>,
) -> bool {
    if rustc.is_some() {
        return false;
    }
    let Some(cargo) = cargo.map(PathBuf::from) else {
        return false;
    };
    let Some(bin) = cargo.parent() else {
        return false;
    };
    let rustc = bin.join(format!("rustc{}", std::env::consts::EXE_SUFFIX));
    match bin.parent() {
        Some(toolchain) if bin.ends_with("bin") && rustc.is_file() => has_target(toolchain),
        _ => false,
    }
}

/// What a build produced.
pub struct Built {
    pub wasm: PathBuf,
    /// Every library crate compiled into it (for naming the crate behind an import).
    pub crates: Vec<CrateArtifact>,
}

/// Which of a crate's targets a build compiles.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Unit<'a> {
    /// The library, for its package.
    Package,
    /// The library's unit tests (`cargo rustc --lib --profile test`).
    LibTests,
    /// The integration test `tests/<name>.rs` (`cargo rustc --test <name>`).
    IntegrationTest(&'a str),
}

/// Build `krate` for wasm32 and return the path of its `.wasm`.
/// `profile`: cargo's `--release` for an optimized one; `cargo_args`: the feature flags
/// and the arguments given after `--`; `tests`: the crate's unit-test build instead (see
/// [`build_unit`]).
pub fn build(
    ws: &Workspace,
    krate: &BridgeCrate,
    profile: Profile,
    cargo_args: &[String],
    tests: bool,
    quiet: bool,
) -> Result<Built> {
    let unit = if tests { Unit::LibTests } else { Unit::Package };
    build_unit(ws, krate, profile, cargo_args, unit, quiet)
}

/// [`build`] of one `unit`. A test unit is compiled as `cargo test` compiles it
/// (`cfg(test)`, the dev-dependencies): a wasm "executable" whose `#[bridge::test]`s are
/// exports, with `-- --cfg bridge_test` too, so crates that gated their tests on it (the
/// only cfg `cargo bridge test` set before) still build them. Only the crate itself gets
/// the flags: its dependencies are shared with the package build.
pub fn build_unit(
    ws: &Workspace,
    krate: &BridgeCrate,
    profile: Profile,
    cargo_args: &[String],
    unit: Unit,
    quiet: bool,
) -> Result<Built> {
    let release = profile.optimized();
    let step = Step::start(
        "Compiling",
        &format!("{} ({WASM_TARGET})", krate.name),
        quiet,
    );
    let mut cmd = command(ws, krate, profile, cargo_args, unit, quiet);
    let mut child = cmd.spawn().context("running `cargo build`")?;
    let stdout = child.stdout.take().expect("piped stdout");
    let mut wasm = None;
    let mut crates = Vec::new();
    for message in Message::parse_stream(BufReader::new(stdout)) {
        match message.context("reading cargo's build messages")? {
            Message::CompilerArtifact(artifact) => {
                step.message(format!("{} ({})", krate.name, artifact.target.name));
                for rlib in artifact
                    .filenames
                    .iter()
                    .filter(|f| f.extension() == Some("rlib"))
                {
                    crates.push(CrateArtifact {
                        name: artifact.target.name.clone(),
                        rlib: rlib.clone().into_std_path_buf(),
                    });
                }
                if let Some(found) = unit_wasm(&artifact, krate, unit) {
                    wasm = found;
                }
            }
            Message::BuildFinished(_) => {}
            _ => {}
        }
    }
    let status = child.wait().context("waiting for `cargo build`")?;
    if !status.success() {
        bail!(
            "`cargo build` of `{}` for {WASM_TARGET} failed; see the compiler errors above",
            krate.name
        );
    }
    let wasm = wasm.unwrap_or_else(|| default_wasm_path(&ws.target_dir, &krate.lib_name, release));
    if !wasm.is_file() {
        bail!(
            "cargo built `{}` but produced no {}; is its lib crate-type \"cdylib\"?",
            krate.name,
            wasm.display()
        );
    }
    step.done("Compiled", &format!("{} ({WASM_TARGET})", krate.name));
    Ok(Built { wasm, crates })
}

/// The cargo command that builds `unit` of `krate` (see [`build_unit`]).
fn command(
    ws: &Workspace,
    krate: &BridgeCrate,
    profile: Profile,
    cargo_args: &[String],
    unit: Unit,
    quiet: bool,
) -> Command {
    let tests = unit != Unit::Package;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.arg(if tests { "rustc" } else { "build" })
        .args(match unit {
            Unit::Package => vec!["--lib"],
            Unit::LibTests => vec!["--lib", "--profile", "test"],
            Unit::IntegrationTest(name) => vec!["--test", name, "--profile", "test"],
        })
        .args(["--target", WASM_TARGET])
        .arg("--manifest-path")
        .arg(&ws.manifest_path)
        .args(["--package", &krate.name])
        .arg("--message-format=json-render-diagnostics")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    if profile.optimized() && !tests {
        cmd.arg("--release");
    }
    // A crate keeping Rust names: the messages its thunks build name members so
    // (`bridge_schema::as_written_variable`; cargo rebuilds it when this changes).
    for package in ws.settings.as_written() {
        cmd.env(bridge_schema::as_written_variable(&package), "1");
    }
    if quiet {
        cmd.arg("--quiet");
    }
    cmd.args(cargo_args);
    if tests {
        cmd.args(["--", "--cfg", "bridge_test"]);
    }
    cmd
}

/// The module of `unit` if `artifact` is it: `Some(None)` when it is but cargo named no
/// file (the default path is then looked at).
fn unit_wasm(artifact: &Artifact, krate: &BridgeCrate, unit: Unit) -> Option<Option<PathBuf>> {
    let tests = unit != Unit::Package;
    let is_lib = artifact.target.name.replace('-', "_") == krate.lib_name;
    let unit_target = match unit {
        Unit::IntegrationTest(name) => artifact.target.name == name,
        _ => is_lib,
    };
    if tests && artifact.profile.test && unit_target {
        Some(artifact.executable.clone().map(|f| f.into_std_path_buf()))
    } else if !tests && is_lib && artifact.target.crate_types.contains(&CrateType::CDyLib) {
        let wasm = artifact
            .filenames
            .iter()
            .find(|f| f.extension() == Some("wasm"));
        Some(wasm.map(|f| f.clone().into_std_path_buf()))
    } else {
        None
    }
}

fn default_wasm_path(target_dir: &Path, lib_name: &str, release: bool) -> PathBuf {
    target_dir
        .join(WASM_TARGET)
        .join(if release { "release" } else { "debug" })
        .join(format!("{lib_name}.wasm"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_is_seen_in_the_toolchain_of_cargo_unless_rustc_is_another() {
        let dir = tempfile::tempdir().unwrap();
        let toolchain = dir.path();
        std::fs::create_dir_all(toolchain.join("bin")).unwrap();
        let exe = std::env::consts::EXE_SUFFIX;
        let cargo = toolchain.join(format!("bin/cargo{exe}"));
        std::fs::write(&cargo, "").unwrap();
        let seen = |rustc: Option<&str>| {
            cargos_toolchain_has_target(Some(cargo.clone().into()), rustc.map(Into::into))
        };
        assert!(!seen(None), "no rustc beside cargo: ask rustc");
        std::fs::write(toolchain.join(format!("bin/rustc{exe}")), "").unwrap();
        assert!(!seen(None), "the target is not installed");
        std::fs::create_dir_all(toolchain.join("lib/rustlib").join(WASM_TARGET).join("lib"))
            .unwrap();
        assert!(seen(None));
        assert!(
            !seen(Some("/elsewhere/rustc")),
            "$RUSTC is another compiler"
        );
        assert!(!cargos_toolchain_has_target(None, None), "no $CARGO");
    }
}
