//! `wasm-opt` for the size tables through the fixture builds' content-addressed cache
//! (`xtask/js/wasm-opt-cache.mjs`; `xtask/src/wasm_opt_cache.rs`): the output is byte for
//! byte what the `wasm-opt` on `PATH` writes, copied when the binaryen version, the flags
//! and the input's bytes are those of an earlier run, and the tables measure bytes, never
//! time. npm's binaryen runs as wasm under Node (seconds per module): a smoke run in a loop
//! where nothing changed ran it nine times on the modules of the run before.

use anyhow::{Context, Result};
use std::path::Path;
use std::sync::OnceLock;
use xshell::{Cmd, Shell, cmd};

/// `wasm-opt <flags...> <input> -o <output>` (`input` may be `output`), to run.
pub fn wasm_opt<'a>(sh: &'a Shell, flags: &[&str], input: &Path, output: &Path) -> Result<Cmd<'a>> {
    let script = xtask::js_tools::js_dir().join("wasm-opt-cache.mjs");
    Ok(cmd!(sh, "node {script} {flags...} {input} -o {output}")
        // Found on the same `PATH` as a bare `wasm-opt` here.
        .env("XTASK_WASM_OPT_REAL", "wasm-opt")
        // Part of the key: another binaryen's entries are never used.
        .env("XTASK_WASM_OPT_VERSION", version(sh)?)
        .env(
            "XTASK_WASM_OPT_CACHE",
            xtask::fixtures::wasm_opt_cache_dir(),
        )
        .quiet())
}

/// `wasm-opt --version`, asked once.
fn version(sh: &Shell) -> Result<&'static str> {
    static VERSION: OnceLock<String> = OnceLock::new();
    if let Some(v) = VERSION.get() {
        return Ok(v);
    }
    let v = cmd!(sh, "wasm-opt --version")
        .quiet()
        .read()
        .context("wasm-opt --version")?;
    Ok(VERSION.get_or_init(|| v))
}
