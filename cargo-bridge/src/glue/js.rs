//! The part of the view model for calls from Rust into JS: `#[bridge] extern` imports
//! (global functions and JS module files), callback trampolines (one per callback
//! parameter of an export), and whether the glue needs the `JsValue` table at all.
//!
//! Imported JS classes cross through the class kinds with `TyView::js_type` set (their
//! `<ident>$check`/`$addr`/`$lift`/`$onWire` helpers; a table index where a class has its
//! address); their members are `JsFnView::form`s: `new C(..)`, `a$0.m(..)`, getters,
//! setters, statics, `instanceof`, a static's value.

use super::calls::{self, ClosureView};
use super::type_names::TypeNames;
use super::types::{self, TyView};
use super::wire;
use crate::postprocess::exports::{Exports, ImportExport};
use crate::postprocess::snippets::Snippet;
use bridge_schema::lowering::Site;
use bridge_schema::{ImportSource, MemberForm, Ty, WasmBindgenKind};
use serde::Serialize;

#[derive(Serialize, Default)]
pub struct JsView {
    /// The module uses JS values, imports or callbacks: the glue includes the table.
    pub enabled: bool,
    pub modules: Vec<ModuleView>,
    pub imports: Vec<JsFnView>,
    pub callbacks: Vec<JsFnView>,
    /// Imported JS classes: their `instanceof` checks (`<var>$check`, `$addr`, ...).
    pub types: Vec<JsTypeView>,
    /// The `.d.ts`'s `import type` of module classes.
    pub type_imports: Vec<TypeImport>,
}

/// An imported JS class (`pub type T;` in a `#[bridge] extern` block).
#[derive(Serialize)]
pub struct JsTypeView {
    /// The glue's name of its helpers.
    pub var: String,
    /// The expression reading its constructor (a global: at each use).
    pub ctor: String,
    /// Its name for messages (escaped for a JS string): `Counter`, `Date`.
    pub name: String,
    /// Where it lives, for messages (escaped): `js/counter.mjs#Counter`, `globalThis.Date`.
    pub path: String,
    pub rust_name: String,
    /// A wasm-bindgen type (`wasm_bindgen/types.rs`): wasm-bindgen converts it in Rust;
    /// the glue only checks that an argument is an instance where wasm-bindgen exports a
    /// class of its name.
    pub wasm_bindgen: bool,
    /// A wasm-bindgen type that wasm-bindgen's JS exports under `name` (a class or enum
    /// its `.d.ts` declares): the glue looks it up there. A `js_name`d struct is not
    /// declared under its Rust name (its `.d.ts` type is `any`): `name` is then its Rust
    /// name as written, which messages show, and the glue looks nothing up.
    pub wbg_declared: bool,
    /// A wasm-bindgen type's kind, how an export's parameter of it crosses
    /// (`bridge_schema::WasmBindgenKind`): `class` (the object's pointer), `number` (a
    /// numeric enum's number), `value` (a value-table entry); empty for other types.
    pub wbg_kind: &'static str,
    /// `#[bridge(structural)]`: no class behind it; any value passes.
    pub structural: bool,
}

/// `import type { <export> as <binding> } from "./<dest>";` in the `.d.ts`.
#[derive(Serialize)]
pub struct TypeImport {
    pub export: String,
    pub binding: String,
    pub dest: String,
}

#[derive(Serialize)]
pub struct ModuleView {
    /// The glue's namespace binding of the module.
    pub var: String,
    pub crate_name: String,
    /// As written in the attribute.
    pub path: String,
    /// Relative to the package.
    pub dest: String,
    pub functions: Vec<ModuleFn>,
}

#[derive(Serialize)]
pub struct ModuleFn {
    /// The property path from the module's namespace object: the export, then any
    /// properties (`js_namespace`), then the function's name.
    pub keys: Vec<String>,
    /// The path for messages (escaped for a JS string).
    pub shown: String,
    pub rust: String,
    /// A `static` of the block: checked to be defined, not to be a function.
    pub value: bool,
    /// A JS class's own check (`instanceof`): the class must be exported; its Rust type
    /// name, for the message.
    pub class: Option<String>,
}

