//! The test and example tasks.
//!
//! `cargo xtask test` runs its phases through `phases.rs` (a table of seconds per phase at the
//! end of every run, a failed one too). The first-use installs (apt-get, the npm installs, and
//! `warm.rs`: the wasm-bindgen CLI into the bridge home) run on their own threads from the
//! start and are joined before the first phase that needs them. After the cargo tests,
//! test-browser, test-packages and test-bundlers run beside the other phases (`beside.rs`);
//! test-node runs last, alone.

use crate::fixtures::{self, build_fixture, install_cargo_bridge};
use crate::phases::{Background, Phases};
use crate::{
    beside, clippy, demo, docs, fmt, fn_lengths, js_tools, runtimes, test_lanes, typescript, warm,
    workers,
};
use anyhow::{Result, bail};
use std::time::Instant;
use xshell::{Shell, cmd};

/// Everything CI runs: format, function lengths, lints, Rust tests, the user guide, a
/// benchmark smoke run, types, the browser, package, bundler, worker and runtime checks, the
/// demo, the bundled example, node suites. Prints how long each phase took at the end (also when one fails).
///
/// The first-use installs are I/O-bound (npm, apt-get) or a separate `cargo install`, so
/// they run on their own threads from the start, overlapping fmt, clippy and the first
/// compiles; each is joined just before the first phase that needs it.
pub fn test_all(sh: &Shell) -> Result<()> {
    let phases = Phases::default();
    let start = Instant::now();
    let result = run_phases(sh, &phases);
    println!(
        "\ncargo xtask test: time per phase\n{}",
        phases.table(start.elapsed(), crate::phases::cpu_used())
    );
    result
}

fn run_phases(sh: &Shell, phases: &Phases) -> Result<()> {
    let installs = Installs::start(phases)?;
    // Every workspace the repo has (the root one, fixtures/, the bench peer, the demo...).
    phases.run("fmt", || fmt::check(&fixtures::project_root()))?;
    // Parses the sources only (well under a second): no function over 100 lines, at most 10
    // over 60 in all the crates together.
    phases.run("fn-lengths", || fn_lengths::run(&fixtures::project_root()))?;
    clippy::wasm_target(sh)?;
    cargo_tests(sh, phases, installs.debian, installs.wasm_bindgen)?;
    // The guide: links, the mdBook build, its Rust blocks (checked for wasm32 in the
    // fixtures' target directory, where the runtime is already compiled).
    let mdbook = installs.mdbook.join()?;
    phases.run("docs", || docs::check(sh, &mdbook))?;
    installs.npm.join()?;
    // test-browser, test-packages and test-bundlers (their own directories under
    // `target/`) on a thread beside these, which write the fixtures' `pkg/` directories
    // (`beside.rs`: why the two share nothing); each mostly keeps one core busy.
    let lane = beside::start(sh, phases)?;
    let here = (|| {
        // Smoke only: speed is never asserted by a timed test.
        phases.run("bench --quick", || {
            Ok(cmd!(sh, "cargo xtask bench --quick").run()?)
        })?;
        phases.run("test-types", || typescript::test_types(sh, None))?;
        phases.run("test-workers", || workers::test_workers(sh, false))?;
        phases.run("test-runtimes", || runtimes::test_runtimes(sh, false))?;
        // The README's other commands: the demo and the bundled example keep running.
        phases.run("demo (Chromium)", || demo::test(sh))?;
        phases.run("example", || example(sh))
    })();
    let beside = lane.finish();
    here?;
    beside?;
    // Last and alone (it runs a suite per core), so node's test summary closes the output
    // (the phase table follows it).
    phases.run("test-node", || test_node(sh, None))
}

/// The first-use installs, each on a thread of its own from the start.
struct Installs {
    /// apt-get's chromium (its path) and binaryen.
    debian: Background<std::path::PathBuf>,
    npm: Background<()>,
    wasm_bindgen: Background<()>,
    mdbook: Background<std::path::PathBuf>,
}

impl Installs {
    fn start(phases: &Phases) -> Result<Installs> {
        let root = fixtures::project_root();
        let shell = move || -> Result<Shell> {
            let sh = Shell::new()?;
            sh.change_dir(&root);
            Ok(sh)
        };
        let debian = {
            let sh = shell()?;
            phases.spawn("apt-get chromium, binaryen", move || {
                let chromium = js_tools::chromium(&sh)?;
                js_tools::wasm_opt(&sh)?;
                Ok(chromium)
            })
        };
        let npm = {
            let sh = shell()?;
            phases.spawn("npm installs", move || {
                js_tools::npm_packages(&sh)?;
                js_tools::runtimes(&sh)?;
                js_tools::bundlers(&sh)?;
                Ok(())
            })
        };
        let wasm_bindgen = phases.spawn("wasm-bindgen-cli install", warm::wasm_bindgen_cli);
        let mdbook = phases.spawn("mdbook install", docs::install_mdbook);
        Ok(Installs {
            debian,
            npm,
            wasm_bindgen,
            mdbook,
        })
    }
}

