//! The data the templates render: the module's exports, grouped the way a JS class is
//! written (constructor, methods, statics, properties), with each class's resolved mode.
//!
//! A getter or setter without a receiver is a static property (`PropertyView::is_static`).
//! `GlueModel` numbers every export binding and closure.

use super::calls::{ClosureView, FinishView, FnView, doc_lines, fn_view, js_string};
use super::data::{self, EnumView, RecordView};
use super::js::JsView;
use super::ts;
use super::type_names::TypeNames;
use super::types::{Base, Kind};
use super::wasm_abi::WasmAbi;
use super::wire::{self, CodecView};
use crate::postprocess::export_names;
use crate::postprocess::exports::{ClassExport, Exports};
use crate::settings::identity::IdentityMode;
use bridge_schema::FunctionKind;
use serde::Serialize;

/// A class and the identity mode it was resolved to.
pub struct ClassPlan<'a> {
    pub export: &'a ClassExport,
    pub mode: IdentityMode,
}

#[derive(Serialize)]
pub struct GlueModel {
    pub generator: String,
    pub crate_name: String,
    pub lib_name: String,
    pub wasm_file: String,
    /// "nodejs" or "web".
    pub target: &'static str,
    pub classes: Vec<ClassView>,
    pub functions: Vec<FnView>,
    /// Wire codecs the exports use (empty: no wire code is emitted).
    pub wire_codecs: Vec<CodecView>,
    /// Calls from Rust into JS (set by the pipeline after `new`).
    pub js: JsView,
    pub records: Vec<RecordView>,
    pub enums: Vec<EnumView>,
    /// ABI names and offsets, from bridge-schema.
    pub wasm_abi: WasmAbi,
    /// Rust closures the exports return.
    pub closures: Vec<ClosureView>,
    /// The finish calls of async exports (`$finish<n>`), rendered before their users.
    pub finishes: Vec<FinishView>,
    /// The module imports the async executor's host functions: the glue includes its
    /// task half (`templates/task.js.j2`). Set by the post-process.
    pub tasks: bool,
    /// The module imports `closure_new` (it makes `bridge_runtime::Closure`s): the glue
    /// includes its owned-closure half (`templates/js/owned_closures.js.j2`). Set by the
    /// post-process.
    pub owned_closures: bool,
    /// Every function's wasm export, bound once at instantiation: a call then loads a
    /// module binding instead of looking the name up on the exports object.
    pub exports: Vec<ExportBinding>,
    /// Debug glue (a build without `--release`, set by the post-process): the argument
    /// checks and checked views of `templates/debug/`. Release glue has none of it.
    pub debug: bool,
    /// Debug glue with a `rust`-mode class: the leak detector (`debug/leaks.js.j2`) and
    /// `__bridgeLeaks()`, which can report only wrappers of that mode, so ship only then.
    pub leak_detector: bool,
    /// The package's wasm-bindgen half (disabled for a crate without wasm-bindgen).
    pub wbg: super::WasmBindgenView,
    /// Some export returns a view of wasm memory (`&[T]`): debug glue then counts the
    /// calls into the module, so a read through a view after a later call is refused.
    pub views: bool,
    /// Some call reads a record of scalars from the flat area (`TyView::flat`): the glue
    /// includes `templates/flat.js.j2`.
    pub flat: bool,
    /// Some class is in `rust` mode, so the module keeps fast-pool entries in wasm
    /// (`transforms/pool_dispatch.rs` removes the pool exports otherwise): the glue
    /// registers the module with the pool registry as a fast module and forgets the
    /// wrappers a drain released. Without it, none of that plumbing ships.
    pub fast_pools: bool,
    /// The module imports the host's `guards_ended`/`guards_resumed` (some thunk runs code
    /// that may panic or throw after ending borrow guards: a doomed box's `Drop`, an
    /// error's `Display`): the glue keeps the markers and `$rethrow` reads them. Set by
    /// the post-process; without the imports no marker can exist, and none of it ships.
    pub guard_markers: bool,
    /// Some call borrows an object (`FnView::borrows`): `$rethrow` ends what a panicked
    /// call still held, and asks the runtime for a refused first borrow after a trap.
    /// Without one (a package of free functions), none of that ships, and
    /// `transforms/unused_exports.rs` drops the runtime's unborrow and refusal exports
    /// (and with them the borrow-check messages).
    pub borrows: bool,
    /// Some call takes an object by value (`FnView::moves`): a borrow can then meet a
    /// moved object, and the glue words that refusal too (`$borrowRefused`).
    pub moves: bool,
}