#[derive(Serialize)]
pub struct JsFnView {
    /// Name of the wasm import.
    pub symbol: String,
    /// For messages.
    pub label: String,
    pub rust_name: String,
    /// The function's property name on `owner`.
    pub key: String,
    /// The property path to the object the function is a property of, from `globalThis`
    /// or (module imports) the module's namespace object; empty for a module's own export
    /// or a global function.
    pub owner: Vec<String>,
    /// The dotted path, for messages (escaped for a JS string).
    pub path: String,
    /// Module imports: the module's binding.
    pub module_var: Option<String>,
    pub params: Vec<JsParamView>,
    pub ret: TyView,
    pub catch: bool,
    /// A member of an imported JS class (`constructor`, `method`, `getter`, `setter`,
    /// `static`, `instance_of`): `owner` and `key` are then the class's path, and
    /// `member_key` the member's property.
    pub form: Option<MemberForm>,
    pub member_key: String,
    /// A method, getter or setter: reached from its first argument, not from the class.
    pub on_instance: bool,
}

/// An argument of a call from Rust into JS.
#[derive(Serialize)]
pub struct JsParamView {
    /// The argument's binding in the glue function (`a<index>` for callbacks).
    pub name: String,
    pub ty: TyView,
    /// A Rust closure passed to JS: how the glue makes its function (numbered by
    /// `GlueModel::set_js`).
    pub closure: Option<ClosureView>,
}

/// How a type crosses in a call into JS (`templates/js/marshal.js.j2`): as an export's
/// result (arguments) or parameter (the result), except that every vector, and every
/// compound value, is on the wire (kind `wire`, with its codec).
/// `site` is `JsArg` or `JsResult`: the wasm values come from the lowering table's.
pub(super) fn js_ty(ty: &Ty, names: &TypeNames, site: Site) -> TyView {
    let mut view = types::view(ty, names);
    if view.kind.is_vec() {
        view = types::with_kind(TyView {
            kind: types::Kind::of(types::Base::Wire),
            codec: Some(wire::codec_name(ty, names)),
            ..view
        });
    }
    types::at(view, ty, site)
}

/// The arguments of a call into JS whose wasm import is `symbol`; a Rust closure among them
/// gets the exports `<symbol>#a<index>#closure-call` / `#closure-drop` (the macro's
/// `jscall::build` names them so).
/// `declared`: the names are the declaration's (an import's; a callback's are `a<i>`),
/// so messages name a closure argument by it.
fn params(
    symbol: &str,
    what: &str,
    tys: &[(String, &Ty)],
    declared: bool,
    names: &TypeNames,
) -> Vec<JsParamView> {
    // A reserved word (`new`, `class`) or a repeated name is bound with `_` added.
    let bound = calls::bindings(tys.iter().map(|(name, _)| name.as_str()));
    tys.iter()
        .zip(bound)
        .enumerate()
        .map(|(index, ((declared_name, ty), name))| JsParamView {
            name,
            ty: js_ty(ty, names, Site::JsArg),
            closure: ty.closure().map(|cb| {
                calls::closure_of(
                    &bridge_schema::callback_symbol(symbol, &format!("a{index}")),
                    cb,
                    bridge_schema::closure_arg_label(
                        index,
                        declared.then_some(declared_name.as_str()),
                        what,
                        cb.hold,
                    ),
                    names,
                )
            }),
        })
        .collect()
}

pub fn view(exports: &Exports, snippets: &[Snippet], wasm_uses_values: bool) -> JsView {
    let names = TypeNames::new(exports);
    let imports = &exports.imports;
    let modules: Vec<ModuleView> = snippets
        .iter()
        .enumerate()
        .map(|(i, s)| ModuleView {
            var: format!("$jsModule{i}"),
            crate_name: s.crate_name.clone(),
            path: s.path.clone(),
            dest: s.dest.clone(),
            functions: module_fns(imports, s),
        })
        .collect();
    let import_views = imports
        .iter()
        .map(|im| import_view(im, &modules, &names))
        .collect::<Vec<_>>();
    let (mut callbacks, uses_values) = callbacks(exports, &names);
    callbacks.sort_by(|a, b| a.symbol.cmp(&b.symbol));
    let (types, type_imports) = js_types(exports, &modules, &names);
    JsView {
        enabled: uses_values || wasm_uses_values || !imports.is_empty(),
        modules,
        imports: import_views,
        callbacks,
        types,
        type_imports,
    }
}

