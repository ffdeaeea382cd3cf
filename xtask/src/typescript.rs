//! `cargo xtask test-types`: every fixture's generated `.d.ts` compiles under
//! `tsc --strict --noEmit` with `skipLibCheck: false`, for `"lib": ["es2020", "dom"]` and
//! `["esnext"]`, through the fixture's `tests/usage.mts`, which uses the whole API and has
//! `@ts-expect-error` lines for misuse (an unused one is an error, so they are checked too).
//! Each bridge package's `<lib>_bg.wasm.d.ts` is checked too, imported as a bundler project
//! imports the `.wasm`.
//!
//! Every fixture's `tests/usage.mts` must mention each export of its package. tsc checks them
//! in one program per lib (the libs' own `.d.ts` files checked once), but a fixture whose
//! usage file or package may add globals (`declare global`, a script `.d.ts`) gets programs of
//! its own, so no usage file sees another's names.

use crate::fixtures::{
    CargoBridge, FIXTURES, PLAIN_WASM_BINDGEN, build_fixture, install_cargo_bridge, project_root,
};
use crate::js_tools;
use crate::side_by_side;
use anyhow::{Context, Result, bail};
use serde_json::json;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use xshell::Shell;

const USAGE: &str = "tests/usage.mts";
const LIBS: &[(&str, &[&str])] = &[("es2020-dom", &["es2020", "dom"]), ("esnext", &["esnext"])];

pub fn test_types(sh: &Shell, filter: Option<&str>) -> Result<()> {
    let js = js_tools::npm_packages(sh)?;
    let tsc = js.join("node_modules/.bin/tsc");
    let bridge = install_cargo_bridge(sh)?;
    let root = project_root();
    let exports = build_fixtures(sh, &bridge, &root)?;
    let usages = usage_files(&root, filter, &exports)?;
    let groups = usages.groups();
    let scratch = root.join("target/ts-check");
    let mut checks = write_programs(&scratch, &groups, usages.plain.len())?;
    checks.extend(module_exports_checks(&root, &scratch, filter)?);
    if checks.is_empty() {
        bail!("no fixture matched the filter");
    }
    run_checks(&tsc, &root, &checks)?;
    let fixtures: usize = groups.iter().map(|(_, members)| members.len()).sum();
    println!(
        "types: {} passed, 0 failed (tsc --strict: {fixtures} fixtures × {} libs, in {} programs)",
        fixtures * LIBS.len(),
        LIBS.len(),
        checks.len()
    );
    Ok(())
}

/// Build every fixture and read the names its `.d.ts` exports (in [`FIXTURES`]' order):
/// the names all packages export (the runtime API) are found by comparing them, and are
/// checked in kitchen-sink's usage.
fn build_fixtures(sh: &Shell, bridge: &CargoBridge, root: &Path) -> Result<Vec<BTreeSet<String>>> {
    let mut exports = Vec::new();
    for f in FIXTURES {
        build_fixture(sh, bridge, &root.join(f.manifest), Some(f.package), false)?;
        let dts = root
            .join(f.dir)
            .join("pkg")
            .join(format!("{}.d.ts", lib_name(f.package)));
        let text =
            std::fs::read_to_string(&dts).with_context(|| format!("reading {}", dts.display()))?;
        exports.push(exported_names(&text));
    }
    Ok(exports)
}

/// The runtime API: what every package WITH the pool API exports (one whose crate has
/// nothing a pool releases, no class, closure or iterator: js-missing, ships none of it).
fn runtime_names(exports: &[BTreeSet<String>]) -> BTreeSet<String> {
    let mut bridge_exports = FIXTURES
        .iter()
        .zip(exports)
        .filter(|(f, names)| !PLAIN_WASM_BINDGEN.contains(&f.package) && names.contains("__bridge"))
        .map(|(_, names)| names);
    let first = bridge_exports.next().cloned().unwrap_or_default();
    bridge_exports.fold(first, |all, e| &all & e)
}

