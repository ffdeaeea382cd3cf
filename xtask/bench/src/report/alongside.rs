//! Issue 20's section: the bridge scenarios in a package that also holds wasm-bindgen code
//! against the same scenarios in the bridge-only package of the same run (`rust` mode), a
//! `JsValue` conversion against a `jsValueRoundtrip` crossing, and the bytes the joined
//! package adds beyond wasm-bindgen's own output against today's bridge overhead for the
//! same bridge items: the bridge-only package's glue (the runtime's and the thunks' wasm
//! code is in wasm-bindgen's output too, so what joining adds is glue and the transforms').

use super::format::{fmt_bytes, fmt_ms, fmt_ratio, table};
use super::target::Target;
use crate::model::{Alongside, AlongsideSize, Mode, Record, Run};
use serde_json::{Value, json};

const GROUP: &str = "with wasm-bindgen (issue 20)";
const CONVERSION: &str = "jsValueConversion";
const CROSSING: &str = "jsValueRoundtrip";
/// Issue 45: a `#[bridge]` export taking a `#[wasm_bindgen]` struct and enum, and the same
/// `#[wasm_bindgen]` export.
const MIXED: &str = "mixedSignatureBridge";
const MIXED_PEER: &str = "mixedSignatureWasmBindgen";

fn find<'a>(a: &'a Alongside, scenario: &str) -> Option<&'a Record> {
    a.records.iter().find(|r| r.scenario.name == scenario)
}

fn median(a: &Alongside, scenario: &str) -> Option<f64> {
    find(a, scenario)?.median_ms()
}

/// (scenario, bridge-only ms, alongside ms, ratio) for every scenario both packages ran.
fn pairs(run: &Run, a: &Alongside) -> Vec<(&'static str, f64, f64, f64)> {
    run.scenarios()
        .into_iter()
        .filter_map(|s| {
            let alone = run.median(s.name, Mode::Rust)?;
            let joined = median(a, s.name)?;
            (alone > 0.0).then(|| (s.name, alone, joined, joined / alone))
        })
        .collect()
}

