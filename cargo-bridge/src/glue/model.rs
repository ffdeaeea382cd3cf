//! The data the templates render: the module's exports, grouped the way a JS class is
//! written (constructor, methods, statics, properties), with each class's resolved mode.

use super::data::{self, EnumView, RecordView};
use super::types::{self, Kind, TyView, TypeNames};
use super::wasm_abi::WasmAbi;
use super::wire::{self, CodecView};
use crate::config::IdentityMode;
use crate::exports::{ClassExport, Exports};
use bridge_schema::{Function, FunctionKind, Receiver, Ty};
use serde::Serialize;

/// A wasm export name as a JS string literal, for `wasm[...]` (export names are
/// arbitrary strings, see `bridge_schema::member_symbol`).
fn js_string(name: &str) -> String {
    serde_json::to_string(name).expect("strings serialize")
}

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
    pub js: super::js::JsView,
    pub records: Vec<RecordView>,
    pub enums: Vec<EnumView>,
    /// ABI names and offsets, from bridge-schema.
    pub wasm_abi: WasmAbi,
    /// Rust closures the exports return.
    pub closures: Vec<ClosureView>,
    /// Every function's wasm export, bound once at instantiation: a call then loads a
    /// module binding instead of looking the name up on the exports object.
    pub exports: Vec<ExportBinding>,
    /// Debug glue (a build without `--release`, set by the post-process): the leak
    /// detector and the argument checks of `templates/debug/`. Release glue has none of it.
    pub debug: bool,
    /// The package's wasm-bindgen half (disabled for a crate without wasm-bindgen).
    pub wbg: super::WasmBindgenView,
}

/// One module binding of a wasm export's function (`let <var>` = `$wasm[<symbol>]`).
#[derive(Serialize)]
pub struct ExportBinding {
    pub var: String,
    /// As a JS string literal.
    pub symbol: String,
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
    /// Wasm exports of the class, as JS string literals.
    pub exports: ClassExportsView,
    pub doc: Vec<String>,
    pub constructor: Option<FnView>,
    pub methods: Vec<FnView>,
    pub statics: Vec<FnView>,
    pub properties: Vec<PropertyView>,
}

#[derive(Serialize)]
pub struct ClassExportsView {
    pub drop_ref: String,
    pub retain: String,
    /// `rust` mode only.
    pub release_wrapper: String,
    /// `rust` mode only.
    pub table_len: String,
}

#[derive(Serialize)]
pub struct PropertyView {
    pub name: String,
    pub getter: Option<FnView>,
    pub setter: Option<FnView>,
}

#[derive(Serialize, Clone)]
pub struct FnView {
    pub js_name: String,
    /// `js_name` can be the function expression's own name (free functions are bound as
    /// `<js_name>$fn` and exported under `js_name`).
    pub bindable: bool,
    /// The wasm export, as a JS string literal (`wasm[{{ f.symbol }}]`).
    pub symbol: String,
    /// The module binding that holds the export's function (`$export<N>`, see
    /// [`GlueModel::exports`]); `None` until the model numbers it (the call then looks
    /// the export up by name).
    pub export_var: Option<String>,
    /// `Class.member` or `function`, for error messages.
    pub label: String,
    pub has_self: bool,
    pub params: Vec<ParamView>,
    /// How many arguments a call must pass (debug glue checks): the parameters up to the
    /// last one that is not an `Option` or a `JsValue` (both take `undefined`).
    pub required: usize,
    /// Some parameter is written into the wire's in-buffer (passed as its offset).
    pub wire_session: bool,
    pub ret: TyView,
    pub doc: Vec<String>,
    /// The JS expressions of the objects the thunk borrows shared (`this`, `&C` and
    /// `Option<&C>` parameters) and exclusively (`&mut self`, `&mut C`): what to undo when
    /// a panic or a JS exception skips its guards.
    pub shared_borrows: Vec<String>,
    pub exclusive_borrows: Vec<String>,
    /// The function returns a Rust closure (see [`ClosureView`]).
    pub closure: Option<Box<ClosureView>>,
}

