//! Everything `cargo bridge` does to a built module, from its bytes to the package's
//! contents, with no file system or cargo involved: decode the export section → resolve
//! each class's mode → wasm transforms → render the glue. (Reading the JS snippet files
//! the imports use is the caller's, passed in.) Hostile input (a corrupt or
//! foreign module, records that do not match the module) is an error naming what is
//! wrong, never a panic: `postprocess/fuzz.rs` checks that on mutated fixture modules.
//!
//! **A package ships only what its items use**, decided at build time in four places and
//! nowhere else: (1) whole template halves by a `GlueModel` flag set here from the built
//! module or the model (`js.enabled`: the module imports the `JsValue` table; `tasks`;
//! `owned_closures`; `flat`; `views`; `wire_codecs`; `fast_pools`: some class is `rust` mode;
//! `guard_markers`: the module imports `guards_ended`/`guards_resumed`; per class, its
//! `$adopt` only with a constructor); (2) single helpers by `glue/prune.rs` after rendering;
//! (3) runtime exports by `transforms/unused_exports.rs`; (4) runtime code only one feature
//! can reach is linked through that feature's code, by the linker (e.g. `abi::begin_take`
//! registers the "moved" message through a function pointer). Cold cases every class could
//! reach are one shared out-of-line function (`handle::last_reference_flagged`). A flag
//! leaves out only what the module cannot reach, so no guarantee (identity, pools, borrow
//! checks, error texts) depends on one. `fixtures/kitchen-sink/tests/lean.test.mjs` checks
//! every built fixture package has a feature's glue exactly when its module needs it
//! (`fixtures/support/lean.mjs` lists each feature's markers); the bench's size table says what
//! stays (`size.rs` `FEATURES`, `size_without.rs` `MODULE_FEATURES`).

use crate::glue::{self, ClassPlan, Glue, GlueModel};
use crate::postprocess::exports::{ClassExport, Exports, ImportExport};
use crate::postprocess::snippets::Snippet;
use crate::settings::identity::IdentityMode;
use crate::timings::{Laps, Phase};
use crate::transforms::{self, identity::ClassMode};
use anyhow::{Context, Result};

/// What the glue is named after, where it loads and which profile it is for.
pub struct Naming<'a> {
    pub crate_name: &'a str,
    pub lib_name: &'a str,
    /// "nodejs" or "web".
    pub target: &'static str,
    /// Debug glue (a build without `--release`): leak detector and argument checks.
    pub debug: bool,
    /// Keep the module's name section (debug builds, `--profiling`).
    pub keep_names: bool,
    /// The crates whose exports keep their Rust names (`js-names = "as-written"`).
    pub as_written: &'a std::collections::BTreeSet<String>,
}

/// The processed package contents.
pub struct Output {
    pub wasm: Vec<u8>,
    pub glue: Glue,
    /// "3 classes by identity mode: 2 none, 1 rust", for the status line.
    pub summary: String,
    /// JS module files to copy into the package.
    pub snippets: Vec<Snippet>,
    /// wasm-bindgen's files (its `_bg.js`, its snippets): (path in the package, contents).
    pub wasm_bindgen_files: Vec<(String, Vec<u8>)>,
    /// What the build should tell the user once (not errors).
    pub notes: Vec<String>,
}

