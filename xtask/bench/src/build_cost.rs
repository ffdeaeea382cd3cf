//! The build-cost section's measuring (issue 24): how long `cargo bridge build --release`
//! takes after one source file of a crate was touched, split by cargo-bridge itself into
//! cargo (the wasm32 build), its own post-process + glue, and wasm-opt (it writes its
//! phases to the file `CARGO_BRIDGE_TIMINGS` names; `cargo-bridge/src/timings.rs`).
//! Crates: the bundled example (`fixtures/example`), and generated crates of 1, 10, 100
//! and 1,000 copies of the size table's class (`size::bridge_source`), with wasm-opt on,
//! under `target/bench-build/`, built into the fixtures' target directory (same release
//! profile: the runtime compiles once).

use crate::model::{BuildCost, BuildTiming, PhaseTime};
use crate::size;
use anyhow::{Context, Result, bail};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};
use xshell::Shell;
use xtask::fixtures::{CargoBridge, TargetDirLock, fixtures_target_dir};

/// Class counts of the generated crates.
pub const CLASS_COUNTS: [usize; 4] = [1, 10, 100, 1000];

/// The environment variable cargo-bridge writes its phases under (`timings::ENV`).
const TIMINGS_ENV: &str = "CARGO_BRIDGE_TIMINGS";

/// What to build: the example `example_runs` times (the median total is kept; a warm-up
/// build first when `warm`), then each generated crate of `counts` once.
pub struct Plan<'a> {
    pub example_runs: u32,
    pub warm: bool,
    pub counts: &'a [usize],
    /// `cargo_bridge` was built with `--release`.
    pub release_cli: bool,
}

pub fn measure(
    sh: &Shell,
    root: &Path,
    cargo_bridge: &CargoBridge,
    plan: &Plan,
) -> Result<BuildCost> {
    let base = root.join("target/bench-build");
    std::fs::create_dir_all(&base)?;
    let timings = base.join("timings.json");
    // Its touches rewrite modules other fixture builds may be reading (`TargetDirLock`).
    let _turn = TargetDirLock::exclusive()?;
    let example = Build {
        manifest: root.join("fixtures/Cargo.toml"),
        package: Some("example"),
        touch: root.join("fixtures/example/src/lib.rs"),
        out_dir: base.join("example/pkg"),
    };
    if plan.warm && plan.example_runs > 0 {
        eprintln!("bench: build: warming up with the example");
        example.run(sh, cargo_bridge, &timings)?;
    }
    let mut runs = Vec::new();
    for i in 0..plan.example_runs {
        eprintln!(
            "bench: build: the example after a touch ({}/{})",
            i + 1,
            plan.example_runs
        );
        runs.push(example.run(sh, cargo_bridge, &timings)?);
    }
    runs.sort_by(|a, b| a.total_ms.total_cmp(&b.total_ms));
    let example = (!runs.is_empty()).then(|| runs.swap_remove(runs.len() / 2));

    let classes = class_crates(sh, root, cargo_bridge, plan.counts, &base, &timings)?;
    Ok(BuildCost {
        example,
        classes,
        runs: plan.example_runs,
        release_cli: plan.release_cli,
    })
}

/// One generated crate of `n` classes per count, each built once after a touch.
fn class_crates(
    sh: &Shell,
    root: &Path,
    cargo_bridge: &CargoBridge,
    counts: &[usize],
    base: &Path,
    timings: &Path,
) -> Result<Vec<(usize, BuildTiming)>> {
    let deps = format!(
        "bridge-runtime = {{ path = {:?} }}",
        root.join("bridge-runtime").display().to_string()
    );
    let mut classes = Vec::new();
    for &n in counts {
        eprintln!("bench: build: {n} class(es) after a touch");
        let name = format!("build{n}");
        let dir = base.join(&name);
        let manifest = size::write_crate(
            &dir,
            &name,
            &deps,
            "identity-mode = \"rust\"\n",
            &size::bridge_source(n),
            true,
        )?;
        let build = Build {
            manifest,
            package: None,
            touch: dir.join("src/lib.rs"),
            out_dir: dir.join("pkg"),
        };
        let timing = build
            .run(sh, cargo_bridge, timings)
            .with_context(|| format!("building the {n}-class crate"))?;
        classes.push((n, timing));
    }
    Ok(classes)
}

