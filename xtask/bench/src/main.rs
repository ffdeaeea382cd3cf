//! `bridge-bench`: cargo-bridge's benchmark, a product of its own (its readers:
//! `docs/benchmarks.md`). `cargo xtask bench` and `cargo xtask bench-browser` run this
//! binary with their arguments (`xtask/src/lib.rs`); it shares with the test runner only
//! what the `xtask` library exports (the project root, building fixtures with this
//! checkout's cargo-bridge, the JS tools).
//!
//! Rust plans, runs processes and reports; Node measures (`xtask/bench/*.mjs`, beside this
//! crate). Imports run one way: `run` → `plan` → `flags`, and every module → `report` →
//! `scenarios` → `model`; `runner`, `machine`, `size`, `size_without`, `alongside`,
//! `build_cost`, `build_plain` (→ `cpu`), `peer` → `model`; `size`, `size_without`, `alongside` →
//! `opt_cache`. The report measures nothing and runs nothing; the runner
//! knows no table; the model knows no other module. Adding a scenario: `scenarios.rs`.

mod alongside;
mod browser;
mod build_cost;
mod build_plain;
mod cpu;
mod flags;
mod machine;
mod model;
mod opt_cache;
mod peer;
mod plan;
mod report;
mod run;
mod runner;
mod scenarios;
mod size;
mod size_without;

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    about = "cargo-bridge's benchmark"
)]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Identity benchmarks: every scenario × mode against a floor (see docs/benchmarks.md)
    Bench(flags::BenchArgs),
    /// The identity scenarios in headless Chromium: rust mode vs wasm-bindgen (ratios)
    BenchBrowser(browser::BenchBrowserArgs),
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    let sh = xshell::Shell::new()?;
    sh.change_dir(xtask::fixtures::project_root());
    // The sections run `wasm-opt -O` by hand beside cargo-bridge's: the same binaryen.
    xtask::js_tools::wasm_opt(&sh)?;
    match cli.task {
        Task::Bench(args) => run::run(&sh, &args),
        Task::BenchBrowser(args) => browser::run(&sh, &args),
    }
}
