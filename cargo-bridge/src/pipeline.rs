//! `cargo bridge build`, top to bottom: read the workspace → cargo build → post-process
//! the module (`postprocess.rs`: decode the export section → wasm transforms → render
//! glue) → wasm-opt (`--release`) → write the package.

use crate::postprocess::{self, Naming};
use crate::progress::Step;
use crate::workspace::{self, BridgeCrate, Workspace};
use crate::{BuildArgs, cargo_build, modes, package, snippets};
use anyhow::{Context, Result};
use std::path::PathBuf;

pub fn build(args: &BuildArgs) -> Result<()> {
    // Reading the workspace validates every identity-mode setting: nothing is built
    // from a bad config.
    let ws = workspace::load(args.manifest_path.as_deref(), args.package.as_deref())?;
    cargo_build::ensure_wasm_target(args.quiet)?;
    for krate in &ws.crates {
        let wasm_path = cargo_build::build(&ws, krate, args.release, args.quiet)?;
        let out_dir = out_dir(args, &ws, krate);
        package_crate(&ws, krate, &wasm_path, &out_dir, args)
            .with_context(|| format!("packaging `{}`", krate.name))?;
    }
    Ok(())
}

fn out_dir(args: &BuildArgs, ws: &Workspace, krate: &BridgeCrate) -> PathBuf {
    match &args.out_dir {
        Some(dir) if ws.crates.len() > 1 => dir.join(&krate.name),
        Some(dir) => dir.clone(),
        None => krate.dir.join("pkg"),
    }
}

fn package_crate(
    ws: &Workspace,
    krate: &BridgeCrate,
    wasm_path: &std::path::Path,
    out_dir: &std::path::Path,
    args: &BuildArgs,
) -> Result<()> {
    let step = Step::start("Processing", &wasm_path.display().to_string(), args.quiet);
    let wasm_name = wasm_path.display().to_string();
    let bytes = std::fs::read(wasm_path).with_context(|| format!("reading {wasm_name}"))?;
    let naming = Naming {
        crate_name: &krate.name,
        lib_name: &krate.lib_name,
        target: args.target.name(),
        debug: !args.release,
    };
    let mut output = postprocess::run(
        &bytes,
        &wasm_name,
        &naming,
        |class| modes::resolve(class, ws),
        |imports| snippets::resolve(imports, &ws.package_dirs),
    )?;
    if args.release {
        let scratch = ws.target_dir.join("bridge");
        output.wasm = crate::wasm_opt::run(
            output.wasm,
            &krate.settings.wasm_opt,
            &scratch,
            &krate.lib_name,
            args.quiet,
        )?;
    }
    package::write(out_dir, krate, args.target, &output.glue, &output.wasm)?;
    snippets::copy(out_dir, &output.snippets)?;
    step.done(
        "Packaged",
        &format!(
            "{} → {} ({})",
            krate.name,
            out_dir.display(),
            output.summary
        ),
    );
    Ok(())
}
