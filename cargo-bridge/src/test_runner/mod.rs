//! `cargo bridge test`: build each crate's unit tests for wasm (pipeline's `Mode::Test`:
//! `cfg(test)` and dev-dependencies, as `cargo test` compiles them; debug glue, no
//! package.json), then run them with the runner in `templates/test/`, in Node
//! (`node.mjs`) or, with `--chromium`, in a headless Chromium page (`browser.mjs` serves it
//! and collects the output): one build and one runtime start per crate. The runner prints
//! like libtest (101 when a test failed; so does `cargo bridge test`) and writes back what
//! ran; `not_run.rs` then names the declared tests that did not (`scan.rs`), and a crate
//! whose declared tests all stayed out is an error, never `ok`.

mod not_run;
mod plain;
mod scan;
mod wasm_info;

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
}

/// The hosts a run needs, found before anything is compiled.
pub struct Hosts {
    node: PathBuf,
    chromium: Option<PathBuf>,
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
    let hosts = Hosts { node, chromium };
    let timeout_secs = timeout_secs(args.test_timeout)?;
    let options = serde_json::json!({
        "filter": args.filter.clone().unwrap_or_default(),
        "exact": args.exact,
        "ignored": args.ignored,
        "includeIgnored": args.include_ignored,
        "timeoutMs": u64::from(timeout_secs) * 1000,
    });
    let selection = plain::select(args)?;
    let mut failed = false;
    for name in &selection.bridge {
        let mut build_args = args.build_args();
        build_args.package = Some(name.clone());
        let packaged = pipeline::build_packages(&build_args, Mode::Test)?;
        for package in &packaged {
            let glue = package.out_dir.join(format!("{}.js", package.stem));
            // Its #[wasm_bindgen_test]s (a crate linking wasm-bindgen-test) run beside
            // the #[bridge::test]s, unless configured for another host.
            let wasm = package_wasm(&package.out_dir, &package.stem)?;
            let info = wasm_info::read(&wasm)
                .with_context(|| format!("reading the test module of `{}`", package.crate_name))?;
            let skip = plain::skip_reason(info.host, hosts.chromium.is_some());
            let mut outcome = not_run::Outcome::default();
            if let Some(why) = skip
                && !info.wbg_tests.is_empty()
            {
                outcome
                    .skipped
                    .push((info.wbg_tests.len(), why.to_string()));
                outcome.compiled.extend(info.wbg_tests);
            }
            let (package_failed, result) = run_host(
                &hosts,
                &package.out_dir.join(".runner"),
                serde_json::json!({
                    "glue": glue,
                    "wbg": { "glue": null, "wasm": null, "skip": skip },
                }),
                &options,
                &format!("tests of {}", package.crate_name),
                args.quiet,
            )?;
            failed |= package_failed;
            outcome.add(result);
            let declared = scan::declared(&package.crate_dir);
            not_run::report(&package.crate_name, &package.stem, &declared, &outcome)?;
        }
    }
    for krate in &selection.plain {
        failed |= plain::run(krate, args, &hosts, &options)?;
    }
    Ok(if failed {
        ExitCode::from(101)
    } else {
        ExitCode::SUCCESS
    })
}

/// Runs one test module's plan (`glue`, `wbg`; see `templates/test/node.mjs`) in the host:
/// whether a test failed, and what ran.
fn run_host(
    hosts: &Hosts,
    runner: &Path,
    mut plan: serde_json::Value,
    options: &serde_json::Value,
    what: &str,
    quiet: bool,
) -> Result<(bool, RunResult)> {
    write_runner(runner)?;
    let results = runner.join("results.json");
    let _ = std::fs::remove_file(&results);
    plan["options"] = options.clone();
    plan["results"] = serde_json::json!(results);
    let plan_file = runner.join("plan.json");
    std::fs::write(&plan_file, plan.to_string())
        .with_context(|| format!("writing {}", plan_file.display()))?;
    let mut cmd = Command::new(&hosts.node);
    match &hosts.chromium {
        None => cmd.arg(runner.join("node.mjs")).arg(&plan_file),
        Some(chromium) => cmd
            .arg(runner.join("browser.mjs"))
            .arg(chromium)
            .arg(&plan_file),
    };
    if !quiet {
        eprintln!(
            "     Running {what} ({})",
            if hosts.chromium.is_some() {
                "headless Chromium"
            } else {
                "Node"
            }
        );
    }
    let status = cmd
        .status()
        .with_context(|| format!("running {}", hosts.node.display()))?;
    let failed = match status.code() {
        Some(0) => false,
        Some(101) => true,
        _ => bail!("the test runner of {what} failed ({status}); see its output above"),
    };
    let result: RunResult = std::fs::read_to_string(&results)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .with_context(|| {
            format!(
                "the test runner of {what} wrote no results ({})",
                results.display()
            )
        })?;
    Ok((failed, result))
}

/// The bytes of the module a test package holds (`<stem>.wasm`, or `<stem>_bg.wasm`).
fn package_wasm(out_dir: &Path, stem: &str) -> Result<Vec<u8>> {
    for name in [format!("{stem}.wasm"), format!("{stem}_bg.wasm")] {
        if let Ok(bytes) = std::fs::read(out_dir.join(&name)) {
            return Ok(bytes);
        }
    }
    bail!(
        "the test package in {} has no {stem}.wasm",
        out_dir.display()
    )
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
