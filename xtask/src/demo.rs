//! `cargo xtask demo`: the outline editor in `examples/outline/` (a Rust-owned tree whose
//! page memoizes rendered rows by node object), built with `cargo bridge build --release
//! --target web` into `examples/outline/www/pkg/`, then served on 127.0.0.1 (the URL is
//! printed) until interrupted.
//!
//! `--no-serve` (and `cargo xtask test`) instead drives the page in headless Chromium
//! (`xtask/js/demo/drive.mjs`: clicks, checks the DOM text) and writes the README's
//! screenshot, `docs/demo.png`.

use crate::fixtures::{build_fixture_with, install_cargo_bridge, project_root};
use crate::js_tools;
use anyhow::{Context, Result};
use std::path::PathBuf;
use xshell::{Shell, cmd};

#[derive(clap::Args)]
pub struct DemoArgs {
    /// Build, drive the page in headless Chromium and write docs/demo.png, instead of serving
    #[arg(long)]
    no_serve: bool,
    /// Port to serve on (default: a free one)
    #[arg(long, default_value_t = 0)]
    port: u16,
}

pub fn run(sh: &Shell, args: &DemoArgs) -> Result<()> {
    if args.no_serve {
        return test(sh);
    }
    let www = build(sh)?;
    let serve = js_tools::js_dir().join("demo/serve.mjs");
    let port = args.port.to_string();
    cmd!(sh, "node {serve} {www} {port}").run()?;
    Ok(())
}

/// Build the demo and drive it in Chromium; writes `docs/demo.png`.
pub fn test(sh: &Shell) -> Result<()> {
    let js = js_tools::npm_packages(sh)?;
    let chromium = js_tools::chromium(sh)?;
    let www = build(sh)?;
    let drive = js.join("demo/drive.mjs");
    let screenshot = project_root().join("docs/demo.png");
    cmd!(sh, "node {drive} {www} {chromium} {screenshot}")
        .run()
        .context("the outline demo failed in Chromium (see the `demo:` line above)")?;
    Ok(())
}

/// `cargo bridge build --release --target web` of the demo; returns its `www/`.
fn build(sh: &Shell) -> Result<PathBuf> {
    js_tools::wasm_opt(sh)?;
    let bridge = install_cargo_bridge(sh)?;
    let dir = project_root().join("examples/outline");
    let www = dir.join("www");
    let out_dir = www.join("pkg").display().to_string();
    build_fixture_with(
        sh,
        &bridge,
        &dir.join("Cargo.toml"),
        Some("outline-demo"),
        &["--release", "--target", "web", "--out-dir", &out_dir],
    )?;
    Ok(www)
}
