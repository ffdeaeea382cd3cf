//! `cargo xtask soak`: millions of mixed operations per identity mode in one Node
//! process (`xtask/soak/soak.mjs`, through the runtime model fuzz): memory flat after
//! warm-up, nothing live at the end. The figures go into `docs/reliability.md` by hand.

use crate::fixtures::{self, build_fixture, install_cargo_bridge};
use anyhow::Result;
use clap::Args;
use xshell::{Shell, cmd};

#[derive(Args)]
pub struct SoakArgs {
    /// Operations per identity mode
    #[arg(long, default_value_t = 10_000_000)]
    ops: u64,
}

pub fn run(sh: &Shell, args: &SoakArgs) -> Result<()> {
    let bridge = install_cargo_bridge(sh)?;
    let manifest = fixtures::project_root().join("fixtures/Cargo.toml");
    // Release glue and wasm: what ships.
    build_fixture(sh, &bridge, &manifest, Some("identity"), true)?;
    let ops = args.ops.to_string();
    cmd!(sh, "node --expose-gc xtask/soak/soak.mjs {ops}").run()?;
    Ok(())
}
