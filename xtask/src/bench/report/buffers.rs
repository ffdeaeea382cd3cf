//! Issue 23's targets: a `&[u8]` view read like wasm-bindgen's `memory.buffer` view, and
//! a `&mut [f64]` written back as fast as wasm-bindgen's.

use super::super::model::{Mode, Run};
use super::target::{Target, ratio_target};

pub const VIEW_READ: &str = "viewRead";
pub const MUT_SLICE: &str = "mutSlice";

pub fn targets(run: &Run) -> Vec<Target> {
    let g = "buffers (issue 23)";
    vec![
        ratio_target(run, g, VIEW_READ, Mode::WasmBindgen, 1.05, "≤ 1.05"),
        ratio_target(run, g, MUT_SLICE, Mode::WasmBindgen, 1.1, "≤ 1.1"),
    ]
}
