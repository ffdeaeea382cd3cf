//! The size table (issue 12): gzip'd glue by class count, and the whole 1-class package
//! against wasm-bindgen's.

use super::super::model::{Optimized, PackageSize, SizeReport};
use super::format::{fmt_bytes, table};
use super::target::Target;

fn total_gz(p: &PackageSize) -> u64 {
    p.js_gz + p.wasm_gz
}

/// Gzip'd glue bytes each class adds, from the fewest to the most classes measured.
pub fn per_extra_class(size: &SizeReport) -> Option<f64> {
    let (n0, p0) = size.bridge.first()?;
    let (n1, p1) = size.bridge.last()?;
    (n1 > n0).then(|| (p1.js_gz as f64 - p0.js_gz as f64) / (n1 - n0) as f64)
}

/// The size section of the report on stdout.
pub fn text(size: &SizeReport) -> String {
    format!("\nSize (gzip'd, `--target web`):\n\n{}", size_table(size))
}

/// The size section of `docs/benchmarks.md`.
pub fn doc(size: &SizeReport) -> String {
    format!(
        "\n## Size\n\nIssue 12: generated crates with 1, 10 and 100 copies of the \
         bench class (constructor, `make`, `roundtrip`, `consume`, a getter; identity \
         mode `rust`), `cargo bridge build --release --target web`; and the 1-class \
         crate as a wasm-bindgen user writes it (`wasm-bindgen --target web`). gzip \
         level 9. No `wasm-opt` on either side in the first table; the second runs \
         `wasm-opt -O` on both 1-class modules.\n\n{}",
        size_table(size)
    )
}

fn size_table(size: &SizeReport) -> String {
    let header: Vec<String> = [
        "package",
        "classes",
        ".js",
        ".js gzip",
        ".wasm",
        ".wasm gzip",
        "gzip total",
    ]
    .map(String::from)
    .to_vec();
    let row = |name: &str, n: usize, p: &PackageSize| {
        vec![
            name.to_string(),
            n.to_string(),
            fmt_bytes(p.js as f64),
            fmt_bytes(p.js_gz as f64),
            fmt_bytes(p.wasm as f64),
            fmt_bytes(p.wasm_gz as f64),
            fmt_bytes(total_gz(p) as f64),
        ]
    };
    let mut rows: Vec<Vec<String>> = size
        .bridge
        .iter()
        .map(|(n, p)| row("cargo-bridge", *n, p))
        .collect();
    if let Some(p) = &size.peer {
        rows.push(row("wasm-bindgen", 1, p));
    }
    let mut out = table(&header, &rows, 1);
    if let Some(per) = per_extra_class(size) {
        out += &format!(
            "\nEach extra class adds {} of gzip'd glue.\n",
            fmt_bytes(per)
        );
    }
    if let Some(opt) = &size.optimized {
        out += &opt_table(opt);
    }
    out
}

/// The 1-class packages before and after `wasm-opt -O`.
fn opt_table(opt: &Optimized) -> String {
    let header: Vec<String> = [
        "package (1 class)",
        ".wasm before",
        ".wasm after",
        ".wasm gzip before",
        ".wasm gzip after",
        "gzip total before",
        "gzip total after",
    ]
    .map(String::from)
    .to_vec();
    let rows: Vec<Vec<String>> = opt
        .packages
        .iter()
        .map(|(name, before, after)| {
            vec![
                name.to_string(),
                fmt_bytes(before.wasm as f64),
                fmt_bytes(after.wasm as f64),
                fmt_bytes(before.wasm_gz as f64),
                fmt_bytes(after.wasm_gz as f64),
                fmt_bytes(total_gz(before) as f64),
                fmt_bytes(total_gz(after) as f64),
            ]
        })
        .collect();
    format!(
        "\nAfter `wasm-opt -O` ({}; `cargo bridge build --release` runs it by default, \
         wasm-pack does for wasm-bindgen):\n\n{}",
        opt.version,
        table(&header, &rows, 1)
    )
}

