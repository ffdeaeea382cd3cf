//! Which exports can run JS while they run: the module's call graph from an export, through
//! direct calls and (by type) through indirect ones, to the imports it can reach.
//!
//! Why: a Rust iterator's pull (`#closure-call`) that cannot run JS cannot be re-entered,
//! returned or released while it runs, so its JS iterator needs no running phase on the
//! hot path of `next()` (a "sealed" iterator, `templates/js/closures.js.j2`). The answer
//! must never be "cannot" when it can, so anything not known is taken to run JS: an import
//! not of the runtime's own quiet ones; any indirect call, once a function reference can
//! come from outside (a function table imported or exported, an element segment of other
//! expressions, a function reference crossing an import's or export's signature or held by
//! an imported or exported global).
//!
//! A call followed by `unreachable` (Rust's `-> !`: the panic machinery, whose hook is an
//! indirect call of a common type, `throw`, `handle_alloc_error`) is left out: whatever it
//! runs, the pull never resumes after it, and the glue frees the iterator once the call
//! has trapped or thrown, as it does for any iterator.
//!
//! Quiet imports run no code but the glue's own: the runtime's host functions (`throw` and
//! `panic_parts` end the wasm call; the borrow-guard markers only record) and the
//! `JsValue` table operations that run no user JS (`js_values::ops::REENTRANT` lists those
//! that do; `transforms/import_stack.rs` reads the same list). Like the rest of the glue,
//! this trusts the realm's builtins (`Array.prototype.push` is the one the glue uses).

use std::collections::{HashMap, HashSet};
use walrus::ir::{Call, CallIndirect, Instr, InstrSeq, RefFunc, ReturnCall, Visitor};
use walrus::{ConstExpr, ElementItems, ExportItem, FunctionId, FunctionKind, Module, TypeId};

/// The call graph's answers for one module (as it is when made).
pub struct JsReach<'m> {
    module: &'m Module,
    /// Functions an indirect call may reach (in a table's segments, `ref.func`'d, in a
    /// global), by their type's signature.
    by_signature: HashMap<Signature, Vec<FunctionId>>,
    /// An indirect call may reach a function this module cannot see.
    indirect_unknown: bool,
    /// Memo of [`JsReach::runs_js`].
    known: std::cell::RefCell<HashMap<FunctionId, bool>>,
}

type Signature = (Vec<walrus::ValType>, Vec<walrus::ValType>);

impl<'m> JsReach<'m> {
    pub fn new(module: &'m Module) -> Self {
        let exported = Exported::of(module);
        // A function table JS can reach (imported, or exported: `table.set`) may hold any
        // function; an `externref` table (wasm-bindgen's value heap) holds none.
        let table_open = module.tables.iter().any(|t| {
            holds_functions(walrus::ValType::Ref(t.element_ty))
                && (t.import.is_some() || exported.tables.contains(&t.id()))
        });
        let (taken, elements_open) = taken_functions(module);
        let indirect_unknown = table_open || elements_open || refs_cross(module, &exported);
        let mut by_signature: HashMap<Signature, Vec<FunctionId>> = HashMap::new();
        for f in taken {
            by_signature
                .entry(signature(module, module.funcs.get(f).ty()))
                .or_default()
                .push(f);
        }
        JsReach {
            module,
            by_signature,
            indirect_unknown,
            known: Default::default(),
        }
    }

    /// Whether the function exported as `name` can run JS (an export not there: it can).
    pub fn export_runs_js(&self, name: &str) -> bool {
        let func = self.module.exports.iter().find_map(|e| match e.item {
            ExportItem::Function(f) if e.name == name => Some(f),
            _ => None,
        });
        func.is_none_or(|f| self.runs_js(f))
    }

    /// The functions `f` may call, or `None` if `f` itself may run JS (a JS import, an
    /// indirect call whose targets are not all known).
    fn callees(&self, f: FunctionId) -> Option<Vec<FunctionId>> {
        match &self.module.funcs.get(f).kind {
            FunctionKind::Import(import) => {
                let import = self.module.imports.get(import.import);
                quiet_import(&import.module, &import.name).then(Vec::new)
            }
            FunctionKind::Local(local) => {
                let mut calls = Calls::default();
                walrus::ir::dfs_in_order(&mut calls, local, local.entry_block());
                let mut callees = calls.direct;
                for ty in calls.indirect {
                    if self.indirect_unknown {
                        return None;
                    }
                    let sig = signature(self.module, ty);
                    callees.extend(self.by_signature.get(&sig).into_iter().flatten());
                }
                Some(callees.into_iter().collect())
            }
            FunctionKind::Uninitialized(_) => None,
        }
    }

