//! From the resolved flags to the runner processes, and back: [`plan`] lists one job per
//! (scenario, row, measure) of every section in the order they run, [`collect`] groups the
//! jobs' results into one record per (scenario, row).

use crate::flags::{ALONGSIDE, BenchArgs, matches_filter};
use crate::model::{Kind, Measured, Mode, PoolRecord, PoolScenario, Record, Scenario};
use crate::runner::{Job, Select};
use crate::scenarios::{ALONGSIDE_SCENARIOS, PAIRED, POOL_SCENARIOS, SCENARIOS};
use anyhow::Result;
use std::path::{Path, PathBuf};

/// The crossing a `JsValue` conversion is compared with (run on the alongside package too).
const CONVERSION_BASE: &str = "jsValueRoundtrip";

/// The packages the runners load.
pub struct Packages {
    pub bridge: PathBuf,
    pub peer: Option<PathBuf>,
    /// The alongside package, when its section runs.
    pub alongside: Option<PathBuf>,
}

impl Packages {
    fn for_mode(&self, mode: Mode) -> &Path {
        match mode {
            Mode::WasmBindgen => self.peer.as_deref().expect("peer built"),
            _ => &self.bridge,
        }
    }
}

/// Whether the alongside section runs: its own name or one of its scenarios' is selected.
pub fn alongside_selected(filter: Option<&str>) -> bool {
    matches_filter(ALONGSIDE, filter)
        || SCENARIOS
            .iter()
            .chain(ALONGSIDE_SCENARIOS)
            .any(|s| matches_filter(s.name, filter))
}

/// Every runner process of this invocation, in order: each identity scenario × mode ×
/// measure (the floor, and `--time-only`, time only), the alongside package's own rows,
/// then each release-pool variant whose objects' mode is selected (time only).
pub fn plan(args: &BenchArgs, modes: &[Mode], pkgs: &Packages) -> Vec<Job> {
    let filter = args.filter.as_deref();
    let mut jobs = Vec::new();
    for s in SCENARIOS.iter().filter(|s| matches_filter(s.name, filter)) {
        identity_jobs(&mut jobs, args, s, modes, pkgs);
    }
    if let Some(pkg) = &pkgs.alongside {
        alongside_jobs(&mut jobs, args, modes, pkg);
    }
    for s in POOL_SCENARIOS
        .iter()
        .filter(|s| matches_filter(s.name, filter))
    {
        pool_jobs(&mut jobs, args, s, modes, pkgs);
    }
    jobs
}

/// `--iterations` for a scenario of `per_iteration` objects, `--quick`'s count, or its own.
fn iterations(args: &BenchArgs, quick: u64, per_iteration: u64, own: u64) -> u64 {
    match (args.quick, args.iterations) {
        (true, _) => quick,
        (false, Some(n)) => (n / per_iteration).max(1),
        (false, None) => own,
    }
}

/// The measures of one row: time, and for a way of bridging (not a floor) the sustained
/// and memory measures too, unless `--time-only`. A smoke run (`--quick`) takes those two
/// in one mode only (`rust`, else the first way of bridging selected): every scenario
/// still goes through each measure and every mode through time (the harness of a measure
/// is the same code in every mode; a smoke run checks the pipeline, not the figures), in
/// about two thirds of the processes.
fn measures(args: &BenchArgs, modes: &[Mode], mode: Mode) -> &'static [Kind] {
    const ALL: &[Kind] = &[Kind::Time, Kind::Sustained, Kind::Memory];
    const TIME: &[Kind] = &[Kind::Time];
    if mode.is_floor() || args.time_only {
        return TIME;
    }
    if !args.quick {
        return ALL;
    }
    let mut bridging = modes.iter().copied().filter(|m| !m.is_floor());
    let smoke_mode = if modes.contains(&Mode::Rust) {
        Some(Mode::Rust)
    } else {
        bridging.next()
    };
    if smoke_mode == Some(mode) { ALL } else { TIME }
}

fn identity_jobs(
    jobs: &mut Vec<Job>,
    args: &BenchArgs,
    s: &'static Scenario,
    modes: &[Mode],
    pkgs: &Packages,
) {
    let iterations = iterations(
        args,
        s.quick_iterations,
        s.objects_per_iteration,
        s.iterations,
    );
    let job = |mode: Mode, kind: Kind, pkg: &Path| Job {
        scenario: s.name,
        select: Select::Mode(mode),
        kind,
        iterations,
        unit: "iterations",
        pkg: pkg.to_path_buf(),
    };
    for &mode in modes {
        if (mode == Mode::AllocFloor && !s.alloc_floor) || (mode == Mode::JsOnly && !s.js_only) {
            continue;
        }
        for &kind in measures(args, modes, mode) {
            jobs.push(job(mode, kind, pkgs.for_mode(mode)));
            if (mode, kind) != (Mode::Rust, Kind::Time) {
                continue;
            }
            // Right after its bridge-only twin, so both see the machine alike.
            if let Some(pkg) = &pkgs.alongside {
                jobs.push(job(mode, kind, pkg));
            }
            // Its cost per crossing beside its partner's, in one process.
            for &(_, partner) in PAIRED.iter().filter(|(name, _)| *name == s.name) {
                jobs.push(job(mode, Kind::Paired(partner), pkgs.for_mode(mode)));
            }
        }
    }
}

