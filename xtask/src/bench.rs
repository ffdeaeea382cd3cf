//! `cargo xtask bench`: the identity benchmark suite (see `docs/benchmarks.md`).
//!
//! Builds `fixtures/bench` with the real `cargo bridge` in release mode (and, with
//! `--peer wasm-bindgen`, the same scenarios with wasm-bindgen; and the alongside package,
//! the bench fixture joined with wasm-bindgen code, whose `rust` rows run beside the
//! bridge-only ones), plans one job per
//! (scenario, row, measure) of every section (identity scenarios, then the release pools),
//! runs each in a fresh Node process, and hands the typed records to the report.
//!
//! Imports run one way: this orchestrator → `report` → `scenarios` → `model`, and
//! `runner` → `model`; `model` imports nothing of the bench.

mod alongside;
mod build_cost;
mod machine;
mod model;
pub(crate) mod peer;
mod report;
mod runner;
mod scenarios;
mod size;
mod size_without;

use crate::fixtures::{self, build_fixture, install_cargo_bridge};
use anyhow::{Context, Result, bail};
use model::{Alongside, Kind, Measured, Mode, PoolRecord, Record, Run, SamplingNote, Scenario};
use runner::{Job, Runner, Sampling, Select, Snapshot};
use scenarios::{ALONGSIDE_SCENARIOS, PAIRED, POOL_SCENARIOS, SCENARIOS};
use std::path::{Path, PathBuf};
use std::time::Instant;
use xshell::Shell;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Only scenarios whose name contains one of these (comma-separated, case-insensitive);
    /// the release-pool scenarios are release100k and emptyPoolPushPop, the size table `size`,
    /// the build-cost section `build`
    #[arg(long)]
    filter: Option<String>,
    /// Build-cost section: the class counts of the generated crates (default 1,10,100,1000;
    /// --quick builds the example only)
    #[arg(long, value_delimiter = ',')]
    classes: Vec<usize>,
    /// Only these rows (comma-separated); the floor rows run unless left out here. Pool
    /// variants go by the mode of their objects (push/pop counts as rust, the bare call as floor)
    #[arg(long, value_enum, value_delimiter = ',')]
    mode: Vec<Mode>,
    /// Iterations of every scenario (getPoolRepeated_100 makes N/100 calls of 100 objects;
    /// release100k: N objects; emptyPoolPushPop: N pairs)
    #[arg(long)]
    iterations: Option<u64>,
    /// Tiny counts: a smoke test of the whole pipeline (CI), never a measurement
    #[arg(long)]
    quick: bool,
    /// Also write the JSON records to this file (always written to bench-results/bench.json)
    #[arg(long, value_name = "PATH")]
    json: Option<PathBuf>,
    /// Also run the scenarios on a peer library, if its tools are installed
    #[arg(long, value_enum)]
    peer: Option<Peer>,
    /// Adaptive sampling: fewest timed runs
    #[arg(long, default_value_t = 5)]
    min_runs: u32,
    /// Adaptive sampling: most timed runs
    #[arg(long, default_value_t = 15)]
    max_runs: u32,
    /// Adaptive sampling: stop once the coefficient of variation is at most this, in percent
    #[arg(long, default_value_t = 5.0)]
    target_cv: f64,
    /// Warm-up: whole runs until at least 3 and this many ms have passed
    #[arg(long, default_value_t = 1000)]
    warmup_ms: u64,
    /// Time rows: fresh processes per row when the first takes under 2.5 s (the process
    /// with the median median is reported)
    #[arg(long, default_value_t = 3)]
    processes: u32,
    /// Timing only: skip the sustained and memory measures (pool scenarios are timed only)
    #[arg(long)]
    time_only: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Peer {
    #[value(name = "wasm-bindgen")]
    WasmBindgen,
}

