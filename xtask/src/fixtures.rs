//! Where things are (the project root, the fixture packages), and building fixture packages
//! with the `cargo-bridge` binary this checkout builds.
//!
//! `FIXTURES` lists the packages the suites import (read by `tasks.rs`, `browser.rs` and
//! `typescript.rs`, which import no task of each other's). `selection` is what `test-node` and
//! `test-browser` build and run: with `--filter`, the matching fixtures and those whose `pkg/`
//! their tests name by path. `CargoBridge` is the binary this checkout builds: its path from
//! cargo's build messages (so `CARGO_TARGET_DIR` holds), run by that path, never through
//! `cargo bridge`, which could find an installed one on `PATH`; node suites that build get it
//! as `CARGO_BRIDGE_EXE`. Under `cargo xtask test`, every phase after the test build, and the
//! bench process, runs the binary that build made and the CLI tests ran, handed down as
//! `XTASK_CARGO_BRIDGE` (a `cargo build -p cargo-bridge` resolves features for that package
//! alone and would compile a dozen crates and the binary again).
//!
//! Every fixture build, the bench's generated crates and the demo included, goes to one
//! target directory (`fixtures_target_dir`: `$CARGO_TARGET_DIR`, else `fixtures/target`), so
//! the runtime and wasm-bindgen compile once per profile rather than once per workspace; a
//! fixture's own `pkg/` this process built with the same arguments, unchanged since, is not
//! built again (`BUILT`), and an optimized build whose module wasm-opt saw before gets its
//! earlier output (`wasm_opt_cache.rs`, across runs). The CLI tests build their throwaway
//! crates there too (`cargo-bridge/tests/support`).

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use xshell::{Shell, cmd};

/// A fixture package the node suites import.
pub struct Fixture {
    pub package: &'static str,
    /// Manifest of the workspace it belongs to.
    pub manifest: &'static str,
    /// Directory of the package (its `tests/` holds the suites).
    pub dir: &'static str,
}

pub const FIXTURES: &[Fixture] = &[
    in_fixtures("kitchen-sink", "fixtures/kitchen-sink"),
    in_fixtures("data", "fixtures/data"),
    in_fixtures("identity", "fixtures/identity"),
    in_fixtures("rust-default", "fixtures/rust-default"),
    in_fixtures("linked-app", "fixtures/linked-app"),
    in_fixtures("odd-names", "fixtures/odd-names"),
    in_fixtures("bench", "fixtures/bench"),
    in_fixtures("js-interop", "fixtures/js-interop"),
    in_fixtures("js-missing", "fixtures/js-missing"),
    in_fixtures("hostile", "fixtures/hostile"),
    in_fixtures("collections", "fixtures/collections"),
    in_fixtures("js-classes", "fixtures/js-classes"),
    in_fixtures("classes", "fixtures/classes"),
    in_fixtures("closures", "fixtures/closures"),
    in_fixtures("async-fixture", "fixtures/async"),
    in_fixtures("shapes", "fixtures/shapes"),
    in_fixtures("iterators", "fixtures/iterators"),
    Fixture {
        package: "ws-default",
        manifest: "fixtures/ws-default/Cargo.toml",
        dir: "fixtures/ws-default",
    },
    // Its own workspace: the only bridge fixture that links wasm-bindgen.
    Fixture {
        package: "wbg-interop",
        manifest: "fixtures/wasm-bindgen/Cargo.toml",
        dir: "fixtures/wasm-bindgen",
    },
    // A plain wasm-bindgen crate (no bridge-runtime), in a workspace of its own whose
    // release profile strips symbols: `cargo bridge build` as a drop-in for wasm-pack.
    Fixture {
        package: "wbg-plain",
        manifest: "fixtures/wasm-pack/Cargo.toml",
        dir: "fixtures/wasm-pack/plain",
    },
    // One class moved from #[wasm_bindgen] to #[bridge] (issue 45): the same source built
    // as a plain wasm-bindgen crate and with the class moved, one suite run against both.
    Fixture {
        package: "moved-class-before",
        manifest: "fixtures/moved-class/Cargo.toml",
        dir: "fixtures/moved-class/before",
    },
    Fixture {
        package: "moved-class-after",
        manifest: "fixtures/moved-class/Cargo.toml",
        dir: "fixtures/moved-class/after",
    },
];

