//! `cargo bridge test`: build each crate's unit tests for wasm (pipeline's `Mode::Test`:
//! `cfg(test)` and dev-dependencies, as `cargo test` compiles them; debug glue, no
//! package.json), then run them with the runner in `templates/test/`, in Node
//! (`node.mjs`) or, with `--chromium`, in a headless Chromium page (`browser.mjs` serves it
//! and collects the output): one build and one runtime start per crate. The runner prints
//! like libtest (101 when a test failed; so does `cargo bridge test`) and writes back what
//! ran; `not_run.rs` then names the declared tests that did not (`scan.rs`), and a crate
//! whose declared tests all stayed out is an error, never `ok`.

mod not_run;
mod scan;

use crate::cli::TestArgs;
use crate::pipeline::{self, Mode};
use anyhow::{Context, Result, bail};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const RUNNER: &[(&str, &str)] = &[
    (
        "harness.mjs",
        include_str!("../../../templates/test/harness.mjs"),
    ),
    ("node.mjs", include_str!("../../../templates/test/node.mjs")),
    (
        "browser.mjs",
        include_str!("../../../templates/test/browser.mjs"),
    ),
];

/// A test's time limit when neither `--test-timeout` nor `WASM_BINDGEN_TEST_TIMEOUT` (the
/// variable wasm-bindgen-test-runner reads, so a wasm-pack CI setting carries over) says.
const DEFAULT_TIMEOUT_SECS: u32 = 60;

/// What the runner writes back (harness.mjs `runTests`).
#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct RunResult {
    /// The tests run (ignored ones not), by the names the report printed.
    pub ran: Vec<String>,
    /// Every test the build holds.
    pub compiled: Vec<String>,
    pub ignored: usize,
    pub filtered_out: usize,
    /// Tests held but not runnable here (see `Plan::wbg_skip`).
    pub skipped: usize,
}

pub fn run(args: &TestArgs) -> Result<ExitCode> {
    // Before minutes of compiling: the hosts must be there.
    let node = find_program(&["node"], None).context(
        "cargo bridge test runs the tests with Node.js (also to drive Chromium), and `node` is \
         not on PATH: install Node.js 20 or later",
    )?;
    let chromium = if args.chromium {
        Some(
            find_program(
                &["chromium", "chromium-browser", "google-chrome"],
                Some("CHROMIUM"),
            )
            .context(
                "--chromium needs Chromium: install it (e.g. `apt-get install chromium`) or \
                     set CHROMIUM to its path",
            )?,
        )
    } else {
        None
    };
    let timeout_secs = timeout_secs(args.test_timeout)?;
    let packaged = pipeline::build_packages(&args.build_args(), Mode::Test)?;
    let mut failed = false;
    for package in &packaged {
        let runner = package.out_dir.join(".runner");
        write_runner(&runner)?;
        let results = runner.join("results.json");
        let _ = std::fs::remove_file(&results);
        let plan = serde_json::json!({
            "glue": package.out_dir.join(format!("{}.js", package.stem)),
            "wbg": serde_json::Value::Null,
            "options": {
                "filter": args.filter.clone().unwrap_or_default(),
                "exact": args.exact,
                "ignored": args.ignored,
                "includeIgnored": args.include_ignored,
                "timeoutMs": u64::from(timeout_secs) * 1000,
            },
            "results": results,
        });
        let plan_file = runner.join("plan.json");
        std::fs::write(&plan_file, plan.to_string())
            .with_context(|| format!("writing {}", plan_file.display()))?;
        let mut cmd = Command::new(&node);
        match &chromium {
            None => cmd.arg(runner.join("node.mjs")).arg(&plan_file),
            Some(chromium) => cmd
                .arg(runner.join("browser.mjs"))
                .arg(chromium)
                .arg(&plan_file),
        };
        if !args.quiet {
            eprintln!(
                "     Running tests of {} ({})",
                package.crate_name,
                if chromium.is_some() {
                    "headless Chromium"
                } else {
                    "Node"
                }
            );
        }
        let status = cmd
            .status()
            .with_context(|| format!("running {}", node.display()))?;
        match status.code() {
            Some(0) => {}
            Some(101) => failed = true,
            _ => bail!(
                "the test runner of `{}` failed ({status}); see its output above",
                package.crate_name
            ),
        }
        let result: RunResult = std::fs::read_to_string(&results)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .with_context(|| {
                format!(
                    "the test runner of `{}` wrote no results ({})",
                    package.crate_name,
                    results.display()
                )
            })?;
        let declared = scan::declared(&package.crate_dir);
        not_run::report(&package.crate_name, &package.stem, &declared, &result, None)?;
    }
    Ok(if failed {
        ExitCode::from(101)
    } else {
        ExitCode::SUCCESS
    })
}

fn timeout_secs(flag: Option<u32>) -> Result<u32> {
    if let Some(secs) = flag {
        return Ok(secs);
    }
    match std::env::var("WASM_BINDGEN_TEST_TIMEOUT") {
        Ok(text) => match text.trim().parse::<u32>() {
            Ok(secs) if secs > 0 => Ok(secs),
            _ => bail!(
                "WASM_BINDGEN_TEST_TIMEOUT is {text:?}, not a number of seconds (1 or more); \
                 fix or unset it, or pass --test-timeout SECS"
            ),
        },
        Err(_) => Ok(DEFAULT_TIMEOUT_SECS),
    }
}

fn write_runner(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    for (file, text) in RUNNER {
        let path = dir.join(file);
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// `$env_var` if set, else the first of `names` on PATH.
fn find_program(names: &[&str], env_var: Option<&str>) -> Result<PathBuf> {
    if let Some(path) = env_var.and_then(std::env::var_os) {
        let path = PathBuf::from(path);
        if path.is_file() {
            return Ok(path);
        }
        bail!(
            "{} is set to {}, which is not a file",
            env_var.unwrap_or_default(),
            path.display()
        );
    }
    let dirs = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&dirs) {
        for name in names {
            let path = dir.join(name);
            if path.is_file() {
                return Ok(path);
            }
        }
    }
    bail!("none of {} is on PATH", names.join(", "))
}
