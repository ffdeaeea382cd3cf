//! The clippy phase of `cargo xtask test` (alone, and with every fixture workspace:
//! `cargo xtask clippy`): the root workspace for the host, every target, and the fixture
//! crates for wasm32, the target they are built for. Only that check sees their `cfg(target_arch = "wasm32")` code and,
//! above all, the code `#[bridge]` generates in a user's crate for wasm32: a lint there is
//! a bug in the macro (generated code must be clippy-clean in user crates).

use crate::fixtures::fixtures_target_dir;
use anyhow::{Context, Result, bail};
use std::path::PathBuf;
use xshell::{Shell, cmd};

/// The workspaces of the fixture crates, each checked for wasm32: every workspace a
/// [`FIXTURES`](crate::fixtures::FIXTURES) entry belongs to (a test pins it; `fixtures/`
/// also has members no suite imports: `linked-a`, `linked-b`, `example`), and the demo.
pub const WASM_WORKSPACES: &[WasmWorkspace] = &[
    WasmWorkspace {
        manifest: "fixtures/Cargo.toml",
        in_test_run: true,
    },
    WasmWorkspace {
        manifest: "fixtures/ws-default/Cargo.toml",
        in_test_run: true,
    },
    // Its check compiles web-sys, js-sys and the rest of wasm-bindgen's crates in check
    // mode, which no later build reuses: ~145 s on a cold cache, so the test run leaves
    // it to `cargo xtask clippy` (its own code is a few interop functions).
    WasmWorkspace {
        manifest: "fixtures/wasm-bindgen/Cargo.toml",
        in_test_run: false,
    },
    // A plain wasm-bindgen crate (no macro code to lint), over js-sys: the same.
    WasmWorkspace {
        manifest: "fixtures/wasm-pack/Cargo.toml",
        in_test_run: false,
    },
    // A class moved from wasm-bindgen to the macro: checked by `cargo xtask clippy` only,
    // like the other crates linking wasm-bindgen.
    WasmWorkspace {
        manifest: "fixtures/moved-class/Cargo.toml",
        in_test_run: false,
    },
    // Not a fixture: the demo, a user crate of the macro too.
    WasmWorkspace {
        manifest: "examples/outline/Cargo.toml",
        in_test_run: true,
    },
];

/// A workspace the clippy phase checks for wasm32.
pub struct WasmWorkspace {
    pub manifest: &'static str,
    /// Checked by `cargo xtask test` too (all are checked by `cargo xtask clippy`).
    pub in_test_run: bool,
}

/// Which fixture workspaces a clippy run checks for wasm32.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scope {
    /// The ones the test run checks (`WasmWorkspace::in_test_run`).
    TestRun,
    /// Every one (`cargo xtask clippy`).
    All,
}

pub fn run(sh: &Shell, scope: Scope) -> Result<()> {
    cmd!(
        sh,
        "cargo clippy --workspace --all-targets --quiet -- -D warnings"
    )
    .run()?;
    wasm_workspaces(sh, scope)
}

/// The fixture workspaces of `scope`, each checked for wasm32 (the second half of [`run`]).
pub fn wasm_workspaces(sh: &Shell, scope: Scope) -> Result<()> {
    wasm_target(sh)?;
    // In the fixtures' own target directory: the host half (the macro, build scripts) is
    // the one their builds compiled, and nothing there is rebuilt by a check.
    for workspace in WASM_WORKSPACES {
        if scope == Scope::TestRun && !workspace.in_test_run {
            continue;
        }
        let manifest = workspace.manifest;
        cmd!(
            sh,
            "cargo clippy --manifest-path {manifest} --workspace --target wasm32-unknown-unknown --quiet -- -D warnings"
        )
        .env("CARGO_TARGET_DIR", fixtures_target_dir())
        .run()
        .with_context(|| format!("clippy of {manifest} for wasm32-unknown-unknown"))?;
    }
    Ok(())
}

/// Clippy's lints on the root workspace in the test build itself: `cargo test` compiles
/// the workspace's crates with `clippy-driver` as cargo's workspace wrapper, the compiler
/// `cargo clippy` runs, with the same arguments (`-D warnings`) on the same targets (those
/// of `cargo clippy --workspace --all-targets`), so a lint fails the build as it fails
/// `cargo clippy`. The
/// dependencies are compiled once, for the tests, where `cargo clippy` beside the test
/// build compiled every one of them a second time in check mode (a fresh clone: ~150 CPU
/// seconds). The wrapper is part of the units' hash (`-C metadata`), so these builds keep
/// their own copies of the workspace's crates and never invalidate a plain `cargo build`'s.
pub struct LintedBuild {
    driver: PathBuf,
}

/// `CLIPPY_ARGS` for `-- -D warnings`, in the form `cargo clippy` hands it to
/// `clippy-driver` (each argument followed by the separator).
const CLIPPY_ARGS: &str = "-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__";

impl LintedBuild {
    /// `clippy-driver` of the toolchain `rustc` belongs to (beside it in the sysroot's
    /// `bin/`, where `cargo clippy` finds it too).
    pub fn find(sh: &Shell) -> Result<LintedBuild> {
        let sysroot = cmd!(sh, "rustc --print sysroot").read()?;
        let driver = PathBuf::from(sysroot.trim())
            .join("bin")
            .join(format!("clippy-driver{}", std::env::consts::EXE_SUFFIX));
        if !driver.is_file() {
            bail!(
                "no clippy-driver at {}: the test build lints with it (install clippy: \
                 `rustup component add clippy`)",
                driver.display()
            );
        }
        Ok(LintedBuild { driver })
    }

