//! The `uiTree` workload's own table (issue 12): time per render, the memo hit rate that
//! identity makes possible, parent identity, memory, and sustained renders, per mode.

use super::format::{fmt_bytes, fmt_ms, fmt_ratio, table};
use super::target::Target;
use crate::model::{Mode, Record, Run};

pub const UI_TREE: &str = "uiTree";

/// Memo hits over the unchanged nodes visited (the counters of the time measure).
pub fn hit_rate(r: &Record) -> Option<f64> {
    let c = &r.time.as_ref()?.counters;
    let unchanged = c.get("visits")? - c.get("changed")?;
    (unchanged > 0.0).then(|| c.get("hits").copied().unwrap_or(0.0) / unchanged)
}

/// `parent()` returned the very object the walk came from, over all visits.
fn parent_identity(r: &Record) -> Option<f64> {
    let c = &r.time.as_ref()?.counters;
    let visits = *c.get("visits")?;
    (visits > 0.0).then(|| c.get("parentSame").copied().unwrap_or(0.0) / visits)
}

fn records(run: &Run) -> Vec<&Record> {
    Mode::ALL
        .into_iter()
        // js-only: the same walk over plain JS objects, the bound of every mode.
        .filter(|m| !m.is_floor() || *m == Mode::JsOnly)
        .filter_map(|m| run.find(UI_TREE, m))
        .collect()
}

fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "—".into(), |x| format!("{:.1}%", x * 100.0))
}

/// The workload's part of the report on stdout, or nothing when it did not run.
pub fn text(run: &Run) -> Option<String> {
    Some(format!("\nWorkload:\n\n{}", table_of(run)?))
}

/// The workload's part of `docs/benchmarks.md`, or nothing when it did not run.
pub fn doc(run: &Run) -> Option<String> {
    Some(format!(
        "\n## Workload\n\nIssue 12's real workload, `uiTree` (the scenario above): \
         a UI-style render of a Rust-owned tree. Identity is what lets a memo keyed \
         by node objects hit; fresh wrappers (`none`, wasm-bindgen) never do.\n\n{}",
        table_of(run)?
    ))
}

/// The table's columns.
const HEADER: [&str; 12] = [
    "mode",
    "ms per render",
    "best ms",
    "wasm-bindgen / mode",
    "(best runs)",
    "memo hits (unchanged nodes)",
    "parent() identity",
    "JS heap peak Δ (1 render)",
    "after gc() Δ",
    "wasm memory",
    "sustained first → last ms",
    "last/first",
];

/// The table, or nothing when the workload did not run.
fn table_of(run: &Run) -> Option<String> {
    let rows = records(run);
    let first = rows.first()?;
    let header: Vec<String> = HEADER.map(String::from).to_vec();
    let body: Vec<Vec<String>> = rows.iter().map(|r| row(run, r)).collect();
    let renders = first.iterations;
    Some(format!(
        "{UI_TREE}: {renders} render(s) per run, each after a batch of edits in Rust; median ± CV; \
         memo hits over the nodes the edits left unchanged; memory from one instrumented render; \
         best: the fastest kept run; sustained: 10 back-to-back renders:\n\n{}",
        table(&header, &body, 1)
    ))
}

/// The fastest kept run's ms per render in `mode`.
fn best_ms(run: &Run, mode: Mode) -> Option<f64> {
    let r = run.find(UI_TREE, mode)?;
    Some(r.time.as_ref()?.summary.min_ms / r.iterations as f64)
}

/// One mode's row of the table.
fn row(run: &Run, r: &Record) -> Vec<String> {
    let per_render = r.time.as_ref().map(|t| {
        let s = &t.summary;
        let n = r.iterations as f64;
        format!("{} ±{:.0}%", fmt_ms(s.median_ms / n), s.cv * 100.0)
    });
    let ratio = |p: Option<f64>, m: Option<f64>| match (p, m) {
        (Some(p), Some(m)) if m > 0.0 => fmt_ratio(p / m),
        _ => "—".into(),
    };
    let over = ratio(run.median(UI_TREE, Mode::WasmBindgen), r.median_ms());
    let over_best = ratio(best_ms(run, Mode::WasmBindgen), best_ms(run, r.mode));
    let mem = r.memory.as_ref();
    let sus = r.sustained.as_ref();
    vec![
        r.mode.name().to_string(),
        per_render.unwrap_or_else(|| "—".into()),
        best_ms(run, r.mode).map_or("—".into(), fmt_ms),
        over,
        over_best,
        pct(hit_rate(r)),
        pct(parent_identity(r)),
        mem.map_or("—".into(), |m| fmt_bytes(m.peak_heap_delta)),
        mem.map_or("—".into(), |m| fmt_bytes(m.post_gc_heap_delta)),
        mem.map_or("—".into(), |m| fmt_bytes(m.wasm_memory_bytes)),
        sus.map_or("—".into(), |s| {
            format!("{} → {}", fmt_ms(s.first_ms), fmt_ms(s.last_ms))
        }),
        sus.map_or("—".into(), |s| format!("{:.2}", s.last_over_first)),
    ]
}

