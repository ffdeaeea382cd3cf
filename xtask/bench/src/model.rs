//! What a bench run is made of: the rows (modes), the scenarios' shape, the runner's
//! results as typed structs, and the records a run collects. Data only: this module
//! imports nothing else of the bench, and everything else imports it.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;

#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum Mode {
    Floor,
    /// The scenario's Rust work without wrappers (only scenarios with `alloc_floor`).
    AllocFloor,
    /// The scenario's own JS over plain JS objects, no bridge (only scenarios with
    /// `js_only`): what no way of bridging can beat.
    JsOnly,
    None,
    Pointer,
    Rust,
    #[value(name = "wasm-bindgen")]
    WasmBindgen,
}

impl Mode {
    /// A reference row (time only), not a way of bridging objects.
    pub fn is_floor(self) -> bool {
        matches!(self, Mode::Floor | Mode::AllocFloor | Mode::JsOnly)
    }

    pub const ALL: [Mode; 7] = [
        Mode::Floor,
        Mode::AllocFloor,
        Mode::JsOnly,
        Mode::None,
        Mode::Pointer,
        Mode::Rust,
        Mode::WasmBindgen,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Floor => "floor",
            Mode::AllocFloor => "alloc-floor",
            Mode::JsOnly => "js-only",
            Mode::None => "none",
            Mode::Pointer => "pointer",
            Mode::Rust => "rust",
            Mode::WasmBindgen => "wasm-bindgen",
        }
    }
}

/// What a runner process measures.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Time,
    Sustained,
    Memory,
    /// The scenario and this one (`PAIRED`) timed in turn in one process: the primary
    /// phase is the ratio of their costs per crossing.
    Paired(&'static str),
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Time => "time",
            Kind::Sustained => "sustained",
            Kind::Memory => "memory",
            Kind::Paired(_) => "paired",
        }
    }
}

/// An identity scenario of `xtask/bench/scenarios.mjs`: one loop, run in every mode.
pub struct Scenario {
    pub name: &'static str,
    /// Loop iterations of a full run (the pool: calls returning 100 objects).
    pub iterations: u64,
    pub quick_iterations: u64,
    /// Boundary crossings per iteration (its floor row makes as many `floor` calls).
    pub crossings: u64,
    /// Objects crossing per iteration (`--iterations` counts objects).
    pub objects_per_iteration: u64,
    /// Has an `alloc-floor` row (`allocFloor` in `scenarios.mjs`).
    pub alloc_floor: bool,
    /// Has a `js-only` row (`jsOnly` in `scenarios.mjs`).
    pub js_only: bool,
    pub what: &'static str,
}

/// A variant of a release-pool scenario (`xtask/bench/pools.mjs`).
pub struct PoolVariant {
    pub name: &'static str,
    /// The mode of the objects involved (what `--mode` selects by).
    pub mode: Mode,
    pub what: &'static str,
}

/// A release-pool scenario: variants instead of modes, timed only.
pub struct PoolScenario {
    pub name: &'static str,
    /// Objects (`release100k`) or operations (`emptyPoolPushPop`) per run.
    pub iterations: u64,
    pub quick_iterations: u64,
    /// What an iteration is.
    pub unit: &'static str,
    pub what: &'static str,
    pub variants: &'static [PoolVariant],
}

/// Statistics of one phase over the kept samples (`xtask/bench/stats.mjs`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub median_ms: f64,
    pub mean_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
    pub stddev_ms: f64,
    /// Coefficient of variation (a fraction).
    pub cv: f64,
    pub kept: u32,
    pub runs: u32,
    pub samples_ms: Vec<f64>,
}

/// `kind time` of any section (`sampler.mjs`): the primary phase's summary and every
/// phase's (an identity scenario has one phase, `runMs`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TimeResult {
    pub primary: String,
    pub warmup_runs_ms: Vec<f64>,
    pub target_cv: f64,
    pub converged: bool,
    #[serde(flatten)]
    pub summary: Summary,
    pub phases: BTreeMap<String, Summary>,
    /// The scenario's counters (`counters(state)` in `scenarios.mjs`), totals since setup.
    #[serde(default)]
    pub counters: BTreeMap<String, f64>,
    /// The median of every process that timed the row, in the order they ran (the result
    /// is the process with the median of these; see `runner.rs`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub process_medians_ms: Vec<f64>,
}

