//! Project tasks: `cargo xtask <task>`. See `cargo xtask --help`. The binary (`main.rs`)
//! calls [`main`]; the library also hands the benchmark (`xtask/bench`, crate
//! `bridge-bench`) what it shares with the tests: where things are and building fixtures
//! ([`fixtures`]), the JS tools ([`js_tools`]), running jobs side by side
//! ([`side_by_side`]), the wasm-opt cache ([`wasm_opt_cache`]). `cargo xtask bench` and `bench-browser` run that crate's binary.

mod beside;
mod browser;
mod bundlers;
mod circles;
mod clippy;
mod demo;
mod docs;
pub mod fixtures;
mod fmt;
mod fn_lengths;
mod fuzz;
pub mod js_tools;
mod packages;
mod phases;
mod runtimes;
mod scratch;
pub mod side_by_side;
mod soak;
mod tasks;
mod test_lanes;
mod typescript;
mod warm;
pub mod wasm_opt_cache;
mod workers;

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "cargo xtask", about = "cargo-bridge project tasks")]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Every test: fmt check, clippy (the fixtures for wasm32 too), cargo test, docs, bench smoke, test-types, test-browser, test-packages, test-bundlers, test-workers, test-runtimes, the demo, the example, then test-node
    Test,
    /// The fmt phase of `test` alone: `cargo fmt --all --check` of every Rust workspace in the repo
    Fmt,
    /// The clippy phase of `test` alone, and the wasm-bindgen fixture it leaves out: the root workspace (all targets), every fixture workspace for wasm32
    Clippy,
    /// Build the fixtures with the real `cargo bridge` and run their node:test suites
    TestNode {
        /// Only fixtures whose name contains this (builds only them and the packages their suites name)
        #[arg(long)]
        filter: Option<String>,
    },
    /// Build the fixtures with --target web --release and run their suites in headless Chromium
    TestBrowser {
        /// Only fixtures whose name contains this (builds only them and the packages their suites import)
        #[arg(long)]
        filter: Option<String>,
    },
    /// npm pack + install + import by name (Node, tsc), and a Vite app bundling a --target bundler package, run in Chromium
    TestPackages,
    /// webpack 5 (twice: default, asyncWebAssembly), esbuild and Rollup bundles of a --target bundler package, run in Chromium
    TestBundlers,
    /// The package per worker: two module Web Workers (Chromium, web target) and two worker_threads, own identity tables
    TestWorkers,
    /// Packages in Deno, Bun, Node's require() and Node 18 (--target nodejs-cjs): fixtures' suites and installed packages
    TestRuntimes {
        /// Every Deno/Bun suite (`test` runs a representative subset)
        #[arg(long)]
        all: bool,
    },
    /// Type-check every fixture's .d.ts and tests/usage.mts with tsc --strict (two libs)
    TestTypes {
        /// Only fixtures whose name contains this
        #[arg(long)]
        filter: Option<String>,
    },
    /// Identity benchmarks: every scenario × mode against a floor (see docs/benchmarks.md; `cargo xtask bench --help` for the flags)
    #[command(disable_help_flag = true)]
    Bench {
        /// Passed to the benchmark (`bridge-bench bench`)
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// The identity scenarios in headless Chromium: rust mode vs wasm-bindgen (ratios; `cargo xtask bench-browser --help` for the flags)
    #[command(disable_help_flag = true)]
    BenchBrowser {
        /// Passed to the benchmark (`bridge-bench bench-browser`)
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Long fuzz runs (the short ones are part of `test`); prints the case counts
    Fuzz(fuzz::FuzzArgs),
    /// Millions of mixed operations per identity mode in one process: memory flat, nothing live
    Soak(soak::SoakArgs),
    /// Build the user guide (docs/, mdBook) into target/book/; fail on a broken link or a Rust block that no longer compiles
    Docs,
    /// Import circles between the modules of each crate (fails on any but the known ones)
    Circles,
    /// Function lengths of every crate; fails if cargo-bridge, xtask or the bench has one over 100 lines or more than 10 over 60
    FnLengths,
    /// Build the bundled example with `cargo bridge build --release` and run it in Node
    Example,
    /// Build the outline editor demo (examples/outline) and serve it on 127.0.0.1 (prints the URL)
    Demo(demo::DemoArgs),
}

/// `cargo xtask`: parse the task and run it from the project root.
pub fn main() -> Result<()> {
    let cli = Cli::parse();
    let sh = xshell::Shell::new()?;
    sh.change_dir(fixtures::project_root());
    match cli.task {
        Task::Test => tasks::test_all(&sh),
        Task::Fmt => fmt::check(&fixtures::project_root()),
        Task::Clippy => clippy::run(&sh, clippy::Scope::All),
        Task::TestNode { filter } => tasks::test_node(&sh, filter.as_deref()),
        Task::TestBrowser { filter } => browser::test_browser(&sh, filter.as_deref()),
        Task::TestPackages => packages::test_packages(&sh),
        Task::TestBundlers => bundlers::test_bundlers(&sh),
        Task::TestWorkers => workers::test_workers(&sh, true),
        Task::TestRuntimes { all } => runtimes::test_runtimes(&sh, all),
        Task::TestTypes { filter } => typescript::test_types(&sh, filter.as_deref()),
        Task::BenchBrowser { args } => bench(&sh, "bench-browser", &args),
        Task::Example => tasks::example(&sh),
        Task::Demo(args) => demo::run(&sh, &args),
        Task::Circles => circles::run(&fixtures::project_root()),
        Task::FnLengths => fn_lengths::run(&fixtures::project_root()),
        Task::Docs => docs::run(&sh),
        Task::Bench { args } => bench(&sh, "bench", &args),
        Task::Fuzz(args) => fuzz::run(&sh, &args),
        Task::Soak(args) => soak::run(&sh, &args),
    }
}

/// The benchmark is a crate of its own (`xtask/bench`, `bridge-bench`): run its binary with
/// the task's name and arguments, as `cargo xtask` runs this one, and end with its exit
/// code (its own error message is the one to read).
fn bench(sh: &xshell::Shell, task: &str, args: &[String]) -> Result<()> {
    let status =
        std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["run", "--quiet", "--package", "bridge-bench", "--", task])
            .args(args)
            .current_dir(sh.current_dir())
            .status()?;
    if !status.success() {
        std::process::exit(status.code().unwrap_or(1));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_phase_run_beside_is_a_task_without_arguments() {
        for phase in beside::PHASES {
            let cli = Cli::try_parse_from(["cargo xtask", phase]);
            assert!(cli.is_ok(), "`cargo xtask {phase}`: {:?}", cli.err());
        }
        assert!(Cli::try_parse_from(["cargo xtask", "test-nothing"]).is_err());
    }
}
