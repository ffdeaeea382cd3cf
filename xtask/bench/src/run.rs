//! `cargo xtask bench`, top to bottom: the flags resolved (`flags.rs`) → the packages built
//! (the bench fixture with the real `cargo bridge` in release mode; with `--peer
//! wasm-bindgen` the same scenarios for wasm-bindgen; the alongside package, the bench
//! fixture joined with wasm-bindgen code, whose `rust` rows run beside the bridge-only ones)
//! → the plan, one job per (scenario, row, measure) of every section (`plan.rs`) → each job
//! run in a fresh Node process (`runner.rs`), then the sections measured in-process (size,
//! build cost) → the report: stdout, JSON, and `docs/benchmarks.md` for a canonical run.

use crate::flags::{self, BUILD, BUILD_PLAIN, BenchArgs, SIZE, Settings, matches_filter};
use crate::model::{self, Alongside, BuildCost, Machine, Mode, PlainBuildCost, Run, SizeReport};
use crate::plan::{self, Packages};
use crate::runner::{Runner, Snapshot};
use crate::{alongside, build_cost, build_plain, machine, peer, report, size};
use anyhow::{Context, Result, bail};
use std::path::Path;
use std::time::Instant;
use xshell::Shell;
use xtask::fixtures::{self, CargoBridge, build_fixture, install_cargo_bridge};

pub fn run(sh: &Shell, args: &BenchArgs) -> Result<()> {
    let started = Instant::now();
    let root = fixtures::project_root();
    let mut settings = flags::resolve(args)?;
    // Probed before the build: the commit is the one the build measures.
    let machine = machine::probe();
    let built = build(sh, &root, args, &mut settings)?;
    let jobs = plan::plan(args, &settings.modes, &built.pkgs);
    let (run, sections) = measure(sh, &root, args, &settings, built, jobs);
    publish(&root, args, &run, &machine)?;
    eprintln!("bench: done in {:.0} s", started.elapsed().as_secs_f64());
    sections.check(&run)
}

/// The packages a run loads, and what could not be built.
struct Built {
    bridge: CargoBridge,
    /// The bench package's copy the runners load: removed when dropped, so it lives as
    /// long as the jobs that load it.
    _snapshot: Snapshot,
    pkgs: Packages,
    peer_note: Option<String>,
    /// Why the alongside package could not be built (its section reports it).
    alongside_error: Option<String>,
}

/// Build the bench fixture, the peer and the alongside package as the rows need them; a
/// peer that cannot be built drops its rows with a note, an alongside package that cannot
/// fails its section only.
fn build(sh: &Shell, root: &Path, args: &BenchArgs, settings: &mut Settings) -> Result<Built> {
    eprintln!("bench: building fixtures/bench with `cargo bridge build --release`");
    let bridge = install_cargo_bridge(sh)?;
    build_fixture(
        sh,
        &bridge,
        &root.join("fixtures/Cargo.toml"),
        Some("bench"),
        true,
    )?;
    // The runners load a snapshot: a concurrent build of fixtures/bench (test-node builds
    // it in debug) must not change the package under a run.
    let snapshot = Snapshot::of(&root.join("fixtures/bench/pkg"))?;
    let mut built = Built {
        pkgs: Packages {
            bridge: snapshot.dir.join("bench.js"),
            peer: None,
            alongside: None,
        },
        bridge,
        _snapshot: snapshot,
        peer_note: None,
        alongside_error: None,
    };
    if settings.modes.contains(&Mode::WasmBindgen) {
        match peer::build(sh, root, args.quick) {
            Ok(pkg) => built.pkgs.peer = Some(pkg),
            Err(skip) => {
                let note = format!("wasm-bindgen peer skipped: {skip:#}");
                eprintln!("bench: {note}");
                built.peer_note = Some(note);
                settings.modes.retain(|m| *m != Mode::WasmBindgen);
            }
        }
    }
    // The alongside package: the identity scenarios' rust rows again, on the bench fixture
    // joined with wasm-bindgen code (issue 20).
    if settings.modes.contains(&Mode::Rust) && plan::alongside_selected(args.filter.as_deref()) {
        match alongside::build(sh, root, &built.bridge) {
            Ok(pkg) => built.pkgs.alongside = Some(pkg),
            Err(e) => {
                eprintln!("bench: FAILED alongside package: {e:#}");
                built.alongside_error = Some(format!("{e:#}"));
            }
        }
    }
    Ok(built)
}

/// What the in-process sections could not measure.
struct Sections {
    size_error: Option<String>,
    build_error: Option<String>,
    build_plain_error: Option<String>,
}

