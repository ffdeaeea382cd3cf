//! Issue 23's targets: a `&[u8]` view read like wasm-bindgen's `memory.buffer` view, a
//! `&mut [f64]` written back as fast as wasm-bindgen's, a tuple returned near the call
//! floor, a `Map` returned faster than serde-wasm-bindgen's, and class handles pulled
//! through an iterator at close to a `Vec<Handle<C>>`'s cost per element.

use super::target::{Target, ratio_target, speedup_target};
use crate::model::{Mode, Run};

pub const VIEW_READ: &str = "viewRead";
pub const MUT_SLICE: &str = "mutSlice";
pub const TUPLE_RETURN: &str = "tupleReturn";
pub const MAP_RETURN: &str = "mapReturn";
pub const ITERATE: &str = "iterate";
/// The `Vec<Handle<C>>` of the same 100 objects `iterate` pulls (100 crossings each too).
pub const VEC_OF_HANDLES: &str = "getPoolRepeated_100";

pub fn targets(run: &Run) -> Vec<Target> {
    let g = "buffers (issue 23)";
    vec![
        ratio_target(run, g, VIEW_READ, Mode::WasmBindgen, 1.05, "≤ 1.05"),
        ratio_target(run, g, MUT_SLICE, Mode::WasmBindgen, 1.1, "≤ 1.1"),
        ratio_target(run, g, TUPLE_RETURN, Mode::Floor, 3.0, "≤ 3"),
        speedup_target(run, g, MAP_RETURN, Mode::WasmBindgen, 3.0),
        per_element(run, g, 1.5),
    ]
}

/// `iterate` over `getPoolRepeated_100` in `rust` mode: both pull 100 handles of the same
/// 100 objects per iteration, so they compare per element. The verdict reads the two
/// timed in turn in one process (`Kind::Paired`, the median of the per-sample ratios)
/// when that ran; the ratio of the two rows' medians, timed in separate processes, is
/// shown beside it (and decides when the paired row did not run).
fn per_element(run: &Run, group: &'static str, max: f64) -> Target {
    let rows_apart = match (
        run.median(ITERATE, Mode::Rust),
        run.median(VEC_OF_HANDLES, Mode::Rust),
    ) {
        (Some(i), Some(v)) if v > 0.0 => Some(i / v),
        _ => None,
    };
    let paired = run
        .find(ITERATE, Mode::Rust)
        .and_then(|r| r.paired.as_ref())
        .map(|p| p.summary.median_ms);
    let (got, text) = match (paired, rows_apart) {
        (Some(p), Some(r)) => (Some(p), Some(format!("{p:.2} (rows apart {r:.2})"))),
        (Some(p), None) => (Some(p), Some(format!("{p:.2}"))),
        (None, r) => (r, r.map(|r| format!("{r:.2} (rows apart)"))),
    };
    Target {
        group,
        what: format!("{ITERATE} / {VEC_OF_HANDLES} (rust, per element, timed in turn)"),
        want: format!("≤ {max}"),
        got: text,
        pass: got.map(|g| g <= max),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Record, TimeResult};

    fn run(iterate_ms: f64, vec_ms: f64, paired: Option<f64>) -> Run {
        let mut iterate = Record::timed(ITERATE, Mode::Rust, iterate_ms);
        iterate.paired = paired.map(|r| TimeResult::of_median("ratio", r));
        Run::of_records(vec![
            iterate,
            Record::timed(VEC_OF_HANDLES, Mode::Rust, vec_ms),
        ])
    }

    #[test]
    fn the_paired_ratio_decides_and_the_rows_apart_stand_beside_it() {
        let t = per_element(&run(20.0, 10.0, Some(1.4)), "g", 1.5);
        assert_eq!(t.got.as_deref(), Some("1.40 (rows apart 2.00)"));
        assert_eq!(t.pass, Some(true));
        let t = per_element(&run(10.0, 10.0, Some(1.6)), "g", 1.5);
        assert_eq!(t.got.as_deref(), Some("1.60 (rows apart 1.00)"));
        assert_eq!(t.pass, Some(false));
    }

    #[test]
    fn without_the_paired_row_the_rows_apart_decide() {
        let t = per_element(&run(14.0, 10.0, None), "g", 1.5);
        assert_eq!(t.got.as_deref(), Some("1.40 (rows apart)"));
        assert_eq!(t.pass, Some(true));
        let t = per_element(&Run::of_records(vec![]), "g", 1.5);
        assert_eq!((t.got, t.pass), (None, None));
    }
}
