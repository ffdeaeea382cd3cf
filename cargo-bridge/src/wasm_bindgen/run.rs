//! Running wasm-bindgen's CLI over the module cargo built, first: it interprets its
//! descriptors and replaces its placeholder imports, and leaves cargo bridge's imports,
//! exports and `__bridge_exports` section alone, so cargo bridge's own transforms then run
//! on its output (see ARCHITECTURE.md, "Living with wasm-bindgen"). `--target bundler`
//! because its JS is a plain ES module that exports every wasm-bindgen item and every
//! import function, and takes the instance through `__wbg_set_wasm`: the bridge glue
//! instantiates the module itself, with both import sets.

use crate::progress::Step;
use crate::settings::packaging::ProfileSettings;
use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::Command;

/// What wasm-bindgen's CLI wrote for the module.
pub struct Processed {
    /// The module with wasm-bindgen's part processed (its `_bg.wasm`).
    pub wasm: Vec<u8>,
    /// Its JS (`_bg.js`): wasm-bindgen's items and the import functions of its half.
    pub bg_js: String,
    /// Its TypeScript declarations of the wasm-bindgen items.
    pub dts: String,
    /// Its `snippets/` files (inline JS and `module = "..."` files of wasm-bindgen
    /// imports), as (path relative to the package, contents).
    pub snippets: Vec<(String, Vec<u8>)>,
}

/// Run `cli` over `wasm` into a directory of this run's own under `scratch`, with the
/// profile's `wasm-bindgen` settings (wasm-pack's keys).
pub fn run(
    cli: &Path,
    wasm: &Path,
    lib_name: &str,
    scratch: &Path,
    debug: bool,
    settings: &ProfileSettings,
    quiet: bool,
) -> Result<Processed> {
    let step = Step::start("Binding", &format!("{lib_name} with wasm-bindgen"), quiet);
    // Its own directory: two builds of one package at once (two test suites) must not
    // empty or overwrite each other's output while the other reads it.
    let run_dir = crate::scratch::run_dir(scratch, lib_name)?;
    let scratch = run_dir.path();
    bind(cli, wasm, lib_name, scratch, debug, settings)?;
    let processed = read_output(scratch, lib_name)?;
    step.done("Bound", &format!("{lib_name} (wasm-bindgen's half)"));
    Ok(processed)
}

/// `wasm-bindgen --target bundler` over `wasm` into `scratch`; its warnings passed on.
fn bind(
    cli: &Path,
    wasm: &Path,
    lib_name: &str,
    scratch: &Path,
    debug: bool,
    settings: &ProfileSettings,
) -> Result<()> {
    let mut cmd = Command::new(cli);
    cmd.args(["--target", "bundler", "--out-name", lib_name])
        .arg("--out-dir")
        .arg(scratch);
    // The profile's `wasm-bindgen` settings, as for a plain crate; DWARF also when the
    // package keeps names.
    let mut flags: Vec<&str> = super::plain::settings_flags(settings).collect();
    if debug && !flags.contains(&"--keep-debug") {
        flags.push("--keep-debug");
    }
    cmd.args(flags);
    let out = cmd
        .arg(wasm)
        .output()
        .with_context(|| format!("running {}", cli.display()))?;
    if !out.status.success() {
        bail!(
            "`{} --target bundler` failed on {}:\n{}",
            cli.display(),
            wasm.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    // Its warnings (a stripped module's missing `target_features`, ...) are the user's.
    for line in String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        eprintln!("{line}");
    }
    Ok(())
}

/// What the CLI wrote into `scratch`.
fn read_output(scratch: &Path, lib_name: &str) -> Result<Processed> {
    let read = |name: String| -> Result<Vec<u8>> {
        let path = scratch.join(&name);
        std::fs::read(&path).with_context(|| {
            format!(
                "wasm-bindgen wrote no {} (is its CLI the crate's version?)",
                path.display()
            )
        })
    };
    let text = |name: String| -> Result<String> {
        String::from_utf8(read(name.clone())?).with_context(|| format!("{name} is not UTF-8"))
    };
    Ok(Processed {
        wasm: read(format!("{lib_name}_bg.wasm"))?,
        bg_js: text(format!("{lib_name}_bg.js"))?,
        dts: text(format!("{lib_name}.d.ts")).unwrap_or_default(),
        snippets: snippet_files(scratch)?,
    })
}

/// Every file under `<scratch>/snippets`, sorted, with `/`-separated paths relative to
/// `scratch` (none when the CLI wrote no snippets).
fn snippet_files(scratch: &Path) -> Result<Vec<(String, Vec<u8>)>> {
    let snippets = scratch.join("snippets");
    if !snippets.is_dir() {
        return Ok(Vec::new());
    }
    Ok(crate::package::files_under(&snippets)?
        .into_iter()
        .map(|(rel, bytes)| (format!("snippets/{rel}"), bytes))
        .collect())
}