impl Sections {
    /// The run's verdict: every runner process and section succeeded.
    fn check(self, run: &Run) -> Result<()> {
        let failed = run
            .records
            .iter()
            .flat_map(|r| &r.errors)
            .chain(run.pools.iter().flat_map(|r| &r.errors))
            .count();
        if failed > 0 {
            bail!("{failed} benchmark process(es) failed");
        }
        if let Some(e) = self.size_error {
            bail!("the size table failed: {e}");
        }
        if let Some(e) = self.build_error {
            bail!("the build-cost section failed: {e}");
        }
        if let Some(e) = self.build_plain_error {
            bail!("the plain crates' build-cost section failed: {e}");
        }
        if let Some(e) = run.alongside.as_ref().and_then(|a| a.error.as_ref()) {
            bail!("the alongside section failed: {e}");
        }
        Ok(())
    }
}

/// Run the jobs (the alongside package's apart), then measure the size and build-cost
/// sections; failures are kept in the run, never fatal here.
fn measure(
    sh: &Shell,
    root: &Path,
    args: &BenchArgs,
    settings: &Settings,
    built: Built,
    jobs: Vec<crate::runner::Job>,
) -> (Run, Sections) {
    let runner = Runner {
        script: root.join("xtask/bench/runner.mjs"),
        sampling: settings.sampling,
        quick: args.quick,
    };
    let pkgs = &built.pkgs;
    let (alongside_results, results): (Vec<_>, Vec<_>) = runner
        .run_all(jobs)
        .into_iter()
        .partition(|(job, _)| pkgs.alongside.as_ref() == Some(&job.pkg));
    let (records, pools) = plan::collect(results);
    let alongside = match (&pkgs.alongside, built.alongside_error) {
        (_, Some(error)) => Some(Alongside {
            error: Some(error),
            ..Alongside::default()
        }),
        (Some(_), None) => Some(alongside_section(sh, root, pkgs, alongside_results)),
        (None, None) => None,
    };
    let (size, size_error) = size_section(sh, root, args, &built.bridge, pkgs.peer.is_some());
    let (build, build_error) = build_section(sh, root, args, &built.bridge);
    let (build_plain, build_plain_error) = build_plain_section(sh, root, args, &built.bridge);
    let run = Run {
        records,
        pools,
        size,
        alongside,
        build,
        build_plain,
        quick: args.quick,
        canonical: settings.canonical,
        command: command_line(),
        peer_note: built.peer_note,
        sampling: settings.note,
    };
    (
        run,
        Sections {
            size_error,
            build_error,
            build_plain_error,
        },
    )
}

/// The alongside package's records and bytes.
fn alongside_section(
    sh: &Shell,
    root: &Path,
    pkgs: &Packages,
    results: Vec<(crate::runner::Job, Result<model::Measured>)>,
) -> Alongside {
    let (records, _) = plan::collect(results);
    let (size, error) = match alongside::size(sh, root, &pkgs.bridge) {
        Ok(size) => (Some(size), None),
        Err(e) => {
            eprintln!("bench: FAILED alongside size: {e:#}");
            (None, Some(format!("{e:#}")))
        }
    };
    Alongside {
        records,
        size,
        error,
    }
}

/// The size table, when selected; a smoke run builds the 1-class and the functions-only
/// crates, without the peer and without the rebuilds against patched runtimes (their
/// module features show as not measured).
fn size_section(
    sh: &Shell,
    root: &Path,
    args: &BenchArgs,
    bridge: &CargoBridge,
    peer: bool,
) -> (Option<SizeReport>, Option<String>) {
    if !matches_filter(SIZE, args.filter.as_deref()) {
        return (None, None);
    }
    let counts: &[usize] = if args.quick {
        &size::CLASS_COUNTS[..1]
    } else {
        &size::CLASS_COUNTS
    };
    match size::measure(sh, root, bridge, counts, peer && !args.quick, !args.quick) {
        Ok(size) => (Some(size), None),
        Err(e) => {
            eprintln!("bench: FAILED size: {e:#}");
            (None, Some(format!("{e:#}")))
        }
    }
}

/// The build-cost section, when selected.
fn build_section(
    sh: &Shell,
    root: &Path,
    args: &BenchArgs,
    bridge: &CargoBridge,
) -> (Option<BuildCost>, Option<String>) {
    if !matches_filter(BUILD, args.filter.as_deref()) {
        return (None, None);
    }
    match measure_build(sh, root, bridge, args) {
        Ok(build) => (Some(build), None),
        Err(e) => {
            eprintln!("bench: FAILED build cost: {e:#}");
            (None, Some(format!("{e:#}")))
        }
    }
}