/// The geometric mean of the ratios: one figure for "within 5%" that no single noisy
/// scenario decides.
fn geometric_mean(ratios: &[f64]) -> Option<f64> {
    if ratios.is_empty() || ratios.iter().any(|r| *r <= 0.0) {
        return None;
    }
    Some((ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp())
}

/// ns per conversion (half a `jsValueConversion` iteration) and ns per `jsValueRoundtrip`
/// crossing, both of the alongside package.
fn conversion(a: &Alongside) -> Option<(f64, f64)> {
    let ns = |r: &Record| Some(r.median_ms()? * 1e6 / r.iterations as f64);
    let per_conversion = ns(find(a, CONVERSION)?)? / 2.0;
    let per_crossing = ns(find(a, CROSSING)?)?;
    (per_crossing > 0.0).then_some((per_conversion, per_crossing))
}

/// ms of the `#[bridge]` export and of the `#[wasm_bindgen]` one taking the same types.
fn mixed(a: &Alongside) -> Option<(f64, f64)> {
    let bridge = median(a, MIXED)?;
    let peer = median(a, MIXED_PEER)?;
    (peer > 0.0).then_some((bridge, peer))
}

fn added_bytes(a: &Alongside) -> Option<i64> {
    let s = a.size.as_ref()?;
    Some(s.joined_gz as i64 - s.wasm_bindgen_gz as i64)
}

pub fn targets(run: &Run) -> Vec<Target> {
    let Some(a) = &run.alongside else {
        return Vec::new();
    };
    let ratios: Vec<f64> = pairs(run, a).iter().map(|p| p.3).collect();
    let mean = geometric_mean(&ratios);
    let conv = conversion(a).map(|(c, x)| c / x);
    let added = added_bytes(a);
    let overhead = a.size.as_ref().map(|s| s.bridge_glue_gz as i64);
    let mixed = mixed(a).map(|(b, w)| b / w);
    vec![
        Target {
            group: "mixed signatures (issue 45)",
            what: "a #[bridge] export taking a #[wasm_bindgen] struct and enum / the same \
                   #[wasm_bindgen] export"
                .into(),
            want: "≤ 1.0".into(),
            got: mixed.map(|m| format!("{m:.2}")),
            pass: mixed.map(|m| m <= 1.0),
        },
        Target {
            group: GROUP,
            what: format!(
                "bridge scenarios (rust), with wasm-bindgen / bridge-only, geometric mean of {}",
                ratios.len()
            ),
            want: "≤ 1.05".into(),
            got: mean.map(|m| format!("{m:.3}")),
            pass: mean.map(|m| m <= 1.05),
        },
        Target {
            group: GROUP,
            what: format!("one JsValue conversion / a {CROSSING} crossing"),
            want: "≤ 2".into(),
            got: conv.map(|c| format!("{c:.2}")),
            pass: conv.map(|c| c <= 2.0),
        },
        Target {
            group: GROUP,
            what: "package bytes beyond wasm-bindgen's output / the bridge-only glue (gzip)".into(),
            want: "≤ 1".into(),
            got: match (added, overhead) {
                (Some(a), Some(o)) if o > 0 => {
                    Some(format!("{a} B / {o} B = {:.2}", a as f64 / o as f64))
                }
                _ => None,
            },
            pass: match (added, overhead) {
                (Some(a), Some(o)) if o > 0 => Some(a <= o),
                _ => None,
            },
        },
    ]
}

fn tables(run: &Run, a: &Alongside) -> String {
    let mut out = String::new();
    let header = [
        "scenario",
        "bridge-only ms",
        "with wasm-bindgen ms",
        "ratio",
    ]
    .map(String::from)
    .to_vec();
    let rows: Vec<Vec<String>> = pairs(run, a)
        .into_iter()
        .map(|(name, alone, joined, ratio)| {
            vec![
                name.into(),
                fmt_ms(alone),
                fmt_ms(joined),
                format!("{ratio:.3}"),
            ]
        })
        .collect();
    if !rows.is_empty() {
        out += &table(&header, &rows, 1);
    }
    if let Some((bridge, peer)) = mixed(a) {
        out += &format!(
            "\nA #[wasm_bindgen] struct and enum passed to a #[bridge] export ({MIXED}): {}; \
             to the same #[wasm_bindgen] export ({MIXED_PEER}): {} ({}).\n",
            fmt_ms(bridge),
            fmt_ms(peer),
            fmt_ratio(bridge / peer)
        );
    }
    if let Some((conv, crossing)) = conversion(a) {
        out += &format!(
            "\nOne JsValue conversion (either way): {conv:.0} ns; a {CROSSING} crossing of the \
             same package: {crossing:.0} ns ({}).\n",
            fmt_ratio(conv / crossing)
        );
    }
    if let (Some(s), Some(added)) = (&a.size, added_bytes(a)) {
        out += &size_line(s, added);
    }
    if let Some(e) = &a.error {
        out += &format!("\nalongside package: {e}\n");
    }
    for r in &a.records {
        for e in &r.errors {
            out += &format!("\nalongside {}: {e}\n", r.scenario.name);
        }
    }
    out
}

/// What the joined package weighs beside wasm-bindgen's own output (gzip bytes).
fn size_line(s: &AlongsideSize, added: i64) -> String {
    let mut out = String::new();
    out += &format!(
        "\nBytes (gzip, every .js and .wasm): the joined package {}, wasm-bindgen's own \
         output for the same module {}{}: {} added by cargo bridge",
        fmt_bytes(s.joined_gz as f64),
        fmt_bytes(s.wasm_bindgen_gz as f64),
        if s.wasm_bindgen_opt {
            " (after wasm-opt -O)"
        } else {
            " (no wasm-opt installed)"
        },
        fmt_bytes(added as f64),
    );
    out += &format!(
        "; the bridge-only package's glue for the same items: {}.\n",
        fmt_bytes(s.bridge_glue_gz as f64)
    );
    out
}

/// The section on stdout.
pub fn text(run: &Run) -> Option<String> {
    let a = run.alongside.as_ref()?;
    Some(format!(
        "\nWith wasm-bindgen in the package (issue 20; rust mode, same run):\n\n{}",
        tables(run, a)
    ))
}

/// The section of `docs/benchmarks.md`.
pub fn doc(run: &Run) -> Option<String> {
    let a = run.alongside.as_ref()?;
    Some(format!(
        "\n## With wasm-bindgen in the package\n\nIssue 20: the bench fixture copied into a crate \
         that also links wasm-bindgen (a `#[wasm_bindgen]` function, bridge-runtime's \
         `wasm-bindgen` feature), its `rust` rows against the bridge-only package's of the same \
         run, one `JsValue` conversion against a `{CROSSING}` crossing, and the bytes it adds \
         beyond wasm-bindgen's own output.\n\n{}",
        tables(run, a)
    ))
}

pub fn json(run: &Run) -> Option<Value> {
    let a = run.alongside.as_ref()?;
    Some(json!({
        "pairs": pairs(run, a).into_iter().map(|(s, alone, joined, ratio)| json!({
            "scenario": s, "bridgeOnlyMs": alone, "withWasmBindgenMs": joined, "ratio": ratio,
        })).collect::<Vec<_>>(),
        "mixedSignatureMs": mixed(a).map(|m| m.0),
        "mixedSignatureWasmBindgenMs": mixed(a).map(|m| m.1),
        "nsPerConversion": conversion(a).map(|c| c.0),
        "nsPerCrossing": conversion(a).map(|c| c.1),
        "joinedGz": a.size.as_ref().map(|s| s.joined_gz),
        "wasmBindgenGz": a.size.as_ref().map(|s| s.wasm_bindgen_gz),
        "bridgeOnlyGlueGz": a.size.as_ref().map(|s| s.bridge_glue_gz),
        "error": a.error,
        "errors": a.records.iter().flat_map(|r| &r.errors).collect::<Vec<_>>(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_geometric_mean_is_one_for_balanced_ratios_and_none_without_any() {
        assert!((geometric_mean(&[2.0, 0.5]).unwrap() - 1.0).abs() < 1e-12);
        assert!((geometric_mean(&[1.1]).unwrap() - 1.1).abs() < 1e-12);
        assert_eq!(geometric_mean(&[]), None);
        assert_eq!(geometric_mean(&[1.0, 0.0]), None);
    }
}
