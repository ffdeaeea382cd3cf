//! `cargo xtask fuzz`: the long fuzz runs (`cargo xtask test` runs each for seconds).
//! - build side: the proptest of the post-process on mutated fixture modules
//!   (`cargo-bridge/src/postprocess/fuzz.rs`);
//! - runtime side: the model-based fuzz of the identity fixture
//!   (`fixtures/identity/tests/model.mjs`, driven by `xtask/fuzz/runtime.mjs`).

use crate::fixtures::{self, build_fixture, install_cargo_bridge};
use anyhow::Result;
use clap::{Args, ValueEnum};
use xshell::{Shell, cmd};

#[derive(Args)]
pub struct FuzzArgs {
    /// Minutes per side
    #[arg(long, default_value_t = 10)]
    minutes: u64,
    /// Fuzz only one side
    #[arg(long, value_enum)]
    only: Option<Side>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Side {
    /// `cargo bridge`'s post-process on mutated modules
    Build,
    /// The JS runtime against a reference model
    Runtime,
}

pub fn run(sh: &Shell, args: &FuzzArgs) -> Result<()> {
    let seconds = (args.minutes * 60).to_string();
    if args.only.is_none_or(|s| s == Side::Build) {
        cmd!(
            sh,
            "cargo test --quiet --package cargo-bridge postprocess::fuzz::mutated -- --nocapture"
        )
        .env("BRIDGE_FUZZ_SECONDS", &seconds)
        .env("RUST_BACKTRACE", "0")
        .run()?;
    }
    if args.only.is_none_or(|s| s == Side::Runtime) {
        let bridge = install_cargo_bridge(sh)?;
        let manifest = fixtures::project_root().join("fixtures/Cargo.toml");
        build_fixture(sh, &bridge, &manifest, Some("identity"), false)?;
        cmd!(sh, "node --expose-gc xtask/fuzz/runtime.mjs {seconds}").run()?;
    }
    Ok(())
}
