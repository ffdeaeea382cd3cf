//! `cargo bridge build`, top to bottom: read the workspace → cargo build → decode the
//! export section → wasm transforms → wasm-opt (`--release`) → render glue → write the package.

use crate::config::IdentityMode;
use crate::glue::{self, ClassPlan, GlueModel};
use crate::progress::Step;
use crate::transforms::{self, identity::ClassMode};
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
    let mut module =
        walrus::Module::from_file(wasm_path).with_context(|| format!("reading {wasm_name}"))?;

    let exports = transforms::exports_section::run(&mut module, &wasm_name)?;
    crate::names::check(&exports)
        .with_context(|| format!("checking the JS names of {wasm_name}"))?;

    let mut plans = Vec::with_capacity(exports.classes.len());
    for class in &exports.classes {
        let mode = modes::resolve(class, ws)?;
        plans.push(ClassPlan {
            export: class,
            mode,
        });
    }
    let class_modes: Vec<ClassMode> = plans
        .iter()
        .map(|p| ClassMode {
            type_id: &p.export.type_id,
            mode: p.mode,
        })
        .collect();
    let snippets = snippets::resolve(&exports.imports, &ws.package_dirs)?;
    let wasm_uses_values = module
        .imports
        .iter()
        .any(|i| i.module == bridge_schema::JS_VALUE_MODULE);
    let hooks = transforms::identity::run(&mut module, &class_modes)?;
    transforms::inline_identity::run(&mut module, &hooks)?;
    transforms::pool_dispatch::run(&mut module, &class_modes)?;
    walrus::passes::gc::run(&mut module);
    let mut wasm = module.emit_wasm();
    if args.release {
        let scratch = ws.target_dir.join("bridge");
        wasm = crate::wasm_opt::run(
            wasm,
            &krate.settings.wasm_opt,
            &scratch,
            &krate.lib_name,
            args.quiet,
        )?;
    }

    let target = args.target.name();
    let mut model = GlueModel::new(&krate.name, &krate.lib_name, target, &plans, &exports);
    model.js = glue::js_view(&exports, &snippets, wasm_uses_values);
    let glue = glue::render(&model)?;

    package::write(out_dir, krate, args.target, &glue, &wasm)?;
    snippets::copy(out_dir, &snippets)?;
    step.done(
        "Packaged",
        &format!(
            "{} → {} ({})",
            krate.name,
            out_dir.display(),
            mode_summary(&plans)
        ),
    );
    Ok(())
}

fn mode_summary(plans: &[ClassPlan]) -> String {
    if plans.is_empty() {
        return "no classes".into();
    }
    let count = |m: IdentityMode| plans.iter().filter(|p| p.mode == m).count();
    [
        IdentityMode::None,
        IdentityMode::Pointer,
        IdentityMode::Rust,
    ]
    .into_iter()
    .filter(|m| count(*m) > 0)
    .map(|m| format!("{} {m}", count(m)))
    .collect::<Vec<_>>()
    .join(", ")
}
