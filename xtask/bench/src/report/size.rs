//! The size table (issues 12 and 24): every generated package, cargo-bridge beside the
//! same crate in wasm-bindgen, gzip'd; the bytes each glue feature keeps; the targets.

use super::format::{fmt_bytes, fmt_ratio, table};
use super::target::Target;
use crate::model::{PackageSize, SizeCrate, SizeReport, SizeRow, Tool};
use crate::size::DEBUG_CHECKS;

fn total_gz(p: &PackageSize) -> u64 {
    p.js_gz + p.wasm_gz
}

/// A row's package as shipped: after wasm-opt when it ran.
fn shipped(r: &SizeRow) -> &PackageSize {
    r.opt.as_ref().unwrap_or(&r.raw)
}

fn crate_name(k: SizeCrate) -> String {
    match k {
        SizeCrate::Classes(1) => "1 class".into(),
        SizeCrate::Classes(n) => format!("{n} classes"),
        SizeCrate::Life => "Game of Life".into(),
        SizeCrate::Functions => "functions only".into(),
    }
}

/// Gzip'd glue bytes each class adds, from the fewest to the most classes measured.
pub fn per_extra_class(size: &SizeReport) -> Option<f64> {
    let classes: Vec<(usize, &SizeRow)> = size
        .rows
        .iter()
        .filter(|r| r.tool == Tool::Bridge)
        .filter_map(|r| match r.krate {
            SizeCrate::Classes(n) => Some((n, r)),
            SizeCrate::Life | SizeCrate::Functions => None,
        })
        .collect();
    let (n0, p0) = classes.first()?;
    let (n1, p1) = classes.last()?;
    (n1 > n0).then(|| (p1.raw.js_gz as f64 - p0.raw.js_gz as f64) / (n1 - n0) as f64)
}

/// Whole package as shipped, gzip'd: (cargo-bridge, wasm-bindgen).
fn pair(size: &SizeReport, krate: SizeCrate) -> Option<(u64, u64)> {
    let b = size.row(krate, Tool::Bridge)?;
    let p = size.row(krate, Tool::WasmBindgen)?;
    Some((total_gz(shipped(b)), total_gz(shipped(p)))).filter(|(_, p)| *p > 0)
}

/// Whole package as shipped, gzip'd: (cargo-bridge, wasm-bindgen with the panic hook).
fn hook_pair(size: &SizeReport, krate: SizeCrate) -> Option<(u64, u64)> {
    let b = size.row(krate, Tool::Bridge)?;
    let h = size.row(krate, Tool::WasmBindgenPanicHook)?;
    Some((total_gz(shipped(b)), total_gz(shipped(h)))).filter(|(_, h)| *h > 0)
}

/// cargo-bridge against wasm-bindgen with the same panic messages, where both were built.
fn against_panic_hook(size: &SizeReport) -> Option<String> {
    let ratios: Vec<String> = size
        .rows
        .iter()
        .filter(|r| r.tool == Tool::WasmBindgenPanicHook)
        .filter_map(|r| {
            let (b, h) = hook_pair(size, r.krate)?;
            Some(format!(
                "{} {}",
                crate_name(r.krate),
                fmt_ratio(b as f64 / h as f64)
            ))
        })
        .collect();
    (!ratios.is_empty()).then(|| {
        format!(
            "\nAgainst wasm-bindgen with the panic hook a user adds to see a panic's message \
             (what `console_error_panic_hook` installs; cargo-bridge's panic messages give \
             it): {}.\n",
            ratios.join(", ")
        )
    })
}

/// The size section of the report on stdout.
pub fn text(size: &SizeReport) -> String {
    format!("\nSize (gzip'd, `--target web`):\n\n{}", size_table(size))
}

/// The size section of `docs/benchmarks.md`.
pub fn doc(size: &SizeReport) -> String {
    format!(
        "\n## Size\n\nIssues 12 and 24: generated crates with 1, 10 and 100 copies of the \
         bench class (constructor, `make`, `roundtrip`, `consume`, a getter; identity \
         mode `rust`) and the Game of Life port (`new`, `tick`, the cells as a `&[u8]` \
         view; default identity mode), `cargo bridge build --release --target web`; and \
         the same crates as a wasm-bindgen user writes them (`wasm-bindgen --target web`; \
         the Life crate as the Rust and WebAssembly book does, cells as a pointer into \
         the exported memory); and two free functions (`add(i32, i32)`, `greet(String)`), \
         no class: what a package that uses no class ships. `wasm-bindgen + panic hook`: \
         the class-count and Life crates in wasm-bindgen with the hook a user adds to see a \
         panic's message (what `console_error_panic_hook` installs), the feature \
         cargo-bridge's panic messages give. gzip level 9. `.wasm` is after `wasm-opt -O` (both tools' \
         default), `no wasm-opt` as built.\n\n{}",
        size_table(size)
    )
}

