//! `cargo bridge build`, top to bottom: restore the crates' runtime copies → read the
//! workspace → (a crate linking
//! wasm-bindgen: its CLI of the same version) → cargo build → check every import has a
//! provider → (wasm-bindgen's CLI over the module) → post-process the module
//! (`postprocess.rs`: decode the export section → wasm transforms → render glue) →
//! wasm-opt (`--release`) → write the package.

use crate::cli::{BuildArgs, Target};
use crate::postprocess::{self, Naming};
use crate::progress::Step;
use crate::workspace::{self, BridgeCrate, Workspace};
use crate::{cargo_build, modes, package, snippets};
use anyhow::{Context, Result, bail};
use std::path::PathBuf;

pub fn build(args: &BuildArgs) -> Result<()> {
    // Before cargo reads the manifests: the runtime copies they depend on by path.
    crate::runtime_copy::restore_for(args.manifest_path.as_deref())?;
    // Reading the workspace validates every identity-mode setting: nothing is built
    // from a bad config.
    let ws = workspace::load(args.manifest_path.as_deref(), args.package.as_deref())?;
    cargo_build::ensure_wasm_target(args.quiet)?;
    for krate in &ws.crates {
        if args.target == Target::NodejsCjs && krate.wasm_bindgen.is_some() {
            bail!(
                "`{}` links wasm-bindgen, whose glue is ES modules only, so it cannot be built \
                 with `--target nodejs-cjs`: use `--target nodejs` (Node 20.19+ can `require()` it)",
                krate.name
            );
        }
        // The matching CLI first: a missing one fails before minutes of compiling.
        let cli = match &krate.wasm_bindgen {
            Some(version) => Some(
                crate::wasm_bindgen::cli::find_or_install(version, args.quiet)
                    .with_context(|| format!("preparing to build `{}`", krate.name))?,
            ),
            None => None,
        };
        let built = cargo_build::build(&ws, krate, args.release, args.quiet)?;
        let out_dir = out_dir(args, &ws, krate);
        package_crate(&ws, krate, &built, cli.as_deref(), &out_dir, args)
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
    built: &cargo_build::Built,
    wasm_bindgen_cli: Option<&std::path::Path>,
    out_dir: &std::path::Path,
    args: &BuildArgs,
) -> Result<()> {
    let wasm_path = &built.wasm;
    let wasm_name = wasm_path.display().to_string();
    let mut bytes = std::fs::read(wasm_path).with_context(|| format!("reading {wasm_name}"))?;
    crate::import_check::check(
        &bytes,
        &wasm_name,
        krate.wasm_bindgen.as_deref(),
        &built.crates,
    )?;
    let wasm_bindgen = match wasm_bindgen_cli {
        Some(cli) => {
            let scratch = ws
                .target_dir
                .join("bridge/wasm-bindgen")
                .join(&krate.lib_name);
            let processed = crate::wasm_bindgen::run::run(
                cli,
                wasm_path,
                &krate.lib_name,
                &scratch,
                !args.release,
                args.quiet,
            )?;
            bytes = processed.wasm.clone();
            Some(processed)
        }
        None => None,
    };
    let step = Step::start("Processing", &wasm_path.display().to_string(), args.quiet);
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
        wasm_bindgen.as_ref(),
        |class| modes::resolve(class, ws),
        |imports| snippets::resolve(imports, &ws.package_dirs),
    )?;
    if args.target == Target::NodejsCjs
        && let Some(snippet) = output.snippets.first()
    {
        bail!(
            "`{}` imports the JS module {} (#[bridge(module = \"{}\")]), which CommonJS \
             glue cannot load synchronously, so it cannot be built with \
             `--target nodejs-cjs`: use `--target nodejs` (Node 20.19+ can `require()` it)",
            snippet.crate_name,
            snippet.source.display(),
            snippet.path
        );
    }
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
    package::write(
        out_dir,
        krate,
        args.target,
        &output.glue,
        &output.wasm,
        &output.wasm_bindgen_files,
    )?;
    snippets::copy(out_dir, &output.snippets)?;
    package::write_files(out_dir, &output.wasm_bindgen_files)?;
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