pub fn run(sh: &Shell, args: &BenchArgs) -> Result<()> {
    let started = Instant::now();
    let root = fixtures::project_root();
    let names: Vec<&str> = SCENARIOS
        .iter()
        .map(|s| s.name)
        .chain(POOL_SCENARIOS.iter().map(|s| s.name))
        .chain(ALONGSIDE_SCENARIOS.iter().map(|s| s.name))
        .chain([SIZE, BUILD, ALONGSIDE])
        .collect();
    if !names
        .iter()
        .any(|name| matches_filter(name, args.filter.as_deref()))
    {
        bail!(
            "--filter {:?} matches no scenario: {}",
            args.filter.as_deref().unwrap_or(""),
            names.join(", ")
        );
    }
    if args.processes == 0 {
        bail!("--processes must be at least 1");
    }
    if args.min_runs == 0 || args.min_runs > args.max_runs {
        bail!("--min-runs must be at least 1 and at most --max-runs");
    }
    let mut modes: Vec<Mode> = if args.mode.is_empty() {
        vec![
            Mode::Floor,
            Mode::AllocFloor,
            Mode::JsOnly,
            Mode::None,
            Mode::Pointer,
            Mode::Rust,
        ]
    } else {
        Mode::ALL
            .into_iter()
            .filter(|m| args.mode.contains(m))
            .collect()
    };
    if args.peer.is_some() && args.mode.is_empty() {
        modes.push(Mode::WasmBindgen);
    }

    // Probed before the build: the commit is the one the build measures.
    let machine = machine::probe();
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
    let bridge_pkg = snapshot.dir.join("bench.js");

    let mut peer_note = None;
    let mut peer_pkg = None;
    if modes.contains(&Mode::WasmBindgen) {
        match peer::build(sh, &root, args.quick) {
            Ok(pkg) => peer_pkg = Some(pkg),
            Err(skip) => {
                let note = format!("wasm-bindgen peer skipped: {skip:#}");
                eprintln!("bench: {note}");
                peer_note = Some(note);
                modes.retain(|m| *m != Mode::WasmBindgen);
            }
        }
    }

    let (min_runs, max_runs) = if args.quick {
        (args.min_runs.min(3), args.min_runs.min(3))
    } else {
        (args.min_runs, args.max_runs)
    };
    let warmup_ms = if args.quick {
        args.warmup_ms.min(20)
    } else {
        args.warmup_ms
    };
    // A smoke run checks the pipeline, not the figures: one process per row.
    let processes = if args.quick { 1 } else { args.processes };
    let runner = Runner {
        script: root.join("xtask/bench/runner.mjs"),
        sampling: Sampling {
            min_runs,
            max_runs,
            target_cv: args.target_cv / 100.0,
            budget_ms: if args.quick { 10_000 } else { 120_000 },
            warmup_ms,
            processes,
        },
        quick: args.quick,
    };
    // The alongside package: the identity scenarios' rust rows again, on the bench fixture
    // joined with wasm-bindgen code (issue 20).
    let mut alongside = None;
    let mut alongside_pkg = None;
    if modes.contains(&Mode::Rust) && alongside_selected(args.filter.as_deref()) {
        match alongside::build(sh, &root, &bridge) {
            Ok(pkg) => alongside_pkg = Some(pkg),
            Err(e) => {
                eprintln!("bench: FAILED alongside package: {e:#}");
                alongside = Some(Alongside {
                    error: Some(format!("{e:#}")),
                    ..Alongside::default()
                });
            }
        }
    }
    let pkgs = Packages {
        bridge: bridge_pkg,
        peer: peer_pkg,
        alongside: alongside_pkg,
    };
    let jobs = plan(args, &modes, &pkgs);
    let (alongside_results, results): (Vec<_>, Vec<_>) = runner
        .run_all(jobs)
        .into_iter()
        .partition(|(job, _)| pkgs.alongside.as_ref() == Some(&job.pkg));
    let (records, pools) = collect(results);
    if pkgs.alongside.is_some() {
        let (records, _) = collect(alongside_results);
        let (size, error) = match alongside::size(sh, &root, &pkgs.bridge) {
            Ok(size) => (Some(size), None),
            Err(e) => {
                eprintln!("bench: FAILED alongside size: {e:#}");
                (None, Some(format!("{e:#}")))
            }
        };
        alongside = Some(Alongside {
            records,
            size,
            error,
        });
    }
    let mut size_error = None;
    let size = if matches_filter(SIZE, args.filter.as_deref()) {
        // A smoke run builds the 1-class crate only, without the peer.
        let counts: &[usize] = if args.quick {
            &size::CLASS_COUNTS[..1]
        } else {
            &size::CLASS_COUNTS
        };
        let peer = pkgs.peer.is_some() && !args.quick;
        match size::measure(sh, &root, &bridge, counts, peer) {
            Ok(size) => Some(size),
            Err(e) => {
                eprintln!("bench: FAILED size: {e:#}");
                size_error = Some(format!("{e:#}"));
                None
            }
        }
    } else {
        None
    };

    let mut build_error = None;
    let build = if matches_filter(BUILD, args.filter.as_deref()) {
        match measure_build(sh, &root, &bridge, args) {
            Ok(build) => Some(build),
            Err(e) => {
                eprintln!("bench: FAILED build cost: {e:#}");
                build_error = Some(format!("{e:#}"));
                None
            }
        }
    } else {
        None
    };

    let canonical = !args.quick
        && args.filter.is_none()
        && args.mode.is_empty()
        && args.iterations.is_none()
        && args.classes.is_empty()
        && !args.time_only;
    let alongside_failed = alongside.as_ref().and_then(|a| a.error.clone());
    let run = Run {
        records,
        pools,
        size,
        alongside,
        build,
        quick: args.quick,
        canonical,
        command: command_line(),
        peer_note,
        sampling: SamplingNote {
            min_runs,
            max_runs,
            target_cv: args.target_cv,
            warmup_ms,
            processes,
        },
    };
    println!("{}", report::text(&run, &machine));

    let json = report::json(&run, &machine);
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
        report::write_doc(&doc, &run, &machine)?;
        eprintln!("bench: wrote {}", doc.display());
    } else {
        eprintln!(
            "bench: docs/benchmarks.md left as it is (only a full run without --quick, --filter, \
             --mode, --iterations, --classes or --time-only rewrites it)"
        );
    }
    eprintln!("bench: done in {:.0} s", started.elapsed().as_secs_f64());
    let failed: Vec<&String> = run
        .records
        .iter()
        .flat_map(|r| &r.errors)
        .chain(run.pools.iter().flat_map(|r| &r.errors))
        .collect();
    if !failed.is_empty() {
        bail!("{} benchmark process(es) failed", failed.len());
    }
    if let Some(e) = size_error {
        bail!("the size table failed: {e}");
    }
    if let Some(e) = build_error {
        bail!("the build-cost section failed: {e}");
    }
    if let Some(e) = alongside_failed {
        bail!("the alongside section failed: {e}");
    }
    Ok(())
}