/// Every usage file (fixture, path), by whether it may share a program with the others.
struct Usages {
    shared: Vec<(&'static str, PathBuf)>,
    /// Its usage or package declares globals.
    alone: Vec<(&'static str, PathBuf)>,
    /// wasm-bindgen's own .d.ts declares `[Symbol.dispose]()`, which only lib esnext (or
    /// es2022 with esnext.disposable) has: checked under that lib alone.
    plain: Vec<(&'static str, PathBuf)>,
}

/// The usage files of the fixtures `filter` selects, each checked to mention every export
/// of its package (but the runtime API's, outside kitchen-sink).
fn usage_files(root: &Path, filter: Option<&str>, exports: &[BTreeSet<String>]) -> Result<Usages> {
    let runtime = runtime_names(exports);
    let mut usages = Usages {
        shared: Vec::new(),
        alone: Vec::new(),
        plain: Vec::new(),
    };
    for (f, names) in FIXTURES.iter().zip(exports) {
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
        let pkg = root.join(f.dir).join("pkg");
        if PLAIN_WASM_BINDGEN.contains(&f.package) {
            usages.plain.push((f.package, usage));
        } else if adds_globals(&text, &pkg)? {
            usages.alone.push((f.package, usage));
        } else {
            usages.shared.push((f.package, usage));
        }
    }
    Ok(usages)
}

/// A group of usage files checked in one program per lib.
type Group = (String, Vec<(&'static str, PathBuf)>);

impl Usages {
    /// One program per lib for every usage file that adds no global declarations (each is
    /// a module importing modules, so none sees another's names: errors are the ones it
    /// gets alone, and the libs' own .d.ts files are checked once, not once per fixture);
    /// a fixture whose usage or package declares globals gets programs of its own. The
    /// plain wasm-bindgen fixtures come last.
    fn groups(&self) -> Vec<Group> {
        let mut groups: Vec<Group> = Vec::new();
        if !self.shared.is_empty() {
            groups.push(("fixtures".into(), self.shared.clone()));
        }
        for (package, usage) in self.alone.iter().chain(&self.plain) {
            groups.push((package.to_string(), vec![(package, usage.clone())]));
        }
        groups
    }
}

/// The tsconfig of each group under each lib (the last `plain_groups` under esnext only).
fn write_programs(scratch: &Path, groups: &[Group], plain_groups: usize) -> Result<Vec<Check>> {
    let mut checks = Vec::new();
    for (index, (label, members)) in groups.iter().enumerate() {
        let is_plain = index >= groups.len() - plain_groups;
        for (lib_label, lib) in LIBS {
            if is_plain && *lib_label != "esnext" {
                continue;
            }
            let dir = scratch.join(format!("{label}-{lib_label}"));
            std::fs::create_dir_all(&dir)?;
            let files: Vec<String> = members
                .iter()
                .map(|(_, usage)| usage.display().to_string())
                .collect();
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
                "files": files,
            });
            let tsconfig = dir.join("tsconfig.json");
            std::fs::write(&tsconfig, serde_json::to_string_pretty(&config)?)?;
            checks.push(Check {
                tsconfig,
                lib,
                members: members.clone(),
            });
        }
    }
    Ok(checks)
}

/// Run the programs side by side; an error names the fixtures of each that failed.
fn run_checks(tsc: &Path, root: &Path, checks: &[Check]) -> Result<()> {
    let outputs = run_side_by_side(tsc, checks);
    let mut failed = Vec::new();
    for (check, output) in checks.iter().zip(outputs) {
        let output = output.with_context(|| {
            format!("running {} -p {}", tsc.display(), check.tsconfig.display())
        })?;
        if !output.status.success() {
            // tsc reports its errors on stdout.
            let stdout = String::from_utf8_lossy(&output.stdout);
            print!("{stdout}");
            eprint!("{}", String::from_utf8_lossy(&output.stderr));
            failed.extend(check.rejected(root, &stdout));
        }
    }
    if !failed.is_empty() {
        bail!("{}", failed.join("\n"));
    }
    Ok(())
}

/// The `<lib>_bg.wasm.d.ts` of every bridge fixture (wasm-bindgen writes the plain ones),
/// imported as a bundler project imports the `.wasm` itself (`moduleResolution: bundler`;
/// Node's own resolution has no `.wasm` modules): one program per lib, whose generated
/// module reads each package's `memory`. Its ABI exports are declared under string names
/// (`"crate::f"`), which tsc parses here with `skipLibCheck: false`.
fn module_exports_checks(root: &Path, scratch: &Path, filter: Option<&str>) -> Result<Vec<Check>> {
    let fixtures: Vec<_> = FIXTURES
        .iter()
        .filter(|f| !PLAIN_WASM_BINDGEN.contains(&f.package))
        .filter(|f| filter.is_none_or(|filter| f.package.contains(filter)))
        .collect();
    if fixtures.is_empty() {
        return Ok(Vec::new());
    }
    let mut source = String::from("// Generated by cargo xtask test-types.\n");
    let mut members = Vec::new();
    for (index, f) in fixtures.iter().enumerate() {
        let dts = root
            .join(f.dir)
            .join("pkg")
            .join(format!("{}_bg.wasm.d.ts", lib_name(f.package)));
        if !dts.is_file() {
            bail!(
                "{} is missing: a bridge package types its module's exports",
                dts.display()
            );
        }
        let module = dts.display().to_string();
        let module = module.strip_suffix(".d.ts").expect("named .d.ts");
        source.push_str(&format!(
            "import * as m{index} from {module:?};\n\
             export const buffer{index}: ArrayBuffer = m{index}.memory.buffer;\n"
        ));
        members.push((f.package, dts));
    }
    let mut checks = Vec::new();
    for (lib_label, lib) in LIBS {
        let dir = scratch.join(format!("module-exports-{lib_label}"));
        std::fs::create_dir_all(&dir)?;
        let usage = dir.join("modules.mts");
        std::fs::write(&usage, &source)?;
        let config = json!({
            "compilerOptions": {
                "strict": true,
                "noEmit": true,
                "skipLibCheck": false,
                "lib": lib,
                "target": "es2020",
                "module": "esnext",
                "moduleResolution": "bundler",
                "types": [],
            },
            "files": [usage.display().to_string()],
        });
        let tsconfig = dir.join("tsconfig.json");
        std::fs::write(&tsconfig, serde_json::to_string_pretty(&config)?)?;
        checks.push(Check {
            tsconfig,
            lib,
            members: members.clone(),
        });
    }
    Ok(checks)
}

/// One tsc program: the usage files of `members` (fixture, usage file) under one lib.
struct Check {
    tsconfig: PathBuf,
    lib: &'static [&'static str],
    members: Vec<(&'static str, PathBuf)>,
}

impl Check {
    /// What a failed run means, one line per fixture: those whose directory tsc's errors
    /// name (every member when they name none, e.g. an error in a lib file).
    fn rejected(&self, root: &Path, stdout: &str) -> Vec<String> {
        let named = |usage: &Path| {
            let dir = usage.parent().and_then(Path::parent).unwrap_or(usage);
            let relative = dir.strip_prefix(root).unwrap_or(dir);
            [dir, relative]
                .iter()
                .any(|d| stdout.contains(&format!("{}/", d.display())))
        };
        let mut members: Vec<&(&str, PathBuf)> =
            self.members.iter().filter(|(_, u)| named(u)).collect();
        if members.is_empty() {
            members = self.members.iter().collect();
        }
        members
            .into_iter()
            .map(|(_, usage)| {
                format!(
                    "tsc --strict with \"lib\": {:?} rejected {} or the .d.ts it imports",
                    self.lib,
                    usage.display()
                )
            })
            .collect()
    }
}

/// Whether a fixture's usage file or the declarations of its package `pkg` may add names
/// to the global scope, which a program shared with other fixtures' files would see:
/// a `declare global` block, or a `.d.ts` that is a script (no top-level import or export).
fn adds_globals(usage: &str, pkg: &Path) -> Result<bool> {
    if usage.contains("declare global") {
        return Ok(true);
    }
    let mut dirs = vec![pkg.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in
            std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))?
        {
            let path = entry?.path();
            let name = path.to_string_lossy();
            if path.is_dir() {
                dirs.push(path);
            } else if name.ends_with(".d.ts") || name.ends_with(".d.mts") {
                let text = std::fs::read_to_string(&path)?;
                let module = name.ends_with(".d.mts")
                    || text
                        .lines()
                        .any(|l| l.starts_with("export ") || l.starts_with("import "));
                if text.contains("declare global") || !module {
                    return Ok(true);
                }
            }
        }
    }
    Ok(false)
}

/// `tsc -p` of each tsconfig, one process per core at a time (each is mostly one core's
/// work for a second or two); the outputs in the checks' order.
fn run_side_by_side(tsc: &Path, checks: &[Check]) -> Vec<std::io::Result<Output>> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    side_by_side::map(checks, workers, |check| {
        Command::new(tsc).arg("-p").arg(&check.tsconfig).output()
    })
}

/// The runtime API: what every package with the pool API exports, and the `__bridge*`
/// diagnostics some packages add; checked in kitchen-sink's usage only.
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
