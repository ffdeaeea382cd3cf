//! `cargo bridge build`, top to bottom: restore the crates' runtime copies → read the
//! workspace → (a crate linking
//! wasm-bindgen: its CLI of the same version) → cargo build → check every import has a
//! provider → (wasm-bindgen's CLI over the module) → post-process the module
//! (`postprocess/`: decode the export section → wasm transforms → render glue) →
//! wasm-opt (`--release`, `--profiling`) → write the package. Each step is timed
//! (`timings.rs`: written out only under `CARGO_BRIDGE_TIMINGS`).

use crate::build::cargo;
use crate::cli::{BuildArgs, Profile, Target};
use crate::package;
use crate::postprocess::snippets;
use crate::postprocess::{self, Naming};
use crate::progress::Step;
use crate::settings::flags;
use crate::settings::packaging::WasmOpt;
use crate::settings::workspace::{self, BridgeCrate, Workspace};
use crate::timings::{self, Phase};
use anyhow::{Context, Result, bail};
use std::path::PathBuf;

/// What a build is for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `cargo bridge build`: packages in `<crate>/pkg` (or `--out-dir`).
    Package,
    /// `cargo bridge test`: the crate's unit-test build (`cfg(test)`; its `#[bridge::test]`
    /// exports, see build/cargo.rs), packaged into `<target>/bridge/test/<crate>`.
    Test,
}

/// One package written.
pub struct Packaged {
    pub crate_name: String,
    pub out_dir: PathBuf,
    /// The glue's file name stem (`<stem>.js`).
    pub stem: String,
    /// The crate's directory.
    pub crate_dir: PathBuf,
}

pub fn build(args: &BuildArgs) -> Result<()> {
    build_packages(args, Mode::Package).map(|_| ())
}

pub fn build_packages(args: &BuildArgs, mode: Mode) -> Result<Vec<Packaged>> {
    // Before cargo reads the manifests: the runtime copies they depend on by path.
    crate::build::runtime_copy::restore_for(args.manifest_path.as_deref())?;
    // The flags, then every identity-mode and package setting: nothing is built from a
    // bad config.
    let plan = plan(args)?;
    timings::time("", Phase::WasmTarget, || {
        cargo::ensure_wasm_target(args.quiet)
    })?;
    let mut packaged = Vec::new();
    for (krate, npm_name) in plan.ws.crates.iter().zip(&plan.npm_names) {
        packaged.push(build_crate(args, &plan, krate, npm_name, mode)?);
    }
    timings::write()?;
    Ok(packaged)
}

/// What `cargo bridge build` is asked for, checked: the arguments cargo gets, the
/// workspace and its settings, each crate's npm name.
struct Plan {
    cargo_args: Vec<String>,
    ws: Workspace,
    /// By crate, in `ws.crates`' order.
    npm_names: Vec<String>,
}

fn plan(args: &BuildArgs) -> Result<Plan> {
    let cargo_args = flags::cargo_args(args)?;
    if let Some(name) = &args.out_name {
        flags::check_out_name(name)?;
    }
    let scope = args.scope.as_deref().map(flags::check_scope).transpose()?;
    let ws = timings::time("", Phase::Metadata, || {
        workspace::load(
            args.manifest_path.as_deref(),
            args.package.as_deref(),
            &flags::feature_args(&cargo_args),
        )
    })?;
    if let (Some(name), [_, _, ..]) = (&args.out_name, ws.crates.as_slice()) {
        let names: Vec<&str> = ws.crates.iter().map(|c| c.name.as_str()).collect();
        anyhow::bail!(
            "--out-name {name} names the files of one package, but this builds {} crates ({}); \
             choose one with -p",
            names.len(),
            names.join(", ")
        );
    }
    let npm_names = ws
        .crates
        .iter()
        .map(|krate| flags::npm_name(krate, scope))
        .collect::<Result<Vec<_>>>()?;
    for krate in &ws.crates {
        // A crate linking wasm-bindgen may have no #[bridge] item (known once it is built).
        if krate.wasm_bindgen.is_none() {
            check_target(krate, args.target)?;
        }
        for warning in &krate.settings.warnings {
            eprintln!("warning: {warning}");
        }
    }
    Ok(Plan {
        cargo_args,
        ws,
        npm_names,
    })
}