impl TimeResult {
    pub fn phase(&self, name: &str) -> Option<&Summary> {
        self.phases.get(name)
    }
}

/// `kind sustained`: back-to-back runs with no pause.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SustainedResult {
    pub runs_ms: Vec<f64>,
    pub truncated: bool,
    pub first_ms: f64,
    pub last_ms: f64,
    pub max_ms: f64,
    pub last_over_first: f64,
    pub live_objects_growth: f64,
    pub heap_live_bytes_growth: f64,
    #[serde(default)]
    pub counters: BTreeMap<String, f64>,
}

/// `kind memory`: one instrumented run (bytes, counts).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MemoryResult {
    pub duration_ms: f64,
    pub peak_heap_delta: f64,
    pub retained_heap_delta: f64,
    pub post_gc_heap_delta: f64,
    pub wasm_memory_growth: f64,
    pub wasm_memory_bytes: f64,
    pub rust_heap_growth: f64,
    pub rust_heap_growth_after_settle: f64,
    pub live_objects_growth: f64,
    pub live_objects_growth_after_settle: f64,
    /// The class's `__bridgeStats()` entry, passed through to the JSON (null for the peer).
    #[serde(default)]
    pub cache: Option<serde_json::Value>,
    #[serde(default)]
    pub counters: BTreeMap<String, f64>,
}

/// What one runner process reported, by kind.
#[derive(Clone, Debug)]
pub enum Measured {
    Time(TimeResult),
    Sustained(SustainedResult),
    Memory(MemoryResult),
    Paired(TimeResult),
}

/// Everything measured for one identity (scenario, mode).
#[derive(Clone)]
pub struct Record {
    pub scenario: &'static Scenario,
    pub mode: Mode,
    pub iterations: u64,
    pub time: Option<TimeResult>,
    pub sustained: Option<SustainedResult>,
    pub memory: Option<MemoryResult>,
    /// Timed in turn with its `PAIRED` partner in one process (`ratio`: this row's cost
    /// per crossing over the partner's, sample by sample).
    pub paired: Option<TimeResult>,
    pub errors: Vec<String>,
}

impl Record {
    pub fn median_ms(&self) -> Option<f64> {
        Some(self.time.as_ref()?.summary.median_ms)
    }
}

impl Run {
    /// The same run read by its best (fastest kept) run of each timing instead of the
    /// median: on a machine shared with other work the best run is the least disturbed.
    pub fn best_runs(&self) -> Run {
        let mut run = self.clone();
        for r in &mut run.records {
            if let Some(t) = &mut r.time {
                t.summary.median_ms = t.summary.min_ms;
            }
        }
        for r in run.alongside.iter_mut().flat_map(|a| &mut a.records) {
            if let Some(t) = &mut r.time {
                t.summary.median_ms = t.summary.min_ms;
            }
        }
        for r in &mut run.pools {
            if let Some(t) = &mut r.time {
                t.summary.median_ms = t.summary.min_ms;
                for p in t.phases.values_mut() {
                    p.median_ms = p.min_ms;
                }
            }
        }
        run
    }
}

/// What one release-pool (scenario, variant) measured.
#[derive(Clone)]
pub struct PoolRecord {
    pub scenario: &'static PoolScenario,
    pub variant: &'static PoolVariant,
    pub iterations: u64,
    pub time: Option<TimeResult>,
    pub errors: Vec<String>,
}

impl PoolRecord {
    pub fn phase(&self, phase: &str) -> Option<&Summary> {
        self.time.as_ref()?.phase(phase)
    }
    pub fn median(&self, phase: &str) -> Option<f64> {
        Some(self.phase(phase)?.median_ms)
    }
}

/// How the runner processes sampled (as asked; `target_cv` in percent).
/// A time row whose first process took less than this runs in `Sampling::processes`
/// processes. Where V8's tiering lands differs from process to process: for a row of
/// few-ms runs that moves the median more than the runs vary within one process (the same
/// package measured 5.3 or 5.6 ms per 1M import calls, by process). Such processes are
/// short, so repeating them is cheap; a row of long runs averages that out within one.
pub const MORE_PROCESSES_UNDER: Duration = Duration::from_millis(2500);

