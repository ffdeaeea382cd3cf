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
        phases.table(start.elapsed())
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

/// The Rust tests (their build first), with clippy beside them.
fn cargo_tests(
    sh: &Shell,
    phases: &Phases,
    debian: Background<std::path::PathBuf>,
    wasm_bindgen: Background<()>,
) -> Result<()> {
    // The tests compile while the installs finish: only running them needs Chromium and
    // the wasm-bindgen CLI.
    let (bridge, (side, main)) = phases.run("cargo test (build)", || {
        let messages = cmd!(
            sh,
            "cargo test --workspace --quiet --no-run --message-format=json-render-diagnostics"
        )
        .read()?;
        Ok((
            fixtures::test_built_bridge(&messages)?,
            test_lanes::lanes(&messages)?,
        ))
    })?;
    // Every later phase, and the bench process, runs the binary the CLI tests ran (see
    // `install_cargo_bridge`).
    sh.set_var(fixtures::BUILT_BRIDGE_ENV, &bridge);
    // `cargo bridge test --chromium` is tested in cargo-bridge/tests/bridge_test.rs; the
    // with_wasm_bindgen tests use the CLI the background install puts in the bridge home.
    // Clippy runs while the tests do: its checks share nothing with the test build
    // (check-mode units; cargo holds the target directory's lock only while building, not
    // while tests run), and the CLI tests' builds take turns on the fixtures' target
    // directory, which leaves a core idle for much of the run. Both are joined before
    // anything else starts; a lint fails the run as it did when clippy went first.
    let lints = {
        let sh = Shell::new()?;
        sh.change_dir(fixtures::project_root());
        phases.spawn("clippy", move || clippy::run(&sh, clippy::Scope::TestRun))
    };
    let tests = (|| {
        let chromium = debian.join()?;
        wasm_bindgen.join()?;
        phases.run("cargo test", || {
            cargo_test_lanes(sh, &chromium, &bridge, &side, &main)
        })
    })();
    lints.join()?;
    tests
}

/// `cargo test --workspace` as two lanes side by side (`test_lanes.rs`), then the doc
/// tests in whichever lane ends first (which one does differs from machine to machine and
/// from a fresh clone to a warm one); the side lane's output is printed when both are done,
/// so neither's lines are cut into the other's.
fn cargo_test_lanes(
    sh: &Shell,
    chromium: &std::path::Path,
    bridge: &std::path::Path,
    side: &[String],
    main: &[String],
) -> Result<()> {
    eprintln!(
        "$ cargo test --workspace --quiet {} (output below)",
        side.join(" ")
    );
    let doc_claimed = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let claim = |claimed: &std::sync::atomic::AtomicBool| {
        !claimed.swap(true, std::sync::atomic::Ordering::SeqCst)
    };
    let side_lane = {
        let lane = |args: &[&str]| {
            let mut command = std::process::Command::new("cargo");
            command
                .args(["test", "--workspace", "--quiet"])
                .args(args)
                .current_dir(sh.current_dir())
                .env("CHROMIUM", chromium)
                .env(fixtures::BUILT_BRIDGE_ENV, bridge);
            command
        };
        let mut tests = lane(&side.iter().map(String::as_str).collect::<Vec<_>>());
        let mut doc = lane(&["--doc"]);
        let doc_claimed = doc_claimed.clone();
        std::thread::spawn(move || -> std::io::Result<Vec<std::process::Output>> {
            let tests = tests.output()?;
            if !tests.status.success() || !claim(&doc_claimed) {
                return Ok(vec![tests]);
            }
            Ok(vec![tests, doc.output()?])
        })
    };
    let main_lane = cmd!(sh, "cargo test --workspace --quiet {main...}")
        .env("CHROMIUM", chromium)
        .run()
        .and_then(|()| {
            if claim(&doc_claimed) {
                cmd!(sh, "cargo test --workspace --quiet --doc").run()
            } else {
                Ok(())
            }
        });
    let side_lane = side_lane
        .join()
        .map_err(|_| anyhow::anyhow!("the side lane of cargo test panicked"))??;
    for run in &side_lane {
        print!("{}", String::from_utf8_lossy(&run.stdout));
        eprint!("{}", String::from_utf8_lossy(&run.stderr));
    }
    main_lane?;
    if let Some(failed) = side_lane.iter().find(|run| !run.status.success()) {
        let what = if side_lane.len() == 2 && !side_lane[1].status.success() {
            "--doc".to_string()
        } else {
            side.join(" ")
        };
        bail!(
            "cargo test --workspace {what} failed ({}; its output is above)",
            failed.status
        );
    }
    Ok(())
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