/// Build one crate of the plan and write its package.
fn build_crate(
    args: &BuildArgs,
    plan: &Plan,
    krate: &BridgeCrate,
    npm_name: &str,
    mode: Mode,
) -> Result<Packaged> {
    let ws = &plan.ws;
    // The matching CLI first: a missing one fails before minutes of compiling.
    let cli = wasm_bindgen_cli(krate, args.quiet)?;
    let built = timings::time(&krate.name, Phase::Cargo, || {
        let test = mode == Mode::Test;
        cargo::build(
            ws,
            krate,
            args.profile(),
            &plan.cargo_args,
            test,
            args.quiet,
        )
    })?;
    let files = package::Files {
        out_dir: match mode {
            Mode::Package => out_dir(args, ws, krate),
            Mode::Test => ws.target_dir.join("bridge/test").join(&krate.name),
        },
        stem: args
            .out_name
            .clone()
            .unwrap_or_else(|| krate.lib_name.clone()),
        npm_name: npm_name.to_string(),
        typescript: !args.no_typescript,
        package_json: !args.no_pack,
    };
    // Nothing until used: a crate whose module has no #[bridge] item (no bridge
    // export section) gets wasm-bindgen's package, without a byte of bridge glue.
    let plain = cli.is_some()
        && mode == Mode::Package
        && (!krate.bridge || !crate::package::wasm_opt::has_bridge_exports(&built.wasm)?);
    if !plain {
        check_target(krate, args.target)?;
    }
    match &cli {
        Some(cli) if plain => package_plain(ws, krate, &built, cli, &files, args),
        _ => package_crate(ws, krate, &built, cli.as_deref(), &files, args, mode),
    }
    .with_context(|| format!("packaging `{}`", krate.name))?;
    Ok(Packaged {
        crate_name: krate.name.clone(),
        out_dir: files.out_dir,
        stem: files.stem,
        crate_dir: krate.dir.clone(),
    })
}

/// The wasm-bindgen CLI of the version a crate links, if it links wasm-bindgen.
fn wasm_bindgen_cli(krate: &BridgeCrate, quiet: bool) -> Result<Option<PathBuf>> {
    let Some(version) = &krate.wasm_bindgen else {
        return Ok(None);
    };
    crate::wasm_bindgen::cli::find_or_install(version, quiet)
        .with_context(|| format!("preparing to build `{}`", krate.name))
        .map(Some)
}

/// `cargo bridge test`: the integration test `tests/<test>.rs` of the one crate `args`
/// chooses, built as a test and packaged into `<target>/bridge/test/<crate>/tests/<test>`
/// (debug glue named after the test), as `build_packages` packages its unit tests.
pub fn build_integration_test(args: &BuildArgs, test: &str) -> Result<Packaged> {
    crate::build::runtime_copy::restore_for(args.manifest_path.as_deref())?;
    let cargo_args = flags::cargo_args(args)?;
    let ws = workspace::load(
        args.manifest_path.as_deref(),
        args.package.as_deref(),
        &flags::feature_args(&cargo_args),
    )?;
    let [krate] = ws.crates.as_slice() else {
        bail!("an integration test is built for one crate: choose it with -p");
    };
    cargo::ensure_wasm_target(args.quiet)?;
    let cli = wasm_bindgen_cli(krate, args.quiet)?;
    let built = cargo::build_unit(
        &ws,
        krate,
        args.profile(),
        &cargo_args,
        cargo::Unit::IntegrationTest(test),
        args.quiet,
    )?;
    let files = package::Files {
        out_dir: ws
            .target_dir
            .join("bridge/test")
            .join(&krate.name)
            .join("tests")
            .join(test),
        stem: test.replace('-', "_"),
        npm_name: krate.name.clone(),
        typescript: false,
        package_json: false,
    };
    check_target(krate, args.target)?;
    package_crate(&ws, krate, &built, cli.as_deref(), &files, args, Mode::Test).with_context(
        || {
            format!(
                "packaging the integration test `{test}` of `{}`",
                krate.name
            )
        },
    )?;
    Ok(Packaged {
        crate_name: krate.name.clone(),
        out_dir: files.out_dir,
        stem: files.stem,
        crate_dir: krate.dir.clone(),
    })
}