#[derive(Clone, Copy)]
pub struct SamplingNote {
    pub min_runs: u32,
    pub max_runs: u32,
    pub target_cv: f64,
    pub warmup_ms: u64,
    /// Fresh processes per time row (when the first took under [`MORE_PROCESSES_UNDER`]).
    pub processes: u32,
}

/// Bytes of one package's glue and module, raw and gzip'd.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackageSize {
    pub js: u64,
    pub js_gz: u64,
    pub wasm: u64,
    pub wasm_gz: u64,
}

/// The crate a size row measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SizeCrate {
    /// `n` copies of the bench class.
    Classes(usize),
    /// The Game of Life port (issue 24).
    Life,
    /// Two free functions, no class (issue 48): what a package that uses no class, pool
    /// or object identity ships.
    Functions,
}

/// Which tool made a package.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Tool {
    #[serde(rename = "cargo-bridge")]
    Bridge,
    #[serde(rename = "wasm-bindgen")]
    WasmBindgen,
    /// The wasm-bindgen crate with the panic hook a wasm-bindgen user adds to see a panic's
    /// message (what `console_error_panic_hook` installs): the feature cargo-bridge's
    /// panic messages give, priced in wasm-bindgen (issue 48).
    #[serde(rename = "wasm-bindgen + panic hook")]
    WasmBindgenPanicHook,
}

impl Tool {
    pub fn name(self) -> &'static str {
        match self {
            Tool::Bridge => "cargo-bridge",
            Tool::WasmBindgen => "wasm-bindgen",
            Tool::WasmBindgenPanicHook => "wasm-bindgen + panic hook",
        }
    }
}

/// One package of the size table.
#[derive(Clone, Debug, Serialize)]
pub struct SizeRow {
    #[serde(rename = "crate")]
    pub krate: SizeCrate,
    pub tool: Tool,
    /// As built (no wasm-opt).
    pub raw: PackageSize,
    /// After `wasm-opt -O` (when it is installed).
    pub opt: Option<PackageSize>,
    /// gzip'd glue bytes per feature, with why they stay (`bench::size::FEATURES`;
    /// cargo-bridge only).
    pub features: Vec<(&'static str, u64, &'static str)>,
    /// gzip'd module bytes per runtime feature, measured by building without it, with
    /// why they stay (`bench::size_without::MODULE_FEATURES`; cargo-bridge only; `None`:
    /// not measured for this crate).
    pub module_features: Vec<(&'static str, Option<u64>, &'static str)>,
}

/// The size table: every package measured, bridge and peer side by side.
#[derive(Clone, Debug, Default)]
pub struct SizeReport {
    pub rows: Vec<SizeRow>,
    /// `wasm-opt --version`, when it ran.
    pub wasm_opt: Option<String>,
}

impl SizeReport {
    pub fn row(&self, krate: SizeCrate, tool: Tool) -> Option<&SizeRow> {
        self.rows
            .iter()
            .find(|r| r.krate == krate && r.tool == tool)
    }
}

/// One phase of a `cargo bridge build`, as cargo-bridge's `CARGO_BRIDGE_TIMINGS` file
/// names it: the phase, the part of the build it counts toward (`cargo`, `bridge`,
/// `wasm-opt`, `wasm-bindgen`, `setup`), its duration.
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct PhaseTime {
    pub phase: String,
    pub part: String,
    pub ms: f64,
}

/// One timed `cargo bridge build --release` after a source file was touched.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BuildTiming {
    /// The whole process, as the bench saw it.
    pub total_ms: f64,
    pub phases: Vec<PhaseTime>,
}

impl BuildTiming {
    /// The sum of the phases of one part.
    pub fn part(&self, part: &str) -> f64 {
        self.phases
            .iter()
            .filter(|p| p.part == part)
            .map(|p| p.ms)
            .sum()
    }

    /// The sum of the phases named `phase`.
    pub fn phase(&self, phase: &str) -> f64 {
        self.phases
            .iter()
            .filter(|p| p.phase == phase)
            .map(|p| p.ms)
            .sum()
    }
}

/// The build-cost section (issue 24): the bundled example rebuilt after a touch, and the
/// generated n-class crates.
#[derive(Clone, Debug, Default)]
pub struct BuildCost {
    /// `fixtures/example`: the run with the median total of `runs`.
    pub example: Option<BuildTiming>,
    /// Generated crates: (classes, timing).
    pub classes: Vec<(usize, BuildTiming)>,
    /// Timed builds of the example (the class rows build once each).
    pub runs: u32,
    /// The `cargo-bridge` measured was built with `--release`, as `cargo install` builds it.
    pub release_cli: bool,
}