/// One module binding of a wasm export's function (`let <var>` = `$wasm[<symbol>]`).
#[derive(Serialize)]
pub struct ExportBinding {
    pub var: String,
    /// As a JS string literal.
    pub symbol: String,
    /// A class member's: its member index, which the class's binder joins to the class's
    /// [`ClassView::export_prefix`] (`postprocess/export_names.rs`: the prefix is the one
    /// text that differs from the previous class's binder, issue 48). Member exports are
    /// never removed as unused, so the glue need not spell them whole
    /// (`transforms/unused_exports.rs`).
    pub suffix: Option<String>,
}

#[derive(Serialize)]
pub struct ClassView {
    /// JS name. The glue binds the class as `<name>$class` and exports it under `name`.
    pub name: String,
    /// `name` can be the class expression's own name (`class Node {`); else the glue sets
    /// the `name` property.
    pub bindable: bool,
    /// `name` as a JS string literal.
    pub key: String,
    /// The `.d.ts` declares `export class <name>` (else `<name>$class`, exported as an alias).
    pub ts_plain: bool,
    pub mode: &'static str,
    pub crate_name: String,
    /// The type id as a JS string literal (bridge-runtime's class-handle conversions name
    /// the class by it).
    pub type_id: String,
    /// Wasm exports of the class, as JS string literals.
    pub exports: ClassExportsView,
    /// What its members' export names start with (`"<class index>:"`), a JS expression.
    pub export_prefix: String,
    /// Each of its exports' linker symbol and the name the module exports it under
    /// (`postprocess/export_names.rs`, applied once the glue is rendered).
    #[serde(skip)]
    pub export_names: Vec<(String, String)>,
    /// Its members' exports, bound by names local to the class's glue (`$own<N>`,
    /// numbered per class: the same text in every class's copy, which gzip can reuse;
    /// issue 48). Set by [`GlueModel::number_functions`].
    pub bindings: Vec<ExportBinding>,
    pub doc: Vec<String>,
    pub constructor: Option<FnView>,
    pub methods: Vec<FnView>,
    pub statics: Vec<FnView>,
    pub properties: Vec<PropertyView>,
    /// A method (or getter) returns a guarded iterator, whose `next()` checks its source,
    /// a wrapper of this class, with `<Class>$live`. Set by [`GlueModel::seal_iterators`].
    pub iterates: bool,
    /// A method (or getter) returns a sealed iterator: the wrapper keeps its live ones
    /// (`#iterators`), and its release marks them (their `next()` checks nothing else).
    pub iterates_sealed: bool,
    /// The type id as the linker symbols spell it.
    #[serde(skip)]
    pub raw_type_id: String,
    /// Its index in the module's classes (the glue's order; its export names'; the class
    /// id a fast pool notes its objects by).
    pub index: usize,
    /// A member's call passes the class's own index (`$classIndex`, [`GlueModel::pass_classes`]).
    pub passes_index: bool,
    /// The class has `free()`, wasm-bindgen's name for `release()`: unless an instance
    /// member of its own is named `free` (the user's member wins, so a crate with one
    /// builds and behaves as before).
    pub free: bool,
    /// `#[bridge(inspectable)]`: what the class shows of itself.
    pub inspect: Option<InspectView>,
}

/// An inspectable class's `toJSON()` (its instance getters' values), `toString()`
/// (`JSON.stringify(this)`) and Node's inspect (`Symbol.for("nodejs.util.inspect.custom")`,
/// so on every target, without importing `node:util`), as wasm-bindgen's `inspectable`.
#[derive(Serialize)]
pub struct InspectView {
    /// `toJSON()`, unless a member of its own has the name (the user's wins).
    pub to_json: bool,
    pub to_string: bool,
    /// The instance getters, in the order the properties are declared.
    pub readable: Vec<ReadableView>,
}

#[derive(Serialize)]
pub struct ReadableView {
    /// The key in `toJSON()`'s object literal (`a`, `"0"`).
    pub key: String,
    /// `this` read: `.a`, `["0"]`.
    pub access: String,
    /// Its TypeScript type, for `toJSON()`'s declared result.
    pub ts: String,
}

#[derive(Serialize)]
pub struct ClassExportsView {
    pub drop_ref: String,
    pub retain: String,
}

