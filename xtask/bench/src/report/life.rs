//! The Game of Life workload's own table (issue 23): ms per frame (`tick()` in Rust, then
//! every cell drawn through the view) at both grid sizes, per mode, against wasm-bindgen.
//! Its targets: rust no slower than wasm-bindgen at either size.

use super::format::{fmt_ms, fmt_ratio, table};
use super::target::{Target, ratio_target};
use crate::model::{Mode, Run};

/// One frame of the book's loop per iteration, at 256² and 1024² cells.
pub const LIFE_RENDER: [&str; 2] = ["lifeRender_256", "lifeRender_1024"];

pub fn targets(run: &Run) -> Vec<Target> {
    LIFE_RENDER
        .iter()
        .map(|s| {
            let want = "≤ 1.0 (no slower)";
            ratio_target(
                run,
                "Game of Life (issue 23)",
                s,
                Mode::WasmBindgen,
                1.0,
                want,
            )
        })
        .collect()
}

/// The workload's part of the report on stdout, or nothing when it did not run.
pub fn text(run: &Run) -> Option<String> {
    Some(format!("\nGame of Life:\n\n{}", table_of(run)?))
}

/// The workload's part of `docs/benchmarks.md`, or nothing when it did not run.
pub fn doc(run: &Run) -> Option<String> {
    Some(format!(
        "\n### Game of Life\n\nIssue 23's workload, the Game of Life of the Rust and WebAssembly book \
         (`lifeRender_256`, `lifeRender_1024` above): per frame one `tick()` in Rust, then \
         JS reads every cell through the `cells()` view and writes its colour into an RGBA \
         buffer the size of an `ImageData` (the book's `drawCells` without a canvas); both \
         packages run the same JS.\n\n{}",
        table_of(run)?
    ))
}

/// Per grid size and mode: ms per frame, the best run's, and rust / the mode.
fn table_of(run: &Run) -> Option<String> {
    let per_frame = |scenario: &str, mode: Mode, best: bool| {
        let r = run.find(scenario, mode)?;
        let s = &r.time.as_ref()?.summary;
        let ms = if best { s.min_ms } else { s.median_ms };
        Some((ms / r.iterations as f64, s.cv))
    };
    let ratio = |r: Option<(f64, f64)>, m: Option<(f64, f64)>| match (r, m) {
        (Some((r, _)), Some((m, _))) if m > 0.0 => fmt_ratio(r / m),
        _ => "—".into(),
    };
    let mut rows = Vec::new();
    for scenario in LIFE_RENDER {
        let cells = scenario.rsplit('_').next().unwrap_or("?");
        for mode in Mode::ALL.into_iter().filter(|m| !m.is_floor()) {
            let Some((median, cv)) = per_frame(scenario, mode, false) else {
                continue;
            };
            rows.push(vec![
                format!("{cells}²"),
                mode.name().to_string(),
                format!("{} ±{:.0}%", fmt_ms(median), cv * 100.0),
                per_frame(scenario, mode, true).map_or("—".into(), |(b, _)| fmt_ms(b)),
                ratio(
                    per_frame(scenario, Mode::Rust, false),
                    per_frame(scenario, mode, false),
                ),
                ratio(
                    per_frame(scenario, Mode::Rust, true),
                    per_frame(scenario, mode, true),
                ),
            ]);
        }
    }
    if rows.is_empty() {
        return None;
    }
    let header = [
        "cells",
        "mode",
        "ms per frame",
        "best ms",
        "rust / mode",
        "(best runs)",
    ]
    .map(String::from);
    Some(format!(
        "Per frame (one `tick()`, one full draw): median ms ± CV; best: the fastest kept \
         run:\n\n{}",
        table(&header, &rows, 2)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Record;
    use crate::scenarios::SCENARIOS;

    fn record(scenario: &str, mode: Mode, median_ms: f64) -> Record {
        Record::timed(scenario, mode, median_ms)
    }

    #[test]
    fn frames_are_per_iteration_and_the_ratio_is_rust_over_the_mode() {
        let [small, _] = LIFE_RENDER;
        let iterations = SCENARIOS
            .iter()
            .find(|s| s.name == small)
            .unwrap()
            .iterations as f64;
        let t = table_of(&Run::of_records(vec![
            record(small, Mode::Rust, 90.0),
            record(small, Mode::WasmBindgen, 100.0),
        ]))
        .unwrap();
        let row = |mode: &str| {
            let cell = format!("| {mode} ");
            t.lines()
                .find(|l| l.starts_with("| 256²") && l.contains(&cell))
        };
        let rust = row("rust").unwrap();
        assert!(rust.contains(&fmt_ms(90.0 / iterations)), "{t}");
        assert!(row("wasm-bindgen").unwrap().contains("0.90×"), "{t}");
        assert!(table_of(&Run::of_records(vec![])).is_none());
    }
}
