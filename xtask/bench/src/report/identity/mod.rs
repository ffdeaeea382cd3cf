//! The identity scenarios' section of the report: one row per mode (and floor, peer) of
//! every scenario of `SCENARIOS`, as tables of time, per crossing, sampling, ratios,
//! memory and sustained runs (`targets.rs`: their targets).

use super::format::{fmt_bytes, fmt_ms, fmt_ratio, table};
use crate::model::{Mode, Run};
use crate::scenarios::SCENARIOS;
use std::fmt::Write as _;

pub mod targets;

/// The identity scenarios' part of the report on stdout (the workload table and the
/// targets follow it).
pub fn text(run: &Run) -> String {
    let mut out = String::new();
    out += "Median per run (± coefficient of variation of the kept samples):\n\n";
    out += &time_table(run);
    out += "\nns per crossing (median / (iterations × crossings)):\n\n";
    out += &per_crossing_table(run);
    out += "\nRatios of medians:\n\n";
    out += &ratio_table(run);
    out +=
        "\nRatios of best runs (the fastest kept run of each; least disturbed by other load):\n\n";
    out += &ratio_table(&run.best_runs());
    if run.records.iter().any(|r| r.memory.is_some()) {
        out += "\nMemory (one instrumented run after the warm-up):\n\n";
        out += &memory_table(run);
    }
    if run.records.iter().any(|r| r.sustained.is_some()) {
        out += "\nSustained (10 back-to-back runs, no pause):\n\n";
        out += &sustained_table(run);
    }
    out
}

/// The identity scenarios' part of `docs/benchmarks.md`: the catalogue, then time, ratios,
/// memory and sustained.
pub fn doc(run: &Run) -> String {
    let mut out = scenarios();
    out +=
        "\n## Time\n\nMedian ms per run, ± the coefficient of variation of the kept samples:\n\n";
    out += &time_table(run);
    out += "\nMean, and samples kept after IQR outlier removal, of runs taken:\n\n";
    out += &sampling_table(run);
    out += "\nns per crossing:\n\n";
    out += &per_crossing_table(run);
    out += "\n## Ratios\n\nOf medians; `x/rust` is how many times faster `rust` is, `mode/floor` how \
            far a mode is from the physical limit (per element for the pool).\n\n";
    out += &ratio_table(run);
    out += "\nThe same ratios from each row's best (fastest kept) run: on a machine shared with \
            other work, the least disturbed figure. Compare the two tables: where they disagree, \
            the load moved the medians.\n\n";
    out += &ratio_table(&run.best_runs());
    if let Some(note) = &run.peer_note {
        let _ = writeln!(out, "\n{note}.");
    }
    out += "\n## Memory\n\nOne run after the warm-up, heap sampled every 1% of the iterations. \
            JS heap: V8 `used_heap_size`; peak and retained are before any GC, `after gc()` after \
            one forced GC. Wasm: linear memory growth during the run; Rust heap: bytes held by \
            the Rust allocator at the end of the run → after GC and finalizers ran (settled); \
            live objects likewise.\n\n";
    out += &memory_table(run);
    out += "\n## Sustained\n\n10 back-to-back runs in one process with no pause between them, so \
            FinalizationRegistry callbacks never get to run; last/first shows the degradation.\n\n";
    out += &sustained_table(run);
    out
}