fn size_table(size: &SizeReport) -> String {
    let header: Vec<String> = [
        "crate",
        "package",
        ".js",
        ".js gzip",
        ".wasm",
        ".wasm gzip",
        ".wasm gzip, no wasm-opt",
        "gzip total",
        "× wasm-bindgen",
    ]
    .map(String::from)
    .to_vec();
    let rows: Vec<Vec<String>> = size
        .rows
        .iter()
        .map(|r| {
            let p = shipped(r);
            let ratio = match (r.tool, pair(size, r.krate)) {
                (Tool::Bridge, Some((b, w))) => fmt_ratio(b as f64 / w as f64),
                _ => String::new(),
            };
            vec![
                crate_name(r.krate),
                r.tool.name().to_string(),
                fmt_bytes(p.js as f64),
                fmt_bytes(p.js_gz as f64),
                fmt_bytes(p.wasm as f64),
                fmt_bytes(p.wasm_gz as f64),
                fmt_bytes(r.raw.wasm_gz as f64),
                fmt_bytes(total_gz(p) as f64),
                ratio,
            ]
        })
        .collect();
    let mut out = table(&header, &rows, 2);
    match &size.wasm_opt {
        Some(v) => out += &format!("\n`.wasm` after `wasm-opt -O` ({v}).\n"),
        None => out += "\nwasm-opt is not installed: `.wasm` as built.\n",
    }
    if let Some(per) = per_extra_class(size) {
        out += &format!(
            "\nEach extra class adds {} of gzip'd glue.\n",
            fmt_bytes(per)
        );
    }
    out += &against_panic_hook(size).unwrap_or_default();
    out += &features_table(size);
    out += &module_features_table(size);
    out
}

/// A feature's name, its gzip'd bytes in one package (`None`: not measured there) and why
/// it stays.
type FeatureBytes = (&'static str, Option<u64>, &'static str);

/// One row per feature, one column per cargo-bridge package that measured any (each lists
/// the same features in the same order), then why the feature stays.
fn per_feature_table(
    size: &SizeReport,
    first_column: &str,
    features: fn(&SizeRow) -> Vec<FeatureBytes>,
) -> Option<String> {
    let bridge: Vec<(&SizeRow, Vec<FeatureBytes>)> = size
        .rows
        .iter()
        .filter(|r| r.tool == Tool::Bridge)
        .map(|r| (r, features(r)))
        .filter(|(_, f)| !f.is_empty())
        .collect();
    let (_, first) = bridge.first()?;
    let mut header = vec![first_column.to_string()];
    header.extend(bridge.iter().map(|(r, _)| crate_name(r.krate)));
    header.push("kept because".into());
    let rows: Vec<Vec<String>> = first
        .iter()
        .enumerate()
        .map(|(i, (name, _, why))| {
            let mut row = vec![name.to_string()];
            row.extend(bridge.iter().map(|(_, f)| match f[i].1 {
                Some(b) => fmt_bytes(b as f64),
                None => "—".into(),
            }));
            row.push(why.to_string());
            row
        })
        .collect();
    Some(table(&header, &rows, 1))
}

/// The module bytes each runtime feature keeps, measured by building without it.
fn module_features_table(size: &SizeReport) -> String {
    let Some(table) = per_feature_table(size, "module feature", |r| r.module_features.clone())
    else {
        return String::new();
    };
    format!(
        "\nWhat stays in the cargo-bridge module, gzip'd bytes by runtime feature (the \
         module after `wasm-opt -O` gzip'd, less the same package built without the \
         feature: without the runtime exports only it calls, or against a runtime copy \
         with the feature cut out; —: not rebuilt for this crate):\n\n{table}"
    )
}

/// The glue bytes each feature keeps in the cargo-bridge packages, and why they stay.
fn features_table(size: &SizeReport) -> String {
    let glue = |r: &SizeRow| {
        r.features
            .iter()
            .map(|&(n, b, w)| (n, Some(b), w))
            .collect()
    };
    let Some(table) = per_feature_table(size, "glue feature", glue) else {
        return String::new();
    };
    format!(
        "\nWhat stays in the cargo-bridge glue, gzip'd bytes by feature (the glue gzip'd, \
         less the glue without that feature's helpers gzip'd; 0 B: the package ships none \
         of them):\n\n{table}"
    )
}

