//! The flags of `cargo xtask bench` and what they resolve to, checked before anything is
//! built: which rows run, how each runner process samples, and whether the run is the
//! canonical one that rewrites `docs/benchmarks.md`.

use crate::model::{Mode, SamplingNote};
use crate::runner::Sampling;
use crate::scenarios::{ALONGSIDE_SCENARIOS, POOL_SCENARIOS, SCENARIOS};
use anyhow::{Result, bail};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Only scenarios whose name contains one of these (comma-separated, case-insensitive);
    /// the release-pool scenarios are release100k and emptyPoolPushPop, the size table `size`,
    /// the build-cost section `build`, that of plain wasm-bindgen crates `build-plain` (`build`
    /// selects both)
    #[arg(long)]
    pub filter: Option<String>,
    /// Build-cost section: the class counts of the generated crates (default 1,10,100,1000;
    /// --quick builds the example only)
    #[arg(long, value_delimiter = ',')]
    pub classes: Vec<usize>,
    /// Only these rows (comma-separated); the floor rows run unless left out here. Pool
    /// variants go by the mode of their objects (push/pop counts as rust, the bare call as floor)
    #[arg(long, value_enum, value_delimiter = ',')]
    pub mode: Vec<Mode>,
    /// Iterations of every scenario (getPoolRepeated_100 makes N/100 calls of 100 objects;
    /// release100k: N objects; emptyPoolPushPop: N pairs)
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Tiny counts: a smoke test of the whole pipeline (CI), never a measurement
    #[arg(long)]
    pub quick: bool,
    /// Also write the JSON records to this file (always written to bench-results/bench.json)
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,
    /// Also run the scenarios on a peer library, if its tools are installed
    #[arg(long, value_enum)]
    pub peer: Option<Peer>,
    /// Adaptive sampling: fewest timed runs
    #[arg(long, default_value_t = 5)]
    pub min_runs: u32,
    /// Adaptive sampling: most timed runs
    #[arg(long, default_value_t = 15)]
    pub max_runs: u32,
    /// Adaptive sampling: stop once the coefficient of variation is at most this, in percent
    #[arg(long, default_value_t = 5.0)]
    pub target_cv: f64,
    /// Warm-up: whole runs until at least 3 and this many ms have passed
    #[arg(long, default_value_t = 1000)]
    pub warmup_ms: u64,
    /// Time rows: fresh processes per row when the first takes under 2.5 s (the process
    /// with the median median is reported)
    #[arg(long, default_value_t = 3)]
    pub processes: u32,
    /// Timing only: skip the sustained and memory measures (pool scenarios are timed only)
    #[arg(long)]
    pub time_only: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Peer {
    #[value(name = "wasm-bindgen")]
    WasmBindgen,
}

/// The `--filter` name of the size table.
pub const SIZE: &str = "size";
/// The `--filter` name of the build-cost section.
pub const BUILD: &str = "build";
/// The `--filter` name of the plain wasm-bindgen crates' build cost (issue 43).
pub const BUILD_PLAIN: &str = "build-plain";
/// The `--filter` name of the alongside section (all of it; a scenario's name selects its
/// alongside row too).
pub const ALONGSIDE: &str = "alongside";

/// What a run's flags resolve to.
pub struct Settings {
    /// The rows to run, in table order (the peer's is dropped if it cannot be built).
    pub modes: Vec<Mode>,
    /// How each runner process samples.
    pub sampling: Sampling,
    /// The same, as the report prints it.
    pub note: SamplingNote,
    /// A full run: no flag narrows or shortens it, so it rewrites `docs/benchmarks.md`.
    pub canonical: bool,
}

