//! A content-addressed cache of `wasm-opt`'s output for the xtask's fixture builds: every
//! `--release` fixture build (test-browser's twenty, the bundler, package, worker and demo
//! builds, the example, the bench's fixture) runs npm's binaryen (wasm under Node, seconds
//! per module) on a module that, in a loop where nothing changed, is the one it optimized
//! last time. `xtask/js/wasm-opt-cache.mjs` stands in front of the wasm-opt cargo-bridge
//! would run (named in `CARGO_BRIDGE_WASM_OPT`) and copies the earlier output when the
//! binaryen version, the flags and the input's bytes are the same: the package is byte for
//! byte the one wasm-opt writes. The bench's measured builds do not go through it; its
//! size tables' own `wasm-opt -O` runs do (`xtask/bench/src/opt_cache.rs`).
//!
//! Which wasm-opt is behind it is cargo-bridge's choice, made the same way
//! (`cargo-bridge/src/package/binaryen.rs`): `$CARGO_BRIDGE_WASM_OPT`, else a `wasm-opt` on
//! `PATH` of binaryen [`MIN_VERSION`] or newer, else the pinned one in the bridge home. When
//! none is there yet, builds run without the cache (and cargo-bridge installs binaryen).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

/// npm's binaryen cargo-bridge installs into the bridge home (`binaryen.rs` `PINNED`).
pub const BINARYEN: &str = "132.0.0";
/// The oldest binaryen on `PATH` cargo-bridge uses (`binaryen.rs` `MIN_VERSION`).
const MIN_VERSION: u32 = 123;
/// Entries no build has used for this long are removed (the cache does not grow without
/// bound as the fixtures change).
const UNUSED_FOR: Duration = Duration::from_secs(14 * 24 * 3600);

/// Where the cache looks.
pub struct Places<'a> {
    /// The bridge home (the pinned binaryen's `binaryen-<version>/`).
    pub bridge_home: &'a Path,
    /// `xtask/js/` (the wrapper script).
    pub js_dir: &'a Path,
    /// Where the entries go (one `<sha256>.wasm` per output).
    pub cache_dir: &'a Path,
    /// The `PATH` the build runs with.
    pub path: Option<OsString>,
}