/// The gzip'd glue bytes of `feature` in the cargo-bridge packages `which` picks: the
/// largest, with its crate, or `None` when none of them was measured.
fn feature_glue(
    size: &SizeReport,
    feature: &str,
    which: impl Fn(SizeCrate) -> bool,
) -> Option<(u64, String)> {
    size.rows
        .iter()
        .filter(|r| r.tool == Tool::Bridge && which(r.krate))
        .filter_map(|r| {
            let (_, bytes, _) = r.features.iter().find(|f| f.0 == feature)?;
            Some((*bytes, crate_name(r.krate)))
        })
        .max()
}

/// Issue 48: what a package does not use, it does not ship. A release package ships no
/// debug check; a package without classes, no release pool.
fn unused_feature_targets(size: &SizeReport) -> Vec<Target> {
    let zero = |what: String, got: Option<(u64, String)>| Target {
        group: "size (issue 48)",
        what,
        want: "0 B".into(),
        got: got.as_ref().map(|(b, c)| format!("{b} B ({c})")),
        pass: got.map(|(b, _)| b == 0),
    };
    vec![
        zero(
            "glue of debug checks in release packages (the largest)".into(),
            feature_glue(size, DEBUG_CHECKS, |_| true),
        ),
        zero(
            "glue of release pools in the package without classes".into(),
            feature_glue(size, "release pools", |k| k == SizeCrate::Functions),
        ),
    ]
}