/// What the glue imports from the JS module file `s`, each name once.
fn module_fns(imports: &[ImportExport], s: &Snippet) -> Vec<ModuleFn> {
    imports
        .iter()
        .filter(|im| im.crate_name == s.crate_name)
        // Methods, getters and setters are reached from the object: their class
        // need not be exported (a class that must be is checked by its
        // `instanceof`; a structural type has none).
        .filter(|im| {
            !im.import.member.as_ref().is_some_and(|m| {
                matches!(
                    m.form,
                    MemberForm::Method | MemberForm::Getter | MemberForm::Setter
                )
            })
        })
        .filter_map(|im| match &im.import.source {
            ImportSource::Module {
                path,
                name,
                namespace,
            } if *path == s.path => {
                let keys: Vec<String> = namespace.iter().chain([name]).cloned().collect();
                let form = im.import.member.as_ref().map(|m| m.form);
                Some(ModuleFn {
                    shown: super::text::js_text(&keys.join(".")),
                    keys,
                    rust: im.import.rust_name.clone(),
                    value: form == Some(MemberForm::Value),
                    class: (form == Some(MemberForm::InstanceOf)).then(|| {
                        im.import
                            .rust_name
                            .strip_suffix("::instanceof")
                            .unwrap_or(&im.import.rust_name)
                            .to_string()
                    }),
                })
            }
            _ => None,
        })
        .fold(Vec::<ModuleFn>::new(), |mut fns, f| {
            if !fns.iter().any(|g| g.keys == f.keys) {
                fns.push(f);
            }
            fns
        })
}

/// A JS import's view.
fn import_view(im: &ImportExport, modules: &[ModuleView], names: &TypeNames) -> JsFnView {
    let ImportExport { crate_name, import } = im;
    let (owner, key, module_var, path) = match &import.source {
        ImportSource::Global { namespace, name } => {
            let path: Vec<String> = namespace.iter().chain([name]).cloned().collect();
            (namespace.clone(), name.clone(), None, path.join("."))
        }
        ImportSource::Module {
            path,
            name,
            namespace,
        } => {
            let var = modules
                .iter()
                .find(|m| m.crate_name == *crate_name && m.path == *path)
                .map(|m| m.var.clone());
            let keys: Vec<String> = namespace.iter().chain([name]).cloned().collect();
            let shown = format!("{path}#{}", keys.join("."));
            (namespace.clone(), name.clone(), var, shown)
        }
    };
    let path = super::text::js_text(&path);
    JsFnView {
        symbol: import.symbol.clone(),
        label: format!("JS import `{}` ({path})", import.rust_name),
        rust_name: import.rust_name.clone(),
        key,
        owner,
        path,
        module_var,
        params: params(
            &import.symbol,
            &format!("the JS import `{}`", import.rust_name),
            &import
                .params
                .iter()
                .map(|p| (p.name.clone(), &p.ty))
                .collect::<Vec<_>>(),
            true,
            names,
        ),
        ret: js_ty(&import.ret, names, Site::JsResult),
        catch: import.catch,
        form: import.member.as_ref().map(|m| m.form),
        on_instance: import.member.as_ref().is_some_and(|m| {
            matches!(
                m.form,
                MemberForm::Method | MemberForm::Getter | MemberForm::Setter | MemberForm::Settled
            )
        }),
        member_key: import
            .member
            .as_ref()
            .map(|m| m.key.clone())
            .unwrap_or_default(),
    }
}

/// The JS functions Rust receives as parameters (called through their trampolines), and
/// whether any function's types hold a `JsValue` (or a JS function).
fn callbacks(exports: &Exports, names: &TypeNames) -> (Vec<JsFnView>, bool) {
    let mut callbacks = Vec::new();
    let all_functions = exports.functions.iter().map(|f| (None, &f.function)).chain(
        exports
            .classes
            .iter()
            .flat_map(|c| c.members.iter().map(move |m| (Some(c.name.as_str()), m))),
    );
    let mut uses_values = false;
    for (class, f) in all_functions {
        let tys = f.params.iter().map(|p| &p.ty).chain([&f.ret]);
        if tys
            .into_iter()
            .any(|t| matches!(t, Ty::JsValue | Ty::JsValueRef))
        {
            uses_values = true;
        }
        for p in &f.params {
            let Some(cb) = p.ty.closure() else { continue };
            uses_values = true;
            let owner = match class {
                Some(c) => format!("{c}.{}", f.js_name),
                None => f.js_name.clone(),
            };
            let symbol = bridge_schema::callback_symbol(&f.symbol, &p.name);
            callbacks.push(JsFnView {
                params: params(
                    &symbol,
                    "a JS callback",
                    &cb.params
                        .iter()
                        .enumerate()
                        .map(|(i, t)| (format!("a{i}"), t))
                        .collect::<Vec<_>>(),
                    false,
                    names,
                ),
                symbol,
                label: format!("the callback `{}` of {owner}", p.name),
                rust_name: String::new(),
                key: String::new(),
                owner: Vec::new(),
                path: String::new(),
                module_var: None,
                ret: js_ty(&cb.ret, names, Site::JsResult),
                catch: cb.catch,
                form: None,
                member_key: String::new(),
                on_instance: false,
            });
        }
    }
    (callbacks, uses_values)
}