/// The variables that put the cache in front of wasm-opt for a `cargo bridge build`,
/// decided once per process; empty when no wasm-opt is there yet.
pub fn env(places: Places<'_>) -> &'static [(&'static str, OsString)] {
    static ENV: OnceLock<Vec<(&'static str, OsString)>> = OnceLock::new();
    ENV.get_or_init(|| variables(&places).unwrap_or_default())
}

fn variables(places: &Places<'_>) -> Option<Vec<(&'static str, OsString)>> {
    let cache = in_front_of(real_wasm_opt(places)?, places.js_dir, places.cache_dir)?;
    let mut vars = vec![("CARGO_BRIDGE_WASM_OPT", cache.wrapper.into())];
    vars.extend(cache.variables);
    Some(vars)
}

/// The cache in front of one wasm-opt: the wrapper to run in its place, and the variables
/// the wrapper reads.
pub struct InFront {
    /// `xtask/js/wasm-opt-cache.mjs`, executable.
    pub wrapper: PathBuf,
    /// The real wasm-opt, its `--version` (part of every key: another binaryen's entries
    /// are never used) and the cache directory.
    pub variables: Vec<(&'static str, OsString)>,
}

/// The cache in front of the wasm-opt `real`, its entries in `cache_dir` (`js_dir`:
/// `xtask/js/`, the wrapper's): the one place that spells the wrapper's interface. The
/// fixture builds put it in front of cargo-bridge's wasm-opt ([`env`]), the bench's size
/// tables in front of the `PATH`'s (`xtask/bench/src/opt_cache.rs`). `None` when `real`
/// does not answer `--version` or the wrapper is missing.
pub fn in_front_of(real: PathBuf, js_dir: &Path, cache_dir: &Path) -> Option<InFront> {
    let version = Command::new(&real).arg("--version").output().ok()?;
    if !version.status.success() {
        return None;
    }
    let wrapper = js_dir.join("wasm-opt-cache.mjs");
    executable(&wrapper).ok()?;
    prune(cache_dir, SystemTime::now());
    Some(InFront {
        wrapper,
        variables: vec![
            ("XTASK_WASM_OPT_REAL", real.into()),
            (
                "XTASK_WASM_OPT_VERSION",
                String::from_utf8_lossy(&version.stdout).into_owned().into(),
            ),
            ("XTASK_WASM_OPT_CACHE", cache_dir.into()),
        ],
    })
}

/// The first `wasm-opt` in the directories of `path` (a `PATH` value).
pub fn on_path(path: Option<&OsStr>) -> Option<PathBuf> {
    std::env::split_paths(path?)
        .map(|dir| dir.join("wasm-opt"))
        .find(|program| program.is_file())
}

/// The wasm-opt cargo-bridge would run (see the module's doc).
fn real_wasm_opt(places: &Places<'_>) -> Option<PathBuf> {
    if let Some(named) = std::env::var_os("CARGO_BRIDGE_WASM_OPT") {
        return Some(PathBuf::from(named));
    }
    if let Some(program) = on_path(places.path.as_deref())
        && major_version(&program).is_some_and(|v| v >= MIN_VERSION)
    {
        return Some(program);
    }
    let pinned = places.bridge_home.join(format!(
        "binaryen-{BINARYEN}/node_modules/binaryen/bin/wasm-opt"
    ));
    pinned.is_file().then_some(pinned)
}

/// `wasm-opt version 132 (version_132)` → 132.
fn major_version(program: &Path) -> Option<u32> {
    let output = Command::new(program).arg("--version").output().ok()?;
    parse_version(&String::from_utf8_lossy(&output.stdout))
}

fn parse_version(text: &str) -> Option<u32> {
    let rest = text.split("version ").nth(1)?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// The wrapper runs by its `#!` line: keep it executable (a checkout without file modes).
fn executable(script: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let mode = std::fs::metadata(script)?.permissions().mode();
    if mode & 0o111 != 0o111 {
        std::fs::set_permissions(script, std::fs::Permissions::from_mode(mode | 0o755))?;
    }
    Ok(())
}

/// Remove the entries (and partial ones a killed build left) last used before `now -
/// UNUSED_FOR`; a hit touches its entry.
fn prune(dir: &Path, now: SystemTime) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let used = entry.metadata().and_then(|m| m.modified());
        if used.is_ok_and(|used| now.duration_since(used).unwrap_or_default() > UNUSED_FOR) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::scratch;

    /// A stand-in wasm-opt: writes its flags and its input's bytes reversed to the output,
    /// and a line per optimizing run to `calls`; fails on a `--fail` flag.
    fn fake_wasm_opt(dir: &Path) -> PathBuf {
        let program = dir.join("wasm-opt");
        let calls = dir.join("calls");
        std::fs::write(
            &program,
            format!(
                "#!/bin/sh\n\
                 if [ \"$1\" = --version ]; then echo 'wasm-opt version 132 (fake)'; exit 0; fi\n\
                 echo run >> '{}'\n\
                 flags=''; while [ \"$#\" -gt 3 ]; do\n\
                 [ \"$1\" = --fail ] && {{ echo 'fake failure' >&2; exit 3; }}\n\
                 flags=\"$flags$1 \"; shift; done\n\
                 {{ printf '%s' \"$flags\"; rev < \"$1\"; }} > \"$3\"\n",
                calls.display()
            ),
        )
        .unwrap();
        executable(&program).unwrap();
        program
    }

    fn calls(dir: &Path) -> usize {
        std::fs::read_to_string(dir.join("calls"))
            .map(|text| text.lines().count())
            .unwrap_or(0)
    }

    #[test]
    fn the_same_version_flags_and_input_give_the_earlier_output_without_running_wasm_opt() {
        let dir = scratch("wasm-opt-cache");
        let real = fake_wasm_opt(&dir);
        let cache = dir.join("cache");
        let js_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("js");
        let InFront { wrapper, variables } = in_front_of(real, &js_dir, &cache).unwrap();
        let run = |args: &[&str]| {
            Command::new("node")
                .arg(&wrapper)
                .args(args)
                .current_dir(&dir)
                .envs(variables.iter().map(|(k, v)| (k, v)))
                .output()
                .unwrap()
        };
        let version = run(&["--version"]);
        assert_eq!(
            String::from_utf8_lossy(&version.stdout),
            "wasm-opt version 132 (fake)\n"
        );
        assert_eq!(calls(&dir), 0, "--version is answered without the real one");

        std::fs::write(dir.join("in.wasm"), "abc").unwrap();
        let optimize = |flags: &[&str], out: &str| {
            let mut args = flags.to_vec();
            args.extend(["in.wasm", "-o", out]);
            let output = run(&args);
            assert!(output.status.success(), "{output:?}");
            std::fs::read_to_string(dir.join(out)).unwrap()
        };
        assert_eq!(optimize(&["-O"], "1.wasm"), "-O cba");
        assert_eq!(calls(&dir), 1);
        assert_eq!(optimize(&["-O"], "2.wasm"), "-O cba");
        assert_eq!(calls(&dir), 1, "the same flags and input: from the cache");
        assert_eq!(optimize(&["-Oz"], "3.wasm"), "-Oz cba");
        assert_eq!(calls(&dir), 2, "other flags: optimized");
        std::fs::write(dir.join("in.wasm"), "abd").unwrap();
        assert_eq!(optimize(&["-O"], "4.wasm"), "-O dba");
        assert_eq!(calls(&dir), 3, "another input: optimized");

        // A failure is the real one's, and nothing is cached.
        let failed = run(&["--fail", "in.wasm", "-o", "5.wasm"]);
        assert_eq!(failed.status.code(), Some(3));
        assert!(String::from_utf8_lossy(&failed.stderr).contains("fake failure"));
        assert!(run(&["--fail", "in.wasm", "-o", "5.wasm"]).status.code() == Some(3));
        assert_eq!(calls(&dir), 5);
        // Another shape of arguments (a flag with a value) always runs the real one.
        let passed = run(&["--output-source-map", "x.map", "in.wasm", "-o", "6.wasm"]);
        assert!(passed.status.success());
        run(&["--output-source-map", "x.map", "in.wasm", "-o", "6.wasm"]);
        assert_eq!(calls(&dir), 7);
        assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 3);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn entries_unused_for_two_weeks_are_pruned() {
        let dir = scratch("wasm-opt-prune");
        std::fs::write(dir.join("a.wasm"), "a").unwrap();
        let now = SystemTime::now();
        prune(&dir, now + UNUSED_FOR / 2);
        assert!(dir.join("a.wasm").is_file());
        prune(&dir, now + UNUSED_FOR + Duration::from_secs(60));
        assert!(!dir.join("a.wasm").exists());
        prune(&dir.join("missing"), now);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The cache must stand in front of the wasm-opt cargo-bridge would run: a pin bumped
    /// in `binaryen.rs` alone would make the fixtures' builds run another binaryen.
    #[test]
    fn the_choice_of_wasm_opt_is_cargo_bridges() {
        let path = crate::fixtures::project_root().join("cargo-bridge/src/package/binaryen.rs");
        let source = std::fs::read_to_string(&path).unwrap();
        for line in [
            format!("pub const PINNED: &str = \"{BINARYEN}\";"),
            format!("pub const MIN_VERSION: u32 = {MIN_VERSION};"),
        ] {
            assert!(
                source.lines().any(|l| l.trim() == line),
                "{} has no `{line}`: change BINARYEN/MIN_VERSION in xtask/src/wasm_opt_cache.rs with it",
                path.display()
            );
        }
    }

    /// npm's binaryen (a Node script) runs with V8's baseline compiler only, also when
    /// named as a bare `wasm-opt` on `PATH` (as the size tables name it).
    #[test]
    fn a_node_script_wasm_opt_runs_with_liftoff_only() {
        let dir = scratch("wasm-opt-cache-node");
        let real = dir.join("wasm-opt");
        std::fs::write(
            &real,
            "#!/usr/bin/env node\n\
             const fs = require('node:fs');\n\
             const a = process.argv.slice(2);\n\
             fs.writeFileSync(a[a.length - 1], process.execArgv.join(' '));\n",
        )
        .unwrap();
        executable(&real).unwrap();
        std::fs::write(dir.join("in.wasm"), "abc").unwrap();
        let wrapper = Path::new(env!("CARGO_MANIFEST_DIR")).join("js/wasm-opt-cache.mjs");
        let path = std::env::join_paths(std::iter::once(dir.clone()).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )))
        .unwrap();
        for (named, out) in [
            (real.as_os_str(), "1.wasm"),
            ("wasm-opt".as_ref(), "2.wasm"),
        ] {
            let output = Command::new("node")
                .arg(&wrapper)
                .args(["-O", "in.wasm", "-o", out])
                .current_dir(&dir)
                .env("PATH", &path)
                .env("XTASK_WASM_OPT_REAL", named)
                .env("XTASK_WASM_OPT_VERSION", format!("node script {out}"))
                .env("XTASK_WASM_OPT_CACHE", dir.join("cache"))
                .output()
                .unwrap();
            assert!(output.status.success(), "{output:?}");
            assert_eq!(
                std::fs::read_to_string(dir.join(out)).unwrap(),
                "--liftoff-only",
                "{named:?}"
            );
        }
    }

    #[test]
    fn binaryens_version_line_is_read() {
        assert_eq!(
            parse_version("wasm-opt version 132 (version_132)\n"),
            Some(132)
        );
        assert_eq!(parse_version("wasm-opt version 108\n"), Some(108));
        assert_eq!(parse_version("nonsense"), None);
    }
}