/// One timed build: the CPU time (user + system) of the processes it ran, and its wall time.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BuildSpent {
    pub cpu_ms: f64,
    pub wall_ms: f64,
}

/// Builds of one crate by both ways, run in turn: `bridge[i]` and `by_hand[i]` are a pair
/// (one right after the other, so the same load on the machine).
#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PairedBuilds {
    pub bridge: Vec<BuildSpent>,
    pub by_hand: Vec<BuildSpent>,
}

impl PairedBuilds {
    /// cargo bridge's CPU over the by-hand CPU: the median of the pairs' ratios (each
    /// pair ran under the same load), `None` with no complete pair.
    pub fn cpu_ratio(&self) -> Option<f64> {
        let mut ratios: Vec<f64> = self
            .bridge
            .iter()
            .zip(&self.by_hand)
            .filter(|(_, h)| h.cpu_ms > 0.0)
            .map(|(b, h)| b.cpu_ms / h.cpu_ms)
            .collect();
        if ratios.is_empty() {
            return None;
        }
        ratios.sort_by(f64::total_cmp);
        let n = ratios.len();
        Some(if n % 2 == 1 {
            ratios[n / 2]
        } else {
            (ratios[n / 2 - 1] + ratios[n / 2]) / 2.0
        })
    }

    /// The median CPU ms of one side.
    pub fn median_cpu_ms(side: &[BuildSpent]) -> Option<f64> {
        let mut cpu: Vec<f64> = side.iter().map(|s| s.cpu_ms).collect();
        cpu.sort_by(f64::total_cmp);
        cpu.get(cpu.len() / 2).copied()
    }
}

/// One profile of a plain crate's build-cost row.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlainProfileCost {
    /// `--release` (else the dev profile).
    pub release: bool,
    /// From a fresh target directory each (`None`: not measured, as in a smoke run).
    pub cold: Option<PairedBuilds>,
    /// After touching the crate's `src/lib.rs`.
    pub touch: PairedBuilds,
    /// gzip'd bytes of the package's `.js` and `.wasm` files: (cargo bridge, by hand).
    pub bytes_gz: Option<(u64, u64)>,
}

/// A plain wasm-bindgen fixture (no bridge-runtime): `cargo bridge build` against what
/// `wasm-pack build` does by hand (cargo, the wasm-bindgen CLI, wasm-opt for release).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlainBuildRow {
    /// The fixture's directory under `fixtures/`.
    pub fixture: &'static str,
    pub wasm_bindgen: String,
    pub profiles: Vec<PlainProfileCost>,
}

/// The plain-crate build-cost section (issue 43).
#[derive(Clone, Debug, Default)]
pub struct PlainBuildCost {
    pub rows: Vec<PlainBuildRow>,
    /// The `cargo-bridge` measured was built with `--release`.
    pub release_cli: bool,
    /// What a smoke run left out, said in the report.
    pub skipped: Option<String>,
    /// The `wasm-opt` both ways ran.
    pub wasm_opt: String,
}

/// The alongside section (issue 20): the bridge scenarios on a package that also holds
/// wasm-bindgen code, beside `Run::records` of the bridge-only one from the same run.
#[derive(Clone, Default)]
pub struct Alongside {
    /// `rust`-mode records of the alongside package: the identity scenarios' twins and
    /// `jsValueConversion`.
    pub records: Vec<Record>,
    pub size: Option<AlongsideSize>,
    /// Why the package or its size could not be had (the section reports it).
    pub error: Option<String>,
}

/// gzip'd bytes (every `.js` and `.wasm` file, each on its own).
#[derive(Clone, Debug)]
pub struct AlongsideSize {
    /// The joined package `cargo bridge build --release` writes.
    pub joined_gz: u64,
    /// wasm-bindgen's own output for the same module (it cannot load: nothing provides
    /// the bridge's imports).
    pub wasm_bindgen_gz: u64,
    /// `wasm-opt -O` ran on that output.
    pub wasm_bindgen_opt: bool,
    /// The bridge-only bench package's glue (`bench.js`), the bytes cargo bridge adds for
    /// the same bridge items today.
    pub bridge_glue_gz: u64,
}

