//! The package of a plain wasm-bindgen crate (one that does not depend on bridge-runtime):
//! what `wasm-pack build` makes. wasm-bindgen's CLI runs with the target's own
//! `--target` and the profile's flags, wasm-opt runs on its `_bg.wasm`, and its files are
//! the package as they are: cargo bridge adds no byte of glue (see ARCHITECTURE.md,
//! "Plain wasm-bindgen crates"). One difference by choice: `--target nodejs` is ES
//! modules, as for bridge crates (wasm-bindgen's `experimental-nodejs-module`, which
//! Node 20.19+ also `require()`s); `--target nodejs-cjs` is wasm-bindgen's CommonJS
//! `nodejs` output, wasm-pack's `--target nodejs`. Beside its files: wasm-pack's
//! package.json (`package::wasm_pack_manifest`), README, LICENSE files and `.gitignore`
//! (0 bytes added: tested against the CLI run by hand; the package against a wasm-pack
//! golden).
//!
//! The switch is made on the built module, not on the dependency: a crate that depends
//! on bridge-runtime but has no `#[bridge]` item yet (no `__bridge_exports` section) still
//! gets this package, as its module holds nothing of the runtime; its first `#[bridge]`
//! item switches it to the joined package (`wasm_bindgen/mod.rs`). Pruning the bridge
//! glue instead would still change wasm-bindgen's loader and could not give its CommonJS
//! or no-modules output.

use crate::cli::{Profile, Target};
use crate::package::{self, Files};
use crate::progress::Step;
use crate::settings::packaging::{ProfileSettings, WasmOpt};
use crate::settings::workspace::BridgeCrate;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

/// wasm-bindgen's `--target` for each of ours.
pub fn cli_target(target: Target) -> &'static str {
    match target {
        Target::Nodejs => "experimental-nodejs-module",
        Target::NodejsCjs => "nodejs",
        Target::Web => "web",
        Target::Bundler => "bundler",
        Target::Deno => "deno",
        Target::NoModules => "no-modules",
    }
}

/// The CLI flags of the profile's `wasm-bindgen` settings (wasm-pack's
/// `[package.metadata.wasm-pack.profile.<profile>.wasm-bindgen]`), as wasm-pack passes them;
/// the joined package's run (`run.rs`) passes them too.
pub fn settings_flags(settings: &ProfileSettings) -> impl Iterator<Item = &'static str> {
    [
        (settings.debug_js_glue, "--debug"),
        (!settings.demangle_name_section, "--no-demangle"),
        (settings.dwarf_debug_info, "--keep-debug"),
        (
            settings.omit_default_module_path,
            "--omit-default-module-path",
        ),
        (settings.split_linked_modules, "--split-linked-modules"),
    ]
    .into_iter()
    .filter_map(|(on, flag)| on.then_some(flag))
}

/// What a build of a plain crate needs beyond the crate.
pub struct Plain<'a> {
    pub cli: &'a Path,
    pub wasm: &'a Path,
    pub target: Target,
    pub profile: Profile,
    /// The target directory's `bridge/` (scratch directories of the tools).
    pub scratch: PathBuf,
    pub quiet: bool,
}

/// Build the package of `krate` into `files.out_dir`; the summary line's detail.
pub fn package(krate: &BridgeCrate, files: &Files, plain: &Plain) -> Result<String> {
    let settings = krate.settings.profile(plain.profile);
    let stem = files.stem.as_str();
    let run_dir = crate::scratch::run_dir(&plain.scratch.join("wasm-bindgen"), stem)?;
    let out = run_dir.path();
    run_cli(plain, settings, stem, files.typescript, out)?;
    let wasm_file = out.join(format!("{stem}_bg.wasm"));
    let built = std::fs::metadata(&wasm_file)
        .with_context(|| format!("reading {}", wasm_file.display()))?
        .len();
    let mut packaged = built;
    if let WasmOpt::Flags(flags) = &settings.wasm_opt {
        let wasm = std::fs::read(&wasm_file)
            .with_context(|| format!("reading {}", wasm_file.display()))?;
        let mut flags = flags.clone();
        // Profiling: wasm-opt keeps the name section too.
        if plain.profile == Profile::Profiling {
            flags.push("-g".into());
        }
        let cargo_wasm = std::fs::read(plain.wasm)
            .with_context(|| format!("reading {}", plain.wasm.display()))?;
        let wasm = crate::package::wasm_opt::run(
            wasm,
            &WasmOpt::Flags(flags),
            &plain.scratch,
            stem,
            crate::package::wasm_opt::features_stripped(&cargo_wasm),
            plain.quiet,
        )?;
        std::fs::write(&wasm_file, &wasm)
            .with_context(|| format!("writing {}", wasm_file.display()))?;
        packaged = wasm.len() as u64;
    }
    // wasm-bindgen's own package.json (npm dependencies of its JS imports) is merged
    // into ours, not shipped as it is.
    let cli_manifest = out.join("package.json");
    let dependencies = match std::fs::read_to_string(&cli_manifest) {
        Ok(text) => {
            let value: serde_json::Value = serde_json::from_str(&text)
                .with_context(|| format!("reading {}", cli_manifest.display()))?;
            std::fs::remove_file(&cli_manifest)?;
            value
                .get("dependencies")
                .filter(|d| d.as_object().is_some_and(|d| !d.is_empty()))
                .cloned()
        }
        Err(_) => None,
    };
    std::fs::create_dir_all(&files.out_dir)
        .with_context(|| format!("creating the output directory {}", files.out_dir.display()))?;
    let written = package::move_files(out, &files.out_dir)?;
    let names: Vec<&str> = written.iter().map(String::as_str).collect();
    package::write_wasm_pack_extras(files, krate, plain.target, &names, dependencies)?;
    Ok(format!(
        "wasm-bindgen --target {}, {built} → {} bytes of wasm",
        cli_target(plain.target),
        packaged
    ))
}

/// wasm-bindgen's CLI as wasm-pack runs it; its warnings (e.g. a module without a
/// `target_features` section) are passed on.
fn run_cli(
    plain: &Plain,
    settings: &ProfileSettings,
    stem: &str,
    typescript: bool,
    out: &Path,
) -> Result<()> {
    let target = cli_target(plain.target);
    let step = Step::start(
        "Binding",
        &format!("{stem} with wasm-bindgen --target {target}"),
        plain.quiet,
    );
    let mut cmd = Command::new(plain.cli);
    cmd.arg(plain.wasm)
        .arg("--out-dir")
        .arg(out)
        .args(["--out-name", stem, "--target", target]);
    cmd.arg(if typescript {
        "--typescript"
    } else {
        "--no-typescript"
    });
    cmd.args(settings_flags(settings));
    let output = cmd
        .output()
        .with_context(|| format!("running {}", plain.cli.display()))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        bail!(
            "`{} --target {target}` failed on {}:\n{}",
            plain.cli.display(),
            plain.wasm.display(),
            stderr.trim()
        );
    }
    step.done("Bound", &format!("{stem} (wasm-bindgen --target {target})"));
    for line in stderr.lines().filter(|l| !l.trim().is_empty()) {
        eprintln!("{line}");
    }
    Ok(())
}