#[derive(Serialize)]
pub struct PropertyView {
    pub name: String,
    /// A static getter or setter (no receiver): a property of the class itself.
    pub is_static: bool,
    pub getter: Option<FnView>,
    pub setter: Option<FnView>,
}

impl GlueModel {
    pub fn new(
        crate_name: &str,
        lib_name: &str,
        target: &'static str,
        classes: &[ClassPlan],
        exports: &Exports,
    ) -> Self {
        let names = TypeNames::new(exports);
        let functions = || {
            classes
                .iter()
                .flat_map(|c| c.export.members.iter())
                .chain(exports.functions.iter().map(|f| &f.function))
        };
        let views = functions().any(|f| matches!(f.ret, bridge_schema::Ty::View(_)));
        let wire_codecs = wire_codecs(functions(), exports, &names);
        GlueModel {
            wire_codecs,
            records: data::records(exports, &names),
            enums: data::enums(exports, &names),
            generator: format!("cargo-bridge {}", env!("CARGO_PKG_VERSION")),
            crate_name: crate_name.to_string(),
            lib_name: lib_name.to_string(),
            wasm_file: format!("{lib_name}_bg.wasm"),
            target,
            classes: classes
                .iter()
                .enumerate()
                .map(|(index, c)| class_view(c, index, &names))
                .collect(),
            functions: exports
                .functions
                .iter()
                .map(|f| fn_view(&f.function, None, &names))
                .collect(),
            js: Default::default(),
            wasm_abi: WasmAbi::new(),
            closures: Vec::new(),
            finishes: Vec::new(),
            tasks: false,
            owned_closures: false,
            exports: Vec::new(),
            debug: false,
            leak_detector: false,
            wbg: Default::default(),
            views,
            flat: false,
            fast_pools: classes.iter().any(|c| c.mode == IdentityMode::Rust),
            guard_markers: false,
            borrows: false,
            moves: false,
        }
        .number_functions()
        .mark_cached_wrappers(classes)
    }

    /// Sets the calls into JS, giving the Rust closures passed to JS functions their glue
    /// bindings (after the closures the exports return).
    pub fn set_js(&mut self, mut js: JsView) {
        let params = js
            .imports
            .iter_mut()
            .chain(js.callbacks.iter_mut())
            .flat_map(|f| f.params.iter_mut());
        for p in params {
            if let Some(c) = &mut p.closure {
                bind_export(&mut c.call, &mut self.exports, "$export");
                c.var = format!("$closure{}", self.closures.len());
                self.flat |=
                    c.call.ret.flat || c.call.params.iter().any(|p| p.ty.flat_param.is_some());
                self.borrows |= !c.call.borrows.is_empty();
                self.moves |= c.call.moves;
                self.closures.push(c.clone());
            }
        }
        self.js = js;
    }

    /// Gives each function its export binding and each closure-returning function's
    /// [`ClosureView`] its glue binding (listed in `closures`, rendered before the classes
    /// and functions that use them). A class member's export is bound by a name local to
    /// the class's glue, numbered per class (`ClassView::bindings`); every other export by
    /// a module binding (`exports`).
    fn number_functions(mut self) -> Self {
        let mut numbering = Numbering::default();
        for f in &mut self.functions {
            numbering.function(f, None);
        }
        for class in &mut self.classes {
            let mut own = Vec::new();
            for f in class_members_mut(class) {
                numbering.function(f, Some(&mut own));
            }
            let mut names = Vec::with_capacity(own.len() + class.export_names.len());
            for (member, binding) in own.iter_mut().enumerate() {
                let name = export_names::member(class.index, member);
                let symbol: String =
                    serde_json::from_str(&binding.symbol).expect("a JS string literal");
                names.push((symbol, name.clone()));
                binding.symbol = js_string(&name);
                binding.suffix = Some(member.to_string());
            }
            if class.mode == IdentityMode::Rust.as_str() {
                // Bound with the members: the release path calls `$releaseWrapper`.
                let symbol = bridge_schema::release_wrapper_export(&class.raw_type_id);
                let name = export_names::release_wrapper(class.index);
                own.push(ExportBinding {
                    var: "$releaseWrapper".into(),
                    symbol: js_string(&name),
                    suffix: Some(js_string(export_names::RELEASE_WRAPPER_SUFFIX)),
                });
                names.push((symbol, name));
            }
            // The members' exports first, then the generated ones.
            names.append(&mut class.export_names);
            class.export_names = names;
            class.bindings = own;
        }
        self.closures = numbering.closures;
        self.finishes = numbering.finishes;
        self.flat = numbering.flat;
        self.borrows = numbering.borrows;
        self.moves = numbering.moves;
        self.exports = numbering.exports;
        self
    }

