//! Issue 8's targets: records against wasm-bindgen (+ serde-wasm-bindgen), and what a
//! `Result::Ok` costs over a plain return.

use super::target::{Target, speedup_target};
use crate::model::{Mode, Run};

pub const RECORD_ROUNDTRIP: &str = "recordRoundtrip";
pub const RECORD_VEC: &str = "recordVec_100";
pub const RESULT_OK: &str = "resultOkConsume";
/// The same call returning `i32` instead of `Result<i32, _>`.
pub const PLAIN: &str = "rustConsumesSameObject";

pub fn targets(run: &Run) -> Vec<Target> {
    let g = "data (issue 8)";
    let mut out = vec![
        speedup_target(run, g, RECORD_ROUNDTRIP, Mode::WasmBindgen, 3.0),
        speedup_target(run, g, RECORD_VEC, Mode::WasmBindgen, 10.0),
    ];
    for mode in [Mode::None, Mode::Pointer, Mode::Rust] {
        let got = match (run.median(RESULT_OK, mode), run.median(PLAIN, mode)) {
            (Some(ok), Some(plain)) if plain > 0.0 => Some(ok / plain),
            _ => None,
        };
        out.push(Target {
            group: g,
            what: format!("{RESULT_OK} / {PLAIN}: {}", mode.name()),
            want: "≤ 1.15".into(),
            got: got.map(|x| format!("{x:.2}")),
            pass: got.map(|x| x <= 1.15),
        });
    }
    out
}