/// The catalogue of scenarios, and what the `floor`, `alloc-floor` and `js-only` rows are.
fn scenarios() -> String {
    let mut out = String::from("\n## Scenarios\n\n");
    let rows = SCENARIOS
        .iter()
        .map(|s| {
            vec![
                format!("`{}`", s.name),
                s.iterations.to_string(),
                s.crossings.to_string(),
                s.what.to_string(),
            ]
        })
        .collect::<Vec<_>>();
    out += &table(
        &["scenario", "iterations", "crossings/iter", "loop"].map(String::from),
        &rows,
        4,
    );
    out += "\nThe `floor` row runs the same loop with each crossing replaced by a call of the bare \
            `floor` export (`i32` in, `i32` out, no wrapper): the physical limit of that many \
            crossings. The `alloc-floor` row (`rustCreatesObject` only) makes the same box \
            `make` returns and frees it, two bare calls passing the address as an `i32` \
            (`rawFree(rawMake(i))`): the Rust work without any wrapper. The `js-only` row \
            (`uiTree` only) runs the same walk over the same tree built of plain JS objects \
            (`xtask/bench/js_tree.mjs`; `children()` returns a new array, as a `Vec` return \
            does): the workload's own JS and garbage, which no bridge can beat. Each (scenario, mode, \
            measure) runs in a fresh Node process. Between timed \
            runs (untimed): a minor GC and a few event-loop turns; modes whose wrappers are \
            cleaned up by FinalizationRegistry (none, pointer, wasm-bindgen) first get full GCs \
            so that their finalizers run outside the timed runs. (A forced full GC deoptimizes \
            the glue, `reason: weak objects`, so it is kept away from the modes that do not \
            need it.)\n";
    out
}

pub fn time_table(run: &Run) -> String {
    let modes = run.modes();
    let mut header = vec!["scenario".to_string(), "iterations".to_string()];
    header.extend(modes.iter().map(|m| format!("{} ms", m.name())));
    let rows: Vec<Vec<String>> = run
        .scenarios()
        .into_iter()
        .map(|s| {
            let iterations = run
                .records
                .iter()
                .find(|r| r.scenario.name == s.name)
                .map_or(0, |r| r.iterations);
            let mut row = vec![s.name.to_string(), iterations.to_string()];
            for &m in &modes {
                row.push(match run.find(s.name, m) {
                    Some(r) if !r.errors.is_empty() && r.time.is_none() => "failed".into(),
                    Some(r) => match &r.time {
                        Some(t) => format!(
                            "{} ±{:.0}%",
                            fmt_ms(t.summary.median_ms),
                            t.summary.cv * 100.0
                        ),
                        None => "—".into(),
                    },
                    None => "—".into(),
                });
            }
            row
        })
        .collect();
    table(&header, &rows, 1)
}

pub fn per_crossing_table(run: &Run) -> String {
    let modes = run.modes();
    let mut header = vec!["scenario".to_string(), "crossings/iter".to_string()];
    header.extend(modes.iter().map(|m| m.name().to_string()));
    let rows = run
        .scenarios()
        .into_iter()
        .map(|s| {
            let mut row = vec![s.name.to_string(), s.crossings.to_string()];
            for &m in &modes {
                row.push(
                    run.find(s.name, m)
                        .and_then(|r| {
                            Some(r.median_ms()? * 1e6 / (r.iterations * s.crossings) as f64)
                        })
                        .map_or("—".into(), |ns| format!("{ns:.1}")),
                );
            }
            row
        })
        .collect::<Vec<_>>();
    table(&header, &rows, 1)
}

pub fn sampling_table(run: &Run) -> String {
    let modes = run.modes();
    let mut header = vec!["scenario".to_string()];
    header.extend(
        modes
            .iter()
            .map(|m| format!("{} mean / kept of runs", m.name())),
    );
    let rows = run
        .scenarios()
        .into_iter()
        .map(|s| {
            let mut row = vec![s.name.to_string()];
            for &m in &modes {
                row.push(
                    run.find(s.name, m)
                        .and_then(|r| r.time.as_ref())
                        .map(|t| {
                            let s = &t.summary;
                            format!("{} ms / {} of {}", fmt_ms(s.mean_ms), s.kept, s.runs)
                        })
                        .unwrap_or_else(|| "—".into()),
                );
            }
            row
        })
        .collect::<Vec<_>>();
    table(&header, &rows, 1)
}

