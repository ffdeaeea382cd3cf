//! How long each phase of a build took, for `cargo xtask bench`'s build-cost section:
//! with `CARGO_BRIDGE_TIMINGS=<file>` set, a successful build writes the phases of every
//! crate it packaged to that file as JSON (`{"version": 1, "phases": [{"crate", "phase",
//! "part", "ms"}]}`); without it nothing is written. Each phase says which part of the
//! build it belongs to (`Phase::part`), so the split is cargo-bridge's own, not the
//! reader's guess. One build per process: the phases are collected in a global.

use anyhow::{Context, Result};
use serde_json::json;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The environment variable naming the JSON file.
pub const ENV: &str = "CARGO_BRIDGE_TIMINGS";

/// The steps of `pipeline::build_packages` and `postprocess::run`, in their order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// `cargo metadata` and reading the manifests' settings.
    Metadata,
    /// `rustc --print sysroot` (and `rustup target add` when the target is missing).
    WasmTarget,
    /// `cargo build --target wasm32-unknown-unknown`.
    Cargo,
    /// Reading the module and checking every import has a provider.
    ImportCheck,
    /// wasm-bindgen's CLI over the module (a crate that links wasm-bindgen).
    WasmBindgen,
    /// walrus parses the module; the export section is decoded.
    Decode,
    /// JS names, records against the module, runtime, signatures.
    Check,
    /// Identity modes and the walrus transforms.
    Transform,
    /// The glue model and its rendering.
    Glue,
    /// Unused glue-only exports removed, walrus GC, the module emitted.
    Emit,
    /// binaryen's `wasm-opt` (and the table-export repair after it).
    WasmOpt,
    /// Writing the package's files.
    Write,
}

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Phase::Metadata => "metadata",
            Phase::WasmTarget => "wasm-target",
            Phase::Cargo => "cargo",
            Phase::ImportCheck => "import-check",
            Phase::WasmBindgen => "wasm-bindgen",
            Phase::Decode => "decode",
            Phase::Check => "check",
            Phase::Transform => "transform",
            Phase::Glue => "glue",
            Phase::Emit => "emit",
            Phase::WasmOpt => "wasm-opt",
            Phase::Write => "write",
        }
    }

    /// The part of the build the phase counts toward: `cargo` (cargo and rustc),
    /// `bridge` (cargo-bridge's own post-process, glue and package), `wasm-opt`,
    /// `wasm-bindgen` (its CLI), `setup` (what runs before any crate is built).
    fn part(self) -> &'static str {
        match self {
            Phase::Metadata | Phase::WasmTarget => "setup",
            Phase::Cargo => "cargo",
            Phase::WasmBindgen => "wasm-bindgen",
            Phase::WasmOpt => "wasm-opt",
            Phase::ImportCheck
            | Phase::Decode
            | Phase::Check
            | Phase::Transform
            | Phase::Glue
            | Phase::Emit
            | Phase::Write => "bridge",
        }
    }
}

struct Entry {
    krate: String,
    phase: Phase,
    took: Duration,
}

static PHASES: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

fn record(krate: &str, phase: Phase, took: Duration) {
    let mut phases = PHASES.lock().unwrap_or_else(|e| e.into_inner());
    phases.push(Entry {
        krate: krate.to_string(),
        phase,
        took,
    });
}

/// Run `f` as `phase` of `krate`'s build ("" before any crate).
pub fn time<T>(krate: &str, phase: Phase, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    record(krate, phase, start.elapsed());
    out
}

/// Consecutive phases of one function: each `end` records the time since the previous
/// one (or since `start`), so the steps stay as they are written.
pub struct Laps<'a> {
    krate: &'a str,
    since: Instant,
}

impl<'a> Laps<'a> {
    pub fn start(krate: &'a str) -> Self {
        Laps {
            krate,
            since: Instant::now(),
        }
    }

    pub fn end(&mut self, phase: Phase) {
        let now = Instant::now();
        record(self.krate, phase, now - self.since);
        self.since = now;
    }
}

/// Write the phases recorded so far to the file `CARGO_BRIDGE_TIMINGS` names, if set.
pub fn write() -> Result<()> {
    let Some(path) = std::env::var_os(ENV) else {
        return Ok(());
    };
    let phases = PHASES.lock().unwrap_or_else(|e| e.into_inner());
    let text = serde_json::to_string_pretty(&to_json(&phases))? + "\n";
    std::fs::write(&path, text)
        .with_context(|| format!("writing the timings to {} ({ENV})", path.display()))
}

fn to_json(phases: &[Entry]) -> serde_json::Value {
    let phases: Vec<_> = phases
        .iter()
        .map(|e| {
            json!({
                "crate": e.krate,
                "phase": e.phase.name(),
                "part": e.phase.part(),
                "ms": e.took.as_secs_f64() * 1e3,
            })
        })
        .collect();
    json!({ "version": 1, "phases": phases })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laps_record_each_step_once_with_its_part() {
        let mut laps = Laps::start("demo");
        laps.end(Phase::Decode);
        laps.end(Phase::Glue);
        let phases = PHASES.lock().unwrap();
        let mine: Vec<&Entry> = phases.iter().filter(|e| e.krate == "demo").collect();
        assert_eq!(mine.len(), 2);
        assert_eq!(mine[0].phase, Phase::Decode);
        assert_eq!(mine[1].phase, Phase::Glue);
        let json = to_json(&phases);
        let glue = json["phases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["crate"] == "demo" && p["phase"] == "glue")
            .unwrap();
        assert_eq!(glue["part"], "bridge");
        assert!(glue["ms"].as_f64().unwrap() >= 0.0);
    }

    #[test]
    fn every_phase_counts_toward_a_known_part() {
        for phase in [Phase::Metadata, Phase::Cargo, Phase::WasmOpt, Phase::Emit] {
            assert!(
                ["setup", "cargo", "bridge", "wasm-opt", "wasm-bindgen"].contains(&phase.part()),
                "{phase:?}"
            );
        }
        assert_eq!(Phase::Cargo.part(), "cargo");
        assert_eq!(Phase::WasmOpt.part(), "wasm-opt");
    }
}
