//! The plain-crate build-cost section (issue 43): `cargo bridge build` of each plain
//! wasm-bindgen fixture against wasm-pack's steps run by hand, as CPU-time ratios of
//! paired builds (cold and after a touch, debug and release) and the packages' gzip'd
//! bytes; with the targets.

use super::format::table;
use super::target::Target;
use crate::model::{PairedBuilds, PlainBuildCost, PlainProfileCost};
use serde_json::{Value, json};

/// CPU of cargo bridge over the by-hand steps, at most: from a fresh target directory.
const COLD_MAX: f64 = 1.1;
/// … and after touching `src/lib.rs`.
const TOUCH_MAX: f64 = 1.2;

fn profile(p: &PlainProfileCost) -> &'static str {
    if p.release { "release" } else { "debug" }
}

fn ratio(r: Option<f64>) -> String {
    r.map_or("—".into(), |r| format!("{r:.2}×"))
}

fn cpu_pair(pair: Option<&PairedBuilds>) -> String {
    let Some(pair) = pair else {
        return "—".into();
    };
    match (
        PairedBuilds::median_cpu_ms(&pair.bridge),
        PairedBuilds::median_cpu_ms(&pair.by_hand),
    ) {
        (Some(b), Some(h)) => format!("{:.1} / {:.1} s", b / 1e3, h / 1e3),
        _ => "—".into(),
    }
}

/// gzip'd bytes: cargo bridge minus by hand.
fn bytes_delta(p: &PlainProfileCost) -> Option<i64> {
    p.bytes_gz.map(|(b, h)| b as i64 - h as i64)
}

fn the_table(cost: &PlainBuildCost) -> String {
    let header: Vec<String> = [
        "crate",
        "profile",
        "cold CPU (bridge / by hand)",
        "cold ratio",
        "touch CPU (bridge / by hand)",
        "touch ratio",
        "touch pairs",
        "package gz (bridge / by hand)",
    ]
    .map(String::from)
    .to_vec();
    let mut rows = Vec::new();
    for row in &cost.rows {
        for p in &row.profiles {
            rows.push(vec![
                row.fixture.to_string(),
                profile(p).into(),
                cpu_pair(p.cold.as_ref()),
                ratio(p.cold.as_ref().and_then(PairedBuilds::cpu_ratio)),
                cpu_pair(Some(&p.touch)),
                ratio(p.touch.cpu_ratio()),
                p.touch.bridge.len().min(p.touch.by_hand.len()).to_string(),
                p.bytes_gz
                    .map_or("—".into(), |(b, h)| format!("{b} / {h} B")),
            ]);
        }
    }
    table(&header, &rows, 2)
}

fn method(cost: &PlainBuildCost) -> String {
    format!(
        "`cargo bridge build --target bundler` against wasm-pack's steps by hand (`cargo build \
         --lib --target wasm32-unknown-unknown`, the crate's locked wasm-bindgen CLI with \
         `--target bundler --typescript` and `--debug` for dev, for release `{}` with the \
         crate's wasm-pack flags); CPU = user + system time of the processes, medians of the \
         ratios of paired builds; {}",
        cost.wasm_opt,
        if cost.release_cli {
            "cargo-bridge built with `--release`"
        } else {
            "cargo-bridge's debug build (a smoke run)"
        }
    )
}

/// The section on stdout, with its verdicts.
pub fn text(cost: &PlainBuildCost) -> String {
    let mut verdicts = String::new();
    for t in targets(cost).into_iter().filter(|t| t.got.is_some()) {
        let verdict = if t.pass == Some(true) { "pass" } else { "MISS" };
        verdicts += &format!(
            "{verdict}: {} {} (got {})\n",
            t.what,
            t.want,
            t.got.unwrap_or_default()
        );
    }
    let skipped = cost
        .skipped
        .as_ref()
        .map_or(String::new(), |s| format!("{s}\n"));
    format!(
        "\nBuild cost of plain wasm-bindgen crates ({}):\n\n{}\n{skipped}{verdicts}",
        method(cost),
        the_table(cost)
    )
}

/// The section of `docs/benchmarks.md`.
pub fn doc(cost: &PlainBuildCost) -> String {
    format!(
        "\n## Build cost of plain wasm-bindgen crates\n\nIssue 43: {}.\n\n{}",
        method(cost),
        the_table(cost)
    )
}

