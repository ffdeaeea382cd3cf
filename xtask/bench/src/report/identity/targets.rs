//! The identity scenarios' targets (issues 4, 9 and 12), by group. `report::targets`
//! lists them, with the other sections' targets, in the report's order.

use super::super::format::MIB;
use super::super::target::{Target, mode_ratio_target, ratio_target, speedup_target};
use crate::model::{Mode, Run};

/// Issue 4: how many times faster `rust` is than `none` and `pointer`, by scenario; and
/// `rustConsumesSameObject` within 10% of each (what the report says).
/// (group, the other mode, (scenario, at least this many times faster), parity).
type Speedups = (&'static str, Mode, [(&'static str, f64); 4], &'static str);

const SPEEDUPS: [Speedups; 2] = [
    (
        "rust vs none",
        Mode::None,
        [
            ("passBothWaysRoundtrip", 20.0),
            ("getPoolRepeated_100", 20.0),
            ("churnObjects", 3.0),
            ("rustCreatesObject", 3.0),
        ],
        "≤ 1.10 (within 10%)",
    ),
    (
        "rust vs pointer",
        Mode::Pointer,
        [
            ("passBothWaysRoundtrip", 1.5),
            ("getPoolRepeated_100", 3.0),
            ("churnObjects", 5.0),
            ("rustCreatesObject", 10.0),
        ],
        "≤ 1.10 (parity)",
    ),
];

/// Issue 12: `rust` over the floors: (group, scenario, floor, max, what the report says).
const FLOORS: [(&str, &str, Mode, f64, &str); 4] = [
    (
        "rust vs floor",
        "rustConsumesSameObject",
        Mode::Floor,
        1.5,
        "≤ 1.5",
    ),
    (
        "rust vs floor",
        "passBothWaysRoundtrip",
        Mode::Floor,
        3.0,
        "≤ 3",
    ),
    (
        "rust vs floor",
        "getPoolRepeated_100",
        Mode::Floor,
        3.0,
        "≤ 3 (per element)",
    ),
    (
        "floors (issue 12)",
        "rustCreatesObject",
        Mode::AllocFloor,
        1.5,
        "≤ 1.5",
    ),
];

/// Issues 4 and 12: `rust` against the other modes and the floors.
pub fn against_modes(run: &Run) -> Vec<Target> {
    let mut out = Vec::new();
    for (g, other, speedups, parity) in SPEEDUPS {
        for (s, min) in speedups {
            out.push(speedup_target(run, g, s, other, min));
        }
        let s = "rustConsumesSameObject";
        out.push(ratio_target(run, g, s, other, 1.10, parity));
    }
    for (g, s, floor, max, want) in FLOORS {
        out.push(ratio_target(run, g, s, floor, max, want));
    }
    let (g, s) = ("floors (issue 12)", "rustConsumesSameObject");
    for mode in [Mode::None, Mode::Pointer, Mode::Rust] {
        out.push(mode_ratio_target(
            run,
            g,
            s,
            mode,
            Mode::Floor,
            1.3,
            "≤ 1.3",
        ));
        let want = "≤ 1 (never slower)";
        out.push(mode_ratio_target(
            run,
            g,
            s,
            mode,
            Mode::WasmBindgen,
            1.0,
            want,
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

/// What a target asks of `rust` mode against another.
#[derive(Clone, Copy)]
enum Want {
    /// Its time over the other's at most this (and how the report says it).
    AtMost(f64, &'static str),
    /// At least this many times faster.
    Faster(f64),
}

/// Issue 9: calling JS from Rust (mode-independent loops; read in `rust` mode).
pub fn calling_js(run: &Run) -> Vec<Target> {
    use Mode::{Floor, WasmBindgen as Wbg};
    use Want::{AtMost, Faster};
    let g = "calling JS (issue 9)";
    let no_slower = AtMost(1.0, "≤ 1 (no slower)");
    [
        (g, "callImport", Floor, AtMost(1.5, "≤ 1.5")),
        (g, "callImport", Wbg, no_slower),
        // Issue 21: a method of an imported JS class.
        (g, "callJsMethod", Wbg, AtMost(1.2, "≤ 1.2")),
        (g, "callCallback", Wbg, Faster(2.0)),
        (g, "lentClosure", Wbg, Faster(2.0)),
        // Issue 22: async.
        ("async (issue 22)", "asyncReturn", Wbg, Faster(2.0)),
        ("async (issue 22)", "awaitJs", Wbg, Faster(2.0)),
        (g, "jsValueRoundtrip", Wbg, no_slower),
        // JS calling a Rust closure (the issue sets no number; its ratio to the floor is in
        // the tables: the closure's `dyn Fn` dispatch, a wasm `call_indirect`, alone costs
        // more than half a bare call).
        (g, "callClosure", Wbg, no_slower),
        // Issue 21: a `pub` field read as a property.
        ("fields (issue 21)", "fieldRead", Wbg, AtMost(1.1, "≤ 1.1")),
    ]
    .into_iter()
    .map(|(g, s, other, want)| match want {
        AtMost(max, label) => ratio_target(run, g, s, other, max, label),
        Faster(min) => speedup_target(run, g, s, other, min),
    })
    .collect()
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
