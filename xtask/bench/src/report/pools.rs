//! The release-pool section of the report (issue 5; stdout, JSON, `docs/benchmarks.md`).
//!
//! Each scenario has variants instead of identity modes; each (scenario, variant) ran in
//! its own runner process converging on the variant's primary phase (`releaseMs`,
//! `droppedMs` for the GC, `loopMs`), with every phase summarized over the same samples.

use super::format::{fmt_ms, fmt_ratio, table};
use crate::model::PoolRecord;
use crate::scenarios::{POOL_SCENARIOS, PUSH_POP, RELEASE};
use serde_json::{Value, json};
use std::fmt::Write as _;

fn find<'a>(records: &'a [PoolRecord], scenario: &str, variant: &str) -> Option<&'a PoolRecord> {
    records
        .iter()
        .find(|r| r.scenario.name == scenario && r.variant.name == variant)
}

fn median(records: &[PoolRecord], scenario: &str, variant: &str, phase: &str) -> Option<f64> {
    find(records, scenario, variant)?.median(phase)
}

fn ratio(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => Some(a / b),
        _ => None,
    }
}

/// `median ±cv` of a phase, or why there is none.
fn cell(r: &PoolRecord, phase: &str) -> String {
    if r.time.is_none() {
        return if r.errors.is_empty() { "—" } else { "failed" }.into();
    }
    match r.phase(phase) {
        Some(p) => format!("{} ±{:.0}%", fmt_ms(p.median_ms), p.cv * 100.0),
        None => "—".into(),
    }
}

fn opt(x: Option<f64>, f: impl Fn(f64) -> String) -> String {
    x.map_or_else(|| "—".into(), f)
}

fn release_table(records: &[PoolRecord]) -> Option<String> {
    let rows: Vec<&PoolRecord> = records
        .iter()
        .filter(|r| r.scenario.name == RELEASE)
        .collect();
    let first = rows.first()?;
    let n = first.iterations;
    let base = median(records, RELEASE, "oneByOne", "droppedMs");
    let header: Vec<String> = [
        "variant",
        "mode",
        "create ms",
        "release ms (sync)",
        "until all Drops ran ms",
        "ns/object (Drops)",
        "Drops / oneByOne",
        "create + Drops ms",
        "gc() calls",
    ]
    .map(String::from)
    .to_vec();
    let body = rows
        .iter()
        .map(|r| {
            let dropped = r.median("droppedMs");
            let total = match (r.median("createMs"), dropped) {
                (Some(c), Some(d)) => Some(c + d),
                _ => None,
            };
            vec![
                r.variant.name.to_string(),
                r.variant.mode.name().to_string(),
                cell(r, "createMs"),
                cell(r, "releaseMs"),
                cell(r, "droppedMs"),
                opt(dropped, |d| format!("{:.1}", d * 1e6 / r.iterations as f64)),
                opt(ratio(dropped, base), fmt_ratio),
                opt(total, fmt_ms),
                opt(r.median("gcCalls"), |g| format!("{g:.0}")),
            ]
        })
        .collect::<Vec<_>>();
    Some(format!(
        "{RELEASE}: {n} objects per run; median ms ± CV:\n\n{}",
        table(&header, &body, 2)
    ))
}

fn push_pop_table(records: &[PoolRecord]) -> Option<String> {
    let rows: Vec<&PoolRecord> = records
        .iter()
        .filter(|r| r.scenario.name == PUSH_POP)
        .collect();
    let first = rows.first()?;
    let n = first.iterations;
    let bare = median(records, PUSH_POP, "bareCall", "loopMs");
    let header: Vec<String> = ["variant", "loop", "ms per run", "ns per op", "× bare call"]
        .map(String::from)
        .to_vec();
    let body = rows
        .iter()
        .map(|r| {
            let m = r.median("loopMs");
            vec![
                r.variant.name.to_string(),
                r.variant.what.to_string(),
                cell(r, "loopMs"),
                opt(m, |m| format!("{:.1}", m * 1e6 / r.iterations as f64)),
                opt(ratio(m, bare), fmt_ratio),
            ]
        })
        .collect::<Vec<_>>();
    Some(format!(
        "{PUSH_POP}: {n} ops per run; median ± CV:\n\n{}",
        table(&header, &body, 2)
    ))
}