/// A Rust closure an export returns: the glue's function object calls `call` (a glue
/// function taking the closure's address, then its arguments) and frees it through `drop`.
#[derive(Serialize, Clone)]
pub struct ClosureView {
    /// The glue binding of `call` (`$closure<n>`), assigned by [`GlueModel::new`].
    pub var: String,
    pub call: FnView,
    /// The `#closure-drop` export, as a JS string literal.
    pub drop: String,
    /// Names the closure in errors.
    pub label: String,
}

#[derive(Serialize, Clone)]
pub struct ParamView {
    /// The parameter's JS binding: its name, escaped with `_` if that is a reserved word
    /// or repeats an earlier parameter's.
    pub name: String,
    pub ty: TyView,
    pub ts: String,
}

impl GlueModel {
    pub fn new(
        crate_name: &str,
        lib_name: &str,
        target: &'static str,
        classes: &[ClassPlan],
        exports: &Exports,
    ) -> Self {
        let names = TypeNames(exports);
        let mut wire_codecs = Vec::new();
        let all = classes
            .iter()
            .flat_map(|c| c.export.members.iter())
            .chain(exports.functions.iter().map(|f| &f.function));
        for f in all {
            for p in &f.params {
                wire::collect_param(&p.ty, &names, &mut wire_codecs);
            }
            wire::collect(&f.ret, &names, &mut wire_codecs);
        }
        // Imports (callbacks are among the parameters above).
        for ty in exports
            .imports
            .iter()
            .flat_map(|i| i.import.params.iter().map(|p| &p.ty).chain([&i.import.ret]))
        {
            wire::collect_for_js(ty, &names, &mut wire_codecs);
        }
        GlueModel {
            wire_codecs,
            records: data::records(exports, &names),
            enums: data::enums(exports, &names),
            generator: format!("cargo-bridge {}", env!("CARGO_PKG_VERSION")),
            crate_name: crate_name.to_string(),
            lib_name: lib_name.to_string(),
            wasm_file: format!("{lib_name}_bg.wasm"),
            target,
            classes: classes.iter().map(|c| class_view(c, &names)).collect(),
            functions: exports
                .functions
                .iter()
                .map(|f| fn_view(&f.function, None, &names))
                .collect(),
            js: Default::default(),
            wasm_abi: WasmAbi::new(),
            closures: Vec::new(),
            exports: Vec::new(),
            debug: false,
            wbg: Default::default(),
        }
        .number_functions()
        .mark_cached_wrappers(classes)
    }

    /// Sets the calls into JS, giving the Rust closures passed to JS functions their glue
    /// bindings (after the closures the exports return).
    pub fn set_js(&mut self, mut js: super::js::JsView) {
        let params = js
            .imports
            .iter_mut()
            .chain(js.callbacks.iter_mut())
            .flat_map(|f| f.params.iter_mut());
        for p in params {
            if let Some(c) = &mut p.closure {
                bind_export(&mut c.call, &mut self.exports);
                c.var = format!("$closure{}", self.closures.len());
                self.closures.push(c.clone());
            }
        }
        self.js = js;
    }

    /// Gives each function its export binding (listed in `exports`) and each
    /// closure-returning function's [`ClosureView`] its glue binding (listed in `closures`,
    /// rendered before the classes and functions that use them).
    fn number_functions(mut self) -> Self {
        let mut closures = Vec::new();
        let mut exports = Vec::new();
        for f in self.fns_mut() {
            bind_export(f, &mut exports);
            if let Some(c) = &mut f.closure {
                bind_export(&mut c.call, &mut exports);
                c.var = format!("$closure{}", closures.len());
                closures.push((**c).clone());
            }
        }
        self.closures = closures;
        self.exports = exports;
        self
    }

    /// Marks each `Vec` of a `rust`-mode class that an export returns: the glue reads its
    /// hits straight from the class's wrapper table.
    fn mark_cached_wrappers(mut self, plans: &[ClassPlan]) -> Self {
        let cached: Vec<&str> = plans
            .iter()
            .filter(|p| p.mode == IdentityMode::Rust)
            .map(|p| p.export.name.as_str())
            .collect();
        for f in self.fns_mut() {
            let ret = &mut f.ret;
            ret.cached_wrappers = ret.kind == Kind::ClassVec
                && ret.class.as_deref().is_some_and(|c| cached.contains(&c));
        }
        self
    }