    /// Whether calling `root` can run JS: a depth-first walk of what it calls, each
    /// function visited once (a cycle adds nothing new).
    pub fn runs_js(&self, root: FunctionId) -> bool {
        if let Some(&known) = self.known.borrow().get(&root) {
            return known;
        }
        let mut seen = HashSet::from([root]);
        let mut todo = vec![root];
        let mut runs = false;
        while let Some(f) = todo.pop() {
            if let Some(&known) = self.known.borrow().get(&f) {
                if known {
                    runs = true;
                    break;
                }
                continue;
            }
            let Some(callees) = self.callees(f) else {
                runs = true;
                break;
            };
            for callee in callees {
                if seen.insert(callee) {
                    todo.push(callee);
                }
            }
        }
        // Only the root's answer is kept: a function on the path of a "runs" answer may
        // not run JS itself, and one seen on a "does not" path has all its callees seen.
        self.known.borrow_mut().insert(root, runs);
        if !runs {
            let mut known = self.known.borrow_mut();
            for f in seen {
                known.insert(f, false);
            }
        }
        runs
    }
}

/// An import that runs no code but the glue's own (see the module comment).
fn quiet_import(module: &str, name: &str) -> bool {
    use bridge_schema::abi::{host, js_values::ops};
    (module == host::MODULE
        && [
            host::THROW,
            host::PANIC_MESSAGE,
            host::GUARDS_ENDED,
            host::GUARDS_RESUMED,
        ]
        .contains(&name))
        || (module == bridge_schema::JS_VALUE_MODULE
            && ops::ALL.contains(&name)
            && !ops::REENTRANT.contains(&name))
}

/// A reference that may be to a function (not an `externref`, which no wasm call can call).
fn holds_functions(ty: walrus::ValType) -> bool {
    use walrus::{AbstractHeapType, HeapType};
    match ty {
        walrus::ValType::Ref(r) => !matches!(
            r.heap_type,
            HeapType::Abstract(AbstractHeapType::Extern | AbstractHeapType::NoExtern)
        ),
        _ => false,
    }
}

fn signature(module: &Module, ty: TypeId) -> Signature {
    let ty = module.types.get(ty);
    (ty.params().to_vec(), ty.results().to_vec())
}

/// The calls of one function: direct callees, and the types of its indirect calls
/// (`call_indirect`, `call_ref` and their tail-call forms).
#[derive(Default)]
struct Calls {
    direct: Vec<FunctionId>,
    indirect: Vec<TypeId>,
}

impl<'instr> Visitor<'instr> for Calls {
    fn start_instr_seq(&mut self, seq: &'instr InstrSeq) {
        for (i, (instr, _)) in seq.instrs.iter().enumerate() {
            // A call that cannot return (Rust's `-> !`: a panic, `throw`): what it runs
            // never hands control back to this function (see the module comment). Not a
            // tail call: its callee is this function's own rest.
            let diverges = matches!(seq.instrs.get(i + 1), Some((Instr::Unreachable(_), _)));
            match instr {
                Instr::Call(Call { func }) if !diverges => self.direct.push(*func),
                Instr::ReturnCall(ReturnCall { func }) => self.direct.push(*func),
                Instr::CallIndirect(CallIndirect { ty, .. })
                | Instr::CallRef(walrus::ir::CallRef { ty })
                    if !diverges =>
                {
                    self.indirect.push(*ty)
                }
                Instr::ReturnCallIndirect(walrus::ir::ReturnCallIndirect { ty, .. })
                | Instr::ReturnCallRef(walrus::ir::ReturnCallRef { ty }) => self.indirect.push(*ty),
                _ => {}
            }
        }
    }
}

/// The functions one function takes a reference to (`ref.func`).
#[derive(Default)]
struct Refs {
    funcs: Vec<FunctionId>,
}

impl<'instr> Visitor<'instr> for Refs {
    fn start_instr_seq(&mut self, seq: &'instr InstrSeq) {
        for (instr, _) in &seq.instrs {
            if let Instr::RefFunc(RefFunc { func }) = instr {
                self.funcs.push(*func);
            }
        }
    }
}

