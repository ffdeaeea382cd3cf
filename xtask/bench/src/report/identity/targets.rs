//! The identity scenarios' targets (issues 4, 9 and 12), by group. `report::targets`
//! lists them, with the other sections' targets, in the report's order.

use super::super::format::MIB;
use super::super::target::{Target, mode_ratio_target, ratio_target, speedup_target};
use crate::model::{Mode, Run};

/// Issues 4 and 12: `rust` against the other modes and the floors.
pub fn against_modes(run: &Run) -> Vec<Target> {
    let mut out = Vec::new();
    let g = "rust vs none";
    for (s, min) in [
        ("passBothWaysRoundtrip", 20.0),
        ("getPoolRepeated_100", 20.0),
        ("churnObjects", 3.0),
        ("rustCreatesObject", 3.0),
    ] {
        out.push(speedup_target(run, g, s, Mode::None, min));
    }
    out.push(ratio_target(
        run,
        g,
        "rustConsumesSameObject",
        Mode::None,
        1.10,
        "≤ 1.10 (within 10%)",
    ));
    let g = "rust vs pointer";
    for (s, min) in [
        ("passBothWaysRoundtrip", 1.5),
        ("getPoolRepeated_100", 3.0),
        ("churnObjects", 5.0),
        ("rustCreatesObject", 10.0),
    ] {
        out.push(speedup_target(run, g, s, Mode::Pointer, min));
    }
    out.push(ratio_target(
        run,
        g,
        "rustConsumesSameObject",
        Mode::Pointer,
        1.10,
        "≤ 1.10 (parity)",
    ));
    let g = "rust vs floor";
    out.push(ratio_target(
        run,
        g,
        "rustConsumesSameObject",
        Mode::Floor,
        1.5,
        "≤ 1.5",
    ));
    out.push(ratio_target(
        run,
        g,
        "passBothWaysRoundtrip",
        Mode::Floor,
        3.0,
        "≤ 3",
    ));
    out.push(ratio_target(
        run,
        g,
        "getPoolRepeated_100",
        Mode::Floor,
        3.0,
        "≤ 3 (per element)",
    ));
    let g = "floors (issue 12)";
    out.push(ratio_target(
        run,
        g,
        "rustCreatesObject",
        Mode::AllocFloor,
        1.5,
        "≤ 1.5",
    ));
    for mode in [Mode::None, Mode::Pointer, Mode::Rust] {
        out.push(mode_ratio_target(
            run,
            g,
            "rustConsumesSameObject",
            mode,
            Mode::Floor,
            1.3,
            "≤ 1.3",
        ));
        out.push(mode_ratio_target(
            run,
            g,
            "rustConsumesSameObject",
            mode,
            Mode::WasmBindgen,
            1.0,
            "≤ 1 (never slower)",
        ));
    }
    out
}

/// `rust` against wasm-bindgen (the peer rows).
pub fn against_peer(run: &Run) -> Vec<Target> {
    let mut out = Vec::new();
    let g = "rust vs wasm-bindgen";
    for (s, min) in [
        ("passBothWaysRoundtrip", 20.0),
        ("getPoolRepeated_100", 50.0),
        ("rustCreatesObject", 10.0),
        ("rustConsumesSameObject", 5.0),
    ] {
        out.push(speedup_target(run, g, s, Mode::WasmBindgen, min));
    }
    out
}