/// Check the flags and resolve them; an error says which flag is wrong and why.
pub fn resolve(args: &BenchArgs) -> Result<Settings> {
    check_filter(args.filter.as_deref())?;
    if args.processes == 0 {
        bail!("--processes must be at least 1");
    }
    if args.min_runs == 0 || args.min_runs > args.max_runs {
        bail!("--min-runs must be at least 1 and at most --max-runs");
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
    Ok(Settings {
        modes: modes(args),
        sampling: Sampling {
            min_runs,
            max_runs,
            target_cv: args.target_cv / 100.0,
            budget_ms: if args.quick { 10_000 } else { 120_000 },
            warmup_ms,
            processes,
        },
        note: SamplingNote {
            min_runs,
            max_runs,
            target_cv: args.target_cv,
            warmup_ms,
            processes,
        },
        canonical: !args.quick
            && args.filter.is_none()
            && args.mode.is_empty()
            && args.iterations.is_none()
            && args.classes.is_empty()
            && !args.time_only,
    })
}

/// `--filter` must select something: every scenario and section name is listed if not.
fn check_filter(filter: Option<&str>) -> Result<()> {
    let names: Vec<&str> = SCENARIOS
        .iter()
        .map(|s| s.name)
        .chain(POOL_SCENARIOS.iter().map(|s| s.name))
        .chain(ALONGSIDE_SCENARIOS.iter().map(|s| s.name))
        .chain([SIZE, BUILD, BUILD_PLAIN, ALONGSIDE])
        .collect();
    if !names.iter().any(|name| matches_filter(name, filter)) {
        bail!(
            "--filter {:?} matches no scenario: {}",
            filter.unwrap_or(""),
            names.join(", ")
        );
    }
    Ok(())
}

/// `--mode`'s rows in table order, or every row (and the peer's with `--peer`).
fn modes(args: &BenchArgs) -> Vec<Mode> {
    if !args.mode.is_empty() {
        return Mode::ALL
            .into_iter()
            .filter(|m| args.mode.contains(m))
            .collect();
    }
    let mut modes = vec![
        Mode::Floor,
        Mode::AllocFloor,
        Mode::JsOnly,
        Mode::None,
        Mode::Pointer,
        Mode::Rust,
    ];
    if args.peer.is_some() {
        modes.push(Mode::WasmBindgen);
    }
    modes
}

/// Whether `--filter` (comma-separated parts, case-insensitive) selects `name`.
pub fn matches_filter(name: &str, filter: Option<&str>) -> bool {
    let Some(filter) = filter else { return true };
    let name = name.to_lowercase();
    filter
        .split(',')
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .any(|f| name.contains(&f.to_lowercase()))
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: BenchArgs,
    }

    /// The flags as `cargo xtask bench ARGV` parses them.
    pub fn args(argv: &[&str]) -> BenchArgs {
        Cli::parse_from(std::iter::once("bench").chain(argv.iter().copied())).args
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
    fn bad_flags_are_refused_before_anything_runs() {
        let err = |argv: &[&str]| resolve(&args(argv)).err().map(|e| e.to_string());
        assert!(err(&["--filter", "nothing-like-it"]).unwrap().starts_with(
            "--filter \"nothing-like-it\" matches no scenario: passBothWaysRoundtrip"
        ));
        assert_eq!(
            err(&["--processes", "0"]).unwrap(),
            "--processes must be at least 1"
        );
        assert_eq!(
            err(&["--min-runs", "9", "--max-runs", "3"]).unwrap(),
            "--min-runs must be at least 1 and at most --max-runs"
        );
    }

    #[test]
    fn a_smoke_run_samples_little_and_only_a_full_run_is_canonical() {
        let quick = resolve(&args(&["--quick"])).unwrap();
        assert_eq!((quick.sampling.min_runs, quick.sampling.max_runs), (3, 3));
        assert_eq!(quick.sampling.processes, 1);
        assert!(!quick.canonical);
        let full = resolve(&args(&[])).unwrap();
        assert!(full.canonical);
        assert_eq!(full.note.target_cv, 5.0);
        assert_eq!(full.modes.len(), 6);
        let peer = resolve(&args(&["--peer", "wasm-bindgen", "--filter", "churn"])).unwrap();
        assert!(!peer.canonical);
        assert_eq!(peer.modes.last(), Some(&Mode::WasmBindgen));
        let rows = resolve(&args(&["--mode", "rust,floor"])).unwrap();
        assert_eq!(rows.modes, [Mode::Floor, Mode::Rust]);
    }
}