pub fn ratio_table(run: &Run) -> String {
    let modes = run.modes();
    let peer = modes.contains(&Mode::WasmBindgen);
    let mut header: Vec<String> = ["scenario", "none/rust", "pointer/rust"]
        .map(String::from)
        .to_vec();
    if peer {
        header.push("wasm-bindgen/rust".into());
    }
    // The js-only row is the workload's own JS, not a crossing: its ratio is in the
    // workload table (wasm-bindgen / js-only), not against the floor.
    let over_floor = |m: Mode| m != Mode::Floor && m != Mode::JsOnly;
    for m in &modes {
        if over_floor(*m) {
            header.push(format!("{}/floor", m.name()));
        }
    }
    let alloc = modes.contains(&Mode::AllocFloor);
    if alloc {
        header.push("rust/alloc-floor".into());
    }
    let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => fmt_ratio(a / b),
        _ => "—".into(),
    };
    let rows = run
        .scenarios()
        .into_iter()
        .map(|s| {
            let med = |m| run.median(s.name, m);
            let mut row = vec![
                s.name.to_string(),
                ratio(med(Mode::None), med(Mode::Rust)),
                ratio(med(Mode::Pointer), med(Mode::Rust)),
            ];
            if peer {
                row.push(ratio(med(Mode::WasmBindgen), med(Mode::Rust)));
            }
            for &m in &modes {
                if over_floor(m) {
                    row.push(ratio(med(m), med(Mode::Floor)));
                }
            }
            if alloc {
                row.push(ratio(med(Mode::Rust), med(Mode::AllocFloor)));
            }
            row
        })
        .collect::<Vec<_>>();
    table(&header, &rows, 1)
}

pub fn memory_table(run: &Run) -> String {
    let header: Vec<String> = [
        "scenario",
        "mode",
        "run ms",
        "JS heap peak Δ",
        "retained Δ (pre-GC)",
        "after gc() Δ",
        "wasm memory growth",
        "Rust heap Δ (end → settled)",
        "live objects Δ (end → settled)",
    ]
    .map(String::from)
    .to_vec();
    let mut rows = Vec::new();
    for (s, m, r) in run.records_in_order() {
        let Some(mem) = &r.memory else { continue };
        rows.push(vec![
            s.name.to_string(),
            m.name().to_string(),
            fmt_ms(mem.duration_ms),
            fmt_bytes(mem.peak_heap_delta),
            fmt_bytes(mem.retained_heap_delta),
            fmt_bytes(mem.post_gc_heap_delta),
            fmt_bytes(mem.wasm_memory_growth),
            format!(
                "{} → {}",
                fmt_bytes(mem.rust_heap_growth),
                fmt_bytes(mem.rust_heap_growth_after_settle)
            ),
            format!(
                "{} → {}",
                mem.live_objects_growth, mem.live_objects_growth_after_settle
            ),
        ]);
    }
    table(&header, &rows, 2)
}

pub fn sustained_table(run: &Run) -> String {
    let header: Vec<String> = [
        "scenario",
        "mode",
        "first ms",
        "last ms",
        "max ms",
        "last/first",
        "runs",
    ]
    .map(String::from)
    .to_vec();
    let mut rows = Vec::new();
    for (s, m, r) in run.records_in_order() {
        let Some(v) = &r.sustained else { continue };
        let runs = v.runs_ms.len();
        rows.push(vec![
            s.name.to_string(),
            m.name().to_string(),
            fmt_ms(v.first_ms),
            fmt_ms(v.last_ms),
            fmt_ms(v.max_ms),
            format!("{:.2}", v.last_over_first),
            if v.truncated {
                format!("{runs} (budget)")
            } else {
                runs.to_string()
            },
        ]);
    }
    table(&header, &rows, 2)
}

pub fn errors(run: &Run) -> String {
    let mut out = String::new();
    for r in &run.records {
        for e in &r.errors {
            let _ = writeln!(out, "- {} {}: {e}", r.scenario.name, r.mode.name());
        }
    }
    out
}