pub fn targets(size: &SizeReport) -> Vec<Target> {
    let per = per_extra_class(size);
    let one = pair(size, SizeCrate::Classes(1));
    let got = |p: Option<(u64, u64)>| {
        p.map(|(b, w)| format!("{b} B / {w} B = {:.2}", b as f64 / w as f64))
    };
    vec![
        Target {
            group: "size (issue 12)",
            what: "gzip'd glue per extra class".into(),
            want: "≤ 1 KiB".into(),
            got: per.map(|b| format!("{b:.0} B")),
            pass: per.map(|b| b <= 1024.0),
        },
        Target {
            group: "size (issue 24)",
            what: "whole 1-class package after wasm-opt -O: cargo-bridge / wasm-bindgen".into(),
            want: "≤ 1.3".into(),
            got: got(one),
            pass: one.map(|(b, w)| b as f64 <= 1.3 * w as f64),
        },
    ]
    .into_iter()
    .chain(unused_feature_targets(size))
    .collect()
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

    fn row(krate: SizeCrate, tool: Tool, raw: PackageSize, opt: Option<PackageSize>) -> SizeRow {
        SizeRow {
            krate,
            tool,
            raw,
            opt,
            features: match tool {
                Tool::Bridge => vec![("release pools", 1400, "every wrapper joins a pool")],
                Tool::WasmBindgen | Tool::WasmBindgenPanicHook => Vec::new(),
            },
            module_features: match (tool, krate) {
                (Tool::Bridge, SizeCrate::Classes(1)) => {
                    vec![("panic messages", Some(1300), "a panic has its message")]
                }
                (Tool::Bridge, _) => vec![("panic messages", None, "a panic has its message")],
                (Tool::WasmBindgen | Tool::WasmBindgenPanicHook, _) => Vec::new(),
            },
        }
    }

    #[test]
    fn per_class_bytes_come_from_the_first_and_last_class_rows_and_targets_judge_them() {
        let size = SizeReport {
            rows: vec![
                row(SizeCrate::Classes(1), Tool::Bridge, p(5000, 9000), None),
                row(
                    SizeCrate::Classes(1),
                    Tool::WasmBindgen,
                    p(4000, 9000),
                    None,
                ),
                row(SizeCrate::Classes(10), Tool::Bridge, p(8600, 9500), None),
                row(
                    SizeCrate::Classes(100),
                    Tool::Bridge,
                    p(104_000, 20_000),
                    None,
                ),
                row(SizeCrate::Life, Tool::Bridge, p(900_000, 1), None),
            ],
            wasm_opt: None,
        };
        assert_eq!(per_extra_class(&size), Some(1000.0));
        let t = targets(&size);
        assert_eq!(t[0].pass, Some(true));
        assert_eq!(t[1].pass, Some(true), "14000 B <= 1.3 × 13000 B");
        let table = size_table(&size);
        assert!(table.contains("| wasm-bindgen |"), "{table}");
        assert!(table.contains("1.08×"), "{table}");
        assert!(table.contains("Each extra class adds 1000 B"), "{table}");
        assert!(table.contains("| release pools |"), "{table}");
        assert!(table.contains("every wrapper joins a pool |"), "{table}");
        assert!(table.contains("| panic messages | 1.3 KiB |"), "{table}");
        assert!(
            table.contains(" — |"),
            "not rebuilt for 10 classes: {table}"
        );
    }

    #[test]
    fn a_release_package_ships_no_debug_checks_and_one_without_classes_no_pools() {
        let with = |krate, pools, debug| SizeRow {
            features: vec![
                ("release pools", pools, "every wrapper joins a pool"),
                (DEBUG_CHECKS, debug, "debug builds only"),
            ],
            ..row(krate, Tool::Bridge, p(5000, 9000), None)
        };
        let size = |rows| SizeReport {
            rows,
            wasm_opt: None,
        };
        let judged = |size: &SizeReport| -> Vec<(Option<bool>, Option<String>)> {
            targets(size)
                .into_iter()
                .filter(|t| t.group == "size (issue 48)")
                .map(|t| (t.pass, t.got))
                .collect()
        };
        let good = size(vec![
            with(SizeCrate::Classes(1), 1400, 0),
            with(SizeCrate::Functions, 0, 0),
        ]);
        assert_eq!(
            judged(&good),
            [
                (Some(true), Some("0 B (functions only)".into())),
                (Some(true), Some("0 B (functions only)".into()))
            ]
        );
        let bad = size(vec![
            with(SizeCrate::Classes(1), 1400, 30),
            with(SizeCrate::Functions, 200, 0),
        ]);
        assert_eq!(
            judged(&bad),
            [
                (Some(false), Some("30 B (1 class)".into())),
                (Some(false), Some("200 B (functions only)".into()))
            ]
        );
        // Not measured: no verdict.
        let none = size(vec![with(SizeCrate::Classes(1), 1400, 0)]);
        assert_eq!(judged(&none)[1], (None, None));
        let table = size_table(&good);
        assert!(table.contains("| functions only |"), "{table}");
    }

    #[test]
    fn one_row_gives_no_per_class_figure_nor_ratio() {
        let size = SizeReport {
            rows: vec![row(
                SizeCrate::Classes(1),
                Tool::Bridge,
                p(5000, 9000),
                None,
            )],
            wasm_opt: None,
        };
        assert_eq!(per_extra_class(&size), None);
        assert_eq!(targets(&size)[1].pass, None);
    }

    #[test]
    fn the_panic_hook_peer_is_compared_beside_the_table_and_judges_no_target() {
        let hooked = |krate, total| row(krate, Tool::WasmBindgenPanicHook, p(total, 0), None);
        let size = SizeReport {
            rows: vec![
                row(SizeCrate::Classes(1), Tool::Bridge, p(5000, 6000), None),
                row(
                    SizeCrate::Classes(1),
                    Tool::WasmBindgen,
                    p(2000, 3000),
                    None,
                ),
                hooked(SizeCrate::Classes(1), 10_000),
                row(SizeCrate::Life, Tool::Bridge, p(4000, 7000), None),
                row(SizeCrate::Life, Tool::WasmBindgen, p(2000, 5000), None),
                hooked(SizeCrate::Life, 11_000),
            ],
            wasm_opt: None,
        };
        let table = size_table(&size);
        assert!(
            table.contains("console_error_panic_hook` installs; cargo-bridge's panic messages give it): 1 class 1.10×, Game of Life 1.00×."),
            "{table}"
        );
        assert!(table.contains("| wasm-bindgen + panic hook |"), "{table}");
        // The goals stay against plain wasm-bindgen.
        let t = targets(&size);
        assert_eq!(t[1].got.as_deref(), Some("11000 B / 5000 B = 2.20"));
        // No hook row, no line.
        let plain = SizeReport {
            rows: size.rows[..2].to_vec(),
            wasm_opt: None,
        };
        assert!(!size_table(&plain).contains("panic hook"));
    }

    #[test]
    fn the_shipped_package_is_the_one_after_wasm_opt() {
        let size = SizeReport {
            rows: vec![
                row(
                    SizeCrate::Classes(1),
                    Tool::Bridge,
                    p(5000, 9000),
                    Some(p(5000, 6000)),
                ),
                row(
                    SizeCrate::Classes(1),
                    Tool::WasmBindgen,
                    p(4000, 9000),
                    Some(p(4000, 5000)),
                ),
            ],
            wasm_opt: Some("wasm-opt version 108".into()),
        };
        let table = size_table(&size);
        assert!(
            table.contains("after `wasm-opt -O` (wasm-opt version 108)"),
            "{table}"
        );
        let t = targets(&size);
        assert_eq!(t[1].got.as_deref(), Some("11000 B / 9000 B = 1.22"));
        assert_eq!(t[1].pass, Some(true));
    }
}