    /// Marks each `Vec` of a `rust`-mode class that an export returns, each such class's
    /// leaf in a fixed codec (`CodecView::fixed`, and the same leaf where a `Vec` of one
    /// reads its elements inline, `CodecView::elem_fixed`) and each returned iterator's item of
    /// such a class: the glue reads their hits straight from the class's wrapper table.
    fn mark_cached_wrappers(mut self, plans: &[ClassPlan]) -> Self {
        let cached: Vec<&str> = plans
            .iter()
            .filter(|p| p.mode == IdentityMode::Rust)
            .map(|p| p.export.name.as_str())
            .collect();
        // A fixed codec's own fields, and those a `Vec` of one reads inline.
        let fixed_leaves = self.wire_codecs.iter_mut().flat_map(|codec| {
            let own = codec.fixed.then_some(&mut codec.fields);
            let inline = codec.elem_fixed.as_mut().map(|e| &mut e.fields);
            own.into_iter().chain(inline).flatten().map(|f| &mut f.leaf)
        });
        for leaf in fixed_leaves {
            leaf.cached = leaf.kind == wire::LeafKind::Class
                && leaf.class.as_deref().is_some_and(|c| cached.contains(&c));
        }
        for f in self.fns_mut() {
            let ret = &mut f.ret;
            ret.cached_wrappers = ret.kind == Kind::of(Base::ClassVec)
                && ret.class.as_deref().is_some_and(|c| cached.contains(&c));
            if let Some(fin) = &mut f.finish {
                let ret = &mut fin.call.ret;
                ret.cached_wrappers = ret.kind == Kind::of(Base::ClassVec)
                    && ret.class.as_deref().is_some_and(|c| cached.contains(&c));
            }
        }
        // A returned iterator's item, one lift per next() (`$cachedWrapper`).
        for c in self.closures.iter_mut().filter(|c| c.iterator) {
            let ret = &mut c.call.ret;
            ret.cached_wrappers = ret.kind == Kind::opt(Base::Class)
                && ret.class.as_deref().is_some_and(|c| cached.contains(&c));
        }
        self
    }

    /// Marks each returned iterator whose pull (its `#closure-call` export) cannot run JS
    /// by `runs_js` as sealed (`ClosureView::sealed`), both where its function returns it
    /// and in `closures`.
    pub fn seal_iterators(&mut self, runs_js: impl Fn(&str) -> bool) {
        let seal = |c: &mut ClosureView| c.sealed = c.iterator && !runs_js(&c.call_export);
        for f in self.fns_mut() {
            if let Some(c) = &mut f.closure {
                seal(c);
            }
        }
        self.closures.iter_mut().for_each(seal);
        for class in &mut self.classes {
            let sources = |sealed: bool| {
                let getters = class.properties.iter().filter_map(|p| p.getter.as_ref());
                class.methods.iter().chain(getters).any(|f| {
                    f.has_self
                        && f.closure
                            .as_ref()
                            .is_some_and(|c| c.iterator && c.sealed == sealed)
                })
            };
            class.iterates = sources(false);
            class.iterates_sealed = sources(true);
        }
    }

    /// The exports `transforms/class_arg.rs` gave a class parameter (by linker symbol, with
    /// the class index each takes): their calls pass it, a class's own index as its
    /// `$classIndex` (the same text in every class's glue), another's as a number.
    pub fn pass_classes(&mut self, taken: &std::collections::HashMap<String, i32>) {
        if taken.is_empty() {
            return;
        }
        let arg = |f: &FnView, own: Option<usize>| {
            let symbol: String = serde_json::from_str(&f.symbol).ok()?;
            let class = *taken.get(&symbol)?;
            Some(match own {
                Some(own) if usize::try_from(class) == Ok(own) => "$classIndex".to_string(),
                _ => class.to_string(),
            })
        };
        for f in &mut self.functions {
            f.class_arg = arg(f, None);
        }
        for class in &mut self.classes {
            let own = class.index;
            let mut passes_index = false;
            for f in class_members_mut(class) {
                f.class_arg = arg(f, Some(own));
                passes_index |= f.class_arg.as_deref() == Some("$classIndex");
            }
            class.passes_index = passes_index;
            if passes_index {
                // The binder's prefix from the index the class names already.
                class.export_prefix = format!(
                    "$classIndex + {}",
                    js_string(export_names::MEMBER_SEPARATOR)
                );
            }
        }
    }