/// The test build, linted (`cargo clippy --workspace --all-targets`'s targets, `-D
/// warnings`): the units `cargo test --workspace --no-run` builds (every test binary, the
/// libraries as their dependencies) and the binaries (`--lib` would make the macro a root
/// unit, built with debug info: the same lints, but a second macro for `cargo test`) but
/// the xtask's own (`clippy::linted_bins`). The built cargo-bridge and the lanes' arguments.
#[allow(clippy::type_complexity)]
fn test_build(
    sh: &Shell,
    linted: &clippy::LintedBuild,
    lint_args: &[String],
) -> Result<(std::path::PathBuf, (Vec<String>, Vec<String>))> {
    let bins = clippy::linted_bins(sh)?;
    let messages = cmd!(
        sh,
        "cargo build --workspace {bins...} --tests --examples --benches --quiet {lint_args...} --message-format=json-render-diagnostics"
    )
    .envs(linted.env())
    .read()?;
    // clippy-driver compiles without two of a debug build's MIR checks (misaligned and
    // null pointer dereferences): the runtime's unit tests, where its unsafe code runs on
    // the host, are built by rustc alone too (and run: `test_lanes::plain_runtime_tests`).
    cmd!(
        sh,
        "cargo test --package bridge-runtime --lib --quiet --no-run"
    )
    .run()?;
    Ok((
        fixtures::test_built_bridge(&messages)?,
        test_lanes::lanes(&messages)?,
    ))
}

/// The Rust tests (their build first, which also lints: [`clippy::LintedBuild`]), with
/// the fixtures' wasm32 clippy beside them.
fn cargo_tests(
    sh: &Shell,
    phases: &Phases,
    debian: Background<std::path::PathBuf>,
    wasm_bindgen: Background<()>,
) -> Result<()> {
    let linted = clippy::LintedBuild::find(sh)?;
    let lint_args = linted.args()?;
    // The tests compile while the installs finish: only running them needs Chromium and
    // the wasm-bindgen CLI.
    let (bridge, (side, main)) = phases.run("cargo test (build, with clippy's lints)", || {
        test_build(sh, &linted, &lint_args)
    })?;
    // Every later phase, and the bench process, runs the binary the CLI tests ran (see
    // `install_cargo_bridge`).
    sh.set_var(fixtures::BUILT_BRIDGE_ENV, &bridge);
    // `cargo bridge test --chromium` is tested in cargo-bridge/tests/bridge_test.rs; the
    // with_wasm_bindgen tests use the CLI the background install puts in the bridge home.
    // The fixtures' wasm32 clippy runs while the tests do, in the fixtures' target
    // directory (cargo holds its lock only while building, and the CLI tests' builds take
    // turns on it, which leaves a core idle for much of the run); it is joined before
    // anything else starts, and a lint fails the run.
    let lints = {
        let sh = Shell::new()?;
        sh.change_dir(fixtures::project_root());
        phases.spawn("clippy (wasm32 fixtures)", move || {
            clippy::wasm_workspaces(&sh, clippy::Scope::TestRun)
        })
    };
    let tests = (|| {
        let chromium = debian.join()?;
        wasm_bindgen.join()?;
        let lanes = test_lanes::Lanes {
            chromium: &chromium,
            bridge: &bridge,
            lint_args: &lint_args,
            lint_env: linted.env(),
        };
        phases.run("cargo test", || lanes.run(sh, &side, &main))
    })();
    lints.join()?;
    tests
}

pub fn test_node(sh: &Shell, filter: Option<&str>) -> Result<()> {
    let root = fixtures::project_root();
    // Filtered: the matching fixtures and the packages their suites name (cost.test.mjs
    // of fixtures/async reads five others'); unfiltered: every fixture.
    let (build, mut suites) = fixtures::selection(&root, filter)?;
    if suites.is_empty() {
        bail!("no node test suites matched");
    }
    let bridge = install_cargo_bridge(sh)?;
    for f in build {
        build_fixture(sh, &bridge, &root.join(f.manifest), Some(f.package), false)?;
    }
    suites.sort();
    // One suite per core: node's default leaves one core idle (`availableParallelism() - 1`),
    // and each suite is a process of its own, so nothing is shared but the CPU.
    let concurrency = format!(
        "--test-concurrency={}",
        std::thread::available_parallelism().map_or(2, |n| n.get())
    );
    // A suite that builds a package itself runs the same binary, and its optimized builds
    // go through the same wasm-opt cache (a dozen release builds of wasm-pack's targets).
    cmd!(sh, "node --expose-gc {concurrency} --test {suites...}")
        .env("CARGO_BRIDGE_EXE", &bridge.exe)
        .envs(fixtures::wasm_opt_cache(sh).iter().map(|(k, v)| (k, v)))
        .run()?;
    Ok(())
}

pub fn example(sh: &Shell) -> Result<()> {
    let bridge = install_cargo_bridge(sh)?;
    let root = fixtures::project_root();
    let manifest = root.join("fixtures/Cargo.toml");
    build_fixture(sh, &bridge, &manifest, Some("example"), true)?;
    cmd!(sh, "node fixtures/example/main.mjs").run()?;
    Ok(())
}
