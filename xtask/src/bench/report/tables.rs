//! Formatting of figures and the report's tables (markdown, also printed on stdout).

use super::*;

pub(crate) fn fmt_ms(ms: f64) -> String {
    if ms >= 100.0 {
        format!("{ms:.0}")
    } else if ms >= 10.0 {
        format!("{ms:.1}")
    } else {
        format!("{ms:.2}")
    }
}

pub(crate) fn fmt_bytes(b: f64) -> String {
    let a = b.abs();
    if a < 1024.0 {
        format!("{b:.0} B")
    } else if a < MIB {
        format!("{:.1} KiB", b / 1024.0)
    } else {
        format!("{:.1} MiB", b / MIB)
    }
}

pub(crate) fn fmt_ratio(x: f64) -> String {
    if x >= 10.0 {
        format!("{x:.0}×")
    } else {
        format!("{x:.2}×")
    }
}

/// A Markdown table, columns padded so it also reads in a terminal.
pub(crate) fn table(header: &[String], rows: &[Vec<String>], right_from: usize) -> String {
    let cols = header.len();
    let width = |c: usize| {
        rows.iter()
            .map(|r| r[c].chars().count())
            .chain([header[c].chars().count(), 3])
            .max()
            .unwrap()
    };
    let widths: Vec<usize> = (0..cols).map(width).collect();
    let line = |cells: &[String]| {
        let mut s = String::from("|");
        for (c, cell) in cells.iter().enumerate() {
            let pad = widths[c] - cell.chars().count();
            if c >= right_from {
                s += &format!(" {}{} |", " ".repeat(pad), cell);
            } else {
                s += &format!(" {}{} |", cell, " ".repeat(pad));
            }
        }
        s + "\n"
    };
    let mut out = line(header);
    out += "|";
    for (c, w) in widths.iter().enumerate() {
        if c >= right_from {
            out += &format!(" {}: |", "-".repeat(w - 1));
        } else {
            out += &format!(" {} |", "-".repeat(*w));
        }
    }
    out += "\n";
    for r in rows {
        out += &line(r);
    }
    out
}

pub(super) fn time_table(run: &Run) -> String {
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

pub(super) fn per_crossing_table(run: &Run) -> String {
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

pub(super) fn sampling_table(run: &Run) -> String {
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

pub(super) fn ratio_table(run: &Run) -> String {
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

pub(super) fn memory_table(run: &Run) -> String {
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

pub(super) fn sustained_table(run: &Run) -> String {
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

/// Pass/miss by the medians, and beside it what the best runs say.
pub(super) fn targets_table(run: &Run) -> String {
    let header: Vec<String> = ["", "target", "want", "got", "best runs", ""]
        .map(String::from)
        .to_vec();
    let verdict = |pass: Option<bool>| match pass {
        Some(true) => "pass".to_string(),
        Some(false) => "MISS".into(),
        None => "n/a".into(),
    };
    let best = targets(&run.best_runs());
    let rows = targets(run)
        .into_iter()
        .zip(best)
        .map(|(t, b)| {
            vec![
                verdict(t.pass),
                format!("{}: {}", t.group, t.what),
                t.want,
                t.got.unwrap_or_else(|| "not measured".into()),
                b.got.unwrap_or_else(|| "—".into()),
                verdict(b.pass),
            ]
        })
        .collect::<Vec<_>>();
    table(&header, &rows, 6)
}

pub(super) fn errors(run: &Run) -> String {
    let mut out = String::new();
    for r in &run.records {
        for e in &r.errors {
            let _ = writeln!(out, "- {} {}: {e}", r.scenario.name, r.mode.name());
        }
    }
    out
}

/// The identity scenarios' part of the report on stdout.
pub(super) fn identity_text(run: &Run) -> String {
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
    if let Some(t) = super::workload::workload_table(run) {
        out += "\nWorkload:\n\n";
        out += &t;
    }
    out += "\nTargets (issues 4, 9 and 12):\n\n";
    out += &targets_table(run);
    out
}
