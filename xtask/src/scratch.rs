//! Scratch npm projects, as users make them: `npm pack` a built package, install the
//! tarball into a consumer project, and read the JSON line a consumer program printed.
//! Shared by `packages.rs`, `runtimes.rs` and `bundlers.rs`.

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use xshell::{Shell, cmd};

/// `npm pack` the package in `pkg` into `dest`; the tarball's path.
pub fn pack(sh: &Shell, pkg: &Path, dest: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(dest)?;
    let _cd = sh.push_dir(pkg);
    let name = cmd!(
        sh,
        "npm pack --silent --pack-destination {dest} --loglevel=error"
    )
    .read()
    .context("npm pack")?;
    let tarball = dest.join(name.trim());
    if !tarball.is_file() {
        bail!("npm pack did not write {}", tarball.display());
    }
    Ok(tarball)
}

/// A scratch project depending on the tarball, installed as a user would.
pub fn consumer_project(sh: &Shell, dir: &Path, name: &str, tarball: &Path) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    let manifest = json!({
        "name": "bridge-consumer",
        "private": true,
        "type": "module",
        "dependencies": { name: format!("file:{}", tarball.display()) },
    });
    std::fs::write(
        dir.join("package.json"),
        serde_json::to_string_pretty(&manifest)?,
    )?;
    let _cd = sh.push_dir(dir);
    cmd!(
        sh,
        "npm install --no-audit --no-fund --no-package-lock --loglevel=error"
    )
    .run()
    .context("npm install of the packed tarball")?;
    Ok(())
}

pub fn expect(out: &str, want: Value, what: &str) -> Result<()> {
    let line = out.lines().last().unwrap_or_default();
    let got: Value = serde_json::from_str(line)
        .with_context(|| format!("{what} printed no JSON result: {out}"))?;
    if got != want {
        bail!("{what}: expected {want}, got {got}");
    }
    Ok(())
}