    /// Every export function's view: free functions and every class's members.
    fn fns_mut(&mut self) -> impl Iterator<Item = &mut FnView> {
        self.functions
            .iter_mut()
            .chain(self.classes.iter_mut().flat_map(|c| {
                c.constructor
                    .iter_mut()
                    .chain(c.methods.iter_mut())
                    .chain(c.statics.iter_mut())
                    .chain(
                        c.properties
                            .iter_mut()
                            .flat_map(|p| p.getter.iter_mut().chain(p.setter.iter_mut())),
                    )
            }))
    }
}

/// Binds `f`'s export to the next `$export<N>` (listed in `exports`).
fn bind_export(f: &mut FnView, exports: &mut Vec<ExportBinding>) {
    let var = format!("$export{}", exports.len());
    exports.push(ExportBinding {
        var: var.clone(),
        symbol: f.symbol.clone(),
    });
    f.export_var = Some(var);
}

/// Each parameter's JS binding: its name, with `_` appended while it is a reserved word
/// or an earlier parameter's binding (Rust's `new` and `new_` are both `new` in camelCase).
fn param_bindings(params: &[bridge_schema::Param]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(params.len());
    for p in params {
        let mut name = p.name.clone();
        while !bridge_schema::js::is_bindable(&name) || out.contains(&name) {
            name.push('_');
        }
        out.push(name);
    }
    out
}

fn doc_lines(doc: &str) -> Vec<String> {
    if doc.is_empty() {
        Vec::new()
    } else {
        doc.lines().map(str::to_string).collect()
    }
}

fn fn_view(f: &Function, class: Option<&str>, names: &TypeNames) -> FnView {
    let label = match (class, f.kind) {
        (Some(c), FunctionKind::Constructor) => format!("new {c}"),
        (Some(c), _) => format!("{c}.{}", f.js_name),
        (None, _) => f.js_name.clone(),
    };
    let closure = closure_view(f, &label, names);
    let mut ret = types::view(&f.ret, names);
    if let Ty::Callback(cb) = &f.ret {
        ret.ts = types::closure_ts(cb, names);
    }
    FnView {
        js_name: f.js_name.clone(),
        bindable: bridge_schema::js::is_bindable(&f.js_name),
        symbol: js_string(&f.symbol),
        export_var: None,
        label,
        has_self: f.receiver != Receiver::None,
        params: param_bindings(&f.params)
            .into_iter()
            .zip(&f.params)
            .map(|(name, p)| ParamView {
                name,
                ty: types::view(&p.ty, names),
                ts: types::param_ts(&p.ty, names),
            })
            .collect(),
        required: f
            .params
            .iter()
            .rposition(|p| !matches!(p.ty, Ty::Option(_) | Ty::JsValue | Ty::JsValueRef))
            .map_or(0, |i| i + 1),
        wire_session: f.params.iter().any(|p| {
            matches!(
                types::view(&p.ty, names).kind,
                Kind::Wire | Kind::Data | Kind::OptData | Kind::DataVec
            )
        }),
        ret,
        doc: doc_with_throws(&f.doc, &f.ret, names),
        shared_borrows: borrows(f, false),
        exclusive_borrows: borrows(f, true),
        closure,
    }
}

fn closure_view(f: &Function, owner: &str, names: &TypeNames) -> Option<Box<ClosureView>> {
    let Ty::Callback(cb) = &f.ret else {
        return None;
    };
    let label = format!("the closure returned by {owner}");
    Some(Box::new(closure_of(&f.symbol, cb, label, names)))
}

