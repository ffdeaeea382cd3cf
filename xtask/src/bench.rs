//! `cargo xtask bench`: the identity benchmark suite (see `docs/benchmarks.md`).
//!
//! Builds `fixtures/bench` with the real `cargo bridge` in release mode (and, with
//! `--peer wasm-bindgen`, the same scenarios with wasm-bindgen), then runs every
//! (scenario, mode, measure) in a fresh `node --expose-gc xtask/bench/runner.mjs`
//! process. The runner does the sampling; this side plans, collects, compares and
//! writes the table (stdout), the JSON records and `docs/benchmarks.md`. The release-pool
//! scenarios (issue 5) run after the identity ones, one process per (scenario, variant):
//! see `pools.rs`.

mod peer;
mod pools;
mod report;

use crate::fixtures::{self, build_fixture, install_cargo_bridge};
use anyhow::{Context, Result, bail};
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use xshell::Shell;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Only scenarios whose name contains one of these (comma-separated, case-insensitive);
    /// the release-pool scenarios are release100k and emptyPoolPushPop
    #[arg(long)]
    filter: Option<String>,
    /// Only these rows (comma-separated); the floor row runs unless left out here. Pool
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
    /// Timing only: skip the sustained and memory measures (pool scenarios are timed only)
    #[arg(long)]
    time_only: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Mode {
    Floor,
    None,
    Pointer,
    Rust,
    #[value(name = "wasm-bindgen")]
    WasmBindgen,
}

impl Mode {
    pub const ALL: [Mode; 5] = [
        Mode::Floor,
        Mode::None,
        Mode::Pointer,
        Mode::Rust,
        Mode::WasmBindgen,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Floor => "floor",
            Mode::None => "none",
            Mode::Pointer => "pointer",
            Mode::Rust => "rust",
            Mode::WasmBindgen => "wasm-bindgen",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Peer {
    #[value(name = "wasm-bindgen")]
    WasmBindgen,
}

/// A scenario of `xtask/bench/scenarios.mjs`.
pub struct Scenario {
    pub name: &'static str,
    /// Loop iterations of a full run (the pool: calls returning 100 objects).
    pub iterations: u64,
    pub quick_iterations: u64,
    /// Boundary crossings per iteration (its floor row makes as many `floor` calls).
    pub crossings: u64,
    /// Objects crossing per iteration (`--iterations` counts objects).
    pub objects_per_iteration: u64,
    pub what: &'static str,
}

pub const SCENARIOS: [Scenario; 5] = [
    Scenario {
        name: "passBothWaysRoundtrip",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 1,
        objects_per_iteration: 1,
        what: "Rust returns an object, JS passes it back: `obj = C.roundtrip(obj)`",
    },
    Scenario {
        name: "getPoolRepeated_100",
        iterations: 10_000,
        quick_iterations: 20,
        crossings: 100,
        objects_per_iteration: 100,
        what: "Rust returns the same 100 objects as a fresh `Vec<Handle<C>>`: `pool.all()`",
    },
    Scenario {
        name: "churnObjects",
        iterations: 100_000,
        quick_iterations: 1_000,
        crossings: 3,
        objects_per_iteration: 1,
        what: "`new C(i)`, `C.roundtrip(obj)`, `obj.release()`",
    },
    Scenario {
        name: "rustConsumesSameObject",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 1,
        objects_per_iteration: 1,
        what: "JS passes one object, Rust reads it: `C.consume(obj)` (`&C` in, `i32` out)",
    },
    Scenario {
        name: "rustCreatesObject",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 2,
        objects_per_iteration: 1,
        what: "a fresh object per call, released at once in every mode: `C.make(i).release()`",
    },
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Time,
    Sustained,
    Memory,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Time => "time",
            Kind::Sustained => "sustained",
            Kind::Memory => "memory",
        }
    }
}

/// Everything measured for one (scenario, mode).
pub struct Record {
    pub scenario: &'static Scenario,
    pub mode: Mode,
    pub iterations: u64,
    pub time: Option<Value>,
    pub sustained: Option<Value>,
    pub memory: Option<Value>,
    pub errors: Vec<String>,
}

impl Record {
    pub fn time_f64(&self, key: &str) -> Option<f64> {
        self.time.as_ref()?.get(key)?.as_f64()
    }
    pub fn median_ms(&self) -> Option<f64> {
        self.time_f64("medianMs")
    }
    pub fn sustained_f64(&self, key: &str) -> Option<f64> {
        self.sustained.as_ref()?.get(key)?.as_f64()
    }
    pub fn memory_f64(&self, key: &str) -> Option<f64> {
        self.memory.as_ref()?.get(key)?.as_f64()
    }
}