/// The plain wasm-bindgen crates' build cost, when selected. A measurement builds
/// `cargo-bridge --release` and runs every fixture: per profile a cold pair and three
/// touch pairs. A smoke run (CI) builds the first fixture in debug with the debug
/// `cargo-bridge`, in the fixtures' target directory (whose dependencies the tests built):
/// each way once after a touch (no untimed warm-up: the first may compile the
/// dependencies), the pipeline checked, nothing measured.
fn build_plain_section(
    sh: &Shell,
    root: &Path,
    args: &BenchArgs,
    debug_cli: &CargoBridge,
) -> (Option<PlainBuildCost>, Option<String>) {
    if !matches_filter(BUILD_PLAIN, args.filter.as_deref()) {
        return (None, None);
    }
    let measured = (|| {
        let release;
        let cli = if args.quick {
            debug_cli
        } else {
            eprintln!("bench: build-plain: building cargo-bridge --release");
            release = fixtures::install_cargo_bridge_release(sh)?;
            &release
        };
        let plan = build_plain::Plan {
            fixtures: if args.quick {
                1
            } else {
                build_plain::FIXTURES.len()
            },
            cold: !args.quick,
            warm_up: !args.quick,
            touches: if args.quick { 1 } else { 3 },
            release: !args.quick,
            release_cli: !args.quick,
        };
        let mut cost = build_plain::measure(root, cli, &plan)?;
        if args.quick {
            cost.skipped = Some(format!(
                "--quick: {} in debug after one touch only; no cold or release builds, {} not built",
                build_plain::FIXTURES[0].dir,
                build_plain::FIXTURES[1..]
                    .iter()
                    .map(|f| f.dir)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        Ok::<_, anyhow::Error>(cost)
    })();
    match measured {
        Ok(cost) => (Some(cost), None),
        Err(e) => {
            eprintln!("bench: FAILED plain crates' build cost: {e:#}");
            (None, Some(format!("{e:#}")))
        }
    }
}

/// The report: stdout, the JSON records, and `docs/benchmarks.md` when the run is canonical.
fn publish(root: &Path, args: &BenchArgs, run: &Run, machine: &Machine) -> Result<()> {
    println!("{}", report::text(run, machine));
    let json = report::json(run, machine);
    let text = serde_json::to_string_pretty(&json)? + "\n";
    let default_json = root.join("bench-results/bench.json");
    std::fs::create_dir_all(default_json.parent().unwrap())?;
    std::fs::write(&default_json, &text)?;
    eprintln!("bench: JSON records in {}", default_json.display());
    if let Some(path) = &args.json {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, &text).with_context(|| format!("writing {}", path.display()))?;
        eprintln!("bench: JSON records in {}", path.display());
    }
    if run.canonical {
        let doc = root.join("docs/benchmarks.md");
        report::write_doc(&doc, run, machine)?;
        eprintln!("bench: wrote {}", doc.display());
    } else {
        eprintln!(
            "bench: docs/benchmarks.md left as it is (only a full run without --quick, --filter, \
             --mode, --iterations, --classes or --time-only rewrites it)"
        );
    }
    Ok(())
}

/// The build-cost section: a smoke run rebuilds the example once with the debug
/// `cargo-bridge` it has; a measurement builds `cargo-bridge --release` (what users run)
/// and rebuilds the example three times after a warm-up, then each generated crate once.
fn measure_build(
    sh: &Shell,
    root: &Path,
    debug_cli: &CargoBridge,
    args: &BenchArgs,
) -> Result<model::BuildCost> {
    let counts: &[usize] = match (args.quick, args.classes.is_empty()) {
        (true, _) => &[],
        (false, true) => &build_cost::CLASS_COUNTS,
        (false, false) => &args.classes,
    };
    let release;
    let cli = if args.quick {
        debug_cli
    } else {
        eprintln!("bench: build: building cargo-bridge --release");
        release = fixtures::install_cargo_bridge_release(sh)?;
        &release
    };
    let plan = build_cost::Plan {
        example_runs: if args.quick { 1 } else { 3 },
        warm: !args.quick,
        counts,
        release_cli: !args.quick,
    };
    build_cost::measure(sh, root, cli, &plan)
}

/// The identity scenarios' names, each with whether it has a js-only row (the browser
/// bench checks its list against them).
#[cfg(test)]
pub(crate) fn scenario_names() -> Vec<(&'static str, bool)> {
    crate::scenarios::SCENARIOS
        .iter()
        .map(|s| (s.name, s.js_only))
        .collect()
}

fn command_line() -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    format!("cargo xtask {}", args.join(" "))
}
