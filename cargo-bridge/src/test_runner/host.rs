//! Running a test module's plan in a host: the runner of `templates/test/` written beside
//! it, Node (`node.mjs`) or Node driving headless Chromium (`browser.mjs`), and what it
//! writes back.

use anyhow::{Context, Result, bail};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::Command;

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

/// The hosts a run needs, found before anything is compiled.
pub struct Hosts {
    node: PathBuf,
    pub chromium: Option<PathBuf>,
}

impl Hosts {
    /// Node, and with `chromium` Chromium too: a clear error naming the fix if missing.
    pub fn find(chromium: bool) -> Result<Hosts> {
        let node = find_program(&["node"], None).context(
            "cargo bridge test runs the tests with Node.js (also to drive Chromium), and `node` is \
             not on PATH: install Node.js 20 or later",
        )?;
        let chromium = if chromium {
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
        Ok(Hosts { node, chromium })
    }
}

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

/// Runs one test module's plan (`glue`, `wbg`; see `templates/test/node.mjs`) in the host:
/// whether a test failed, and what ran.
pub fn run_host(
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