/// The figures issue 5 asks for, in one paragraph (what this run has of them).
fn summary(records: &[PoolRecord]) -> String {
    let mut parts = Vec::new();
    let per_op = |v| {
        let r = find(records, PUSH_POP, v)?;
        Some(r.median("loopMs")? * 1e6 / r.iterations as f64)
    };
    let bare = per_op("bareCall");
    if let Some(pair) = per_op("pushPop") {
        let mut s = format!("an empty `popPool(pushPool())` pair costs {pair:.1} ns");
        if let Some(b) = bare {
            let _ = write!(s, ", {} a bare wasm call ({b:.1} ns)", fmt_ratio(pair / b));
        }
        if let Some(w) = per_op("withPool") {
            let _ = write!(s, "; `withPool(() => 0)` {w:.1} ns");
            if let Some(b) = bare {
                let _ = write!(s, " ({})", fmt_ratio(w / b));
            }
        }
        parts.push(s);
    }
    parts.extend(releasing(records));
    if parts.is_empty() {
        return String::new();
    }
    let mut s = parts.join("; ");
    s[..1].make_ascii_uppercase();
    s + ".\n"
}

/// What releasing the scenario's objects cost, each way this run measured.
fn releasing(records: &[PoolRecord]) -> Option<String> {
    let n = find(records, RELEASE, "oneByOne")
        .or_else(|| records.iter().find(|r| r.scenario.name == RELEASE))?
        .iterations;
    let mut bits = Vec::new();
    let drops = |v| median(records, RELEASE, v, "droppedMs");
    if let Some(d) = drops("oneByOne") {
        bits.push(format!("one by one {} ms", fmt_ms(d)));
    }
    if let Some(d) = drops("poolDrain") {
        bits.push(format!("through one pool drain {} ms", fmt_ms(d)));
    }
    if let Some(d) = drops("nonePool") {
        bits.push(format!(
            "(`none` mode through the JS pool {} ms)",
            fmt_ms(d)
        ));
    }
    if let Some(d) = drops("gc") {
        let sync = median(records, RELEASE, "gc", "releaseMs").unwrap_or(f64::NAN);
        let calls = median(records, RELEASE, "gc", "gcCalls").unwrap_or(f64::NAN);
        bits.push(format!(
            "`none` mode left to the GC {} ms synchronously and {} ms until every Drop ran \
             ({calls:.0} forced `gc()` calls)",
            fmt_ms(sync),
            fmt_ms(d)
        ));
    }
    (!bits.is_empty()).then(|| {
        format!(
            "releasing {n} objects: {}",
            bits.join(", ").replace(", (", " (")
        )
    })
}

fn errors(records: &[PoolRecord]) -> String {
    let mut out = String::new();
    for r in records {
        for e in &r.errors {
            let _ = writeln!(out, "- {} {}: {e}", r.scenario.name, r.variant.name);
        }
    }
    out
}

/// The pool part of the report on stdout (empty when no pool scenario ran).
pub fn text(records: &[PoolRecord]) -> String {
    if records.is_empty() {
        return String::new();
    }
    String::from("\nRelease pools (issue 5):\n\n")
        + &tables_and_summary(records, "\nPool failures:\n")
}

/// The result tables, the summary and any failures (under the `failures` heading): the
/// part that stdout and `docs/benchmarks.md` share.
fn tables_and_summary(records: &[PoolRecord], failures: &str) -> String {
    let mut out = String::new();
    for t in [release_table(records), push_pop_table(records)]
        .into_iter()
        .flatten()
    {
        out += &t;
        out += "\n";
    }
    out += &summary(records);
    let errs = errors(records);
    if !errs.is_empty() {
        out += failures;
        out += &errs;
    }
    out
}