/// Process the module `bytes` (read from `wasm_name`); `mode_of` resolves a class's
/// identity mode, `resolve_snippets` finds the JS module files the imports use.
/// `wasm_bindgen` is what wasm-bindgen's CLI made of the module (then `bytes` is its
/// `_bg.wasm`), for a crate that links wasm-bindgen. Each step ends a lap of `laps`.
pub fn run(
    bytes: &[u8],
    wasm_name: &str,
    naming: &Naming,
    laps: &mut Laps,
    wasm_bindgen: Option<&crate::wasm_bindgen::run::Processed>,
    mode_of: impl Fn(&ClassExport) -> Result<IdentityMode>,
    resolve_snippets: impl FnOnce(&[ImportExport]) -> Result<Vec<Snippet>>,
) -> Result<Output> {
    let mut module = decode(bytes, wasm_name, naming.keep_names)?;
    let mut exports = transforms::exports_section::run(&mut module, wasm_name)?;
    laps.end(Phase::Decode);
    let (notes, wbg) = check_records(&module, &mut exports, naming, wasm_name, wasm_bindgen)?;
    laps.end(Phase::Check);

    let mut plans = Vec::with_capacity(exports.classes.len());
    for class in &exports.classes {
        plans.push(ClassPlan {
            export: class,
            mode: mode_of(class).with_context(|| format!("reading {wasm_name}"))?,
        });
    }
    let snippets = resolve_snippets(&exports.imports)
        .with_context(|| format!("finding the JS files {wasm_name} imports"))?;
    let uses = Uses::of(&module);
    let class_args = transform(&mut module, &plans, &exports, wasm_bindgen)
        .with_context(|| format!("transforming {wasm_name}"))?;
    laps.end(Phase::Transform);

    let mut model = glue_model(naming, &plans, &exports, &snippets, uses, wbg);
    model.pass_classes(&class_args);
    // After the transforms: the calls they add are in the graph too. Made on first use: a
    // module without iterators pays nothing.
    let reach = std::cell::OnceCell::new();
    model.seal_iterators(|pull| {
        reach
            .get_or_init(|| reach::JsReach::new(&module))
            .export_runs_js(pull)
    });
    let glue = glue::render(&model).with_context(|| format!("writing the glue of {wasm_name}"))?;
    laps.end(Phase::Glue);
    // The class exports under the names the glue calls them by.
    export_names::apply(&mut module, &model.export_names(), wasm_name)?;
    let wasm_bindgen_files = drop_unused_exports(&mut module, &glue, wasm_bindgen, naming);
    walrus::passes::gc::run(&mut module);
    let wasm = module.emit_wasm();
    laps.end(Phase::Emit);
    Ok(Output {
        wasm,
        glue,
        summary: mode_summary(&plans),
        snippets,
        wasm_bindgen_files,
        notes,
    })
}

/// The module, parsed.
fn decode(bytes: &[u8], wasm_name: &str, keep_names: bool) -> Result<walrus::Module> {
    // A release module is written without its name and producers sections (wasm-opt
    // drops them too); debug and profiling builds keep the names for profilers and stack
    // traces.
    let mut config = walrus::ModuleConfig::new();
    config
        .generate_name_section(keep_names)
        .generate_producers_section(keep_names);
    walrus::Module::from_buffer_with_config(bytes, &config)
        .with_context(|| format!("{wasm_name} is not a valid WebAssembly module"))
}

/// The export records against the module and each other (JS names, wasm functions and
/// their types, wasm-bindgen's half): notes for the user, and wasm-bindgen's half as the
/// glue sees it.
fn check_records(
    module: &walrus::Module,
    exports: &mut Exports,
    naming: &Naming,
    wasm_name: &str,
    wasm_bindgen: Option<&crate::wasm_bindgen::run::Processed>,
) -> Result<(Vec<String>, glue::WasmBindgenView)> {
    crate::settings::js_names::apply(exports, naming.as_written);
    crate::settings::js_names::check_fields(exports)
        .with_context(|| format!("checking the JS names of {wasm_name}"))?;
    let notes = Vec::from_iter(crate::postprocess::names::drop_shadowed_fields(exports));
    crate::postprocess::names::check(exports)
        .with_context(|| format!("checking the JS names of {wasm_name}"))?;
    check::records_match_module(module, exports, wasm_name)?;
    check::runtime_matches_module(module, wasm_name)?;
    signatures::run(module, exports, wasm_name)?;
    let wbg = match wasm_bindgen {
        Some(processed) => {
            let view = crate::wasm_bindgen::merge::view(processed, module, naming.lib_name)
                .with_context(|| format!("joining wasm-bindgen's half of {wasm_name}"))?;
            let bg_js = format!("{}_bg.js", naming.lib_name);
            crate::postprocess::names::check_wasm_bindgen(exports, &view.exports, &bg_js)
                .with_context(|| format!("checking the JS names of {wasm_name}"))?;
            crate::wasm_bindgen::types::name_types(exports, &view.dts);
            view
        }
        None => glue::WasmBindgenView::default(),
    };
    Ok((notes, wbg))
}

/// What the module imports that the glue provides, read before the transforms.
struct Uses {
    values: bool,
    tasks: bool,
    guard_markers: bool,
    owned_closures: bool,
}

impl Uses {
    fn of(module: &walrus::Module) -> Self {
        let imports = || module.imports.iter();
        let host = bridge_schema::abi::host::MODULE;
        let guards = [
            bridge_schema::abi::host::GUARDS_ENDED,
            bridge_schema::abi::host::GUARDS_RESUMED,
        ];
        Uses {
            values: imports().any(|i| i.module == bridge_schema::JS_VALUE_MODULE),
            tasks: imports().any(|i| i.module == bridge_schema::abi::tasks::MODULE),
            guard_markers: imports().any(|i| i.module == host && guards.contains(&i.name.as_str())),
            owned_closures: imports().any(|i| {
                i.module == bridge_schema::JS_VALUE_MODULE
                    && i.name == bridge_schema::abi::js_values::ops::CLOSURE_NEW
            }),
        }
    }
}

