//! After a crate's run: the test functions its source declares (`scan.rs`) that did not
//! run, each with why (compiled out by a `#[cfg]`, in an integration test, only for
//! another host), printed under the report; and when none of its wasm tests ran at all,
//! an error instead of libtest's `ok` over nothing.

use super::host::RunResult;
use super::scan::{Declared, Kind};
use anyhow::{Result, bail};

/// What the runs of one crate's test modules held and did.
#[derive(Default, Debug)]
pub struct Outcome {
    pub ran: usize,
    pub compiled: Vec<String>,
    pub ignored: usize,
    pub filtered_out: usize,
    /// Tests a module held that this host does not run: (how many, why).
    pub skipped: Vec<(usize, String)>,
    /// All its integration tests (`tests/*.rs`) were built and run.
    pub integration_built: bool,
    /// Those of its integration test files that were (relative to the crate).
    pub integration_files: Vec<std::path::PathBuf>,
}

impl Outcome {
    pub fn add(&mut self, result: RunResult) {
        self.ran += result.ran.len();
        self.compiled.extend(result.compiled);
        self.ignored += result.ignored;
        self.filtered_out += result.filtered_out;
    }
}

/// `lib_name`: the crate's library name, which starts a `#[bridge::test]`'s path.
pub fn report(
    crate_name: &str,
    lib_name: &str,
    declared: &[Declared],
    result: &Outcome,
) -> Result<()> {
    let lines = not_run_lines(lib_name, declared, result);
    let native = declared.iter().filter(|d| d.kind == Kind::Native).count();
    if !lines.is_empty() {
        let count: usize = lines.iter().map(|(n, _)| n).sum();
        println!(
            "note: {count} test function{} of `{crate_name}` did not run:",
            plural(count)
        );
        for (_, line) in &lines {
            println!("    {line}");
        }
    }
    if native > 0 {
        println!(
            "note: {native} #[test] function{} of `{crate_name}` {} natively (`cargo test`), \
             not in wasm",
            plural(native),
            if native == 1 { "runs" } else { "run" }
        );
    }
    if !lines.is_empty() || native > 0 {
        println!();
    }
    let wasm_declared = declared.iter().any(|d| d.kind != Kind::Native);
    let chose_none = result.filtered_out > 0 || result.ignored > 0;
    if result.ran == 0 && (wasm_declared || !result.skipped.is_empty()) && !chose_none {
        bail!(
            "`{crate_name}` has test functions, and none of them ran (see the note above): \
             a run over nothing is not a pass"
        );
    }
    Ok(())
}

/// (how many, the line saying which and why) for each group of tests that did not run.
fn not_run_lines(lib_name: &str, declared: &[Declared], result: &Outcome) -> Vec<(usize, String)> {
    let mut lines: Vec<(usize, String)> = result
        .skipped
        .iter()
        .map(|(n, why)| (*n, format!("{n} #[wasm_bindgen_test]{}: {why}", plural(*n))))
        .collect();
    // The build's tests by path inside the crate (a #[bridge::test]'s starts with the
    // crate, a #[wasm_bindgen_test]'s does not); each declared test takes one.
    let prefix = format!("{lib_name}::");
    let mut compiled: Vec<&str> = result
        .compiled
        .iter()
        .map(|name| name.strip_prefix(&prefix).unwrap_or(name))
        .collect();
    let mut take = |path: &str| {
        let exact = compiled.iter().position(|c| *c == path);
        let last = path.rsplit("::").next().unwrap_or(path);
        let by_name = || {
            compiled
                .iter()
                .position(|c| c.rsplit("::").next() == Some(last))
        };
        match exact.or_else(by_name) {
            Some(i) => {
                compiled.swap_remove(i);
                true
            }
            None => false,
        }
    };
    for test in declared.iter().filter(|d| d.kind != Kind::Native) {
        let built = result.integration_built || result.integration_files.contains(&test.file);
        if test.integration && !built {
            lines.push((
                1,
                format!(
                    "{} ({}, {}): in an integration test without #[bridge::test]s, which cargo \
                     bridge test does not build for a crate depending on bridge-runtime: add \
                     one, or move the test into a #[cfg(test)] module under src/",
                    test.path,
                    test.file.display(),
                    test.kind.attribute()
                ),
            ));
        } else if !take(&test.path) {
            lines.push((
                1,
                format!(
                    "{} ({}, {}): not in the test build: a #[cfg] compiled it out (or its file \
                     is not a module of the crate)",
                    test.path,
                    test.file.display(),
                    test.kind.attribute()
                ),
            ));
        }
    }
    lines
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn decl(kind: Kind, path: &str, integration: bool) -> Declared {
        Declared {
            kind,
            path: path.into(),
            file: PathBuf::from(if integration {
                "tests/t.rs"
            } else {
                "src/lib.rs"
            }),
            integration,
        }
    }

    fn result(compiled: &[&str], ran: usize) -> Outcome {
        Outcome {
            ran,
            compiled: compiled.iter().map(|s| s.to_string()).collect(),
            ..Outcome::default()
        }
    }

    #[test]
    fn declared_tests_missing_from_the_build_are_named_with_why() {
        let declared = [
            decl(Kind::Bridge, "tests::runs", false),
            decl(Kind::Bridge, "tests::gated", false),
            decl(Kind::WasmBindgen, "web::also_runs", false),
            decl(Kind::WasmBindgen, "elsewhere", true),
            decl(Kind::Native, "tests::native", false),
        ];
        let run = result(&["krate::tests::runs", "web::also_runs"], 2);
        let lines = not_run_lines("krate", &declared, &run);
        let text: Vec<&str> = lines.iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(lines.len(), 2, "{text:#?}");
        assert!(
            text[0]
                .starts_with("tests::gated (src/lib.rs, #[bridge::test]): not in the test build")
        );
        assert!(
            text[1].starts_with(
                "elsewhere (tests/t.rs, #[wasm_bindgen_test]): in an integration test"
            )
        );
    }

    #[test]
    fn nothing_run_over_declared_tests_is_an_error_unless_a_filter_chose_it() {
        let declared = [decl(Kind::Bridge, "tests::gated", false)];
        let err = report("c", "c", &declared, &result(&[], 0)).unwrap_err();
        assert!(err.to_string().contains("none of them ran"), "{err}");
        let mut filtered = result(&["c::tests::gated"], 0);
        filtered.filtered_out = 1;
        report("c", "c", &declared, &filtered).unwrap();
        // Tests only for another host: skipped, and nothing ran.
        let mut skipped = result(&[], 0);
        skipped.skipped = vec![(2, "browser only".into())];
        let err = report("c", "c", &[], &skipped).unwrap_err();
        assert!(err.to_string().contains("none of them ran"), "{err}");
        // Integration tests that were built and ran are not reported.
        let mut built = result(&["web_test"], 1);
        built.integration_built = true;
        let integration = [decl(Kind::WasmBindgen, "web_test", true)];
        assert!(not_run_lines("c", &integration, &built).is_empty());
        // No tests declared at all: libtest's ok over 0.
        report("c", "c", &[], &result(&[], 0)).unwrap();
    }
}
