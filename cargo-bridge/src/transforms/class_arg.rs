//! The class id a thunk notes a fast pool's objects with, passed by the glue: an exported
//! function whose inlined identity hooks (`inline_identity.rs`) all note one class's objects
//! (`__bridge_pool_note(<class index>, addr)`) takes that index as one more, last,
//! argument, which the glue passes (`FnView::class_arg`), instead of a constant in its
//! body. So the same member of two classes is the same code (a constructor, a `make`, a
//! `roundtrip` of the size table's bench classes), which `wasm-opt` merges into one
//! function: that constant was 16 B gz of module per `rust`-mode class, the module's whole
//! excess over wasm-bindgen's per-class slope (issue 48; docs/benchmark-analysis.md).
//!
//! walrus cannot add a parameter to a function, so the export becomes a new function
//! `(params…, class) → results` that stores the class in a global and calls the old one,
//! which reads the global into a local at its entry (before any call could reenter and
//! store another) and notes that local. `wasm-opt` inlines the old function into its one
//! caller; a debug build keeps the call.
//!
//! A function is left as it is (and the glue passes nothing) when it notes objects of two
//! classes (a record of both), notes none, is called by another function or through a
//! table, or notes in a shape this pass did not write.

use std::collections::{HashMap, HashSet};
use walrus::ir::{Call, Const, Instr, InstrSeq, InstrSeqId, LocalGet, Value, Visitor};
use walrus::{
    ConstExpr, ExportItem, FunctionBuilder, FunctionId, FunctionKind, GlobalId, LocalId, Module,
    ValType,
};

/// Give each export named in `candidates` (the glue's calls: class members, functions)
/// that notes one class's objects for the fast pool the class as its last argument; the
/// export names so changed, with the class each takes.
pub fn run(module: &mut Module, candidates: &[String]) -> HashMap<String, i32> {
    let mut taken = HashMap::new();
    let Ok(note) = module
        .exports
        .get_func(bridge_schema::abi::exports::POOL_NOTE)
    else {
        return taken;
    };
    let called = called_functions(module);
    let candidates: HashSet<&str> = candidates.iter().map(String::as_str).collect();
    // A function's exports: all must be the glue's calls (each then passes the class).
    let mut exports_of: HashMap<FunctionId, Vec<(walrus::ExportId, String)>> = HashMap::new();
    for e in module.exports.iter() {
        if let ExportItem::Function(f) = e.item {
            exports_of
                .entry(f)
                .or_default()
                .push((e.id(), e.name.clone()));
        }
    }
    let mut global: Option<GlobalId> = None;
    let mut funcs: Vec<_> = exports_of.into_iter().collect();
    funcs.sort_by_key(|(f, _)| f.index());
    for (func, exports) in funcs {
        if called.contains(&func) || !exports.iter().all(|(_, n)| candidates.contains(n.as_str())) {
            continue;
        }
        let FunctionKind::Local(local) = &module.funcs.get(func).kind else {
            continue;
        };
        let Some((class, sites)) = one_class_sites(local, note) else {
            continue;
        };
        let global = *global.get_or_insert_with(|| {
            module
                .globals
                .add_local(ValType::I32, true, false, ConstExpr::Value(Value::I32(0)))
        });
        let kept = module.locals.add(ValType::I32);
        let body = module.funcs.get_mut(func).kind.unwrap_local_mut();
        for (seq, pos) in sites {
            body.builder_mut().instr_seq(seq).instrs_mut()[pos - 2].0 =
                Instr::LocalGet(LocalGet { local: kept });
        }
        let entry = body.entry_block();
        body.builder_mut()
            .instr_seq(entry)
            .global_get_at(0, global)
            .local_set_at(1, kept);
        let wrapper = add_wrapper(module, func, global);
        for (id, name) in exports {
            module.exports.get_mut(id).item = ExportItem::Function(wrapper);
            taken.insert(name, class);
        }
    }
    taken
}

/// `(params…, class) → results`: stores `class` in `global`, then calls `func`.
fn add_wrapper(module: &mut Module, func: FunctionId, global: GlobalId) -> FunctionId {
    let ty = module.types.get(module.funcs.get(func).ty()).clone();
    let mut params = ty.params().to_vec();
    params.push(ValType::I32);
    let args: Vec<LocalId> = params.iter().map(|t| module.locals.add(*t)).collect();
    let mut builder = FunctionBuilder::new(&mut module.types, &params, ty.results());
    let mut body = builder.func_body();
    let (class, forwarded) = args.split_last().expect("the class parameter");
    body.local_get(*class).global_set(global);
    for a in forwarded {
        body.local_get(*a);
    }
    body.call(func);
    builder.finish(args, &mut module.funcs)
}

