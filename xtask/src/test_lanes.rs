//! The `cargo test` phase of `cargo xtask test` as two `cargo test --workspace` runs side by
//! side rather than one: cargo runs its test binaries one after another, and the slowest
//! ones leave a core idle for much of their time (a few tests each, most of it one `cargo
//! build` of a scratch crate at a time, or waiting on a timeout, Node or Chromium). The
//! side lane runs those binaries ([`SIDE`]); the main lane runs every other one (named from
//! the test build's own messages, so a new test file lands in it); the doc tests run after
//! whichever lane ends first.
//! Both name `--workspace` and the test build's `clippy-driver` (`clippy::LintedBuild`), so
//! features resolve as in the test build and nothing compiles again; the CLI tests already run in parallel within a binary (each builds crates named
//! as no other test's), so two binaries at once share nothing either.

use anyhow::{Result, bail};
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use xshell::{Shell, cmd};

/// The integration-test binaries of the side lane: together about as long as all the
/// others (fresh clone: ~210 s against ~250 s; nothing changed: ~110 s against ~90 s).
pub const SIDE: &[&str] = &["new", "bridge_test", "wbg_test", "with_wasm_bindgen"];

/// The `cargo test --workspace --quiet` arguments of each lane: the side lane's, then the
/// main lane's (every library and binary's unit tests and every other integration test).
/// The doc tests (`--doc`, which mixes with no other target flag) run after either lane.
pub fn lanes(messages: &str) -> Result<(Vec<String>, Vec<String>)> {
    let tests = integration_tests(messages);
    if let Some(missing) = SIDE.iter().find(|name| !tests.iter().any(|t| t == *name)) {
        bail!(
            "the test build made no integration test `{missing}`: rename it in `SIDE` \
             (xtask/src/test_lanes.rs) too"
        );
    }
    let side = SIDE
        .iter()
        .flat_map(|name| ["--test".to_string(), name.to_string()])
        .collect();
    let mut main = vec!["--lib".to_string(), "--bins".to_string()];
    for name in tests.iter().filter(|t| !SIDE.contains(&t.as_str())) {
        main.extend(["--test".to_string(), name.clone()]);
    }
    Ok((side, main))
}

/// The integration tests (`kind: ["test"]` targets) in `cargo test --no-run
/// --message-format=json` output, each name once.
fn integration_tests(messages: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in messages.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if message["reason"] == "compiler-artifact"
            && message["target"]["kind"] == serde_json::json!(["test"])
            && let Some(name) = message["target"]["name"].as_str()
            && !names.iter().any(|n| n == name)
        {
            names.push(name.to_string());
        }
    }
    names
}

/// What every `cargo test` of the cargo test phase is run with.
pub struct Lanes<'a> {
    pub chromium: &'a std::path::Path,
    pub bridge: &'a std::path::Path,
    /// The test build's (`clippy::LintedBuild`): with other arguments cargo would build
    /// the workspace's crates again.
    pub lint_args: &'a [String],
    pub lint_env: [(&'static str, &'static str); 1],
}

