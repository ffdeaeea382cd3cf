//! Issue 23's targets: a `&[u8]` view read like wasm-bindgen's `memory.buffer` view, a
//! `&mut [f64]` written back as fast as wasm-bindgen's, a tuple returned near the call
//! floor, a `Map` returned faster than serde-wasm-bindgen's, and class handles pulled
//! through an iterator at close to a `Vec<Handle<C>>`'s cost per element.

use super::super::model::{Mode, Run};
use super::target::{Target, ratio_target, speedup_target};

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
/// 100 objects per iteration, so their medians compare per element.
fn per_element(run: &Run, group: &'static str, max: f64) -> Target {
    let got = match (
        run.median(ITERATE, Mode::Rust),
        run.median(VEC_OF_HANDLES, Mode::Rust),
    ) {
        (Some(i), Some(v)) if v > 0.0 => Some(i / v),
        _ => None,
    };
    Target {
        group,
        what: format!("{ITERATE} / {VEC_OF_HANDLES} (rust, per element)"),
        want: format!("≤ {max}"),
        got: got.map(|g| format!("{g:.2}")),
        pass: got.map(|g| g <= max),
    }
}