    /// Each class export's linker symbol and the name the glue calls it by, for the
    /// module's exports to follow (`postprocess/export_names.rs`).
    pub fn export_names(&self) -> Vec<(String, String)> {
        self.classes
            .iter()
            .flat_map(|c| c.export_names.iter().cloned())
            .collect()
    }

    /// Every export function's view: free functions and every class's members.
    fn fns_mut(&mut self) -> impl Iterator<Item = &mut FnView> {
        self.functions
            .iter_mut()
            .chain(self.classes.iter_mut().flat_map(class_members_mut))
    }
}

/// A class's export functions: its constructor, methods, statics, getters and setters.
fn class_members_mut(c: &mut ClassView) -> impl Iterator<Item = &mut FnView> {
    c.constructor
        .iter_mut()
        .chain(c.methods.iter_mut())
        .chain(c.statics.iter_mut())
        .chain(
            c.properties
                .iter_mut()
                .flat_map(|p| p.getter.iter_mut().chain(p.setter.iter_mut())),
        )
}

/// What [`GlueModel::number_functions`] collects while it binds each export.
#[derive(Default)]
struct Numbering {
    closures: Vec<ClosureView>,
    exports: Vec<ExportBinding>,
    finishes: Vec<FinishView>,
    flat: bool,
    borrows: bool,
    moves: bool,
}

impl Numbering {
    /// Binds `f`'s export (to the next of `own`, its class's, if given) and those of the
    /// closure it returns and the finish call of an async one (module bindings: their glue
    /// is rendered at module level).
    fn function(&mut self, f: &mut FnView, own: Option<&mut Vec<ExportBinding>>) {
        self.flat |= f.ret.flat || f.params.iter().any(|p| p.ty.flat_param.is_some());
        self.borrows |= !f.borrows.is_empty();
        self.moves |= f.moves;
        match own {
            Some(own) => bind_export(f, own, "$own"),
            None => bind_export(f, &mut self.exports, "$export"),
        }
        if let Some(c) = &mut f.closure {
            bind_export(&mut c.call, &mut self.exports, "$export");
            c.var = format!("$closure{}", self.closures.len());
            self.flat |= c.call.ret.flat || c.call.params.iter().any(|p| p.ty.flat_param.is_some());
            self.borrows |= !c.call.borrows.is_empty();
            self.moves |= c.call.moves;
            self.closures.push((**c).clone());
        }
        if let Some(fin) = &mut f.finish {
            bind_export(&mut fin.call, &mut self.exports, "$export");
            fin.var = format!("$finish{}", self.finishes.len());
            self.flat |= fin.call.ret.flat;
            self.borrows |= !fin.call.borrows.is_empty();
            self.moves |= fin.call.moves;
            self.finishes.push((**fin).clone());
        }
    }
}

/// Binds `f`'s export to the next `<prefix><N>` (listed in `exports`).
fn bind_export(f: &mut FnView, exports: &mut Vec<ExportBinding>, prefix: &str) {
    let var = format!("{prefix}{}", exports.len());
    exports.push(ExportBinding {
        var: var.clone(),
        symbol: f.symbol.clone(),
        suffix: None,
    });
    f.export_var = Some(var);
}

/// The wire codecs the functions' parameters and results and the imports need.
fn wire_codecs<'a>(
    functions: impl Iterator<Item = &'a bridge_schema::Function>,
    exports: &Exports,
    names: &TypeNames,
) -> Vec<CodecView> {
    let mut wire_codecs = Vec::new();
    for f in functions {
        for p in &f.params {
            wire::collect_param(&p.ty, names, &mut wire_codecs);
        }
        wire::collect(&f.ret, names, &mut wire_codecs);
    }
    // Imports (callbacks are among the parameters above).
    for ty in exports
        .imports
        .iter()
        .flat_map(|i| i.import.params.iter().map(|p| &p.ty).chain([&i.import.ret]))
    {
        wire::collect_for_js(ty, names, &mut wire_codecs);
    }
    wire_codecs
}