/// The fixtures that do not use bridge-runtime: their packages are wasm-bindgen's output,
/// without the bridge runtime's exports (which `test-types` finds as the names every
/// other package exports).
pub const PLAIN_WASM_BINDGEN: &[&str] = &["wbg-plain", "moved-class-before"];

/// A member of the `fixtures/` workspace.
const fn in_fixtures(package: &'static str, dir: &'static str) -> Fixture {
    Fixture {
        package,
        manifest: "fixtures/Cargo.toml",
        dir,
    }
}

pub fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the project root")
        .to_path_buf()
}

/// The `cargo-bridge` binary this checkout builds, run by its path: `cargo bridge` would
/// run whichever `cargo-bridge` comes first on `PATH` (`~/.cargo/bin` has an installed one
/// when `CARGO_TARGET_DIR` moves the build away from `target/`).
pub struct CargoBridge {
    pub exe: PathBuf,
}

impl CargoBridge {
    /// `cargo-bridge bridge`, as `cargo bridge` runs it.
    pub fn cmd<'a>(&self, sh: &'a Shell) -> xshell::Cmd<'a> {
        let exe = &self.exe;
        cmd!(sh, "{exe} bridge")
    }

    /// `cargo bridge build --release --target web` of the crate at `manifest` into `out`, in
    /// the fixtures' target (same release profile: the macro, schema and runtime compile
    /// once for every generated crate).
    pub fn build_release_web(&self, sh: &Shell, manifest: &Path, out: &Path) -> Result<()> {
        let _turn = TargetDirLock::shared()?;
        self.cmd(sh)
            .args(["build", "--quiet", "--release", "--target", "web"])
            .arg("--manifest-path")
            .arg(manifest)
            .arg("--out-dir")
            .arg(out)
            .env("CARGO_TARGET_DIR", fixtures_target_dir())
            .run()?;
        Ok(())
    }
}

/// The variable `cargo xtask test` hands its phases (and the `cargo xtask bench` it starts)
/// the `cargo-bridge` of its test build in: the binary the CLI tests ran.
pub const BUILT_BRIDGE_ENV: &str = "XTASK_CARGO_BRIDGE";

/// Build `cargo-bridge`; where cargo put it comes from cargo's own build messages, so
/// `CARGO_TARGET_DIR` and `build.target-dir` are honoured. Under `cargo xtask test`, the
/// one its `cargo test --workspace` build made ([`BUILT_BRIDGE_ENV`]): `cargo build -p
/// cargo-bridge` resolves its dependencies' features for that package alone, not unified
/// with the workspace's and the dev-dependencies' as the test build does, so it would
/// compile a dozen crates and the binary once more (about a minute of CI).
pub fn install_cargo_bridge(sh: &Shell) -> Result<CargoBridge> {
    if let Some(exe) = sh.var_os(BUILT_BRIDGE_ENV).map(PathBuf::from) {
        if !exe.is_file() {
            anyhow::bail!("{BUILT_BRIDGE_ENV}={} is not a file", exe.display());
        }
        return Ok(CargoBridge { exe });
    }
    let _cd = sh.push_dir(project_root());
    let exe =
        build_binary(sh, "cargo-bridge", "cargo-bridge", &[]).context("building cargo-bridge")?;
    Ok(CargoBridge { exe })
}

/// The `cargo-bridge` binary (not its unit-test harness) in `cargo test --no-run
/// --message-format=json` output.
pub fn test_built_bridge(messages: &str) -> Result<PathBuf> {
    for line in messages.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if message["reason"] == "compiler-artifact"
            && message["target"]["name"] == "cargo-bridge"
            && message["target"]["kind"] == serde_json::json!(["bin"])
            && message["profile"]["test"] == false
            && let Some(exe) = message["executable"].as_str()
        {
            return Ok(PathBuf::from(exe));
        }
    }
    anyhow::bail!("the test build made no `cargo-bridge` binary (no compiler-artifact names one)")
}