pub fn json(cost: &PlainBuildCost) -> Value {
    json!({
        "releaseCli": cost.release_cli,
        "wasmOpt": cost.wasm_opt,
        "skipped": cost.skipped,
        "rows": cost.rows.iter().map(|r| json!({
            "fixture": r.fixture,
            "wasmBindgen": r.wasm_bindgen,
            "profiles": r.profiles.iter().map(|p| json!({
                "profile": profile(p),
                "cold": p.cold,
                "coldCpuRatio": p.cold.as_ref().and_then(PairedBuilds::cpu_ratio),
                "touch": p.touch,
                "touchCpuRatio": p.touch.cpu_ratio(),
                "bytesGz": p.bytes_gz.map(|(b, h)| json!({"bridge": b, "byHand": h})),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

pub fn targets(cost: &PlainBuildCost) -> Vec<Target> {
    let g = "plain-crate build cost (issue 43)";
    let mut out = Vec::new();
    for row in &cost.rows {
        for p in &row.profiles {
            let name = format!("{} {}", row.fixture, profile(p));
            for (what, pair, max) in [
                ("cold", p.cold.as_ref(), COLD_MAX),
                ("after a touch", Some(&p.touch), TOUCH_MAX),
            ] {
                let got = pair.and_then(PairedBuilds::cpu_ratio);
                out.push(Target {
                    group: g,
                    what: format!("{name}: CPU {what}, cargo bridge / by hand"),
                    want: format!("≤ {max}×"),
                    got: got.map(|r| format!("{r:.2}×")),
                    pass: got.map(|r| r <= max),
                });
            }
            let delta = bytes_delta(p);
            out.push(Target {
                group: g,
                what: format!("{name}: package .js + .wasm gzip'd, cargo bridge − by hand"),
                want: "+0 B".into(),
                got: delta.map(|d| format!("{d:+} B")),
                pass: delta.map(|d| d <= 0),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{BuildSpent, PlainBuildRow};

    fn pair(bridge: &[f64], by_hand: &[f64]) -> PairedBuilds {
        let s = |ms: &[f64]| {
            ms.iter()
                .map(|&cpu_ms| BuildSpent {
                    cpu_ms,
                    wall_ms: cpu_ms * 3.0,
                })
                .collect()
        };
        PairedBuilds {
            bridge: s(bridge),
            by_hand: s(by_hand),
        }
    }

    #[test]
    fn the_ratio_is_the_median_of_the_pairs_ratios() {
        // Pairs 1.0, 1.5, 1.1: the median pair, not the ratio of the medians (1.05).
        let p = pair(&[1000.0, 3000.0, 1100.0], &[1000.0, 2000.0, 1000.0]);
        assert_eq!(p.cpu_ratio(), Some(1.1));
        let even = pair(&[1000.0, 1200.0], &[1000.0, 1000.0]);
        assert!((even.cpu_ratio().unwrap() - 1.1).abs() < 1e-9);
        assert_eq!(pair(&[1000.0], &[]).cpu_ratio(), None);
        assert_eq!(pair(&[1000.0], &[0.0]).cpu_ratio(), None);
    }

    #[test]
    fn targets_judge_cold_touch_and_bytes_per_profile() {
        let cost = PlainBuildCost {
            rows: vec![PlainBuildRow {
                fixture: "wasm-pack/plain",
                wasm_bindgen: "0.2.130".into(),
                profiles: vec![
                    PlainProfileCost {
                        release: false,
                        cold: None,
                        touch: pair(&[1150.0], &[1000.0]),
                        bytes_gz: Some((5000, 5000)),
                    },
                    PlainProfileCost {
                        release: true,
                        cold: Some(pair(&[12_000.0], &[10_000.0])),
                        touch: pair(&[1300.0, 1250.0, 1100.0], &[1000.0, 1000.0, 1000.0]),
                        bytes_gz: Some((5012, 5000)),
                    },
                ],
            }],
            release_cli: true,
            skipped: None,
            wasm_opt: "wasm-opt".into(),
        };
        let t = targets(&cost);
        assert_eq!(t.len(), 6);
        assert_eq!(
            t[0].what,
            "wasm-pack/plain debug: CPU cold, cargo bridge / by hand"
        );
        assert_eq!(t[0].pass, None, "no cold builds: not measured");
        assert_eq!(
            (t[1].got.as_deref(), t[1].pass),
            (Some("1.15×"), Some(true))
        );
        assert_eq!((t[2].got.as_deref(), t[2].pass), (Some("+0 B"), Some(true)));
        assert_eq!(
            (t[3].got.as_deref(), t[3].pass),
            (Some("1.20×"), Some(false))
        );
        assert_eq!(
            (t[4].got.as_deref(), t[4].pass),
            (Some("1.25×"), Some(false))
        );
        assert_eq!(
            (t[5].got.as_deref(), t[5].pass),
            (Some("+12 B"), Some(false))
        );
        let text = text(&cost);
        assert!(text.contains("| wasm-pack/plain | release |"), "{text}");
        let release = text.lines().find(|l| l.contains("| release |")).unwrap();
        assert!(release.contains(" 12.0 / 10.0 s | "), "{release}");
        assert!(release.contains(" 1.20× | "), "{release}");
        assert!(release.ends_with(" 5012 / 5000 B |"), "{release}");
        assert!(
            text.contains("MISS: wasm-pack/plain release: package .js + .wasm gzip'd"),
            "{text}"
        );
        let json = json(&cost);
        assert_eq!(json["rows"][0]["profiles"][1]["coldCpuRatio"], 1.2);
        assert_eq!(json["rows"][0]["profiles"][1]["bytesGz"]["bridge"], 5012);
    }
}