/// Issue 9: calling JS from Rust (mode-independent loops; read in `rust` mode).
pub fn calling_js(run: &Run) -> Vec<Target> {
    let mut out = Vec::new();
    let g = "calling JS (issue 9)";
    out.push(ratio_target(
        run,
        g,
        "callImport",
        Mode::Floor,
        1.5,
        "≤ 1.5",
    ));
    out.push(ratio_target(
        run,
        g,
        "callImport",
        Mode::WasmBindgen,
        1.0,
        "≤ 1 (no slower)",
    ));
    // Issue 21: a method of an imported JS class.
    out.push(ratio_target(
        run,
        g,
        "callJsMethod",
        Mode::WasmBindgen,
        1.2,
        "≤ 1.2",
    ));
    out.push(speedup_target(
        run,
        g,
        "callCallback",
        Mode::WasmBindgen,
        2.0,
    ));
    out.push(speedup_target(
        run,
        g,
        "lentClosure",
        Mode::WasmBindgen,
        2.0,
    ));
    // Issue 22: async.
    out.push(speedup_target(
        run,
        "async (issue 22)",
        "asyncReturn",
        Mode::WasmBindgen,
        2.0,
    ));
    out.push(speedup_target(
        run,
        "async (issue 22)",
        "awaitJs",
        Mode::WasmBindgen,
        2.0,
    ));
    out.push(ratio_target(
        run,
        g,
        "jsValueRoundtrip",
        Mode::WasmBindgen,
        1.0,
        "≤ 1 (no slower)",
    ));
    // JS calling a Rust closure (the issue sets no number; its ratio to the floor is in the
    // tables: the closure's `dyn Fn` dispatch, a wasm `call_indirect`, alone costs more
    // than half a bare call).
    out.push(ratio_target(
        run,
        g,
        "callClosure",
        Mode::WasmBindgen,
        1.0,
        "≤ 1 (no slower)",
    ));
    // Issue 21: a `pub` field read as a property.
    out.push(ratio_target(
        run,
        "fields (issue 21)",
        "fieldRead",
        Mode::WasmBindgen,
        1.1,
        "≤ 1.1",
    ));
    out
}

/// Memory: heap growth of a roundtrip, linear memory of churn.
pub fn memory(run: &Run) -> Vec<Target> {
    let mut out = Vec::new();
    let g = "memory";
    let roundtrip = run.find("passBothWaysRoundtrip", Mode::Rust);
    let peak = roundtrip
        .and_then(|r| Some(r.memory.as_ref()?.peak_heap_delta / MIB * 1e6 / r.iterations as f64));
    out.push(Target {
        group: g,
        what: "passBothWaysRoundtrip rust: peak JS heap growth per 1M iterations".into(),
        want: "≤ 2 MiB".into(),
        got: peak.map(|p| format!("{p:.2} MiB")),
        pass: peak.map(|p| p <= 2.0),
    });
    let churn = run.find("churnObjects", Mode::Rust);
    let growth = churn.and_then(|r| Some(r.memory.as_ref()?.wasm_memory_growth));
    let rust_heap = churn.and_then(|r| Some(r.memory.as_ref()?.rust_heap_growth_after_settle));
    out.push(Target {
        group: g,
        what: "churnObjects rust: wasm linear memory growth after warm-up (Rust heap growth)"
            .into(),
        want: "0 (flat)".into(),
        got: growth.map(|w| {
            format!(
                "{} B ({} B)",
                w,
                rust_heap.map_or("?".into(), |h| format!("{h}"))
            )
        }),
        pass: growth.map(|w| w == 0.0),
    });
    out
}

/// Sustained: each scenario's last back-to-back run against its first, in `rust` mode.
pub fn sustained(run: &Run) -> Vec<Target> {
    let mut out = Vec::new();
    let g = "sustained";
    for s in run.scenarios() {
        let got = run
            .find(s.name, Mode::Rust)
            .and_then(|r| Some(r.sustained.as_ref()?.last_over_first));
        if got.is_none() && run.find(s.name, Mode::Rust).is_none() {
            continue;
        }
        out.push(Target {
            group: g,
            what: format!("{}: rust last run / first run", s.name),
            want: "≤ 1.5".into(),
            got: got.map(|x| format!("{x:.2}")),
            pass: got.map(|x| x <= 1.5),
        });
    }
    out
}

/// `none` and `pointer` are never slower than wasm-bindgen.
pub fn peer_parity(run: &Run) -> Vec<Target> {
    let mut out = Vec::new();
    let g = "none/pointer vs wasm-bindgen";
    if run.modes().contains(&Mode::WasmBindgen) {
        for s in run.scenarios() {
            for mode in [Mode::None, Mode::Pointer] {
                let got = match (
                    run.median(s.name, mode),
                    run.median(s.name, Mode::WasmBindgen),
                ) {
                    (Some(m), Some(p)) if p > 0.0 => Some(m / p),
                    _ => None,
                };
                out.push(Target {
                    group: g,
                    what: format!("{}: {} / wasm-bindgen", s.name, mode.name()),
                    want: "≤ 1 (no slower)".into(),
                    got: got.map(|x| format!("{x:.2}")),
                    pass: got.map(|x| x <= 1.0),
                });
            }
        }
    }
    out
}
