//! Issue 23's targets: a `&[u8]` view read like wasm-bindgen's `memory.buffer` view, a
//! `&mut [f64]` written back as fast as wasm-bindgen's, a tuple returned near the call
//! floor, and a `Map` returned faster than serde-wasm-bindgen's.

use super::super::model::{Mode, Run};
use super::target::{Target, ratio_target, speedup_target};

pub const VIEW_READ: &str = "viewRead";
pub const MUT_SLICE: &str = "mutSlice";
pub const TUPLE_RETURN: &str = "tupleReturn";
pub const MAP_RETURN: &str = "mapReturn";

pub fn targets(run: &Run) -> Vec<Target> {
    let g = "buffers (issue 23)";
    vec![
        ratio_target(run, g, VIEW_READ, Mode::WasmBindgen, 1.05, "≤ 1.05"),
        ratio_target(run, g, MUT_SLICE, Mode::WasmBindgen, 1.1, "≤ 1.1"),
        ratio_target(run, g, TUPLE_RETURN, Mode::Floor, 3.0, "≤ 3"),
        speedup_target(run, g, MAP_RETURN, Mode::WasmBindgen, 3.0),
    ]
}
