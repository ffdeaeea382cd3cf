//! `--peer wasm-bindgen`: builds `fixtures/bench/peer` (the scenarios written for
//! wasm-bindgen) with the `wasm-bindgen` CLI of the pinned version (installed into
//! `target/tools` on first use). Any missing piece is an `Err` that says what to do; the
//! caller skips the peer rows with that message.

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;
use xshell::{Shell, cmd};

/// Build the peer package; returns the path of its JS module.
pub fn build(sh: &Shell, root: &Path, quiet: bool) -> Result<PathBuf> {
    let out = root.join("fixtures/bench/peer/pkg");
    build_with(sh, root, quiet, "nodejs", &out)
}

/// Build the peer package for a `wasm-bindgen --target` into `out`; returns the path of
/// its JS module.
pub fn build_with(
    sh: &Shell,
    root: &Path,
    quiet: bool,
    target: &str,
    out: &Path,
) -> Result<PathBuf> {
    let dir = root.join("fixtures/bench/peer");
    let want = crate_version(&dir.join("Cargo.toml"))?;
    let cli = cli(sh, root, &want)?;
    eprintln!("bench: building the wasm-bindgen {want} peer (fixtures/bench/peer)");
    let manifest = dir.join("Cargo.toml");
    let quiet_flag: &[&str] = if quiet { &["--quiet"] } else { &[] };
    cmd!(
        sh,
        "cargo build {quiet_flag...} --release --target wasm32-unknown-unknown --manifest-path {manifest}"
    )
    .run()
    .context("building the peer crate")?;
    let wasm = dir.join("target/wasm32-unknown-unknown/release/bench_peer.wasm");
    cmd!(sh, "{cli} --target {target} --out-dir {out} {wasm}")
        .run()
        .context("running wasm-bindgen")?;
    Ok(out.join("bench_peer.js"))
}

/// The `wasm-bindgen` CLI at version `want`: the one on `PATH` if it is that version, else
/// the one `cargo bridge` installed into the bridge home, else the project's own copy under `target/tools`, installed there with `cargo install` on
/// first use (a few minutes; the CLI must match the crate version exactly).
pub fn cli(sh: &Shell, root: &Path, want: &str) -> Result<PathBuf> {
    if cli_version(Path::new("wasm-bindgen")).as_deref() == Some(want) {
        return Ok(PathBuf::from("wasm-bindgen"));
    }
    // The copy `cargo bridge` installs for fixtures/wasm-bindgen (same pin), if there.
    let shared =
        xtask::fixtures::bridge_home().join(format!("wasm-bindgen-cli-{want}/bin/wasm-bindgen"));
    if cli_version(&shared).as_deref() == Some(want) {
        return Ok(shared);
    }
    let tools = root.join("target/tools");
    let local = tools.join("bin/wasm-bindgen");
    if cli_version(&local).as_deref() == Some(want) {
        return Ok(local);
    }
    eprintln!(
        "bench: installing wasm-bindgen-cli {want} into {} (first use; takes a few minutes)",
        tools.display()
    );
    cmd!(
        sh,
        "cargo install --quiet --force wasm-bindgen-cli --version {want} --root {tools}"
    )
    .run()
    .with_context(|| {
        format!(
            "installing wasm-bindgen-cli {want} (or install it yourself: \
             `cargo install wasm-bindgen-cli --version {want}`)"
        )
    })?;
    match cli_version(&local) {
        Some(have) if have == want => Ok(local),
        have => bail!(
            "{} reports version {have:?} after installing wasm-bindgen-cli {want}",
            local.display()
        ),
    }
}

/// The version `wasm-bindgen --version` of `program` reports, if it runs.
fn cli_version(program: &Path) -> Option<String> {
    let output = Command::new(program).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    Some(text.split_whitespace().nth(1)?.to_string())
}

/// The `wasm-bindgen` version `fixtures/bench/peer` pins.
pub fn pinned_version(root: &Path) -> Result<String> {
    crate_version(&root.join("fixtures/bench/peer/Cargo.toml"))
}

/// The exact version the peer's manifest pins (`wasm-bindgen = "=X"`).
fn crate_version(manifest: &Path) -> Result<String> {
    let text = std::fs::read_to_string(manifest)
        .with_context(|| format!("reading {}", manifest.display()))?;
    text.lines()
        .find_map(|l| {
            let rest = l.trim().strip_prefix("wasm-bindgen")?.trim_start();
            let rest = rest.strip_prefix('=')?.trim();
            Some(rest.trim_matches('"').trim_start_matches('=').to_string())
        })
        .with_context(|| format!("no `wasm-bindgen = \"=X\"` pin in {}", manifest.display()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_the_pinned_version() {
        let manifest = xtask::fixtures::project_root().join("fixtures/bench/peer/Cargo.toml");
        assert_eq!(super::crate_version(&manifest).unwrap(), "0.2.130");
    }
}