/// One crate to rebuild.
struct Build {
    manifest: PathBuf,
    package: Option<&'static str>,
    /// The source file touched before the build.
    touch: PathBuf,
    out_dir: PathBuf,
}

impl Build {
    /// Touch the source file, build, read cargo-bridge's phases.
    fn run(&self, sh: &Shell, cargo_bridge: &CargoBridge, timings: &Path) -> Result<BuildTiming> {
        touch(&self.touch)?;
        let _ = std::fs::remove_file(timings);
        let mut cmd = cargo_bridge
            .cmd(sh)
            .args(["build", "--quiet", "--release", "--manifest-path"])
            .arg(&self.manifest)
            .arg("--out-dir")
            .arg(&self.out_dir)
            .env("CARGO_TARGET_DIR", fixtures_target_dir())
            .env(TIMINGS_ENV, timings);
        if let Some(package) = self.package {
            cmd = cmd.args(["-p", package]);
        }
        let start = Instant::now();
        cmd.run()
            .with_context(|| format!("building {}", self.manifest.display()))?;
        let total_ms = start.elapsed().as_secs_f64() * 1e3;
        let text = std::fs::read_to_string(timings).with_context(|| {
            format!(
                "reading {} (cargo-bridge writes it under {TIMINGS_ENV})",
                timings.display()
            )
        })?;
        Ok(BuildTiming {
            total_ms,
            phases: parse_timings(&text)?,
        })
    }
}

/// A new modification time, as `touch` gives it: cargo rebuilds the crate.
fn touch(path: &Path) -> Result<()> {
    std::fs::File::options()
        .append(true)
        .open(path)
        .and_then(|f| f.set_modified(SystemTime::now()))
        .with_context(|| format!("touching {}", path.display()))
}

#[derive(Deserialize)]
struct TimingsFile {
    version: u32,
    phases: Vec<PhaseTime>,
}

/// cargo-bridge's timings file (`{"version": 1, "phases": [...]}`).
fn parse_timings(text: &str) -> Result<Vec<PhaseTime>> {
    let file: TimingsFile =
        serde_json::from_str(text).context("reading cargo-bridge's timings file")?;
    if file.version != 1 {
        bail!(
            "cargo-bridge's timings file has version {}, this bench reads version 1",
            file.version
        );
    }
    Ok(file.phases)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timings_file_reads_into_phases_and_parts_sum() {
        let phases = parse_timings(
            r#"{"version": 1, "phases": [
                {"crate": "", "phase": "metadata", "part": "setup", "ms": 50.0},
                {"crate": "x", "phase": "cargo", "part": "cargo", "ms": 1000.0},
                {"crate": "x", "phase": "decode", "part": "bridge", "ms": 10.0},
                {"crate": "x", "phase": "glue", "part": "bridge", "ms": 20.0},
                {"crate": "x", "phase": "wasm-opt", "part": "wasm-opt", "ms": 300.0}
            ]}"#,
        )
        .unwrap();
        let t = BuildTiming {
            total_ms: 1400.0,
            phases,
        };
        assert_eq!(t.part("bridge"), 30.0);
        assert_eq!(t.part("cargo"), 1000.0);
        assert_eq!(t.phase("glue"), 20.0);
        assert_eq!(t.part("wasm-bindgen"), 0.0);
    }

    #[test]
    fn another_version_of_the_file_is_an_error_naming_both() {
        let err = parse_timings(r#"{"version": 2, "phases": []}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "cargo-bridge's timings file has version 2, this bench reads version 1"
        );
    }

    #[test]
    fn touching_moves_the_modification_time_and_keeps_the_text() {
        let dir = std::env::temp_dir().join(format!("xtask-touch-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("lib.rs");
        std::fs::write(&file, "fn main() {}").unwrap();
        let old = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
        std::fs::File::options()
            .append(true)
            .open(&file)
            .unwrap()
            .set_modified(old)
            .unwrap();
        touch(&file).unwrap();
        let modified = std::fs::metadata(&file).unwrap().modified().unwrap();
        assert!(modified > old);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "fn main() {}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
