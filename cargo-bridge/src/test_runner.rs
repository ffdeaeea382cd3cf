//! `cargo bridge test`: build the crate with its `#[bridge::test]` exports (pipeline's
//! `Mode::Test`: debug glue, no package.json), then run them with the runner in
//! `templates/test/`: in Node (`node.mjs`) or, with `--chromium`, in a headless Chromium
//! page (`browser.mjs` serves it and collects the output). The runner prints like libtest
//! and exits 101 when a test failed; so does `cargo bridge test`.

use crate::cli::TestArgs;
use crate::pipeline::{self, Mode};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const RUNNER: &[(&str, &str)] = &[
    (
        "harness.mjs",
        include_str!("../../templates/test/harness.mjs"),
    ),
    ("node.mjs", include_str!("../../templates/test/node.mjs")),
    (
        "browser.mjs",
        include_str!("../../templates/test/browser.mjs"),
    ),
];

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
    let packaged = pipeline::build_packages(&args.build_args(), Mode::Test)?;
    let mut failed = false;
    for package in &packaged {
        let runner = package.out_dir.join(".runner");
        write_runner(&runner)?;
        let glue = format!("{}.js", package.stem);
        let filter = args.filter.clone().unwrap_or_default();
        let mut cmd = Command::new(&node);
        match &chromium {
            None => cmd
                .arg(runner.join("node.mjs"))
                .arg(package.out_dir.join(&glue))
                .arg(&filter),
            Some(chromium) => cmd
                .arg(runner.join("browser.mjs"))
                .arg(chromium)
                .arg(&package.out_dir)
                .arg(&glue)
                .arg(&filter),
        };
        if !args.quiet {
            eprintln!(
                "     Running #[bridge::test]s of {} ({})",
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
    }
    Ok(if failed {
        ExitCode::from(101)
    } else {
        ExitCode::SUCCESS
    })
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