/// The targets a crate with bridge glue can be built for: it has no `deno` or
/// `no-modules` form.
fn check_target(krate: &BridgeCrate, target: Target) -> Result<()> {
    if !krate.bridge {
        return Ok(());
    }
    if matches!(target, Target::Deno | Target::NoModules) {
        bail!(
            "`{}` has #[bridge] items, whose glue has no `--target {}` form; the targets of \
             a bridge crate are nodejs, web, bundler and nodejs-cjs (a crate with only \
             wasm-bindgen items also has deno and no-modules)",
            krate.name,
            target.name()
        );
    }
    Ok(())
}

/// A plain wasm-bindgen crate: wasm-bindgen's package for the target (`wasm_bindgen/plain.rs`).
fn package_plain(
    ws: &Workspace,
    krate: &BridgeCrate,
    built: &cargo::Built,
    cli: &std::path::Path,
    files: &package::Files,
    args: &BuildArgs,
) -> Result<()> {
    let mut laps = timings::Laps::start(&krate.name);
    read_checked(krate, built)?;
    laps.end(Phase::ImportCheck);
    let plain = crate::wasm_bindgen::plain::Plain {
        cli,
        wasm: &built.wasm,
        target: args.target,
        profile: args.profile(),
        scratch: ws.target_dir.join("bridge"),
        quiet: args.quiet,
    };
    let summary = crate::wasm_bindgen::plain::package(krate, files, &plain)?;
    laps.end(Phase::WasmBindgen);
    Step::start("Packaging", &krate.name, args.quiet).done(
        "Packaged",
        &format!("{} → {} ({summary})", krate.name, files.out_dir.display()),
    );
    Ok(())
}

fn out_dir(args: &BuildArgs, ws: &Workspace, krate: &BridgeCrate) -> PathBuf {
    match &args.out_dir {
        Some(dir) if ws.crates.len() > 1 => dir.join(&krate.name),
        Some(dir) => dir.clone(),
        None => krate.dir.join("pkg"),
    }
}

/// A crate with bridge glue: import check → (wasm-bindgen's CLI) → post-process →
/// (wasm-opt) → the package.
fn package_crate(
    ws: &Workspace,
    krate: &BridgeCrate,
    built: &cargo::Built,
    wasm_bindgen_cli: Option<&std::path::Path>,
    files: &package::Files,
    args: &BuildArgs,
    mode: Mode,
) -> Result<()> {
    let wasm_name = built.wasm.display().to_string();
    let mut laps = timings::Laps::start(&krate.name);
    let mut bytes = read_checked(krate, built)?;
    laps.end(Phase::ImportCheck);
    let stripped = crate::package::wasm_opt::features_stripped(&bytes);
    let wasm_bindgen = wasm_bindgen_cli
        .map(|cli| run_wasm_bindgen(ws, krate, built, cli, &files.stem, args, mode))
        .transpose()?;
    if let Some(processed) = &wasm_bindgen {
        bytes = processed.wasm.clone();
        laps.end(Phase::WasmBindgen);
    }
    let step = Step::start("Processing", &wasm_name, args.quiet);
    let as_written = ws.settings.as_written();
    let mut output = postprocess::run(
        &bytes,
        &wasm_name,
        &naming(krate, files, args, &as_written),
        &mut laps,
        wasm_bindgen.as_ref(),
        |class| ws.settings.identity_mode(class),
        |imports| snippets::resolve(imports, &ws.package_dirs),
    )?;
    if args.target == Target::NodejsCjs {
        to_commonjs(&mut output)?;
    }
    if let Some(settings) = wasm_opt_settings(krate, args.profile()) {
        let scratch = ws.target_dir.join("bridge");
        let wasm = std::mem::take(&mut output.wasm);
        output.wasm = crate::package::wasm_opt::run(
            wasm,
            &settings,
            &scratch,
            &files.stem,
            stripped,
            args.quiet,
        )?;
        laps.end(Phase::WasmOpt);
    }
    write_package(krate, files, args, &output)?;
    laps.end(Phase::Write);
    let out_dir = files.out_dir.display();
    step.done(
        "Packaged",
        &format!("{} → {out_dir} ({})", krate.name, output.summary),
    );
    for note in &output.notes {
        crate::progress::note(&krate.name, note, args.quiet);
    }
    Ok(())
}

