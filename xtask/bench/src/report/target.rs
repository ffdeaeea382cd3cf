//! Leaf of the report: a target (an issue's figure to reach), the ratio targets most
//! sections set, and the table they all end up in. Sections own their targets; `mod.rs`
//! collects them.

use super::format::table as markdown;
use crate::model::{Mode, Run};

/// A target of an issue and how this run did.
pub struct Target {
    pub group: &'static str,
    pub what: String,
    pub want: String,
    pub got: Option<String>,
    pub pass: Option<bool>,
}

pub fn speedup_target(
    run: &Run,
    group: &'static str,
    scenario: &str,
    base: Mode,
    min: f64,
) -> Target {
    let got = match (run.median(scenario, base), run.median(scenario, Mode::Rust)) {
        (Some(b), Some(r)) if r > 0.0 => Some(b / r),
        _ => None,
    };
    Target {
        group,
        what: format!("{scenario}: {} / rust", base.name()),
        want: format!("≥ {min}× faster"),
        got: got.map(|g| format!("{g:.2}×")),
        pass: got.map(|g| g >= min),
    }
}

pub fn ratio_target(
    run: &Run,
    group: &'static str,
    scenario: &str,
    over: Mode,
    max: f64,
    want: &str,
) -> Target {
    mode_ratio_target(run, group, scenario, Mode::Rust, over, max, want)
}

/// `mode` / `over` of a scenario's medians, at most `max`.
pub fn mode_ratio_target(
    run: &Run,
    group: &'static str,
    scenario: &str,
    mode: Mode,
    over: Mode,
    max: f64,
    want: &str,
) -> Target {
    let got = match (run.median(scenario, mode), run.median(scenario, over)) {
        (Some(r), Some(o)) if o > 0.0 => Some(r / o),
        _ => None,
    };
    Target {
        group,
        what: format!("{scenario}: {} / {}", mode.name(), over.name()),
        want: want.to_string(),
        got: got.map(|g| format!("{g:.2}")),
        pass: got.map(|g| g <= max),
    }
}

/// The targets table: pass/miss by the medians (`targets`), and beside it what the best
/// runs say (`best`, the same targets of `Run::best_runs`).
pub fn table(targets: Vec<Target>, best: Vec<Target>) -> String {
    let header: Vec<String> = ["", "target", "want", "got", "best runs", ""]
        .map(String::from)
        .to_vec();
    let verdict = |pass: Option<bool>| match pass {
        Some(true) => "pass".to_string(),
        Some(false) => "MISS".into(),
        None => "n/a".into(),
    };
    let rows = targets
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
    markdown(&header, &rows, 6)
}