/// `cargo-bridge` built with `--release`, as `cargo install` builds it (for timing its
/// own work: the bench's build-cost section).
pub fn install_cargo_bridge_release(sh: &Shell) -> Result<CargoBridge> {
    let _cd = sh.push_dir(project_root());
    let exe = build_binary(sh, "cargo-bridge", "cargo-bridge", &["--release"])
        .context("building cargo-bridge --release")?;
    Ok(CargoBridge { exe })
}

/// `cargo build` the binary `bin` of `package` (in the shell's directory); its path.
fn build_binary(sh: &Shell, package: &str, bin: &str, flags: &[&str]) -> Result<PathBuf> {
    let messages = cmd!(
        sh,
        "cargo build --quiet --package {package} --bin {bin} {flags...} --message-format=json-render-diagnostics"
    )
    .read()?;
    built_executable(&messages, bin)
}

/// The `executable` of the binary target `bin` in `cargo build --message-format=json` output.
fn built_executable(messages: &str, bin: &str) -> Result<PathBuf> {
    for line in messages.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if message["reason"] == "compiler-artifact"
            && message["target"]["name"] == bin
            && let Some(exe) = message["executable"].as_str()
        {
            return Ok(PathBuf::from(exe));
        }
    }
    anyhow::bail!("cargo built no `{bin}` executable (no compiler-artifact message names one)")
}

/// Where `cargo bridge` keeps the tools it installs (the wasm-bindgen CLI of
/// `fixtures/wasm-bindgen`): `$CARGO_BRIDGE_HOME` if set, else `target/bridge-home`, so a
/// CI run on a fresh clone installs it once and every later build of the run reuses it.
pub fn bridge_home() -> PathBuf {
    std::env::var_os("CARGO_BRIDGE_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| project_root().join("target/bridge-home"))
}

/// The one target directory of every fixture build the xtask runs: the `fixtures/`
/// workspace, the fixtures with a workspace of their own (`ws-default`, `wasm-bindgen`)
/// and the crates the bench generates. `$CARGO_TARGET_DIR` if set, else `fixtures/target`
/// (the `fixtures/` workspace's own), so bridge-runtime, and wasm-bindgen for the crates
/// linking it, compile once per profile rather than once per workspace. The CLI tests
/// (`cargo-bridge/tests/support`) build their throwaway crates in `fixtures/target` too, so
/// what they compile first (the macro's host build, the runtime, wasm-bindgen) is there
/// for the fixture builds after them. Every crate built there has a library name of its
/// own (cargo uplifts `<target>/wasm32-unknown-unknown/<profile>/<lib>.wasm`); the
/// xtask's builds run one after another.
pub fn fixtures_target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| project_root().join("fixtures/target"))
}

/// Turns in the fixtures' target directory between builds and rebuilds after a touch:
/// touching a source and building again (the bench's build-cost sections) rewrites that
/// crate's module in the target directory, which a build of the same crate in the lane
/// running beside (`beside.rs`) may be reading at that moment. Every fixture build holds
/// it shared (they run side by side as before); a touch and the builds after it hold it
/// exclusively. Released when dropped.
pub struct TargetDirLock {
    _held: std::fs::File,
}

impl TargetDirLock {
    pub fn shared() -> Result<TargetDirLock> {
        Self::take(false)
    }

    pub fn exclusive() -> Result<TargetDirLock> {
        Self::take(true)
    }

    fn take(exclusive: bool) -> Result<TargetDirLock> {
        Self::take_in(&fixtures_target_dir(), exclusive)
    }

    fn take_in(dir: &Path, exclusive: bool) -> Result<TargetDirLock> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let path = dir.join("xtask-builds.lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        if exclusive {
            file.lock()
        } else {
            file.lock_shared()
        }
        .with_context(|| format!("locking {}", path.display()))?;
        Ok(TargetDirLock { _held: file })
    }
}