/// The names and the kind of glue the post-process renders.
fn naming<'a>(
    krate: &'a BridgeCrate,
    files: &'a package::Files,
    args: &BuildArgs,
    as_written: &'a std::collections::BTreeSet<String>,
) -> Naming<'a> {
    let profile = args.profile();
    Naming {
        crate_name: &krate.name,
        lib_name: &files.stem,
        target: args.target.name(),
        debug: profile.debug_glue(),
        keep_names: profile.keeps_names(),
        as_written,
    }
}

/// How wasm-opt runs on the crate's module in `profile`, if it runs.
fn wasm_opt_settings(krate: &BridgeCrate, profile: Profile) -> Option<WasmOpt> {
    let mut settings = krate.settings.profile(profile).wasm_opt.clone();
    // Profiling: wasm-opt keeps the name section too.
    if let (Profile::Profiling, WasmOpt::Flags(flags)) = (profile, &mut settings) {
        flags.push("-g".into());
    }
    (settings != WasmOpt::Off).then_some(settings)
}

/// The module cargo built, once every import it has is known to have a provider.
fn read_checked(krate: &BridgeCrate, built: &cargo::Built) -> Result<Vec<u8>> {
    let wasm_name = built.wasm.display().to_string();
    let bytes = std::fs::read(&built.wasm).with_context(|| format!("reading {wasm_name}"))?;
    crate::build::import_check::check(
        &bytes,
        &wasm_name,
        krate.wasm_bindgen.as_deref(),
        &built.crates,
    )?;
    Ok(bytes)
}

/// wasm-bindgen's CLI over the module of a crate that links it (its half of the glue).
fn run_wasm_bindgen(
    ws: &Workspace,
    krate: &BridgeCrate,
    built: &cargo::Built,
    cli: &std::path::Path,
    stem: &str,
    args: &BuildArgs,
    mode: Mode,
) -> Result<crate::wasm_bindgen::run::Processed> {
    let profile = args.profile();
    let scratch = ws
        .target_dir
        .join("bridge/wasm-bindgen")
        .join(&krate.lib_name);
    crate::wasm_bindgen::run::run(
        cli,
        &built.wasm,
        stem,
        &scratch,
        // A test build's DWARF serves no test host, and keeping it is most of the
        // CLI's time (10 s rather than 2 s for a 15 MB debug test module).
        profile.keeps_names() && mode == Mode::Package,
        krate.settings.profile(profile),
        args.quiet,
    )
}

/// `--target nodejs-cjs`: no JS snippet (CommonJS cannot load an ES module
/// synchronously), and wasm-bindgen's half, ES modules (its `--target bundler`), as
/// CommonJS too.
fn to_commonjs(output: &mut postprocess::Output) -> Result<()> {
    if let Some(snippet) = output.snippets.first() {
        bail!(
            "`{}` imports the JS module {} (#[bridge(module = \"{}\")]), which CommonJS \
             glue cannot load synchronously, so it cannot be built with \
             `--target nodejs-cjs`: use `--target nodejs` (Node 20.19+ can `require()` it)",
            snippet.crate_name,
            snippet.source.display(),
            snippet.path
        );
    }
    for (path, bytes) in &mut output.wasm_bindgen_files {
        if path.ends_with(".js") {
            let text = String::from_utf8(std::mem::take(bytes))
                .with_context(|| format!("{path} (wasm-bindgen's JS) is not UTF-8"))?;
            *bytes = crate::wasm_bindgen::cjs::convert(&text, path)?.into_bytes();
        }
    }
    Ok(())
}

/// The package's files: glue, module, package.json and the rest, the JS snippets, and
/// wasm-bindgen's half.
fn write_package(
    krate: &BridgeCrate,
    files: &package::Files,
    args: &BuildArgs,
    output: &postprocess::Output,
) -> Result<()> {
    package::write(
        files,
        krate,
        args.target,
        &output.glue,
        &output.wasm,
        &output.wasm_bindgen_files,
    )?;
    snippets::copy(&files.out_dir, &output.snippets)?;
    package::write_files(&files.out_dir, &output.wasm_bindgen_files)
}