/// The view of the `index`-th class of the module.
fn class_view(plan: &ClassPlan, index: usize, names: &TypeNames) -> ClassView {
    let class = plan.export;
    let of_kind = |kind: FunctionKind| -> Vec<FnView> {
        class
            .members
            .iter()
            .filter(|m| m.kind == kind)
            .map(|m| fn_view(m, Some(&class.name), names))
            .collect()
    };
    let properties = properties(class, names);
    let methods = of_kind(FunctionKind::Method);
    let iterates = methods
        .iter()
        .chain(properties.iter().filter_map(|p| p.getter.as_ref()))
        .any(|f| f.has_self && f.closure.as_ref().is_some_and(|c| c.iterator));
    let own_member = |name: &str| {
        methods.iter().any(|f| f.js_name == name)
            || properties.iter().any(|p| !p.is_static && p.name == name)
    };
    let free = !own_member("free");
    let inspect = class
        .inspectable
        .then(|| inspect_view(&properties, own_member));
    // Until `seal_iterators` says which are sealed, every iterator is guarded.
    ClassView {
        name: class.name.clone(),
        // A class expression's own name is a binding inside its body: not for names the
        // body's code could mean otherwise.
        bindable: bridge_schema::js::is_bindable(&class.name),
        key: js_string(&class.name),
        ts_plain: ts::plain(&class.name),
        mode: plan.mode.as_str(),
        crate_name: class.crate_name.clone(),
        type_id: js_string(&class.type_id),
        exports: class_exports(&class.type_id, index),
        export_prefix: js_string(&export_names::member_prefix(index)),
        export_names: class_export_names(&class.type_id, index),
        raw_type_id: class.type_id.clone(),
        index,
        passes_index: false,
        bindings: Vec::new(),
        doc: doc_lines(&class.doc),
        constructor: of_kind(FunctionKind::Constructor).into_iter().next(),
        methods,
        statics: of_kind(FunctionKind::Static),
        properties,
        iterates,
        iterates_sealed: false,
        free,
        inspect,
    }
}

/// The runtime's per-class exports of the `index`-th class, `type_id`, as the glue names
/// them (`postprocess/export_names.rs`).
fn class_exports(type_id: &str, index: usize) -> ClassExportsView {
    let name = |symbol: String| js_string(&export_names::generated(index, type_id, &symbol));
    ClassExportsView {
        drop_ref: name(bridge_schema::drop_ref_export(type_id)),
        retain: name(bridge_schema::retain_export(type_id)),
    }
}

/// The generated exports of the `index`-th class, `type_id`: (linker symbol, export name).
/// Its members' are added as the glue numbers them (`GlueModel::number_functions`).
fn class_export_names(type_id: &str, index: usize) -> Vec<(String, String)> {
    [
        bridge_schema::drop_ref_export(type_id),
        bridge_schema::retain_export(type_id),
    ]
    .into_iter()
    .map(|symbol| {
        let name = export_names::generated(index, type_id, &symbol);
        (symbol, name)
    })
    .collect()
}

/// An inspectable class's `toJSON()`, `toString()` and readable properties; `own_member`:
/// the class has an instance member of that name (which wins over the generated one).
fn inspect_view(properties: &[PropertyView], own_member: impl Fn(&str) -> bool) -> InspectView {
    InspectView {
        to_json: !own_member("toJSON"),
        to_string: !own_member("toString"),
        readable: properties
            .iter()
            .filter(|p| !p.is_static)
            .filter_map(|p| {
                let getter = p.getter.as_ref()?;
                Some(ReadableView {
                    key: serde_json::to_string(&p.name).expect("a string serializes"),
                    access: super::text::property(&p.name, "."),
                    ts: getter.ret.ts.clone(),
                })
            })
            .collect(),
    }
}

/// A class's getters and setters as properties, a getter and a setter of one name (and
/// staticness) joined.
fn properties(class: &ClassExport, names: &TypeNames) -> Vec<PropertyView> {
    let mut properties: Vec<PropertyView> = Vec::new();
    for member in &class.members {
        let (is_getter, is_setter) = (
            member.kind == FunctionKind::Getter,
            member.kind == FunctionKind::Setter,
        );
        if !is_getter && !is_setter {
            continue;
        }
        let view = fn_view(member, Some(&class.name), names);
        let is_static = member.receiver == bridge_schema::Receiver::None;
        let prop = match properties
            .iter_mut()
            .find(|p| p.name == member.js_name && p.is_static == is_static)
        {
            Some(p) => p,
            None => {
                properties.push(PropertyView {
                    name: member.js_name.clone(),
                    is_static,
                    getter: None,
                    setter: None,
                });
                properties.last_mut().expect("just pushed")
            }
        };
        if is_getter {
            prop.getter = Some(view);
        } else {
            prop.setter = Some(view);
        }
    }
    properties
}
