//! Phases of `cargo xtask test` run beside the others: after the cargo tests, the phases
//! that build into their own directories under `target/` (test-browser, test-packages,
//! test-bundlers) run one after another on a thread of their own while the main thread
//! runs the ones that write the fixtures' `pkg/` directories (the bench, test-types,
//! test-runtimes...). Each is `cargo xtask <phase>` as a child process of this binary,
//! its output going to `target/test-beside/<phase>.log` (printed when both lanes are done,
//! so neither's lines are cut into the other's; `tail -f` it meanwhile) and its seconds
//! to the phase table, marked `(beside)`.
//!
//! Why they share nothing: every output directory differs; the cargo builds they share
//! (the same fixture units, the same arguments) take turns on cargo's lock and find the
//! other's output fresh; the bench's builds after a touch, which do rewrite a module a
//! build of the other lane may read, hold [`crate::fixtures::TargetDirLock`] exclusively
//! while every fixture build holds it shared; the wasm-opt cache lands entries whole;
//! Chromium, the test servers and npm use a profile, port and scratch project each.

use crate::fixtures::project_root;
use crate::phases::Phases;
use anyhow::{Context, Result, bail};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::thread::JoinHandle;
use xshell::Shell;

/// The lane's phases (each a `cargo xtask` task of the same name), in order.
pub const PHASES: &[&str] = &["test-browser", "test-packages", "test-bundlers"];

/// The lane, running.
pub struct Lane {
    handle: JoinHandle<Result<()>>,
    logs: PathBuf,
}

/// Start [`PHASES`] on a thread, each as `<this binary> <phase>` with the variables the
/// earlier phases set on `sh` (the built cargo-bridge, npm binaryen's `PATH`).
pub fn start(sh: &Shell, phases: &Phases) -> Result<Lane> {
    let exe = std::env::current_exe().context("finding the xtask binary")?;
    let logs = project_root().join("target/test-beside");
    if logs.exists() {
        std::fs::remove_dir_all(&logs).with_context(|| format!("clearing {}", logs.display()))?;
    }
    std::fs::create_dir_all(&logs)?;
    let env: Vec<(&str, std::ffi::OsString)> = ["PATH", crate::fixtures::BUILT_BRIDGE_ENV]
        .into_iter()
        .filter_map(|name| sh.var_os(name).map(|value| (name, value)))
        .collect();
    eprintln!(
        "$ cargo xtask {{{}}} beside the phases below (output: {}/*.log, printed after them)",
        PHASES.join(", "),
        logs.display()
    );
    let phases = phases.clone();
    let dir = logs.clone();
    let handle = std::thread::spawn(move || -> Result<()> {
        for phase in PHASES {
            phases.run_beside(phase, || {
                let log = std::fs::File::create(dir.join(format!("{phase}.log")))?;
                let status = Command::new(&exe)
                    .arg(phase)
                    .current_dir(project_root())
                    .envs(env.iter().map(|(k, v)| (k, v)))
                    .stdin(Stdio::null())
                    .stdout(log.try_clone()?)
                    .stderr(log)
                    .status()
                    .with_context(|| format!("starting cargo xtask {phase}"))?;
                if !status.success() {
                    bail!("cargo xtask {phase} failed ({status}; its output is above)");
                }
                Ok(())
            })?;
        }
        Ok(())
    });
    Ok(Lane { handle, logs })
}

impl Lane {
    /// Wait for the lane, print each phase's output, hand back its first failure.
    pub fn finish(self) -> Result<()> {
        let result = self
            .handle
            .join()
            .map_err(|_| anyhow::anyhow!("the thread of the phases run beside panicked"))?;
        for phase in PHASES {
            let log = self.logs.join(format!("{phase}.log"));
            if let Ok(text) = std::fs::read_to_string(&log) {
                println!(
                    "\n----- cargo xtask {phase} (ran beside; {}) -----",
                    log.display()
                );
                print!("{text}");
                println!("----- end of cargo xtask {phase} -----");
            }
        }
        result
    }
}