/// Whole 1-class package after wasm-opt, gzip'd: (cargo-bridge, wasm-bindgen).
fn optimized_pair(size: &SizeReport) -> Option<(u64, u64)> {
    let opt = size.optimized.as_ref()?;
    let after = |who: &str| {
        opt.packages
            .iter()
            .find(|(n, _, _)| *n == who)
            .map(|(_, _, a)| total_gz(a))
    };
    Some((after("cargo-bridge")?, after("wasm-bindgen")?))
}

pub fn targets(size: &SizeReport) -> Vec<Target> {
    let g = "size (issue 12)";
    let per = per_extra_class(size);
    let one = size
        .bridge
        .iter()
        .find(|(n, _)| *n == 1)
        .map(|(_, p)| total_gz(p));
    let peer = size.peer.as_ref().map(total_gz);
    let whole = match (one, peer) {
        (Some(b), Some(p)) if p > 0 => Some((b, p)),
        _ => None,
    };
    vec![
        Target {
            group: g,
            what: "gzip'd glue per extra class".into(),
            want: "≤ 1 KiB".into(),
            got: per.map(|b| format!("{b:.0} B")),
            pass: per.map(|b| b <= 1024.0),
        },
        Target {
            group: g,
            what: "whole 1-class package (gzip'd .js + .wasm): cargo-bridge / wasm-bindgen".into(),
            want: "≤ 1 (no larger)".into(),
            got: whole.map(|(b, p)| format!("{b} B / {p} B = {:.2}", b as f64 / p as f64)),
            pass: whole.map(|(b, p)| b <= p),
        },
        Target {
            group: g,
            what: "whole 1-class package after wasm-opt -O: cargo-bridge / wasm-bindgen".into(),
            want: "≤ 1 (no larger)".into(),
            got: optimized_pair(size)
                .map(|(b, p)| format!("{b} B / {p} B = {:.2}", b as f64 / p as f64)),
            pass: optimized_pair(size).map(|(b, p)| b <= p),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(js_gz: u64, wasm_gz: u64) -> PackageSize {
        PackageSize {
            js: js_gz * 4,
            js_gz,
            wasm: wasm_gz * 2,
            wasm_gz,
        }
    }

    #[test]
    fn per_class_bytes_come_from_the_first_and_last_rows_and_targets_judge_them() {
        let size = SizeReport {
            bridge: vec![
                (1, p(5000, 9000)),
                (10, p(8600, 9500)),
                (100, p(104_000, 20_000)),
            ],
            peer: Some(p(4000, 9000)),
            optimized: None,
        };
        assert_eq!(per_extra_class(&size), Some(1000.0));
        let t = targets(&size);
        assert_eq!(t[0].pass, Some(true));
        assert_eq!(t[1].pass, Some(false), "14000 B > 13000 B");
        let table = size_table(&size);
        assert!(table.contains("| wasm-bindgen |"), "{table}");
        assert!(table.contains("Each extra class adds 1000 B"), "{table}");
    }

    #[test]
    fn one_row_gives_no_per_class_figure() {
        let size = SizeReport {
            bridge: vec![(1, p(5000, 9000))],
            peer: None,
            optimized: None,
        };
        assert_eq!(per_extra_class(&size), None);
        assert_eq!(targets(&size)[1].pass, None);
    }

    #[test]
    fn the_wasm_opt_rows_show_before_and_after_and_are_judged() {
        let size = SizeReport {
            bridge: vec![(1, p(5000, 9000))],
            peer: Some(p(4000, 9000)),
            optimized: Some(Optimized {
                version: "wasm-opt version 108".into(),
                packages: vec![
                    ("cargo-bridge", p(5000, 9000), p(5000, 6000)),
                    ("wasm-bindgen", p(4000, 9000), p(4000, 8000)),
                ],
            }),
        };
        let table = size_table(&size);
        assert!(
            table.contains("After `wasm-opt -O` (wasm-opt version 108"),
            "{table}"
        );
        assert!(table.contains("| cargo-bridge "), "{table}");
        let t = targets(&size);
        assert_eq!(t[2].pass, Some(true), "11000 B <= 12000 B");
        assert_eq!(t[2].got.as_deref(), Some("11000 B / 12000 B = 0.92"));
    }
}