    /// The arguments that make a root-workspace `cargo` command build with the lints: a
    /// `--config` (not `RUSTC_WORKSPACE_WRAPPER`, which the test processes would inherit
    /// and hand on to the `cargo build`s of the crates they make).
    pub fn args(&self) -> Result<[String; 2]> {
        let path = self.driver.to_str().with_context(|| {
            format!(
                "clippy-driver's path is not UTF-8: {}",
                self.driver.display()
            )
        })?;
        Ok([
            "--config".to_string(),
            format!(
                "build.rustc-workspace-wrapper={}",
                serde_json::to_string(path)?
            ),
        ])
    }

    /// The variable `clippy-driver` reads its lint arguments from (inert for `rustc`, so a
    /// test process inheriting it changes nothing).
    pub fn env(&self) -> [(&'static str, &'static str); 1] {
        [("CLIPPY_ARGS", CLIPPY_ARGS)]
    }
}

/// `--bin <name>` for every binary of the root workspace but the xtask's: its build would
/// replace `target/debug/xtask`, the file of the running `cargo xtask test` (a binary's
/// copy there is shared by every build of it), whose lane of phases beside the others
/// starts it again (`beside.rs`). Its `main.rs` calls the library's `main` and is linted in
/// its test build (`--tests`); the library is linted as the binary's dependency.
pub fn linted_bins(sh: &Shell) -> Result<Vec<String>> {
    let metadata = cmd!(sh, "cargo metadata --no-deps --format-version 1 --quiet").read()?;
    let metadata: serde_json::Value = serde_json::from_str(&metadata)?;
    Ok(bins_but_the_xtask(&metadata))
}

fn bins_but_the_xtask(metadata: &serde_json::Value) -> Vec<String> {
    let mut args = Vec::new();
    for package in metadata["packages"].as_array().into_iter().flatten() {
        for target in package["targets"].as_array().into_iter().flatten() {
            if target["kind"] == serde_json::json!(["bin"])
                && let Some(name) = target["name"].as_str()
                && package["name"] != "xtask"
            {
                args.extend(["--bin".to_string(), name.to_string()]);
            }
        }
    }
    args
}

/// Install the wasm32 target (nothing when it is there). `cargo xtask test` does it once,
/// before the CLI tests, which run `cargo bridge` in parallel: parallel first-time
/// `rustup target add`s can trip over each other.
pub fn wasm_target(sh: &Shell) -> Result<()> {
    cmd!(sh, "rustup target add wasm32-unknown-unknown")
        .quiet()
        .run()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::FIXTURES;

    #[test]
    fn every_fixture_workspace_is_checked_for_wasm32() {
        for f in FIXTURES {
            assert!(
                WASM_WORKSPACES.iter().any(|w| w.manifest == f.manifest),
                "{} ({}) is in no workspace clippy checks for wasm32",
                f.package,
                f.manifest
            );
        }
        let root = crate::fixtures::project_root();
        for workspace in WASM_WORKSPACES {
            assert!(
                root.join(workspace.manifest).is_file(),
                "{}",
                workspace.manifest
            );
        }
    }

    #[test]
    fn the_linted_build_names_clippy_driver_as_the_workspace_wrapper_and_denies_warnings() {
        let linted = LintedBuild {
            driver: PathBuf::from(r#"/opt/a "b"\c/clippy-driver"#),
        };
        let [flag, value] = linted.args().unwrap();
        assert_eq!(flag, "--config");
        // A TOML string: quotes and backslashes escaped.
        assert_eq!(
            value,
            r#"build.rustc-workspace-wrapper="/opt/a \"b\"\\c/clippy-driver""#
        );
        let [(name, args)] = linted.env();
        assert_eq!(name, "CLIPPY_ARGS");
        // As `cargo clippy -- -D warnings` hands them over: each followed by the separator.
        assert_eq!(
            args.split("__CLIPPY_HACKERY__").collect::<Vec<_>>(),
            ["-D", "warnings", ""]
        );
    }

    #[test]
    fn every_binary_but_the_xtasks_is_linted() {
        let metadata = serde_json::json!({"packages": [
            {"name": "cargo-bridge", "targets": [
                {"name": "cargo-bridge", "kind": ["bin"]},
                {"name": "cli", "kind": ["test"]}]},
            {"name": "xtask", "targets": [
                {"name": "xtask", "kind": ["lib"]},
                {"name": "xtask", "kind": ["bin"]}]},
            {"name": "bridge-bench", "targets": [{"name": "bridge-bench", "kind": ["bin"]}]},
        ]});
        assert_eq!(
            bins_but_the_xtask(&metadata),
            ["--bin", "cargo-bridge", "--bin", "bridge-bench"]
        );
    }

    #[test]
    fn the_test_run_checks_the_macro_fixtures_and_leaves_only_the_wasm_bindgen_ones_out() {
        let skipped: Vec<&str> = WASM_WORKSPACES
            .iter()
            .filter(|w| !w.in_test_run)
            .map(|w| w.manifest)
            .collect();
        assert_eq!(
            skipped,
            [
                "fixtures/wasm-bindgen/Cargo.toml",
                "fixtures/wasm-pack/Cargo.toml",
                "fixtures/moved-class/Cargo.toml"
            ]
        );
    }
}
