//! `cargo xtask bench` (being written).

use anyhow::Result;
use xshell::Shell;

#[derive(clap::Args)]
pub struct BenchArgs {}

pub fn run(_sh: &Shell, _args: &BenchArgs) -> Result<()> {
    anyhow::bail!("not implemented yet")
}