/// The workload's targets of issue 12.
pub fn targets(run: &Run) -> Vec<Target> {
    let g = "uiTree (issue 12)";
    if records(run).is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let speedup = match (
        run.median(UI_TREE, Mode::WasmBindgen),
        run.median(UI_TREE, Mode::Rust),
    ) {
        (Some(p), Some(r)) if r > 0.0 => Some(p / r),
        _ => None,
    };
    out.push(Target {
        group: g,
        what: "uiTree: wasm-bindgen / rust per render".into(),
        want: "≥ 10× faster".into(),
        got: speedup.map(|x| format!("{x:.2}×")),
        pass: speedup.map(|x| x >= 10.0),
    });
    for mode in [Mode::Pointer, Mode::Rust] {
        let rate = run.find(UI_TREE, mode).and_then(hit_rate);
        out.push(Target {
            group: g,
            what: format!("uiTree {}: memo hit rate of unchanged nodes", mode.name()),
            want: "100%".into(),
            got: rate.map(|x| format!("{:.2}%", x * 100.0)),
            pass: rate.map(|x| x >= 1.0),
        });
    }
    let sustained = run
        .find(UI_TREE, Mode::Rust)
        .and_then(|r| Some(r.sustained.as_ref()?.last_over_first));
    out.push(Target {
        group: g,
        what: "uiTree rust: sustained last / first render".into(),
        want: "≤ 1.1".into(),
        got: sustained.map(|x| format!("{x:.2}")),
        pass: sustained.map(|x| x <= 1.1),
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(mode: Mode, counters: &[(&str, f64)]) -> Record {
        let mut record = Record::timed(UI_TREE, mode, 10.0);
        record.iterations = 1;
        let time = record.time.as_mut().expect("timed");
        time.counters = counters.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        record
    }

    #[test]
    fn the_hit_rate_counts_only_unchanged_nodes() {
        let all = [("visits", 1000.0), ("changed", 10.0), ("hits", 990.0)];
        assert_eq!(hit_rate(&record(Mode::Rust, &all)), Some(1.0));
        let half = [("visits", 1000.0), ("changed", 10.0), ("hits", 495.0)];
        assert_eq!(hit_rate(&record(Mode::Pointer, &half)), Some(0.5));
        assert_eq!(hit_rate(&record(Mode::None, &[("visits", 5.0)])), None);
    }

    #[test]
    fn the_targets_fail_a_missed_hit_rate_and_the_table_shows_it() {
        let run = Run::of_records(vec![
            record(
                Mode::Rust,
                &[("visits", 100.0), ("changed", 1.0), ("hits", 99.0)],
            ),
            record(
                Mode::Pointer,
                &[("visits", 100.0), ("changed", 1.0), ("hits", 98.0)],
            ),
        ]);
        let t = targets(&run);
        let pass = |what: &str| t.iter().find(|t| t.what.contains(what)).unwrap().pass;
        assert_eq!(pass("pointer: memo hit rate"), Some(false));
        assert_eq!(pass("rust: memo hit rate"), Some(true));
        assert_eq!(pass("wasm-bindgen / rust"), None);
        let mut slow = run.clone();
        if let Some(t) = &mut slow.records[0].time {
            t.summary.min_ms = 4.0;
        }
        assert_eq!(run.median(UI_TREE, Mode::Rust), Some(10.0));
        assert_eq!(
            slow.best_runs().median(UI_TREE, Mode::Rust),
            Some(4.0),
            "best runs read the fastest run"
        );
        let table = table_of(&run).unwrap();
        assert!(
            table.contains("| pointer |") && table.contains("99.0%"),
            "{table}"
        );
    }
}