/// The alongside package's own scenarios, and the crossing the conversion is compared with
/// (when the identity jobs did not plan it).
fn alongside_jobs(jobs: &mut Vec<Job>, args: &BenchArgs, modes: &[Mode], pkg: &Path) {
    let filter = args.filter.as_deref();
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
            iterations: iterations(args, s.quick_iterations, 1, s.iterations),
            unit: "iterations",
            pkg: pkg.to_path_buf(),
        });
    }
}

fn pool_jobs(
    jobs: &mut Vec<Job>,
    args: &BenchArgs,
    s: &'static PoolScenario,
    modes: &[Mode],
    pkgs: &Packages,
) {
    let iterations = iterations(args, s.quick_iterations, 1, s.iterations);
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

/// Group the jobs' results into one record per (scenario, row).
pub fn collect(results: Vec<(Job, Result<Measured>)>) -> (Vec<Record>, Vec<PoolRecord>) {
    let mut records: Vec<Record> = Vec::new();
    let mut pools: Vec<PoolRecord> = Vec::new();
    for (job, result) in results {
        let error = |e: &anyhow::Error, row: &str| format!("{} {row}: {e:#}", job.kind.name());
        match job.select {
            Select::Mode(mode) => {
                let record = record_of(&mut records, &job, mode);
                match result {
                    Ok(Measured::Time(t)) => record.time = Some(t),
                    Ok(Measured::Sustained(s)) => record.sustained = Some(s),
                    Ok(Measured::Memory(m)) => record.memory = Some(m),
                    Ok(Measured::Paired(p)) => record.paired = Some(p),
                    Err(e) => record.errors.push(error(&e, mode.name())),
                }
            }
            Select::Variant(name) => {
                let mut record = pool_record(&job, name);
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

/// The record of `job`'s scenario and `mode`, made on its first result.
fn record_of<'r>(records: &'r mut Vec<Record>, job: &Job, mode: Mode) -> &'r mut Record {
    let at = records
        .iter()
        .position(|r| r.scenario.name == job.scenario && r.mode == mode);
    let at = at.unwrap_or_else(|| {
        let scenario = SCENARIOS
            .iter()
            .chain(ALONGSIDE_SCENARIOS)
            .find(|s| s.name == job.scenario)
            .expect("planned from SCENARIOS or ALONGSIDE_SCENARIOS");
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
    });
    &mut records[at]
}

/// An empty record of a release-pool variant's job.
fn pool_record(job: &Job, name: &str) -> PoolRecord {
    let scenario = POOL_SCENARIOS
        .iter()
        .find(|s| s.name == job.scenario)
        .expect("planned from POOL_SCENARIOS");
    let variant = scenario
        .variants
        .iter()
        .find(|v| v.name == name)
        .expect("planned from the scenario's variants");
    PoolRecord {
        scenario,
        variant,
        iterations: job.iterations,
        time: None,
        errors: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flags::tests::args;

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
    fn a_smoke_run_takes_the_sustained_and_memory_measures_in_one_mode_only() {
        let a = args(&["--filter", "consumesSame", "--quick"]);
        let all = [Mode::Floor, Mode::None, Mode::Pointer, Mode::Rust];
        assert_eq!(
            rows(&plan(&a, &all, &pkgs())),
            [
                "rustConsumesSameObject floor time",
                "rustConsumesSameObject none time",
                "rustConsumesSameObject pointer time",
                "rustConsumesSameObject rust time",
                "rustConsumesSameObject rust sustained",
                "rustConsumesSameObject rust memory",
            ]
        );
        // Without `rust`, the first way of bridging selected.
        assert_eq!(
            rows(&plan(
                &a,
                &[Mode::Floor, Mode::Pointer, Mode::None],
                &pkgs()
            )),
            [
                "rustConsumesSameObject floor time",
                "rustConsumesSameObject pointer time",
                "rustConsumesSameObject pointer sustained",
                "rustConsumesSameObject pointer memory",
                "rustConsumesSameObject none time",
            ]
        );
        // A measuring run takes every measure in every way of bridging.
        let a = args(&["--filter", "consumesSame"]);
        assert_eq!(plan(&a, &all, &pkgs()).len(), 1 + 3 * 3);
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
    fn plan_puts_each_alongside_twin_right_after_its_bridge_only_row() {
        let a = args(&["--filter", "jsValueRoundtrip", "--time-only"]);
        let pkgs = Packages {
            alongside: Some("alongside.js".into()),
            ..pkgs()
        };
        let jobs = plan(&a, &[Mode::Rust], &pkgs);
        let placed: Vec<(String, &Path)> = rows(&jobs)
            .into_iter()
            .zip(jobs.iter().map(|j| j.pkg.as_path()))
            .collect();
        assert_eq!(
            placed,
            [
                (
                    "jsValueRoundtrip rust time".to_string(),
                    Path::new("bridge.js")
                ),
                (
                    "jsValueRoundtrip rust time".to_string(),
                    Path::new("alongside.js")
                ),
            ]
        );
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