impl Lanes<'_> {
    /// `cargo test --workspace <args>`, as the test build built it.
    fn command(&self, sh: &Shell, args: &[&str]) -> Command {
        let mut command = Command::new("cargo");
        command
            .args(["test", "--workspace", "--quiet"])
            .args(self.lint_args)
            .args(args)
            .current_dir(sh.current_dir())
            .envs(self.lint_env)
            .env("CHROMIUM", self.chromium)
            .env(crate::fixtures::BUILT_BRIDGE_ENV, self.bridge);
        command
    }

    /// The side lane on a thread: its tests, then the doc tests if the main lane has not
    /// claimed them; the output of each, printed by [`Lanes::run`].
    fn spawn_side(
        &self,
        sh: &Shell,
        side: &[String],
        doc_claimed: Arc<AtomicBool>,
    ) -> JoinHandle<std::io::Result<Vec<Output>>> {
        let mut tests = self.command(sh, &side.iter().map(String::as_str).collect::<Vec<_>>());
        let mut doc = self.command(sh, &["--doc"]);
        std::thread::spawn(move || {
            let tests = tests.output()?;
            if !tests.status.success() || !claim(&doc_claimed) {
                return Ok(vec![tests]);
            }
            Ok(vec![tests, doc.output()?])
        })
    }

    /// `cargo test --workspace` as two lanes side by side (`test_lanes.rs`), then the doc
    /// tests in whichever lane ends first (which one does differs from machine to machine
    /// and from a fresh clone to a warm one); the side lane's output is printed when both
    /// are done, so neither's lines are cut into the other's. The main lane ends with the
    /// runtime's unit tests as rustc alone built them (see `tasks.rs` `test_build`).
    pub fn run(&self, sh: &Shell, side: &[String], main: &[String]) -> Result<()> {
        eprintln!(
            "$ cargo test --workspace --quiet {} (output below)",
            side.join(" ")
        );
        let doc_claimed = Arc::new(AtomicBool::new(false));
        let side_lane = self.spawn_side(sh, side, doc_claimed.clone());
        let run = |args: &[&str]| -> Result<()> {
            eprintln!("$ cargo test --workspace --quiet {}", args.join(" "));
            let status = self.command(sh, args).status()?;
            if !status.success() {
                bail!(
                    "cargo test --workspace {} failed ({status})",
                    args.join(" ")
                );
            }
            Ok(())
        };
        let main_lane = run(&main.iter().map(String::as_str).collect::<Vec<_>>())
            .and_then(|()| {
                if claim(&doc_claimed) {
                    run(&["--doc"])
                } else {
                    Ok(())
                }
            })
            .and_then(|()| plain_runtime_tests(sh));
        let side_lane = side_lane
            .join()
            .map_err(|_| anyhow::anyhow!("the side lane of cargo test panicked"))??;
        for run in &side_lane {
            print!("{}", String::from_utf8_lossy(&run.stdout));
            eprint!("{}", String::from_utf8_lossy(&run.stderr));
        }
        main_lane?;
        if let Some(failed) = side_lane.iter().find(|run| !run.status.success()) {
            let what = if side_lane.len() == 2 && !side_lane[1].status.success() {
                "--doc".to_string()
            } else {
                side.join(" ")
            };
            bail!(
                "cargo test --workspace {what} failed ({}; its output is above)",
                failed.status
            );
        }
        Ok(())
    }
}

/// The runtime's unit tests built by rustc alone, with a debug build's checks of every
/// raw pointer dereference (which clippy-driver leaves out).
fn plain_runtime_tests(sh: &Shell) -> Result<()> {
    cmd!(sh, "cargo test --package bridge-runtime --lib --quiet").run()?;
    Ok(())
}

/// Whether this call is the first to claim the doc tests.
fn claim(claimed: &AtomicBool) -> bool {
    !claimed.swap(true, Ordering::SeqCst)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn artifact(kind: &str, name: &str) -> String {
        format!(
            r#"{{"reason":"compiler-artifact","target":{{"name":"{name}","kind":["{kind}"]}},"profile":{{"test":true}}}}"#
        )
    }

    #[test]
    fn every_integration_test_runs_in_exactly_one_lane_and_units_in_the_main_one() {
        let mut messages: Vec<String> = SIDE.iter().map(|n| artifact("test", n)).collect();
        messages.extend([
            artifact("test", "cli"),
            artifact("test", "ui"),
            artifact("bin", "cargo-bridge"),
            artifact("lib", "xtask"),
            "not json".to_string(),
            // Built twice (a test and its bench profile): still one `--test`.
            artifact("test", "cli"),
        ]);
        let (side, main) = lanes(&messages.join("\n")).unwrap();
        let tests = |args: &[String]| -> Vec<String> {
            args.windows(2)
                .filter(|w| w[0] == "--test")
                .map(|w| w[1].clone())
                .collect()
        };
        assert_eq!(tests(&side), SIDE);
        assert_eq!(tests(&main), ["cli", "ui"]);
        assert_eq!(&main[..2], ["--lib", "--bins"]);
        assert!(!side.contains(&"--lib".to_string()));
    }

    #[test]
    fn a_side_lane_test_the_build_did_not_make_is_an_error_naming_it() {
        let messages: Vec<String> = SIDE[1..].iter().map(|n| artifact("test", n)).collect();
        let err = lanes(&messages.join("\n")).unwrap_err().to_string();
        assert!(err.contains(&format!("`{}`", SIDE[0])), "{err}");
    }
}