/// The pool part of `docs/benchmarks.md`'s generated section.
pub fn doc(records: &[PoolRecord]) -> String {
    if records.is_empty() {
        return String::new();
    }
    let mut out = String::from("\n## Release pools\n\nIssue 5: ");
    out += "what releasing `rust`-mode objects costs one by one, through one pool drain, and \
            against `none` mode left to the garbage collector; and what a pool with nothing \
            in it costs, as a multiple of a bare wasm call. Each (scenario, variant) runs in a \
            fresh process with the same warm-up and adaptive sampling as above, converging on \
            the release (the GC variant: until all Drops ran; push/pop: the loop); every \
            phase is the median over the same runs. Checked in every run: the live-objects \
            probe is back where it was once the release is over.\n\n";
    for s in POOL_SCENARIOS {
        let _ = writeln!(
            out,
            "- `{}` ({} {} per run): {}.",
            s.name, s.iterations, s.unit, s.what
        );
    }
    out += "\n";
    let rows = POOL_SCENARIOS
        .iter()
        .flat_map(|s| {
            s.variants.iter().map(move |v| {
                vec![
                    format!("`{}`", s.name),
                    format!("`{}`", v.name),
                    v.mode.name().to_string(),
                    v.what.to_string(),
                ]
            })
        })
        .collect::<Vec<_>>();
    out += &table(
        &["scenario", "variant", "mode", "what"].map(String::from),
        &rows,
        4,
    );
    out += "\nPhases of `release100k`: **create** is the creation loop (with a pool, \
            `pushPool()` and the pool's bookkeeping of each new object too); **release** is \
            the synchronous release (the loop of `release()`, the `popPool()`, or for the GC \
            dropping the array); **until all Drops ran** runs from the start of the release \
            to the last Rust `Drop` (the same as release where release is synchronous; for the \
            GC, polling `liveObjects()` with a forced `gc()` and an event-loop turn between \
            polls, so it is the best case: without forced collections it waits for V8 to \
            collect on its own).\n\n";
    out += &tables_and_summary(records, "\nFailures:\n\n");
    out
}

fn record_json(records: &[PoolRecord], r: &PoolRecord) -> Value {
    let per = |phase: &str| r.median(phase).map(|m| m * 1e6 / r.iterations as f64);
    let (unit_ns, over) = if r.scenario.name == PUSH_POP {
        (
            per("loopMs"),
            ratio(
                r.median("loopMs"),
                median(records, PUSH_POP, "bareCall", "loopMs"),
            ),
        )
    } else {
        (
            per("droppedMs"),
            ratio(
                r.median("droppedMs"),
                median(records, RELEASE, "oneByOne", "droppedMs"),
            ),
        )
    };
    json!({
        "scenario": r.scenario.name,
        "variant": r.variant.name,
        "mode": r.variant.mode.name(),
        "iterations": r.iterations,
        "unit": r.scenario.unit,
        "primary": r.time.as_ref().map(|t| &t.primary),
        "medianMs": r.time.as_ref().map(|t| t.summary.median_ms),
        "createMs": r.median("createMs"),
        "releaseMs": r.median("releaseMs"),
        "droppedMs": r.median("droppedMs"),
        "gcCalls": r.median("gcCalls"),
        "loopMs": r.median("loopMs"),
        // ns per object until its Drop ran, or per push/pop pair (per call for bareCall).
        "nsPerUnit": unit_ns,
        // Over oneByOne (release100k) or over bareCall (emptyPoolPushPop).
        "overBase": over,
        "time": r.time,
        "errors": r.errors,
    })
}

pub fn json(records: &[PoolRecord]) -> Value {
    Value::Array(records.iter().map(|r| record_json(records, r)).collect())
}