/// The wasm transforms: identity hooks, pools, the stack pointer, wasm-bindgen's entry.
/// Returns the exports that take a class index as their last argument
/// (`transforms/class_arg.rs`), by linker symbol.
fn transform(
    module: &mut walrus::Module,
    plans: &[ClassPlan],
    exports: &Exports,
    wasm_bindgen: Option<&crate::wasm_bindgen::run::Processed>,
) -> Result<std::collections::HashMap<String, i32>> {
    let class_modes: Vec<ClassMode> = plans
        .iter()
        .map(|p| ClassMode {
            type_id: &p.export.type_id,
            mode: p.mode,
        })
        .collect();
    let hooks = transforms::identity::run(module, &class_modes)?;
    transforms::inline_identity::run(module, &hooks)?;
    let calls: Vec<String> = exports
        .classes
        .iter()
        .flat_map(|c| c.members.iter().map(|m| m.symbol.clone()))
        .chain(exports.functions.iter().map(|f| f.function.symbol.clone()))
        .collect();
    let class_args = transforms::class_arg::run(module, &calls);
    transforms::pool_dispatch::run(module, &class_modes)?;
    transforms::stack_pointer::run(module);
    transforms::import_stack::run(module)?;
    if let Some(processed) = wasm_bindgen {
        let called = transforms::wbg_entry::identifiers(&processed.bg_js);
        transforms::wbg_entry::run(module, &called);
    }
    Ok(class_args)
}

/// The glue's view model.
fn glue_model(
    naming: &Naming,
    plans: &[ClassPlan],
    exports: &Exports,
    snippets: &[Snippet],
    uses: Uses,
    wbg: glue::WasmBindgenView,
) -> GlueModel {
    let mut model = GlueModel::new(
        naming.crate_name,
        naming.lib_name,
        naming.target,
        plans,
        exports,
    );
    model.debug = naming.debug;
    model.leak_detector = naming.debug
        && model
            .classes
            .iter()
            .any(|c| c.mode == crate::settings::identity::IdentityMode::Rust.as_str());
    model.tasks = uses.tasks;
    model.owned_closures = uses.owned_closures;
    model.guard_markers = uses.guard_markers;
    // bridge-runtime's JsValue conversions hand values to the table.
    let wbg_uses_values = wbg.connect.is_some();
    model.wbg = wbg;
    // A JsValue inside a wire value needs the value table even if Rust never touches it.
    let wire_uses_values = model.wire_codecs.iter().any(glue::CodecView::holds_values);
    model.set_js(glue::js_view(
        exports,
        snippets,
        uses.values || wire_uses_values || wbg_uses_values,
    ));
    model
}

/// The runtime exports the glue does not call go, and with them their code
/// (wasm-bindgen's JS calls its own `__wbindgen_*` exports: those stay); wasm-bindgen's
/// files for the package.
fn drop_unused_exports(
    module: &mut walrus::Module,
    glue: &glue::Glue,
    wasm_bindgen: Option<&crate::wasm_bindgen::run::Processed>,
    naming: &Naming,
) -> Vec<(String, Vec<u8>)> {
    let mut wasm_bindgen_files = Vec::new();
    match wasm_bindgen {
        Some(processed) => {
            let both = format!("{}\n{}", glue.js, processed.bg_js);
            transforms::unused_exports::run(module, &both);
            wasm_bindgen_files.push((
                format!("{}_bg.js", naming.lib_name),
                processed.bg_js.clone().into_bytes(),
            ));
            wasm_bindgen_files.extend(processed.snippets.iter().cloned());
        }
        None => transforms::unused_exports::run(module, &glue.js),
    }
    wasm_bindgen_files
}

/// "2 classes by identity mode: 1 none, 1 pointer": what the status line counts.
fn mode_summary(plans: &[ClassPlan]) -> String {
    if plans.is_empty() {
        return "no classes".into();
    }
    let count = |m: IdentityMode| plans.iter().filter(|p| p.mode == m).count();
    let modes = IdentityMode::ALL
        .into_iter()
        .filter(|m| count(*m) > 0)
        .map(|m| format!("{} {m}", count(m)))
        .collect::<Vec<_>>()
        .join(", ");
    let classes = if plans.len() == 1 { "class" } else { "classes" };
    format!("{} {classes} by identity mode: {modes}", plans.len())
}

mod check;
pub mod export_names;
pub mod exports;
#[cfg(test)]
mod fuzz;
pub mod names;
mod reach;
mod signatures;
pub mod snippets;