/// The fixtures to build (in [`FIXTURES`] order) and the suites to run, for `test-node` and
/// `test-browser` alike. Unfiltered: every fixture and every suite. Filtered: the suites
/// of the fixtures whose name contains the filter, and only the fixtures they need: their
/// own, and each other fixture whose `pkg/` a `.mjs` file in their `tests/` names
/// (`../../kitchen-sink/pkg/...`: suites import each other's packages, or read their files).
/// So a suite names another fixture's package by its path, never one built at run time
/// (the test `suites_name_other_fixtures_packages_by_path` holds them to it). In the
/// browser a package the run did not build is left out of the import map, so a suite
/// reaching one anyway fails on the nodejs glue, never on a stale web build.
pub fn selection(
    root: &Path,
    filter: Option<&str>,
) -> Result<(Vec<&'static Fixture>, Vec<PathBuf>)> {
    let mut suites = Vec::new();
    let mut texts = Vec::new();
    let chosen: Vec<&Fixture> = FIXTURES
        .iter()
        .filter(|f| filter.is_none_or(|filter| f.package.contains(filter)))
        .collect();
    for f in &chosen {
        let tests = root.join(f.dir).join("tests");
        for entry in
            std::fs::read_dir(&tests).with_context(|| format!("reading {}", tests.display()))?
        {
            let file = entry?.path();
            let name = file.to_string_lossy();
            if name.ends_with(".test.mjs") {
                suites.push(file.clone());
            }
            if filter.is_some() && name.ends_with(".mjs") {
                texts.push(std::fs::read_to_string(&file)?);
            }
        }
    }
    let build = match filter {
        None => FIXTURES.iter().collect(),
        Some(_) => FIXTURES
            .iter()
            .filter(|f| {
                chosen.iter().any(|c| c.package == f.package) || {
                    let dir = Path::new(f.dir).file_name().unwrap_or_default();
                    let named = format!("/{}/pkg/", dir.to_string_lossy());
                    texts.iter().any(|text| text.contains(&named))
                }
            })
            .collect(),
    };
    Ok((build, suites))
}

/// `cargo bridge build` one fixture of `fixtures/` (or of its own workspace `dir`).
pub fn build_fixture(
    sh: &Shell,
    bridge: &CargoBridge,
    manifest: &Path,
    package: Option<&str>,
    release: bool,
) -> Result<()> {
    let extra: &[&str] = if release { &["--release"] } else { &[] };
    build_fixture_with(sh, bridge, manifest, package, extra)
}

/// [`build_fixture`] with any `cargo bridge build` arguments (`--target`, `--out-dir`, ...).
pub fn build_fixture_with(
    sh: &Shell,
    bridge: &CargoBridge,
    manifest: &Path,
    package: Option<&str>,
    extra: &[&str],
) -> Result<()> {
    let mut args = vec!["build".to_string(), "--quiet".into()];
    args.push("--manifest-path".into());
    args.push(manifest.display().to_string());
    if let Some(p) = package {
        args.push("--package".into());
        args.push(p.into());
    }
    args.extend(extra.iter().map(|a| a.to_string()));
    // A fixture's own `pkg/`, built again by a later phase of `cargo xtask test` with the
    // same arguments and binary: left as the earlier build wrote it (see `BUILT`).
    let pkg = FIXTURES
        .iter()
        .find(|f| Some(f.package) == package && root_manifest(f) == manifest)
        .filter(|_| !extra.contains(&"--out-dir"))
        .map(|f| project_root().join(f.dir).join("pkg"));
    let key: Vec<String> = args
        .iter()
        .cloned()
        .chain([bridge.exe.display().to_string()])
        .collect();
    if let Some(pkg) = &pkg
        && BUILT.is_current(pkg, &key)
    {
        return Ok(());
    }
    let turn = TargetDirLock::shared()?;
    bridge
        .cmd(sh)
        .args(&args)
        .env("CARGO_BRIDGE_HOME", bridge_home())
        .env("CARGO_TARGET_DIR", fixtures_target_dir())
        .envs(wasm_opt_cache(sh).iter().map(|(k, v)| (k, v)))
        .run()
        .with_context(|| format!("cargo bridge build of {}", package.unwrap_or("fixtures")))?;
    drop(turn);
    if let Some(pkg) = pkg {
        BUILT.record(pkg, key);
    }
    Ok(())
}

/// Where the wasm-opt cache keeps its entries (the fixture builds' and the bench's size
/// table's, `xtask/bench/src/opt_cache.rs`).
pub fn wasm_opt_cache_dir() -> PathBuf {
    fixtures_target_dir().join("wasm-opt-cache")
}

