//! Binaryen's `wasm-opt` on a `--release` module, after the walrus transforms (so it
//! optimizes the inlined identity hooks too, and the transforms see rustc's output,
//! whose shape they expect). Runs only when `wasm-opt` is on PATH and the crate did not
//! set `wasm-opt = false`.

use crate::package_settings::WasmOpt;
use crate::progress::Step;
use anyhow::{Context, Result, bail};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

const PROGRAM: &str = "wasm-opt";

/// The optimized module, or `wasm` unchanged when wasm-opt is off or not installed.
/// `scratch` is the directory (in the target directory) where each run makes a directory
/// of its own for the two temporary files.
pub fn run(
    wasm: Vec<u8>,
    settings: &WasmOpt,
    scratch: &Path,
    lib_name: &str,
    quiet: bool,
) -> Result<Vec<u8>> {
    let WasmOpt::Flags(flags) = settings else {
        return Ok(wasm);
    };
    let path = std::env::var_os("PATH").unwrap_or_default();
    let Some(program) = find_on_path(PROGRAM, &path) else {
        if !quiet {
            eprintln!(
                "warning: `{PROGRAM}` is not on PATH, so the module is not optimized further; \
                 install binaryen (e.g. `apt-get install binaryen`), or set \
                 `wasm-opt = false` in [package.metadata.bridge] to silence this"
            );
        }
        return Ok(wasm);
    };
    let step = Step::start("Optimizing", &format!("{lib_name} with {PROGRAM}"), quiet);
    // A directory of this run's own: two builds of one package at once (two test suites)
    // must not overwrite the input while the other's wasm-opt reads it.
    let run_dir = crate::scratch::run_dir(scratch, lib_name)?;
    let input = run_dir.path().join(format!("{lib_name}.pre-opt.wasm"));
    let output = run_dir.path().join(format!("{lib_name}.opt.wasm"));
    std::fs::write(&input, &wasm).with_context(|| format!("writing {}", input.display()))?;
    // wasm-opt takes the features the module may use from its `target_features`
    // section (rustc writes it, the transforms keep it), so it never introduces
    // instructions the target does not have.
    let out = Command::new(&program)
        .args(flags)
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output()
        .with_context(|| format!("running {}", program.display()))?;
    if !out.status.success() {
        // Kept, so the failing input can be handed to wasm-opt again.
        let kept = run_dir.keep();
        bail!(
            "`{PROGRAM} {}` failed on {}:\n{}\nfix the flags in [package.metadata.bridge] \
             wasm-opt, or set `wasm-opt = false`",
            flags.join(" "),
            kept.join(format!("{lib_name}.pre-opt.wasm")).display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let optimized =
        std::fs::read(&output).with_context(|| format!("reading {}", output.display()))?;
    let optimized = crate::table_exports::repair(&wasm, optimized)?;
    step.done(
        "Optimized",
        &format!("{lib_name}: {} → {} bytes", wasm.len(), optimized.len()),
    );
    Ok(optimized)
}

fn find_on_path(program: &str, path: &OsStr) -> Option<PathBuf> {
    std::env::split_paths(path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_program_only_where_path_has_it() {
        let dir = std::env::temp_dir().join(format!("bridge-wasm-opt-{}", std::process::id()));
        let empty = dir.join("empty");
        let full = dir.join("full");
        std::fs::create_dir_all(&empty).unwrap();
        std::fs::create_dir_all(&full).unwrap();
        std::fs::write(full.join(PROGRAM), "").unwrap();
        let path = std::env::join_paths([&empty, &full]).unwrap();
        assert_eq!(find_on_path(PROGRAM, &path), Some(full.join(PROGRAM)));
        let path = std::env::join_paths([&empty]).unwrap();
        assert_eq!(find_on_path(PROGRAM, &path), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