/// What a module exports, by kind.
#[derive(Default)]
struct Exported {
    tables: HashSet<walrus::TableId>,
    globals: HashSet<walrus::GlobalId>,
    funcs: HashSet<FunctionId>,
}

impl Exported {
    fn of(module: &Module) -> Self {
        let mut exported = Exported::default();
        for e in module.exports.iter() {
            match e.item {
                ExportItem::Table(t) => {
                    exported.tables.insert(t);
                }
                ExportItem::Global(g) => {
                    exported.globals.insert(g);
                }
                ExportItem::Function(f) => {
                    exported.funcs.insert(f);
                }
                ExportItem::Memory(_) | ExportItem::Tag(_) => {}
            }
        }
        exported
    }
}

/// Every function whose reference is taken (element segments, globals, `ref.func` in
/// code), and whether an element segment holds a reference not known here.
fn taken_functions(module: &Module) -> (HashSet<FunctionId>, bool) {
    let mut taken: HashSet<FunctionId> = HashSet::new();
    let mut unknown = false;
    for element in module.elements.iter() {
        match &element.items {
            ElementItems::Functions(funcs) => taken.extend(funcs.iter().copied()),
            ElementItems::Expressions(_, exprs) => {
                for expr in exprs {
                    match expr {
                        ConstExpr::RefFunc(f) => {
                            taken.insert(*f);
                        }
                        ConstExpr::RefNull(_) => {}
                        _ => unknown = true,
                    }
                }
            }
        }
    }
    for global in module.globals.iter() {
        if let walrus::GlobalKind::Local(ConstExpr::RefFunc(f)) = &global.kind {
            taken.insert(*f);
        }
    }
    for (_, func) in module.funcs.iter_local() {
        let mut refs = Refs::default();
        walrus::ir::dfs_in_order(&mut refs, func, func.entry_block());
        taken.extend(refs.funcs);
    }
    (taken, unknown)
}