/// The class every pool note of `func` passes, and where each note's class constant is
/// (the `i32.const` two instructions before the `call`): `None` if `func` notes nothing,
/// notes two classes, or notes in another shape than `i32.const; local.get; call`.
fn one_class_sites(
    func: &walrus::LocalFunction,
    note: FunctionId,
) -> Option<(i32, Vec<(InstrSeqId, usize)>)> {
    struct Notes {
        note: FunctionId,
        classes: HashSet<i32>,
        sites: Vec<(InstrSeqId, usize)>,
        other_shape: bool,
    }
    impl<'i> Visitor<'i> for Notes {
        fn start_instr_seq(&mut self, seq: &'i InstrSeq) {
            for (pos, (instr, _)) in seq.instrs.iter().enumerate() {
                let Instr::Call(Call { func }) = instr else {
                    continue;
                };
                if *func != self.note {
                    continue;
                }
                let before = |back: usize| pos.checked_sub(back).map(|p| &seq.instrs[p].0);
                match (before(2), before(1)) {
                    (
                        Some(Instr::Const(Const {
                            value: Value::I32(class),
                        })),
                        Some(Instr::LocalGet(_)),
                    ) => {
                        self.classes.insert(*class);
                        self.sites.push((seq.id(), pos));
                    }
                    _ => self.other_shape = true,
                }
            }
        }
    }
    let mut notes = Notes {
        note,
        classes: HashSet::new(),
        sites: Vec::new(),
        other_shape: false,
    };
    walrus::ir::dfs_in_order(&mut notes, func, func.entry_block());
    match (notes.other_shape, notes.classes.len()) {
        (false, 1) => Some((*notes.classes.iter().next()?, notes.sites)),
        _ => None,
    }
}

/// Every function another function calls, or a table holds (which the glue does not call
/// alone).
fn called_functions(module: &Module) -> HashSet<FunctionId> {
    struct Calls<'a>(&'a mut HashSet<FunctionId>);
    impl<'i> Visitor<'i> for Calls<'_> {
        fn visit_call(&mut self, instr: &Call) {
            self.0.insert(instr.func);
        }
        fn visit_return_call(&mut self, instr: &walrus::ir::ReturnCall) {
            self.0.insert(instr.func);
        }
        fn visit_ref_func(&mut self, instr: &walrus::ir::RefFunc) {
            self.0.insert(instr.func);
        }
    }
    let mut called = HashSet::new();
    for (_, func) in module.funcs.iter_local() {
        walrus::ir::dfs_in_order(&mut Calls(&mut called), func, func.entry_block());
    }
    for element in module.elements.iter() {
        if let walrus::ElementItems::Functions(fs) = &element.items {
            called.extend(fs.iter().copied());
        }
    }
    called
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module exporting the pool note and, for each `(name, classes)`, a function
    /// `(addr) -> addr` that notes `addr` once per class of `classes`.
    fn module(funcs: &[(&str, &[i32])]) -> Module {
        let mut module = Module::default();
        let mut note = FunctionBuilder::new(&mut module.types, &[ValType::I32; 2], &[]);
        note.func_body().unreachable();
        let note = note.finish(vec![], &mut module.funcs);
        module
            .exports
            .add(bridge_schema::abi::exports::POOL_NOTE, note);
        for (name, classes) in funcs {
            let addr = module.locals.add(ValType::I32);
            let mut f = FunctionBuilder::new(&mut module.types, &[ValType::I32], &[ValType::I32]);
            let mut body = f.func_body();
            for class in *classes {
                body.i32_const(*class).local_get(addr).call(note);
            }
            body.local_get(addr);
            let f = f.finish(vec![addr], &mut module.funcs);
            module.exports.add(name, f);
        }
        module
    }

    fn params_of(module: &Module, export: &str) -> usize {
        let f = module.exports.get_func(export).unwrap();
        module.types.get(module.funcs.get(f).ty()).params().len()
    }

    #[test]
    fn a_function_noting_one_class_takes_it_as_its_last_argument() {
        let mut m = module(&[
            ("a::C::make", &[3, 3]),
            ("a::pair", &[1, 2]),
            ("a::none", &[]),
            ("a::not_called_by_the_glue", &[3]),
        ]);
        let candidates = ["a::C::make", "a::pair", "a::none"].map(String::from);
        let taken = run(&mut m, &candidates);
        assert_eq!(taken, HashMap::from([("a::C::make".to_string(), 3)]));
        assert_eq!(params_of(&m, "a::C::make"), 2, "(addr, class)");
        for untouched in ["a::pair", "a::none", "a::not_called_by_the_glue"] {
            assert_eq!(params_of(&m, untouched), 1, "{untouched}");
        }
        // The old body notes the class it reads at its entry, no constant.
        let wrapper = m.exports.get_func("a::C::make").unwrap();
        let FunctionKind::Local(w) = &m.funcs.get(wrapper).kind else {
            panic!("a local wrapper");
        };
        let inner = w
            .block(w.entry_block())
            .instrs
            .iter()
            .find_map(|(i, _)| match i {
                Instr::Call(Call { func }) => Some(*func),
                _ => None,
            });
        let inner = m.funcs.get(inner.expect("the wrapper calls the old body"));
        let note = m
            .exports
            .get_func(bridge_schema::abi::exports::POOL_NOTE)
            .unwrap();
        assert!(one_class_sites(inner.kind.unwrap_local(), note).is_none());
        // Still a valid module.
        let bytes = m.emit_wasm();
        walrus::Module::from_buffer(&bytes).expect("valid");
    }

    #[test]
    fn a_function_another_one_calls_is_left_alone() {
        let mut m = module(&[("a::C::make", &[0])]);
        let make = m.exports.get_func("a::C::make").unwrap();
        let mut caller = FunctionBuilder::new(&mut m.types, &[], &[ValType::I32]);
        caller.func_body().i32_const(8).call(make);
        let caller = caller.finish(vec![], &mut m.funcs);
        m.exports.add("a::C::other", caller);
        let candidates = ["a::C::make", "a::C::other"].map(String::from);
        assert!(run(&mut m, &candidates).is_empty());
        assert_eq!(params_of(&m, "a::C::make"), 1);
    }
}