/// The variables that let a fixture build's wasm-opt reuse its earlier output for the same
/// module (`wasm_opt_cache.rs`): the loop's largest repeated cost when nothing changed. Set
/// on the xtask's fixture builds and on the node suites that build packages themselves.
pub fn wasm_opt_cache(sh: &Shell) -> &'static [(&'static str, std::ffi::OsString)] {
    crate::wasm_opt_cache::env(crate::wasm_opt_cache::Places {
        bridge_home: &bridge_home(),
        js_dir: &project_root().join("xtask/js"),
        cache_dir: &wasm_opt_cache_dir(),
        path: sh.var_os("PATH"),
    })
}

fn root_manifest(f: &Fixture) -> PathBuf {
    project_root().join(f.manifest)
}

/// The fixtures' own `pkg/` directories this process built, each with the build's
/// arguments (the `cargo-bridge` binary last) and the directory's state after it: `cargo
/// xtask test` builds every fixture in debug for test-types, then again for test-runtimes
/// and test-node (each phase also runs alone), and a build whose arguments are the ones
/// of the last build into that directory, which nothing has changed since, would write
/// the same files (about 15 s of CI each time for the nineteen).
static BUILT: Built = Built(Mutex::new(Vec::new()));

struct Built(Mutex<Vec<(PathBuf, Vec<String>, DirState)>>);

impl Built {
    fn is_current(&self, pkg: &Path, args: &[String]) -> bool {
        let built = self.0.lock().unwrap_or_else(|e| e.into_inner());
        built.iter().any(|(dir, a, state)| {
            dir == pkg && a == args && dir_state(pkg).is_ok_and(|now| &now == state)
        })
    }

    fn record(&self, pkg: PathBuf, args: Vec<String>) {
        let mut built = self.0.lock().unwrap_or_else(|e| e.into_inner());
        built.retain(|(dir, _, _)| *dir != pkg);
        if let Ok(state) = dir_state(&pkg) {
            built.push((pkg, args, state));
        }
    }
}

/// Every file under a directory with its length and modification time.
type DirState = Vec<(PathBuf, u64, std::time::SystemTime)>;

fn dir_state(dir: &Path) -> std::io::Result<DirState> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d)? {
            let entry = entry?;
            let meta = entry.metadata()?;
            if meta.is_dir() {
                dirs.push(entry.path());
            } else {
                files.push((entry.path(), meta.len(), meta.modified()?));
            }
        }
    }
    files.sort();
    Ok(files)
}

