//! The build-cost section (issue 24): `cargo bridge build --release` after a touch, split
//! into cargo, cargo-bridge's own work and wasm-opt (as cargo-bridge reports its phases),
//! for the bundled example and by class count; and how each part grows with the classes.

use super::format::{fmt_ms, table};
use super::target::Target;
use crate::model::{BuildCost, BuildTiming};
use serde_json::{Value, json};

/// The parts of a build the tables show, as cargo-bridge names them.
const PARTS: [&str; 3] = ["cargo", "bridge", "wasm-opt"];
/// cargo-bridge's own phases (part `bridge`), in pipeline order.
const OWN_PHASES: [&str; 7] = [
    "import-check",
    "decode",
    "check",
    "transform",
    "glue",
    "emit",
    "write",
];
/// Growth exponent a part may show between the two largest class counts and still be
/// linear: 1, plus room for a shared machine's noise.
const LINEAR_EXPONENT: f64 = 1.15;

fn rows(build: &BuildCost) -> Vec<(String, &BuildTiming)> {
    let mut out: Vec<(String, &BuildTiming)> = build
        .example
        .iter()
        .map(|t| ("example".to_string(), t))
        .collect();
    for (n, t) in &build.classes {
        let classes = if *n == 1 { "class" } else { "classes" };
        out.push((format!("{n} {classes}"), t));
    }
    out
}

fn s(ms: f64) -> String {
    format!("{:.2} s", ms / 1e3)
}

fn split_table(build: &BuildCost) -> String {
    let header: Vec<String> = [
        "crate",
        "total",
        "cargo",
        "cargo-bridge",
        "wasm-opt",
        "setup",
        "cargo-bridge / cargo",
    ]
    .map(String::from)
    .to_vec();
    let rows: Vec<Vec<String>> = rows(build)
        .into_iter()
        .map(|(name, t)| {
            vec![
                name,
                s(t.total_ms),
                s(t.part("cargo")),
                s(t.part("bridge")),
                s(t.part("wasm-opt")),
                s(t.part("setup")),
                own_share(t).map_or("—".into(), |x| format!("{:.1}%", x * 100.0)),
            ]
        })
        .collect();
    table(&header, &rows, 1)
}

fn phases_table(build: &BuildCost) -> String {
    let mut header = vec!["crate (ms)".to_string()];
    header.extend(OWN_PHASES.map(String::from));
    let rows: Vec<Vec<String>> = rows(build)
        .into_iter()
        .map(|(name, t)| {
            let mut row = vec![name];
            row.extend(OWN_PHASES.map(|p| fmt_ms(t.phase(p))));
            row
        })
        .collect();
    table(&header, &rows, 1)
}

/// cargo-bridge's own part over the cargo part.
fn own_share(t: &BuildTiming) -> Option<f64> {
    let cargo = t.part("cargo");
    (cargo > 0.0).then(|| t.part("bridge") / cargo)
}

/// How `part` grows between the two largest class counts: (n0, n1, t1 / t0, exponent).
fn growth(build: &BuildCost, part: &str) -> Option<(usize, usize, f64, f64)> {
    let [.., (n0, t0), (n1, t1)] = build.classes.as_slice() else {
        return None;
    };
    let (a, b) = (t0.part(part), t1.part(part));
    if a <= 0.0 || n1 <= n0 {
        return None;
    }
    let ratio = b / a;
    Some((*n0, *n1, ratio, ratio.ln() / (*n1 as f64 / *n0 as f64).ln()))
}

fn growth_lines(build: &BuildCost) -> String {
    let mut out = String::new();
    for part in PARTS {
        if let Some((n0, n1, ratio, e)) = growth(build, part) {
            out += &format!(
                "- {part}: {n0} → {n1} classes takes {ratio:.1}× as long (exponent {e:.2}; 1 is linear)\n"
            );
        }
    }
    out
}

fn cli_note(build: &BuildCost) -> &'static str {
    if build.release_cli {
        "cargo-bridge built with `--release`, as `cargo install` builds it"
    } else {
        "cargo-bridge's debug build (a smoke run: its own part is several times slower than a user's)"
    }
}

/// The section on stdout, with its targets (the targets table shows them only beside
/// the scenarios).
pub fn text(build: &BuildCost) -> String {
    let mut verdicts = String::new();
    for t in targets(build).into_iter().filter(|t| t.got.is_some()) {
        let verdict = if t.pass == Some(true) { "pass" } else { "MISS" };
        verdicts += &format!(
            "{verdict}: {} {} (got {})\n",
            t.what,
            t.want,
            t.got.unwrap_or_default()
        );
    }
    format!(
        "\nBuild cost (`cargo bridge build --release` after a touch; {}):\n\n{}\n{}{}\n{verdicts}",
        cli_note(build),
        split_table(build),
        phases_table(build),
        growth_lines(build)
    )
}