/// What one invocation measured, with how it was asked for.
#[derive(Clone)]
pub struct Run {
    pub records: Vec<Record>,
    pub pools: Vec<PoolRecord>,
    /// The size table (when the `size` section ran).
    pub size: Option<SizeReport>,
    /// The alongside section (when it ran).
    pub alongside: Option<Alongside>,
    /// The build-cost section (when it ran).
    pub build: Option<BuildCost>,
    /// The plain wasm-bindgen crates' build cost (when it ran).
    pub build_plain: Option<PlainBuildCost>,
    pub quick: bool,
    /// A full run: it may rewrite `docs/benchmarks.md`.
    pub canonical: bool,
    pub command: String,
    pub peer_note: Option<String>,
    pub sampling: SamplingNote,
}

#[cfg(test)]
impl Run {
    /// A run of these records only (no sections, one sample each), for report tests.
    pub fn of_records(records: Vec<Record>) -> Run {
        Run {
            records,
            pools: vec![],
            size: None,
            alongside: None,
            build: None,
            build_plain: None,
            quick: false,
            canonical: false,
            command: String::new(),
            peer_note: None,
            sampling: SamplingNote {
                min_runs: 1,
                max_runs: 1,
                target_cv: 5.0,
                warmup_ms: 0,
                processes: 1,
            },
        }
    }
}

#[cfg(test)]
impl TimeResult {
    /// One process's result whose primary phase (`primary`) has this one sample, for
    /// report tests (its best run is half of it).
    pub fn of_median(primary: &str, median_ms: f64) -> TimeResult {
        let summary = Summary {
            median_ms,
            mean_ms: median_ms,
            min_ms: median_ms / 2.0,
            max_ms: median_ms,
            stddev_ms: 0.0,
            cv: 0.0,
            kept: 1,
            runs: 1,
            samples_ms: vec![median_ms],
        };
        TimeResult {
            primary: primary.into(),
            warmup_runs_ms: vec![],
            target_cv: 0.05,
            converged: true,
            summary: summary.clone(),
            phases: [(primary.to_string(), summary)].into(),
            counters: Default::default(),
            process_medians_ms: vec![],
        }
    }
}

#[cfg(test)]
impl Record {
    /// A record of the catalogue's `scenario` timed at `median_ms` (full iterations).
    pub fn timed(scenario: &str, mode: Mode, median_ms: f64) -> Record {
        let scenario = crate::scenarios::SCENARIOS
            .iter()
            .find(|s| s.name == scenario)
            .expect("a catalogue scenario");
        Record {
            scenario,
            mode,
            iterations: scenario.iterations,
            time: Some(TimeResult::of_median("runMs", median_ms)),
            sustained: None,
            memory: None,
            paired: None,
            errors: vec![],
        }
    }
}

/// The machine a run happened on.
pub struct Machine {
    pub nproc: usize,
    pub cpu: String,
    pub node: String,
    pub rustc: String,
    pub os: String,
    pub date: String,
    pub commit: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runner_time_result_reads_into_the_typed_struct() {
        let line = r#"{"primary":"runMs","warmupRunsMs":[3,2],"targetCv":0.05,"converged":true,
            "medianMs":2,"meanMs":2.5,"minMs":2,"maxMs":3,"stddevMs":0.5,"cv":0.2,"kept":2,
            "runs":3,"samplesMs":[2,3,9],
            "phases":{"runMs":{"medianMs":2,"meanMs":2.5,"minMs":2,"maxMs":3,"stddevMs":0.5,
            "cv":0.2,"kept":2,"runs":3,"samplesMs":[2,3,9]}}}"#;
        let t: TimeResult = serde_json::from_str(line).unwrap();
        assert_eq!(t.summary.median_ms, 2.0);
        assert_eq!(t.phase("runMs").unwrap().runs, 3);
        assert!(t.phase("loopMs").is_none());
        let back = serde_json::to_value(&t).unwrap();
        assert_eq!(back["medianMs"], 2.0);
    }

    #[test]
    fn a_result_missing_a_field_is_an_error_naming_it() {
        let err = serde_json::from_str::<SustainedResult>(r#"{"runsMs":[1]}"#).unwrap_err();
        assert!(err.to_string().contains("truncated"), "{err}");
    }
}