/// A fresh directory under the system's temporary one, for xtask's unit tests.
#[cfg(test)]
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixture_builds_share_the_target_dir_and_a_touch_rebuild_has_it_alone() {
        let dir = scratch("target-dir-lock");
        let other = || {
            std::fs::OpenOptions::new()
                .write(true)
                .open(dir.join("xtask-builds.lock"))
                .unwrap()
        };
        let build = TargetDirLock::take_in(&dir, false).unwrap();
        assert!(other().try_lock_shared().is_ok(), "builds run side by side");
        assert!(
            other().try_lock().is_err(),
            "a touch rebuild waits for them"
        );
        drop(build);
        let touch = TargetDirLock::take_in(&dir, true).unwrap();
        assert!(other().try_lock_shared().is_err(), "a build waits for it");
        drop(touch);
        assert!(other().try_lock().is_ok(), "dropping it lets go");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_binary_is_found_where_cargo_target_dir_puts_it() {
        let dir = scratch("target-dir");
        std::fs::create_dir_all(dir.join("hello/src")).unwrap();
        std::fs::write(
            dir.join("hello/Cargo.toml"),
            "[package]\nname = \"hello\"\nversion = \"0.1.0\"\nedition = \"2024\"\n[workspace]\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("hello/src/main.rs"),
            "fn main() { println!(\"hi\"); }",
        )
        .unwrap();
        let sh = Shell::new().unwrap();
        sh.change_dir(dir.join("hello"));
        sh.set_var("CARGO_TARGET_DIR", dir.join("elsewhere"));
        let exe = build_binary(&sh, "hello", "hello", &[]).unwrap();
        assert!(
            exe.starts_with(dir.join("elsewhere")),
            "{} is not in CARGO_TARGET_DIR",
            exe.display()
        );
        assert_eq!(cmd!(sh, "{exe}").read().unwrap(), "hi");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_test_builds_binary_is_the_bin_artifact_not_its_test_harness() {
        let harness = r#"{"reason":"compiler-artifact","target":{"name":"cargo-bridge","kind":["bin"]},"profile":{"test":true},"executable":"/t/debug/deps/cargo_bridge-1"}"#;
        let lib = r#"{"reason":"compiler-artifact","target":{"name":"cargo_bridge","kind":["lib"]},"profile":{"test":false},"executable":null}"#;
        let bin = r#"{"reason":"compiler-artifact","target":{"name":"cargo-bridge","kind":["bin"]},"profile":{"test":false},"executable":"/t/debug/cargo-bridge"}"#;
        let messages = [harness, lib, "not json", bin].join("\n");
        assert_eq!(
            test_built_bridge(&messages).unwrap(),
            PathBuf::from("/t/debug/cargo-bridge")
        );
        assert!(test_built_bridge(&[harness, lib].join("\n")).is_err());
    }

    #[test]
    fn a_handed_down_binary_is_used_as_it_is_and_a_missing_one_is_an_error() {
        let sh = Shell::new().unwrap();
        let exe = std::env::current_exe().unwrap();
        sh.set_var(BUILT_BRIDGE_ENV, &exe);
        assert_eq!(install_cargo_bridge(&sh).unwrap().exe, exe);
        sh.set_var(BUILT_BRIDGE_ENV, "/no/such/cargo-bridge");
        let err = install_cargo_bridge(&sh).err().unwrap().to_string();
        assert!(err.contains("/no/such/cargo-bridge"), "{err}");
    }

    #[test]
    fn a_build_is_skipped_only_with_the_same_arguments_into_an_unchanged_directory() {
        let dir = scratch("built");
        let pkg = dir.join("pkg");
        std::fs::create_dir_all(pkg.join("snippets")).unwrap();
        std::fs::write(pkg.join("a.js"), "one").unwrap();
        std::fs::write(pkg.join("snippets/b.mjs"), "two").unwrap();
        let built = Built(Mutex::new(Vec::new()));
        let args = |a: &str| vec!["build".to_string(), a.to_string()];
        assert!(!built.is_current(&pkg, &args("debug")));
        built.record(pkg.clone(), args("debug"));
        assert!(built.is_current(&pkg, &args("debug")));
        assert!(!built.is_current(&pkg, &args("--release")));
        assert!(!built.is_current(&dir.join("other"), &args("debug")));
        // Another process rewrote a file (another length here; a new time does as well).
        std::fs::write(pkg.join("snippets/b.mjs"), "three").unwrap();
        assert!(!built.is_current(&pkg, &args("debug")));
        built.record(pkg.clone(), args("debug"));
        assert!(built.is_current(&pkg, &args("debug")));
        // A build with other arguments into the same directory replaces the record.
        built.record(pkg.clone(), args("--release"));
        assert!(!built.is_current(&pkg, &args("debug")));
        std::fs::remove_file(pkg.join("a.js")).unwrap();
        assert!(!built.is_current(&pkg, &args("--release")));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn fixtures_are_built_by_the_binary_not_by_a_cargo_bridge_on_path() {
        let dir = scratch("by-path");
        let script = |sub: &str, says: &str| {
            let file = dir.join(sub).join("cargo-bridge");
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            let log = dir.join("ran");
            std::fs::write(
                &file,
                format!("#!/bin/sh\necho \"{says} $*\" > '{}'\n", log.display()),
            )
            .unwrap();
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
            file
        };
        let built = script("built", "built");
        script("installed", "installed");
        let sh = Shell::new().unwrap();
        let path = std::env::var("PATH").unwrap_or_default();
        sh.set_var(
            "PATH",
            format!("{}:{path}", dir.join("installed").display()),
        );
        let bridge = CargoBridge { exe: built };
        build_fixture_with(&sh, &bridge, Path::new("x/Cargo.toml"), Some("pkg"), &[]).unwrap();
        let ran = std::fs::read_to_string(dir.join("ran")).unwrap();
        assert_eq!(
            ran.trim(),
            "built bridge build --quiet --manifest-path x/Cargo.toml --package pkg"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn names(build: &[&Fixture]) -> Vec<&'static str> {
        build.iter().map(|f| f.package).collect()
    }

    #[test]
    fn unfiltered_builds_every_fixture_and_runs_every_suite() {
        let root = project_root();
        let (build, mut suites) = selection(&root, None).unwrap();
        assert_eq!(names(&build), names(&FIXTURES.iter().collect::<Vec<_>>()));
        let mut every = Vec::new();
        for f in FIXTURES {
            let tests = root.join(f.dir).join("tests");
            assert!(
                suites.iter().any(|s| s.starts_with(&tests)),
                "no suite of {}",
                f.package
            );
            for entry in std::fs::read_dir(&tests).unwrap() {
                let file = entry.unwrap().path();
                if file.to_string_lossy().ends_with(".test.mjs") {
                    every.push(file);
                }
            }
        }
        suites.sort();
        every.sort();
        assert_eq!(suites, every);
    }

    #[test]
    fn a_filter_builds_the_matching_fixtures_and_the_packages_their_suites_import() {
        let root = project_root();
        let (build, suites) = selection(&root, Some("shapes")).unwrap();
        assert_eq!(names(&build), ["shapes"]);
        let shapes = root.join("fixtures/shapes/tests");
        assert!(!suites.is_empty() && suites.iter().all(|s| s.starts_with(&shapes)));
        // identity's late-switch suite imports kitchen-sink's package.
        let (build, _) = selection(&root, Some("identity")).unwrap();
        assert_eq!(names(&build), ["kitchen-sink", "identity"]);
        // `/classes/pkg/` is not in `/js-classes/pkg/`: both match the filter by name.
        let (build, _) = selection(&root, Some("classes")).unwrap();
        assert_eq!(names(&build), ["js-classes", "classes"]);
        let (build, suites) = selection(&root, Some("no-such-fixture")).unwrap();
        assert!(build.is_empty() && suites.is_empty());
    }

    #[test]
    fn a_filtered_node_run_builds_the_packages_a_suite_reads_by_path() {
        // fixtures/async's cost.test.mjs reads five packages without async items.
        let (build, _) = selection(&project_root(), Some("async")).unwrap();
        assert_eq!(
            names(&build),
            [
                "kitchen-sink",
                "data",
                "js-interop",
                "classes",
                "closures",
                "async-fixture"
            ]
        );
    }

    /// Where a suite, a module beside it or a shared one (`fixtures/support/`) names a
    /// package directory, it is one [`selection`] sees: its own (`../pkg/`) or another
    /// fixture's by its directory (`/kitchen-sink/pkg/`); a path made at run time
    /// (`${dir}/pkg/`) would leave a filtered run without that package.
    #[test]
    fn suites_name_other_fixtures_packages_by_path() {
        let root = project_root();
        let dirs: Vec<String> = FIXTURES
            .iter()
            .map(|f| {
                Path::new(f.dir)
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        let mut folders: Vec<PathBuf> = FIXTURES
            .iter()
            .map(|f| root.join(f.dir).join("tests"))
            .collect();
        folders.push(root.join("fixtures/support"));
        let mut checked = 0;
        let mut unseen = Vec::new();
        for folder in folders {
            for entry in std::fs::read_dir(&folder).unwrap() {
                let file = entry.unwrap().path();
                if !file.to_string_lossy().ends_with(".mjs") {
                    continue;
                }
                let text = std::fs::read_to_string(&file).unwrap();
                for (at, _) in text.match_indices("/pkg/") {
                    let before = &text[..at];
                    let segment = before
                        .rsplit(|c: char| "/\"'`( ".contains(c))
                        .next()
                        .unwrap_or_default();
                    checked += 1;
                    if segment != ".." && !dirs.iter().any(|d| d == segment) {
                        unseen.push(format!("{}: `{segment}/pkg/`", file.display()));
                    }
                }
            }
        }
        assert!(checked > 50, "only {checked} package paths found");
        assert!(
            unseen.is_empty(),
            "package paths `selection` cannot see (write the fixture's directory out: \
             `../../<fixture>/pkg/`):\n{}",
            unseen.join("\n")
        );
    }
}