/// The section of `docs/benchmarks.md`.
pub fn doc(build: &BuildCost) -> String {
    format!(
        "\n## Build cost\n\nIssue 24: `cargo bridge build --release` after touching the \
         crate's `src/lib.rs`, timed by cargo-bridge itself (`CARGO_BRIDGE_TIMINGS`): cargo \
         (the wasm32 build, opt-level 3, LTO, 1 codegen unit), cargo-bridge's own \
         post-process, glue and package writing, wasm-opt, and setup (`cargo metadata`, \
         the target check). The bundled example (`fixtures/example`; the run with the \
         median total of {}), then generated crates of n copies of the size table's class \
         (wasm-opt on), one build each; {}.\n\n{}\ncargo-bridge's own phases:\n\n{}\n{}",
        build.runs,
        cli_note(build),
        split_table(build),
        phases_table(build),
        growth_lines(build)
    )
}

pub fn json(build: &BuildCost) -> Value {
    json!({
        "releaseCli": build.release_cli,
        "exampleRuns": build.runs,
        "example": build.example,
        "classes": build.classes.iter().map(|(n, t)| json!({"classes": n, "timing": t})).collect::<Vec<_>>(),
    })
}

pub fn targets(build: &BuildCost) -> Vec<Target> {
    let g = "build cost (issue 24)";
    let share = build.example.as_ref().and_then(own_share);
    let mut out = vec![Target {
        group: g,
        what: "the example: cargo-bridge's own part / the cargo part".into(),
        want: "≤ 10%".into(),
        got: share.map(|x| format!("{:.1}%", x * 100.0)),
        pass: share.map(|x| x <= 0.10),
    }];
    for part in PARTS {
        let grown = growth(build, part);
        out.push(Target {
            group: g,
            what: match grown {
                Some((n0, n1, ..)) => format!("{part}: growth from {n0} to {n1} classes"),
                None => format!("{part}: growth with the class count"),
            },
            want: "≤ linear".into(),
            got: grown.map(|(_, _, r, e)| format!("{r:.1}× (exponent {e:.2})")),
            pass: grown.map(|(.., e)| e <= LINEAR_EXPONENT),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PhaseTime;

    fn timing(cargo: f64, bridge: f64, opt: f64) -> BuildTiming {
        let p = |phase: &str, part: &str, ms| PhaseTime {
            phase: phase.into(),
            part: part.into(),
            ms,
        };
        BuildTiming {
            total_ms: cargo + bridge + opt + 50.0,
            phases: vec![
                p("metadata", "setup", 50.0),
                p("cargo", "cargo", cargo),
                p("decode", "bridge", bridge / 2.0),
                p("glue", "bridge", bridge / 2.0),
                p("wasm-opt", "wasm-opt", opt),
            ],
        }
    }

    #[test]
    fn the_share_and_the_growth_are_judged_from_cargo_bridges_parts() {
        let build = BuildCost {
            example: Some(timing(10_000.0, 500.0, 300.0)),
            classes: vec![
                (1, timing(9_000.0, 100.0, 200.0)),
                (100, timing(20_000.0, 1_000.0, 2_000.0)),
                // cargo-bridge's part 100× for 10× the classes: quadratic.
                (1000, timing(150_000.0, 100_000.0, 20_000.0)),
            ],
            runs: 3,
            release_cli: true,
        };
        let t = targets(&build);
        assert_eq!(t[0].got.as_deref(), Some("5.0%"));
        assert_eq!(t[0].pass, Some(true));
        assert_eq!(t[1].what, "cargo: growth from 100 to 1000 classes");
        assert_eq!(t[1].pass, Some(true), "{:?}", t[1].got);
        assert_eq!(t[2].got.as_deref(), Some("100.0× (exponent 2.00)"));
        assert_eq!(t[2].pass, Some(false));
        assert_eq!(t[3].pass, Some(true), "10× for 10×: linear");
        let text = text(&build);
        assert!(text.contains("| example "), "{text}");
        assert!(text.contains("| 1000 classes "), "{text}");
        assert!(text.contains("| 1 class "), "{text}");
        assert!(
            text.contains("bridge: 100 → 1000 classes takes 100.0× as long"),
            "{text}"
        );
        assert!(
            text.contains("MISS: bridge: growth from 100 to 1000 classes ≤ linear (got 100.0× (exponent 2.00))"),
            "{text}"
        );
    }

    #[test]
    fn one_class_count_gives_no_growth_and_no_verdict() {
        let build = BuildCost {
            example: None,
            classes: vec![(1, timing(9_000.0, 100.0, 200.0))],
            runs: 0,
            release_cli: false,
        };
        let t = targets(&build);
        assert!(t.iter().all(|t| t.pass.is_none()));
        assert!(growth_lines(&build).is_empty());
    }
}
