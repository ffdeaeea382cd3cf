//! `wasm-opt` for the size tables through the fixture builds' content-addressed cache
//! (`xtask/js/wasm-opt-cache.mjs`; `xtask/src/wasm_opt_cache.rs`, whose `in_front_of`
//! both use): the output is byte for byte what the `wasm-opt` on `PATH` writes, copied
//! when the binaryen version, the flags and the input's bytes are those of an earlier run,
//! and the tables measure bytes, never time. npm's binaryen runs as wasm under Node
//! (seconds per module): a smoke run in a loop where nothing changed ran it nine times on
//! the modules of the run before.

use anyhow::{Context, Result};
use std::path::Path;
use std::sync::OnceLock;
use xshell::{Cmd, Shell, cmd};
use xtask::wasm_opt_cache::{self, InFront};

/// `wasm-opt <flags...> <input> -o <output>` (`input` may be `output`), to run.
pub fn wasm_opt<'a>(sh: &'a Shell, flags: &[&str], input: &Path, output: &Path) -> Result<Cmd<'a>> {
    let InFront { wrapper, variables } = cache(sh)?;
    Ok(cmd!(sh, "node {wrapper} {flags...} {input} -o {output}")
        .envs(variables.iter().map(|(k, v)| (k, v)))
        .quiet())
}

/// The cache in front of the `wasm-opt` on the shell's `PATH` (where a bare `wasm-opt`
/// here is found), made once.
fn cache(sh: &Shell) -> Result<&'static InFront> {
    static CACHE: OnceLock<InFront> = OnceLock::new();
    if let Some(cache) = CACHE.get() {
        return Ok(cache);
    }
    let real = wasm_opt_cache::on_path(sh.var_os("PATH").as_deref())
        .context("no wasm-opt on PATH for the size tables")?;
    let cache = wasm_opt_cache::in_front_of(
        real,
        &xtask::js_tools::js_dir(),
        &xtask::fixtures::wasm_opt_cache_dir(),
    )
    .context("wasm-opt --version")?;
    Ok(CACHE.get_or_init(|| cache))
}