/// The `--filter` name of the size table.
const SIZE: &str = "size";
/// The `--filter` name of the build-cost section.
const BUILD: &str = "build";
/// The `--filter` name of the alongside section (all of it; a scenario's name selects its
/// alongside row too).
const ALONGSIDE: &str = "alongside";
/// The crossing a `JsValue` conversion is compared with (run on the alongside package too).
const CONVERSION_BASE: &str = "jsValueRoundtrip";

/// The build-cost section: a smoke run rebuilds the example once with the debug
/// `cargo-bridge` it has; a measurement builds `cargo-bridge --release` (what users run)
/// and rebuilds the example three times after a warm-up, then each generated crate once.
fn measure_build(
    sh: &Shell,
    root: &Path,
    debug_cli: &fixtures::CargoBridge,
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

fn alongside_selected(filter: Option<&str>) -> bool {
    matches_filter(ALONGSIDE, filter)
        || SCENARIOS
            .iter()
            .chain(ALONGSIDE_SCENARIOS)
            .any(|s| matches_filter(s.name, filter))
}

/// The packages the runners load.
struct Packages {
    bridge: PathBuf,
    peer: Option<PathBuf>,
    /// The alongside package, when its section runs.
    alongside: Option<PathBuf>,
}

impl Packages {
    fn for_mode(&self, mode: Mode) -> &Path {
        match mode {
            Mode::WasmBindgen => self.peer.as_deref().expect("peer built"),
            _ => &self.bridge,
        }
    }
}

/// Every runner process of this invocation, in order: each identity scenario × mode ×
/// measure (the floor, and `--time-only`, time only), then each release-pool variant
/// whose objects' mode is selected (time only).
fn plan(args: &BenchArgs, modes: &[Mode], pkgs: &Packages) -> Vec<Job> {
    let filter = args.filter.as_deref();
    let mut jobs = Vec::new();
    for s in SCENARIOS.iter().filter(|s| matches_filter(s.name, filter)) {
        let iterations = match (args.quick, args.iterations) {
            (true, _) => s.quick_iterations,
            (false, Some(n)) => (n / s.objects_per_iteration).max(1),
            (false, None) => s.iterations,
        };
        for &mode in modes {
            if (mode == Mode::AllocFloor && !s.alloc_floor) || (mode == Mode::JsOnly && !s.js_only)
            {
                continue;
            }
            let kinds: &[Kind] = if mode.is_floor() || args.time_only {
                &[Kind::Time]
            } else {
                &[Kind::Time, Kind::Sustained, Kind::Memory]
            };
            for &kind in kinds {
                jobs.push(Job {
                    scenario: s.name,
                    select: Select::Mode(mode),
                    kind,
                    iterations,
                    unit: "iterations",
                    pkg: pkgs.for_mode(mode).to_path_buf(),
                });
                // Right after its bridge-only twin, so both see the machine alike.
                if let (Mode::Rust, Kind::Time, Some(pkg)) = (mode, kind, &pkgs.alongside) {
                    jobs.push(Job {
                        scenario: s.name,
                        select: Select::Mode(mode),
                        kind,
                        iterations,
                        unit: "iterations",
                        pkg: pkg.clone(),
                    });
                }
                // Its cost per crossing beside its partner's, in one process.
                if let (Mode::Rust, Kind::Time) = (mode, kind) {
                    for &(_, partner) in PAIRED.iter().filter(|(name, _)| *name == s.name) {
                        jobs.push(Job {
                            scenario: s.name,
                            select: Select::Mode(mode),
                            kind: Kind::Paired(partner),
                            iterations,
                            unit: "iterations",
                            pkg: pkgs.for_mode(mode).to_path_buf(),
                        });
                    }
                }
            }
        }
    }
    if let Some(pkg) = &pkgs.alongside {
        // Its own scenarios, and the crossing the conversion is compared with (when the
        // loop above did not plan it).
        let own: Vec<&Scenario> = ALONGSIDE_SCENARIOS
            .iter()
            .filter(|s| matches_filter(ALONGSIDE, filter) || matches_filter(s.name, filter))
            .collect();
        let base = SCENARIOS.iter().find(|s| s.name == CONVERSION_BASE);
        let twinned = matches_filter(CONVERSION_BASE, filter) && modes.contains(&Mode::Rust);
        let extra = base.filter(|_| !own.is_empty() && !twinned);
        for s in own.into_iter().chain(extra) {
            jobs.push(Job {
                scenario: s.name,
                select: Select::Mode(Mode::Rust),
                kind: Kind::Time,
                iterations: match (args.quick, args.iterations) {
                    (true, _) => s.quick_iterations,
                    (false, Some(n)) => n.max(1),
                    (false, None) => s.iterations,
                },
                unit: "iterations",
                pkg: pkg.clone(),
            });
        }
    }
    for s in POOL_SCENARIOS
        .iter()
        .filter(|s| matches_filter(s.name, filter))
    {
        let iterations = match (args.quick, args.iterations) {
            (true, _) => s.quick_iterations,
            (false, Some(n)) => n.max(1),
            (false, None) => s.iterations,
        };
        for v in s.variants.iter().filter(|v| modes.contains(&v.mode)) {
            jobs.push(Job {
                scenario: s.name,
                select: Select::Variant(v.name),
                kind: Kind::Time,
                iterations,
                unit: s.unit,
                pkg: pkgs.bridge.clone(),
            });
        }
    }
    jobs
}

/// Group the jobs' results into one record per (scenario, row).
fn collect(results: Vec<(Job, Result<Measured>)>) -> (Vec<Record>, Vec<PoolRecord>) {
    let mut records: Vec<Record> = Vec::new();
    let mut pools: Vec<PoolRecord> = Vec::new();
    for (job, result) in results {
        let error = |e: &anyhow::Error, row: &str| format!("{} {row}: {e:#}", job.kind.name());
        match job.select {
            Select::Mode(mode) => {
                let scenario = SCENARIOS
                    .iter()
                    .chain(ALONGSIDE_SCENARIOS)
                    .find(|s| s.name == job.scenario)
                    .expect("planned from SCENARIOS or ALONGSIDE_SCENARIOS");
                let at = match records
                    .iter()
                    .position(|r| r.scenario.name == job.scenario && r.mode == mode)
                {
                    Some(at) => at,
                    None => {
                        records.push(Record {
                            scenario,
                            mode,
                            iterations: job.iterations,
                            time: None,
                            sustained: None,
                            memory: None,
                            paired: None,
                            errors: Vec::new(),
                        });
                        records.len() - 1
                    }
                };
                let record = &mut records[at];
                match result {
                    Ok(Measured::Time(t)) => record.time = Some(t),
                    Ok(Measured::Sustained(s)) => record.sustained = Some(s),
                    Ok(Measured::Memory(m)) => record.memory = Some(m),
                    Ok(Measured::Paired(p)) => record.paired = Some(p),
                    Err(e) => record.errors.push(error(&e, mode.name())),
                }
            }
            Select::Variant(name) => {
                let scenario = POOL_SCENARIOS
                    .iter()
                    .find(|s| s.name == job.scenario)
                    .expect("planned from POOL_SCENARIOS");
                let variant = scenario
                    .variants
                    .iter()
                    .find(|v| v.name == name)
                    .expect("planned from the scenario's variants");
                let mut record = PoolRecord {
                    scenario,
                    variant,
                    iterations: job.iterations,
                    time: None,
                    errors: Vec::new(),
                };
                match result {
                    Ok(Measured::Time(t)) => record.time = Some(t),
                    Ok(_) => unreachable!("release-pool jobs are time only"),
                    Err(e) => record.errors.push(error(&e, name)),
                }
                pools.push(record);
            }
        }
    }
    (records, pools)
}

/// The identity scenarios' names, each with whether it has a js-only row (the browser
/// bench checks its list against them).
#[cfg(test)]
pub(crate) fn scenario_names() -> Vec<(&'static str, bool)> {
    SCENARIOS.iter().map(|s| (s.name, s.js_only)).collect()
}

pub(crate) fn matches_filter(name: &str, filter: Option<&str>) -> bool {
    let Some(filter) = filter else { return true };
    let name = name.to_lowercase();
    filter
        .split(',')
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .any(|f| name.contains(&f.to_lowercase()))
}

fn command_line() -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    format!("cargo xtask {}", args.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: BenchArgs,
    }

    fn args(argv: &[&str]) -> BenchArgs {
        Cli::parse_from(std::iter::once("bench").chain(argv.iter().copied())).args
    }

    fn pkgs() -> Packages {
        Packages {
            bridge: "bridge.js".into(),
            peer: Some("peer.js".into()),
            alongside: None,
        }
    }

    fn rows(jobs: &[Job]) -> Vec<String> {
        jobs.iter()
            .map(|j| match j.select {
                Select::Mode(m) => format!("{} {} {}", j.scenario, m.name(), j.kind.name()),
                Select::Variant(v) => format!("{} {v} {}", j.scenario, j.kind.name()),
            })
            .collect()
    }

    #[test]
    fn filter_matches_any_comma_separated_part_case_insensitively() {
        assert!(matches_filter("churnObjects", None));
        assert!(matches_filter("churnObjects", Some("churn")));
        assert!(matches_filter(
            "getPoolRepeated_100",
            Some("roundtrip, pool")
        ));
        assert!(matches_filter("rustCreatesObject", Some("CREATES")));
        assert!(!matches_filter("churnObjects", Some("pool,create")));
    }

    #[test]
    fn plan_times_the_floor_only_and_selects_pool_variants_by_their_objects_mode() {
        let a = args(&["--filter", "consumesSame,pushpop"]);
        let jobs = plan(&a, &[Mode::Floor, Mode::Rust], &pkgs());
        assert_eq!(
            rows(&jobs),
            [
                "rustConsumesSameObject floor time",
                "rustConsumesSameObject rust time",
                "rustConsumesSameObject rust sustained",
                "rustConsumesSameObject rust memory",
                "emptyPoolPushPop pushPop time",
                "emptyPoolPushPop withPool time",
                "emptyPoolPushPop bareCall time",
            ]
        );
        let jobs = plan(&a, &[Mode::None], &pkgs());
        assert_eq!(
            rows(&jobs),
            [
                "rustConsumesSameObject none time",
                "rustConsumesSameObject none sustained",
                "rustConsumesSameObject none memory",
            ]
        );
    }

    #[test]
    fn plan_sends_peer_rows_to_the_peer_package_and_counts_objects() {
        let a = args(&["--filter", "getpool", "--iterations", "1000", "--time-only"]);
        let jobs = plan(&a, &[Mode::Rust, Mode::WasmBindgen], &pkgs());
        assert_eq!(jobs.len(), 2);
        assert_eq!(jobs[0].pkg, PathBuf::from("bridge.js"));
        assert_eq!(jobs[1].pkg, PathBuf::from("peer.js"));
        // 100 objects per iteration.
        assert_eq!(jobs[0].iterations, 10);
    }

    #[test]
    fn collect_groups_measures_into_one_record_and_keeps_failures() {
        let a = args(&["--filter", "consumesSame"]);
        let jobs = plan(&a, &[Mode::Rust], &pkgs());
        let results = jobs
            .into_iter()
            .map(|j| {
                let r = match j.kind {
                    Kind::Time => Err(anyhow::anyhow!("boom")),
                    _ => Err(anyhow::anyhow!("also")),
                };
                (j, r)
            })
            .collect();
        let (records, pools) = collect(results);
        assert!(pools.is_empty());
        assert_eq!(records.len(), 1);
        assert_eq!(
            records[0].errors,
            [
                "time rust: boom",
                "sustained rust: also",
                "memory rust: also"
            ]
        );
    }
}
