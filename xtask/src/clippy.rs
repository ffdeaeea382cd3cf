//! The clippy phase of `cargo xtask test` (alone: `cargo xtask clippy`): the root
//! workspace for the host, every target, and the fixture crates for wasm32, the target
//! they are built for. Only that check sees their `cfg(target_arch = "wasm32")` code and,
//! above all, the code `#[bridge]` generates in a user's crate for wasm32: a lint there is
//! a bug in the macro (generated code must be clippy-clean in user crates).

use crate::fixtures::fixtures_target_dir;
use anyhow::{Context, Result};
use xshell::{Shell, cmd};

/// The workspaces of the fixture crates, each checked for wasm32: every workspace a
/// [`FIXTURES`](crate::fixtures::FIXTURES) entry belongs to (a test pins it; `fixtures/`
/// also has members no suite imports: `linked-a`, `linked-b`, `example`), and the demo.
pub const WASM_WORKSPACES: &[&str] = &[
    "fixtures/Cargo.toml",
    "fixtures/ws-default/Cargo.toml",
    "fixtures/wasm-bindgen/Cargo.toml",
    // Not a fixture: the demo, a user crate of the macro too.
    "examples/outline/Cargo.toml",
];

pub fn run(sh: &Shell) -> Result<()> {
    cmd!(
        sh,
        "cargo clippy --workspace --all-targets --quiet -- -D warnings"
    )
    .run()?;
    cmd!(sh, "rustup target add wasm32-unknown-unknown")
        .quiet()
        .run()?;
    // In the fixtures' own target directory: the host half (the macro, build scripts) is
    // the one their builds compiled, and nothing there is rebuilt by a check.
    for manifest in WASM_WORKSPACES {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::FIXTURES;

    #[test]
    fn every_fixture_workspace_is_checked_for_wasm32() {
        for f in FIXTURES {
            assert!(
                WASM_WORKSPACES.contains(&f.manifest),
                "{} ({}) is in no workspace clippy checks for wasm32",
                f.package,
                f.manifest
            );
        }
        let root = crate::fixtures::project_root();
        for manifest in WASM_WORKSPACES {
            assert!(root.join(manifest).is_file(), "{manifest}");
        }
    }
}