/// The imported JS classes' views, and the `.d.ts` imports of the module ones.
fn js_types(
    exports: &Exports,
    modules: &[ModuleView],
    names: &TypeNames,
) -> (Vec<JsTypeView>, Vec<TypeImport>) {
    let mut types = Vec::new();
    let mut type_imports = Vec::new();
    for t in &exports.js_types {
        let def = &t.def;
        let var = crate::postprocess::exports::js_type_ident(&def.type_id);
        if def.structural {
            // No class: its values pass unchecked, and the `.d.ts` imports nothing.
            types.push(JsTypeView {
                var,
                ctor: String::new(),
                name: String::new(),
                path: String::new(),
                rust_name: def.rust_name.clone(),
                wasm_bindgen: false,
                wbg_declared: false,
                wbg_kind: "",
                structural: true,
            });
            continue;
        }
        let (ctor, name, path) = match &def.source {
            ImportSource::Global { namespace, name } => global_ctor(namespace, name),
            ImportSource::Module {
                path,
                name,
                namespace,
            } => {
                let module = modules
                    .iter()
                    .find(|m| m.crate_name == t.crate_name && m.path == *path)
                    .expect("every module class has a member import, so its snippet");
                type_imports.push(TypeImport {
                    export: namespace.first().unwrap_or(name).clone(),
                    binding: names.js_type_binding(&def.type_id),
                    dest: module.dest.clone(),
                });
                module_ctor(module, path, namespace, name)
            }
        };
        let wasm_bindgen = bridge_schema::wasm_bindgen_type(&def.type_id).is_some();
        // `any`: wasm-bindgen's `.d.ts` type of one it declares under no name of its own.
        let wbg_declared = wasm_bindgen && name != "any";
        let shown = if wasm_bindgen && !wbg_declared {
            &def.rust_name
        } else {
            &name
        };
        types.push(JsTypeView {
            var,
            ctor,
            name: super::text::js_text(shown),
            path: super::text::js_text(&path),
            rust_name: def.rust_name.clone(),
            wasm_bindgen,
            wbg_declared,
            wbg_kind: wbg_kind(&def.type_id),
            structural: false,
        });
    }
    (types, type_imports)
}

/// [`JsTypeView::wbg_kind`] of the type `type_id`.
fn wbg_kind(type_id: &str) -> &'static str {
    match bridge_schema::wasm_bindgen_type(type_id).map(|t| t.kind) {
        Some(WasmBindgenKind::Class) => "class",
        Some(WasmBindgenKind::Number) => "number",
        Some(WasmBindgenKind::Value) => "value",
        None => "",
    }
}

/// A global class's constructor expression, name and path (as messages show them).
fn global_ctor(namespace: &[String], name: &String) -> (String, String, String) {
    let keys: Vec<&String> = namespace.iter().chain([name]).collect();
    let ctor: String = keys
        .iter()
        .enumerate()
        .map(|(i, k)| super::text::property(k, if i == 0 { "." } else { "?." }))
        .collect();
    let path = keys
        .iter()
        .map(|k| k.as_str())
        .collect::<Vec<_>>()
        .join(".");
    (
        format!("globalThis{ctor}"),
        name.clone(),
        format!("globalThis.{path}"),
    )
}

/// A module class's constructor expression (through the module's import), name and path.
fn module_ctor(
    module: &ModuleView,
    path: &str,
    namespace: &[String],
    name: &String,
) -> (String, String, String) {
    let keys: Vec<&String> = namespace.iter().chain([name]).collect();
    let ctor: String = keys.iter().map(|k| super::text::property(k, ".")).collect();
    let shown = keys
        .iter()
        .map(|k| k.as_str())
        .collect::<Vec<_>>()
        .join(".");
    (
        format!("{}{ctor}", module.var),
        name.clone(),
        format!("{path}#{shown}"),
    )
}
