//! `cargo xtask test-types`: every fixture's generated `.d.ts` compiles under
//! `tsc --strict --noEmit` with `skipLibCheck: false`, for `"lib": ["es2020", "dom"]` and
//! `["esnext"]`, through the fixture's `tests/usage.mts`, which uses the whole API and has
//! `@ts-expect-error` lines for misuse (an unused one is an error, so they are checked too).

use crate::fixtures::{FIXTURES, build_fixture, install_cargo_bridge, project_root};
use crate::js_tools;
use crate::side_by_side;
use anyhow::{Context, Result, bail};
use serde_json::json;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::{Command, Output};
use xshell::Shell;

const USAGE: &str = "tests/usage.mts";
const LIBS: &[(&str, &[&str])] = &[("es2020-dom", &["es2020", "dom"]), ("esnext", &["esnext"])];

pub fn test_types(sh: &Shell, filter: Option<&str>) -> Result<()> {
    let js = js_tools::npm_packages(sh)?;
    let tsc = js.join("node_modules/.bin/tsc");
    let bridge = install_cargo_bridge(sh)?;
    let root = project_root();
    // Build every fixture: the names all packages export (the runtime API) are found
    // by comparing them, and are checked in kitchen-sink's usage.
    let mut exports = Vec::new();
    for f in FIXTURES {
        build_fixture(sh, &bridge, &root.join(f.manifest), Some(f.package), false)?;
        let dts = root
            .join(f.dir)
            .join("pkg")
            .join(format!("{}.d.ts", lib_name(f.package)));
        let text =
            std::fs::read_to_string(&dts).with_context(|| format!("reading {}", dts.display()))?;
        exports.push(exported_names(&text));
    }
    let runtime: BTreeSet<String> = exports
        .iter()
        .skip(1)
        .fold(exports[0].clone(), |all, e| &all & e);

    let scratch = root.join("target/ts-check");
    // (tsconfig, what failing it means): checked side by side once all are written.
    let mut checks: Vec<(PathBuf, String)> = Vec::new();
    for (f, names) in FIXTURES.iter().zip(&exports) {
        if filter.is_some_and(|filter| !f.package.contains(filter)) {
            continue;
        }
        let usage = root.join(f.dir).join(USAGE);
        if !usage.is_file() {
            bail!(
                "{} is missing: every fixture has a usage file that calls its whole API \
                 (see fixtures/kitchen-sink/{USAGE})",
                usage.display()
            );
        }
        let text = std::fs::read_to_string(&usage)?;
        let required = names
            .iter()
            .filter(|n| f.package == "kitchen-sink" || !is_runtime(&runtime, n));
        let missing: Vec<&String> = required.filter(|n| !mentions(&text, n)).collect();
        if !missing.is_empty() {
            bail!(
                "{} does not use {} of the package's exports: {}; add lines that call them \
                 (and @ts-expect-error lines for their misuse)",
                usage.display(),
                missing.len(),
                missing
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        for (lib_label, lib) in LIBS {
            let dir = scratch.join(format!("{}-{lib_label}", f.package));
            std::fs::create_dir_all(&dir)?;
            let config = json!({
                "compilerOptions": {
                    "strict": true,
                    "noEmit": true,
                    "skipLibCheck": false,
                    "lib": lib,
                    "target": "es2020",
                    "module": "nodenext",
                    "moduleResolution": "nodenext",
                    "types": [],
                },
                "files": [usage.display().to_string()],
            });
            let tsconfig = dir.join("tsconfig.json");
            std::fs::write(&tsconfig, serde_json::to_string_pretty(&config)?)?;
            let meaning = format!(
                "tsc --strict with \"lib\": {lib:?} rejected {} or the .d.ts it imports",
                usage.display()
            );
            checks.push((tsconfig, meaning));
        }
    }
    if checks.is_empty() {
        bail!("no fixture matched the filter");
    }
    let outputs = run_side_by_side(&tsc, &checks);
    let mut failed = Vec::new();
    for ((tsconfig, meaning), output) in checks.iter().zip(outputs) {
        let output = output
            .with_context(|| format!("running {} -p {}", tsc.display(), tsconfig.display()))?;
        if !output.status.success() {
            // tsc reports its errors on stdout.
            print!("{}", String::from_utf8_lossy(&output.stdout));
            eprint!("{}", String::from_utf8_lossy(&output.stderr));
            failed.push(meaning.as_str());
        }
    }
    if !failed.is_empty() {
        bail!("{}", failed.join("\n"));
    }
    println!(
        "types: {} passed, 0 failed (tsc --strict: fixtures × libs)",
        checks.len()
    );
    Ok(())
}

/// `tsc -p` of each tsconfig, one process per core at a time (each is mostly one core's
/// work for a second or two); the outputs in the checks' order.
fn run_side_by_side(tsc: &PathBuf, checks: &[(PathBuf, String)]) -> Vec<std::io::Result<Output>> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    side_by_side::map(checks, workers, |(tsconfig, _)| {
        Command::new(tsc).arg("-p").arg(tsconfig).output()
    })
}

/// The runtime API: what every package exports, and the `__bridge*` diagnostics some
/// packages add; checked in kitchen-sink's usage only.
fn is_runtime(everywhere: &BTreeSet<String>, name: &str) -> bool {
    everywhere.contains(name) || name.starts_with("__bridge")
}

/// `kitchen-sink` → `kitchen_sink` (the fixtures' lib targets use the package name).
fn lib_name(package: &str) -> String {
    package.replace('-', "_")
}

/// Names a `.d.ts` exports: `export class|function|interface|type|const|enum NAME`, and
/// `export { Local$class as NAME };` (names the declarations cannot declare as themselves).
fn exported_names(dts: &str) -> BTreeSet<String> {
    dts.lines()
        .filter_map(|line| {
            if let Some(alias) = line.strip_prefix("export { ")
                && let Some((_, name)) = alias.strip_suffix(" };")?.split_once(" as ")
            {
                return Some(name.to_string());
            }
            let rest = line.strip_prefix("export ")?;
            let rest = rest.strip_prefix("declare ").unwrap_or(rest);
            let (kind, rest) = rest.split_once(' ')?;
            if !["class", "function", "interface", "type", "const", "enum"].contains(&kind) {
                return None;
            }
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

/// Whether `text` has `name` as a whole identifier.
fn mentions(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_exported_names() {
        let names = exported_names(
            "export class Book {\nexport interface Book extends X {}\nexport function withPool<T>(f: () => T): T;\n\
             type Private = 1;\nexport {};\n  export function nested(): void;\n\
             export { delete$class as delete };\n",
        );
        assert_eq!(
            names.into_iter().collect::<Vec<_>>(),
            ["Book", "delete", "withPool"]
        );
    }

    #[test]
    fn mentions_whole_identifiers_only() {
        assert!(mentions("k.echoI8(1)", "echoI8"));
        assert!(!mentions("k.echoI16(1)", "echoI1"));
        assert!(!mentions("myBook", "Book"));
        assert!(mentions("new Book()", "Book"));
    }
}