/// A function reference JS hands in (an import's result, an export's argument, an
/// imported or exported global) may be any function, of any module.
fn refs_cross(module: &Module, exported: &Exported) -> bool {
    let globals = module.globals.iter().any(|g| {
        holds_functions(g.ty)
            && (matches!(g.kind, walrus::GlobalKind::Import(_))
                || exported.globals.contains(&g.id()))
    });
    globals
        || module.funcs.iter().any(|f| {
            let ty = module.types.get(f.ty());
            let crosses =
                matches!(f.kind, FunctionKind::Import(_)) || exported.funcs.contains(&f.id());
            crosses
                && ty
                    .params()
                    .iter()
                    .chain(ty.results())
                    .any(|t| holds_functions(*t))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use walrus::{FunctionBuilder, ModuleConfig, TableId, ValType};

    /// A module with one import of each kind the tests call: `js` (user JS), `quiet` (a
    /// runtime host function), and a function table.
    struct Fixture {
        module: Module,
        js: FunctionId,
        quiet: FunctionId,
        table: TableId,
    }

    fn fixture() -> Fixture {
        let mut module = Module::with_config(ModuleConfig::new());
        let unit = module.types.add(&[], &[]);
        let (js, _) = module.add_import_func(bridge_schema::JS_IMPORT_MODULE, "f", unit);
        let throw = module.types.add(&[ValType::I32, ValType::I32], &[]);
        let (quiet, _) = module.add_import_func(
            bridge_schema::abi::host::MODULE,
            bridge_schema::abi::host::THROW,
            throw,
        );
        let table = module
            .tables
            .add_local(false, 4, None, walrus::RefType::FUNCREF);
        Fixture {
            module,
            js,
            quiet,
            table,
        }
    }

    /// A local `() -> ()` function calling `callees` directly.
    fn calling(module: &mut Module, callees: &[FunctionId]) -> FunctionId {
        let mut b = FunctionBuilder::new(&mut module.types, &[], &[]);
        for &c in callees {
            let params = module.types.get(module.funcs.get(c).ty()).params().len();
            for _ in 0..params {
                b.func_body().i32_const(0);
            }
            b.func_body().call(c);
        }
        b.finish(vec![], &mut module.funcs)
    }

    /// A local `() -> ()` function making an indirect call of type `params -> ()`.
    fn calling_indirect(module: &mut Module, table: TableId, params: &[ValType]) -> FunctionId {
        let ty = module.types.add(params, &[]);
        let mut b = FunctionBuilder::new(&mut module.types, &[], &[]);
        for _ in params {
            b.func_body().i32_const(0);
        }
        b.func_body().i32_const(0).call_indirect(ty, table);
        b.finish(vec![], &mut module.funcs)
    }

    fn put_in_table(module: &mut Module, table: TableId, funcs: Vec<FunctionId>) {
        let offset = ConstExpr::Value(walrus::ir::Value::I32(0));
        module.elements.add(
            walrus::ElementKind::Active { table, offset },
            ElementItems::Functions(funcs),
        );
    }

    #[test]
    fn a_direct_path_to_a_js_import_runs_js_and_a_quiet_one_does_not() {
        let mut fx = fixture();
        let leaf = calling(&mut fx.module, &[fx.quiet]);
        let middle = calling(&mut fx.module, &[leaf]);
        let to_js = calling(&mut fx.module, &[middle, fx.js]);
        let reach = JsReach::new(&fx.module);
        assert!(!reach.runs_js(middle));
        assert!(!reach.runs_js(leaf));
        assert!(reach.runs_js(to_js));
        assert!(reach.runs_js(fx.js));
    }

    #[test]
    fn every_import_not_known_quiet_runs_js() {
        let mut fx = fixture();
        let unit = fx.module.types.add(&[], &[]);
        let (wbg, _) = fx
            .module
            .add_import_func("__wbindgen_placeholder__", "x", unit);
        let ty = fx.module.types.add(&[ValType::I32], &[]);
        let (to_string, _) = fx.module.add_import_func(
            bridge_schema::JS_VALUE_MODULE,
            bridge_schema::abi::js_values::ops::TO_STRING,
            ty,
        );
        let (drop, _) = fx.module.add_import_func(
            bridge_schema::JS_VALUE_MODULE,
            bridge_schema::abi::js_values::ops::DROP,
            ty,
        );
        let (schedule, _) = fx.module.add_import_func(
            bridge_schema::abi::tasks::MODULE,
            bridge_schema::abi::tasks::SCHEDULE,
            unit,
        );
        let reach = JsReach::new(&fx.module);
        assert!(reach.runs_js(wbg));
        assert!(reach.runs_js(to_string));
        assert!(reach.runs_js(schedule));
        assert!(!reach.runs_js(drop));
    }

    #[test]
    fn an_indirect_call_reaches_the_table_functions_of_its_type_only() {
        let mut fx = fixture();
        let to_js = calling(&mut fx.module, &[fx.js]);
        // `(i32) -> ()`: the type the calls below do not use, whatever it calls.
        let mut b = FunctionBuilder::new(&mut fx.module.types, &[ValType::I32], &[]);
        b.func_body().call(fx.js);
        let other_type_to_js = b.finish(vec![], &mut fx.module.funcs);
        let harmless = calling(&mut fx.module, &[]);
        put_in_table(&mut fx.module, fx.table, vec![harmless, other_type_to_js]);
        let unit_call = calling_indirect(&mut fx.module, fx.table, &[]);
        let i32_call = calling_indirect(&mut fx.module, fx.table, &[ValType::I32]);
        let reach = JsReach::new(&fx.module);
        assert!(!reach.runs_js(unit_call));
        assert!(reach.runs_js(i32_call));
        // `to_js` is in no table and referenced by nothing: no indirect call reaches it.
        assert!(reach.runs_js(to_js));
        let mut fx2 = fixture();
        let to_js = calling(&mut fx2.module, &[fx2.js]);
        put_in_table(&mut fx2.module, fx2.table, vec![to_js]);
        let unit_call = calling_indirect(&mut fx2.module, fx2.table, &[]);
        assert!(JsReach::new(&fx2.module).runs_js(unit_call));
    }

    #[test]
    fn a_ref_func_makes_a_function_reachable_indirectly() {
        let mut fx = fixture();
        let to_js = calling(&mut fx.module, &[fx.js]);
        let mut b = FunctionBuilder::new(&mut fx.module.types, &[], &[]);
        b.func_body().ref_func(to_js).drop();
        calling_indirect(&mut fx.module, fx.table, &[]);
        let taker = b.finish(vec![], &mut fx.module.funcs);
        let unit_call = calling_indirect(&mut fx.module, fx.table, &[]);
        let reach = JsReach::new(&fx.module);
        assert!(!reach.runs_js(taker));
        assert!(reach.runs_js(unit_call));
    }

    #[test]
    fn a_table_js_can_reach_makes_every_indirect_call_run_js() {
        let mut fx = fixture();
        let harmless = calling(&mut fx.module, &[]);
        put_in_table(&mut fx.module, fx.table, vec![harmless]);
        let unit_call = calling_indirect(&mut fx.module, fx.table, &[]);
        assert!(!JsReach::new(&fx.module).runs_js(unit_call));
        let values = fx
            .module
            .tables
            .add_local(false, 4, None, walrus::RefType::EXTERNREF);
        fx.module.exports.add("values", values);
        assert!(
            !JsReach::new(&fx.module).runs_js(unit_call),
            "no function in an externref table"
        );
        fx.module.exports.add("table", fx.table);
        assert!(JsReach::new(&fx.module).runs_js(unit_call));
    }

    #[test]
    fn a_function_reference_js_can_hand_in_makes_every_indirect_call_run_js() {
        let mut fx = fixture();
        let unit_call = calling_indirect(&mut fx.module, fx.table, &[]);
        assert!(!JsReach::new(&fx.module).runs_js(unit_call));
        // An import returning an externref: nothing callable comes in.
        let externs = fx
            .module
            .types
            .add(&[], &[ValType::Ref(walrus::RefType::EXTERNREF)]);
        fx.module.add_import_func("env", "value", externs);
        assert!(!JsReach::new(&fx.module).runs_js(unit_call));
        let funcs = fx
            .module
            .types
            .add(&[], &[ValType::Ref(walrus::RefType::FUNCREF)]);
        fx.module.add_import_func("env", "callback", funcs);
        assert!(JsReach::new(&fx.module).runs_js(unit_call));
    }

    #[test]
    fn a_call_that_cannot_return_is_left_out_but_not_a_tail_call() {
        let mut fx = fixture();
        let to_js = calling(&mut fx.module, &[fx.js]);
        let mut b = FunctionBuilder::new(&mut fx.module.types, &[], &[]);
        b.func_body().call(to_js).unreachable();
        let panicking = b.finish(vec![], &mut fx.module.funcs);
        let mut b = FunctionBuilder::new(&mut fx.module.types, &[], &[]);
        b.func_body().return_call(to_js).unreachable();
        let tail = b.finish(vec![], &mut fx.module.funcs);
        let mut b = FunctionBuilder::new(&mut fx.module.types, &[], &[]);
        b.func_body().call(to_js).i32_const(0).drop().unreachable();
        let returning = b.finish(vec![], &mut fx.module.funcs);
        let reach = JsReach::new(&fx.module);
        assert!(!reach.runs_js(panicking));
        assert!(reach.runs_js(tail));
        assert!(
            reach.runs_js(returning),
            "only the call just before `unreachable`"
        );
    }

    #[test]
    fn a_cycle_ends_and_its_answer_holds_for_every_member() {
        let mut fx = fixture();
        // a → b → a, b → quiet; c → a and js.
        let a = calling(&mut fx.module, &[]);
        let b = calling(&mut fx.module, &[a, fx.quiet]);
        let mut body = FunctionBuilder::new(&mut fx.module.types, &[], &[]);
        body.func_body().call(b);
        let a_local = body.local_func(vec![]);
        fx.module.funcs.get_mut(a).kind = FunctionKind::Local(a_local);
        let c = calling(&mut fx.module, &[a, fx.js]);
        let reach = JsReach::new(&fx.module);
        assert!(!reach.runs_js(a));
        assert!(!reach.runs_js(b));
        assert!(reach.runs_js(c));
        // Asked again after the memo has them: the same answers.
        assert!(!reach.runs_js(b));
        assert!(reach.runs_js(c));
    }

    #[test]
    fn an_export_not_in_the_module_runs_js() {
        let mut fx = fixture();
        let harmless = calling(&mut fx.module, &[]);
        fx.module.exports.add("pull", harmless);
        let reach = JsReach::new(&fx.module);
        assert!(!reach.export_runs_js("pull"));
        assert!(reach.export_runs_js("missing"));
    }
}