/// A Rust closure whose `#closure-call` and `#closure-drop` exports are named after
/// `symbol` (an export returning it, or `<import>#a<index>` for one passed to JS).
pub(super) fn closure_of(
    symbol: &str,
    cb: &bridge_schema::Callback,
    label: String,
    names: &TypeNames,
) -> ClosureView {
    let params = std::iter::once(bridge_schema::Param {
        name: "$closure".to_string(),
        ty: Ty::U32,
    })
    .chain(
        cb.params
            .iter()
            .enumerate()
            .map(|(i, t)| bridge_schema::Param {
                name: format!("a{i}"),
                ty: t.clone(),
            }),
    )
    .collect();
    let call = Function {
        kind: FunctionKind::Free,
        js_name: "$call".to_string(),
        rust_name: String::new(),
        symbol: bridge_schema::closure_call_export(symbol),
        receiver: Receiver::None,
        params,
        ret: (*cb.ret).clone(),
        doc: String::new(),
    };
    let mut call = fn_view(&call, None, names);
    call.label = label.clone();
    // The calling function passes the closure's address first: no arity check.
    call.required = 0;
    ClosureView {
        var: String::new(),
        call,
        drop: js_string(&bridge_schema::closure_drop_export(symbol)),
        label,
    }
}

fn borrows(f: &Function, exclusive: bool) -> Vec<String> {
    let this = match f.receiver {
        Receiver::Shared => !exclusive,
        Receiver::Exclusive => exclusive,
        Receiver::None | Receiver::Handle => false,
    };
    let params = param_bindings(&f.params)
        .into_iter()
        .zip(&f.params)
        .filter(|(_, p)| match &p.ty {
            Ty::ClassMut(_) => exclusive,
            Ty::ClassRef(_) => !exclusive,
            Ty::Option(inner) => matches!(**inner, Ty::ClassRef(_)) && !exclusive,
            _ => false,
        });
    this.then(|| "this".to_string())
        .into_iter()
        .chain(params.map(|(binding, _)| binding))
        .collect()
}

/// The doc lines, plus what a `Result`-returning export throws.
fn doc_with_throws(doc: &str, ret: &bridge_schema::Ty, names: &TypeNames) -> Vec<String> {
    let mut lines = doc_lines(doc);
    if let bridge_schema::Ty::Result(_, err) = ret {
        lines.push(if err.is_empty() {
            "@throws {Error} when Rust returns `Err(e)`: `message` is `e`'s `Display` text"
                .to_string()
        } else {
            format!(
                "@throws {{Error & {{ data: {} }}}} when Rust returns `Err(e)`: `message` is \
                 `e`'s `Display` text, `data` is `e`",
                names.js_name(err)
            )
        });
    }
    lines
}

fn class_view(plan: &ClassPlan, names: &TypeNames) -> ClassView {
    let class = plan.export;
    let of_kind = |kind: FunctionKind| -> Vec<FnView> {
        class
            .members
            .iter()
            .filter(|m| m.kind == kind)
            .map(|m| fn_view(m, Some(&class.name), names))
            .collect()
    };
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
        let prop = match properties.iter_mut().find(|p| p.name == member.js_name) {
            Some(p) => p,
            None => {
                properties.push(PropertyView {
                    name: member.js_name.clone(),
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
    ClassView {
        name: class.name.clone(),
        // A class expression's own name is a binding inside its body: not for names the
        // body's code could mean otherwise.
        bindable: bridge_schema::js::is_bindable(&class.name)
            && !["undefined", "NaN", "Infinity"].contains(&class.name.as_str()),
        key: js_string(&class.name),
        ts_plain: types::ts_plain(&class.name),
        mode: plan.mode.as_str(),
        crate_name: class.crate_name.clone(),
        exports: ClassExportsView {
            drop_ref: js_string(&bridge_schema::drop_ref_export(&class.type_id)),
            retain: js_string(&bridge_schema::retain_export(&class.type_id)),
            release_wrapper: js_string(&bridge_schema::release_wrapper_export(&class.type_id)),
            table_len: js_string(&bridge_schema::identity_table_len_export(&class.type_id)),
        },
        doc: doc_lines(&class.doc),
        constructor: of_kind(FunctionKind::Constructor).into_iter().next(),
        methods: of_kind(FunctionKind::Method),
        statics: of_kind(FunctionKind::Static),
        properties,
    }
}
