//! The outside tools the JS-ecosystem checks drive, installed on first use:
//! the npm packages pinned in `xtask/js/package.json` (playwright-core, typescript, vite),
//! the runtimes pinned in `xtask/js/runtimes/package.json` (deno, bun, Node 18), the
//! bundlers pinned in `xtask/js/bundlers/package.json` (webpack, esbuild, rollup)
//! Debian's `chromium` when the process may install it, and npm's `binaryen` (wasm-opt)
//! where cargo-bridge itself installs it (see `cargo-bridge/src/package/binaryen.rs`).

use crate::fixtures::project_root;
use crate::wasm_opt_cache::BINARYEN;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::sync::Once;
use xshell::{Shell, cmd};

/// `xtask/js/`: the pinned package.json and, once installed, its node_modules.
pub fn js_dir() -> PathBuf {
    project_root().join("xtask/js")
}

/// Install the pinned npm packages unless node_modules matches the lockfile already.
/// Returns `xtask/js/`.
pub fn npm_packages(sh: &Shell) -> Result<PathBuf> {
    let dir = js_dir();
    install_pinned(sh, &dir)?;
    Ok(dir)
}

/// The JS runtimes pinned in `xtask/js/runtimes/package.json` (Deno, Bun, Node 18; their
/// npm packages carry the binaries), installed on first use. Returns their `.bin` folder.
pub fn runtimes(sh: &Shell) -> Result<PathBuf> {
    let dir = js_dir().join("runtimes");
    install_pinned(sh, &dir)?;
    Ok(dir.join("node_modules/.bin"))
}

/// The bundlers pinned in `xtask/js/bundlers/package.json` (webpack, esbuild, Rollup and
/// its plugins), installed on first use. Returns `xtask/js/bundlers/`.
pub fn bundlers(sh: &Shell) -> Result<PathBuf> {
    let dir = js_dir().join("bundlers");
    install_pinned(sh, &dir)?;
    Ok(dir)
}

/// `npm ci` in `dir` unless its node_modules matches the lockfile already.
fn install_pinned(sh: &Shell, dir: &Path) -> Result<()> {
    if !is_current(&dir.join("node_modules/.package-lock.json"), dir) {
        let shown = dir.strip_prefix(project_root()).unwrap_or(dir).display();
        eprintln!("installing the pinned npm packages of {shown} (first use)");
        let _cd = sh.push_dir(dir);
        cmd!(sh, "npm ci --no-audit --no-fund --loglevel=error")
            .run()
            .with_context(|| {
                format!(
                    "`npm ci` in {shown} failed; it needs Node.js 20+ with npm and the npm registry"
                )
            })?;
    }
    Ok(())
}

/// npm writes `node_modules/.package-lock.json` on install; it is current when newer
/// than both the package.json and the lockfile.
fn is_current(installed: &Path, dir: &Path) -> bool {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    let Some(installed) = modified(installed) else {
        return false;
    };
    ["package.json", "package-lock.json"]
        .iter()
        .all(|f| modified(&dir.join(f)).is_some_and(|t| t <= installed))
}

/// Path of Debian's Chromium, installing the `chromium` package if it is missing.
pub fn chromium(sh: &Shell) -> Result<PathBuf> {
    if let Some(path) = std::env::var_os("BRIDGE_CHROMIUM") {
        let path = PathBuf::from(path);
        if !path.is_file() {
            bail!(
                "BRIDGE_CHROMIUM={} does not exist; point it at a Chromium binary or unset it",
                path.display()
            );
        }
        return Ok(path);
    }
    debian_program(sh, "chromium", "chromium")
}

/// npm's `binaryen`, installed into the tests' bridge home the way cargo-bridge installs
/// it there on first use (so its release builds find it and install nothing): Debian's
/// binaryen (108) is too old for what rustc emits. Its `bin` folder is put first on `sh`'s
/// PATH, so what `sh` runs (cargo-bridge, the bench's own `wasm-opt -O` runs) uses it.
/// Returns its `wasm-opt`.
pub fn wasm_opt(sh: &Shell) -> Result<PathBuf> {
    let program = install_binaryen(sh)?;
    let bin = program.parent().expect("wasm-opt is in a folder");
    let path = sh.var("PATH").unwrap_or_default();
    if !std::env::split_paths(&path).any(|p| p == bin) {
        sh.set_var("PATH", format!("{}:{path}", bin.display()));
    }
    Ok(program)
}

fn install_binaryen(sh: &Shell) -> Result<PathBuf> {
    let dir = crate::fixtures::bridge_home().join(format!("binaryen-{BINARYEN}"));
    let program = dir.join("node_modules/binaryen/bin/wasm-opt");
    if program.is_file() {
        return Ok(program);
    }
    eprintln!("installing npm's binaryen {BINARYEN} (first use)");
    let staging = dir.with_file_name(format!(
        "binaryen-{BINARYEN}.partial-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&staging)?;
    let spec = format!("binaryen@{BINARYEN}");
    cmd!(
        sh,
        "npm install --no-save --no-package-lock --no-audit --no-fund --loglevel=error --prefix {staging} {spec}"
    )
    .run()
    .with_context(|| format!("`npm install {spec}` failed; it needs Node.js 20+ with npm and the npm registry"))?;
    if !program.is_file() {
        // Another process (a cargo-bridge build) may have landed it meanwhile.
        let _ = std::fs::rename(&staging, &dir);
    }
    let _ = std::fs::remove_dir_all(&staging);
    if !program.is_file() {
        bail!("installed {spec} but {} is missing", program.display());
    }
    Ok(program)
}

/// `/usr/bin/<program>`, or install Debian `package` when running as root.
fn debian_program(sh: &Shell, program: &str, package: &str) -> Result<PathBuf> {
    let path = Path::new("/usr/bin").join(program);
    if path.is_file() {
        return Ok(path);
    }
    let uid = cmd!(sh, "id -u").quiet().read().unwrap_or_default();
    if uid.trim() != "0" || !Path::new("/usr/bin/apt-get").is_file() {
        bail!(
            "{} is missing: install it with `sudo apt-get install -y {package}` (Debian), \
             then run the task again",
            path.display()
        );
    }
    apt_update(sh)?;
    eprintln!("installing Debian's {package} (first use)");
    cmd!(sh, "apt-get install -y -qq {package}")
        .env("DEBIAN_FRONTEND", "noninteractive")
        .run()
        .with_context(|| format!("`apt-get install -y {package}` failed"))?;
    if !path.is_file() {
        bail!(
            "installed {package} but {} is still missing",
            path.display()
        );
    }
    Ok(path)
}

/// `apt-get update`, once per process.
fn apt_update(sh: &Shell) -> Result<()> {
    static UPDATE: Once = Once::new();
    let mut result = Ok(());
    UPDATE.call_once(|| {
        result = cmd!(sh, "apt-get update -qq")
            .env("DEBIAN_FRONTEND", "noninteractive")
            .run()
            .context("`apt-get update` failed");
    });
    result
}