/// What one invocation measured, with how it was asked for.
pub struct Run {
    pub records: Vec<Record>,
    /// The release-pool scenarios.
    pub pools: Vec<pools::PoolRecord>,
    pub quick: bool,
    pub canonical: bool,
    pub command: String,
    pub peer_note: Option<String>,
    pub min_runs: u32,
    pub max_runs: u32,
    pub target_cv: f64,
    pub warmup_ms: u64,
}

pub fn run(sh: &Shell, args: &BenchArgs) -> Result<()> {
    let started = Instant::now();
    let root = fixtures::project_root();
    let scenarios: Vec<&'static Scenario> = SCENARIOS
        .iter()
        .filter(|s| matches_filter(s.name, args.filter.as_deref()))
        .collect();
    let pool_scenarios: Vec<&'static pools::PoolScenario> = pools::POOL_SCENARIOS
        .iter()
        .filter(|s| matches_filter(s.name, args.filter.as_deref()))
        .collect();
    if scenarios.is_empty() && pool_scenarios.is_empty() {
        let names: Vec<&str> = SCENARIOS
            .iter()
            .map(|s| s.name)
            .chain(pools::POOL_SCENARIOS.iter().map(|s| s.name))
            .collect();
        bail!(
            "--filter {:?} matches no scenario: {}",
            args.filter.as_deref().unwrap_or(""),
            names.join(", ")
        );
    }
    if args.min_runs == 0 || args.min_runs > args.max_runs {
        bail!("--min-runs must be at least 1 and at most --max-runs");
    }
    let mut modes: Vec<Mode> = if args.mode.is_empty() {
        vec![Mode::Floor, Mode::None, Mode::Pointer, Mode::Rust]
    } else {
        Mode::ALL
            .into_iter()
            .filter(|m| args.mode.contains(m))
            .collect()
    };
    let pool_plan = pools::plan(&pool_scenarios, &modes);
    if args.peer.is_some() && args.mode.is_empty() {
        modes.push(Mode::WasmBindgen);
    }

    // Probed before the build: the commit is the one the build measures.
    let machine = report::Machine::probe();
    eprintln!("bench: building fixtures/bench with `cargo bridge build --release`");
    let path = install_cargo_bridge(sh)?;
    build_fixture(
        sh,
        &path,
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
    let runner = root.join("xtask/bench/runner.mjs");
    let warmup_ms = if args.quick {
        args.warmup_ms.min(20)
    } else {
        args.warmup_ms
    };
    let sampling = Sampling {
        min_runs,
        max_runs,
        target_cv: args.target_cv / 100.0,
        budget_ms: if args.quick { 10_000 } else { 120_000 },
        warmup_ms,
    };
    let mut records = Vec::new();
    for scenario in &scenarios {
        let iterations = match (args.quick, args.iterations) {
            (true, _) => scenario.quick_iterations,
            (false, Some(n)) => (n / scenario.objects_per_iteration).max(1),
            (false, None) => scenario.iterations,
        };
        for &mode in &modes {
            let pkg = match mode {
                Mode::WasmBindgen => peer_pkg.clone().expect("peer built"),
                _ => bridge_pkg.clone(),
            };
            let mut record = Record {
                scenario,
                mode,
                iterations,
                time: None,
                sustained: None,
                memory: None,
                errors: Vec::new(),
            };
            let kinds: &[Kind] = if mode == Mode::Floor || args.time_only {
                &[Kind::Time]
            } else {
                &[Kind::Time, Kind::Sustained, Kind::Memory]
            };
            for &kind in kinds {
                eprintln!(
                    "bench: {:<24} {:<13} {:<10} ({} iterations)",
                    scenario.name,
                    mode.name(),
                    kind.name(),
                    iterations
                );
                let spec = RunnerSpec {
                    runner: &runner,
                    pkg: &pkg,
                    scenario: scenario.name,
                    select: Select::Mode(mode),
                    kind,
                    iterations,
                    sampling,
                };
                match run_node(&spec) {
                    Ok(result) => match kind {
                        Kind::Time => record.time = Some(result),
                        Kind::Sustained => record.sustained = Some(result),
                        Kind::Memory => record.memory = Some(result),
                    },
                    Err(e) => {
                        let msg = format!("{} {}: {e:#}", kind.name(), mode.name());
                        eprintln!("bench: FAILED {}: {msg}", scenario.name);
                        record.errors.push(msg);
                    }
                }
            }
            records.push(record);
        }
    }
    let pool_records = pools::measure(&pool_plan, args, &runner, &bridge_pkg, sampling);

    let canonical = !args.quick
        && args.filter.is_none()
        && args.mode.is_empty()
        && args.iterations.is_none()
        && !args.time_only;
    let run = Run {
        records,
        pools: pool_records,
        quick: args.quick,
        canonical,
        command: command_line(),
        peer_note,
        min_runs,
        max_runs,
        target_cv: args.target_cv,
        warmup_ms,
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
             --mode, --iterations or --time-only rewrites it)"
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
    Ok(())
}

/// A private copy of a built package, removed when dropped.
struct Snapshot {
    dir: PathBuf,
}

impl Snapshot {
    fn of(pkg: &Path) -> Result<Snapshot> {
        let dir = std::env::temp_dir().join(format!("cargo-bridge-bench-{}", std::process::id()));
        let snapshot = Snapshot { dir };
        std::fs::create_dir_all(&snapshot.dir)?;
        for entry in std::fs::read_dir(pkg).with_context(|| format!("reading {}", pkg.display()))? {
            let entry = entry?;
            if entry.file_type()?.is_file() {
                std::fs::copy(entry.path(), snapshot.dir.join(entry.file_name()))
                    .with_context(|| format!("copying {}", entry.path().display()))?;
            }
        }
        Ok(snapshot)
    }
}

impl Drop for Snapshot {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn matches_filter(name: &str, filter: Option<&str>) -> bool {
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

/// A mode of an identity scenario, or a variant of a release-pool scenario.
enum Select<'a> {
    Mode(Mode),
    Variant(&'a str),
}

/// How a runner process samples (`target_cv` as a fraction).
#[derive(Clone, Copy)]
struct Sampling {
    min_runs: u32,
    max_runs: u32,
    target_cv: f64,
    budget_ms: u64,
    warmup_ms: u64,
}

struct RunnerSpec<'a> {
    runner: &'a Path,
    pkg: &'a Path,
    scenario: &'a str,
    select: Select<'a>,
    kind: Kind,
    iterations: u64,
    sampling: Sampling,
}

/// Hard limit for one runner process.
const PROCESS_TIMEOUT: Duration = Duration::from_secs(20 * 60);

/// One fresh `node --expose-gc runner.mjs` process; returns its `result` object.
fn run_node(spec: &RunnerSpec) -> Result<Value> {
    let select = match spec.select {
        Select::Mode(mode) => ["--mode", mode.name()],
        Select::Variant(variant) => ["--variant", variant],
    };
    let mut child = Command::new("node")
        .arg("--expose-gc")
        .arg(spec.runner)
        .args(["--pkg", &spec.pkg.display().to_string()])
        .args(["--scenario", spec.scenario])
        .args(select)
        .args(["--kind", spec.kind.name()])
        .args(["--iterations", &spec.iterations.to_string()])
        .args(["--min-runs", &spec.sampling.min_runs.to_string()])
        .args(["--max-runs", &spec.sampling.max_runs.to_string()])
        .args(["--target-cv", &spec.sampling.target_cv.to_string()])
        .args(["--budget-ms", &spec.sampling.budget_ms.to_string()])
        .args(["--warmup-ms", &spec.sampling.warmup_ms.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .context("starting node (is Node.js installed?)")?;
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut out = String::new();
        stdout.read_to_string(&mut out).map(|_| out)
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if started.elapsed() > PROCESS_TIMEOUT {
            child.kill().ok();
            child.wait().ok();
            bail!("timed out after {} s", PROCESS_TIMEOUT.as_secs());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = reader
        .join()
        .map_err(|_| anyhow::anyhow!("stdout reader panicked"))??;
    if !status.success() {
        bail!("runner exited with {status}");
    }
    let line = out
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("BENCH_JSON "))
        .context("runner printed no BENCH_JSON line")?;
    let mut value: Value = serde_json::from_str(line).context("runner JSON")?;
    Ok(value["result"].take())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

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

    /// `1000000` as the runners write it: `1_000_000`.
    pub(crate) fn js_number_literal(n: u64) -> String {
        n.to_string()
            .as_bytes()
            .rchunks(3)
            .rev()
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect::<Vec<_>>()
            .join("_")
    }

    #[test]
    fn scenarios_match_the_js_runner() {
        let js =
            std::fs::read_to_string(fixtures::project_root().join("xtask/bench/scenarios.mjs"))
                .unwrap();
        for s in &SCENARIOS {
            let at = js.find(&format!("  {}: {{", s.name)).expect(s.name);
            let body = &js[at..];
            assert!(
                body.contains(&format!("crossings: {},", s.crossings)),
                "{}",
                s.name
            );
            let grouped = js_number_literal(s.iterations);
            assert!(
                body.contains(&format!("iterations: {grouped},")),
                "{}",
                s.name
            );
        }
    }
}
