//! `cargo bridge test`: which crates, and how (`plain.rs`: a crate without bridge-runtime
//! is tested as wasm-pack tests it). A bridge crate's unit tests are built for wasm
//! (pipeline's `Mode::Test`: `cfg(test)` and dev-dependencies, as `cargo test` compiles
//! them; debug glue, no package.json), then run (`host.rs`) with the runner in
//! `templates/test/`, in Node (`node.mjs`) or, with `--chromium`, in a headless Chromium
//! page (`browser.mjs` serves it and collects the output): one build and one runtime start
//! per crate, its `#[wasm_bindgen_test]`s (`wasm_info.rs`) beside its `#[bridge::test]`s in
//! one report. The runner prints
//! like libtest (101 when a test failed; so does `cargo bridge test`) and writes back what
//! ran; `not_run.rs` then names the declared tests that did not (`scan.rs`), and a crate
//! whose declared tests all stayed out is an error, never `ok`.

mod host;
mod not_run;
mod plain;
mod scan;
mod wasm_info;

use crate::cli::TestArgs;
use crate::pipeline::{self, Mode};
use anyhow::{Context, Result, bail};
use host::{Hosts, run_host};
use std::path::Path;
use std::process::ExitCode;

/// A test's time limit when neither `--test-timeout` nor `WASM_BINDGEN_TEST_TIMEOUT` (the
/// variable wasm-bindgen-test-runner reads, so a wasm-pack CI setting carries over) says.
const DEFAULT_TIMEOUT_SECS: u32 = 60;

pub fn run(args: &TestArgs) -> Result<ExitCode> {
    // Before minutes of compiling: the hosts must be there.
    let hosts = Hosts::find(args.chromium)?;
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
    for krate in &selection.bridge {
        let mut build_args = args.build_args();
        build_args.package = Some(krate.name.clone());
        let packaged = pipeline::build_packages(&build_args, Mode::Test)?;
        for package in &packaged {
            let declared = scan::declared(&package.crate_dir);
            let mut outcome = not_run::Outcome::default();
            let what = format!("unit tests of {}", package.crate_name);
            failed |= run_package(package, &what, &hosts, &options, &mut outcome, args.quiet)?;
            // Its integration tests with #[bridge::test]s, each built and run as one more
            // package (tests/*.rs are crates of their own).
            for (test, file) in &krate.integration_tests {
                let has_bridge_tests = declared
                    .iter()
                    .any(|d| d.integration && d.kind == scan::Kind::Bridge && d.file == *file);
                if !has_bridge_tests {
                    continue;
                }
                let built = pipeline::build_integration_test(&build_args, test)?;
                let what = format!("{} of {}", file.display(), krate.name);
                failed |= run_package(&built, &what, &hosts, &options, &mut outcome, args.quiet)?;
                outcome.integration_files.push(file.clone());
            }
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

/// Runs one test package of a bridge crate (its unit tests, or an integration test): its
/// `#[wasm_bindgen_test]`s (a crate linking wasm-bindgen-test) beside its `#[bridge::test]`s,
/// unless configured for another host. Whether a test failed; what ran goes to `outcome`.
fn run_package(
    package: &pipeline::Packaged,
    what: &str,
    hosts: &Hosts,
    options: &serde_json::Value,
    outcome: &mut not_run::Outcome,
    quiet: bool,
) -> Result<bool> {
    let glue = package.out_dir.join(format!("{}.js", package.stem));
    let wasm = package_wasm(&package.out_dir, &package.stem)?;
    let info = wasm_info::read(&wasm)
        .with_context(|| format!("reading the test module of `{}`", package.crate_name))?;
    let skip = wasm_info::skip_reason(info.host, hosts.chromium.is_some());
    if let Some(why) = skip
        && !info.wbg_tests.is_empty()
    {
        outcome
            .skipped
            .push((info.wbg_tests.len(), why.to_string()));
        outcome.compiled.extend(info.wbg_tests);
    }
    let (failed, result) = run_host(
        hosts,
        &package.out_dir.join(".runner"),
        serde_json::json!({
            "glue": glue,
            "wbg": { "glue": null, "wasm": null, "skip": skip },
        }),
        options,
        what,
        quiet,
    )?;
    outcome.add(result);
    Ok(failed)
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
