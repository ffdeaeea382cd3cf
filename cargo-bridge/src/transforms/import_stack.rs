//! Hands the shadow-stack pointer to every JS function Rust calls (the imports in
//! `bridge_schema::JS_IMPORT_MODULE`: extern-block functions and callback trampolines, and
//! the `JsValue` operations that run user JS, `bridge_schema::abi::js_values::ops::REENTRANT`)
//! as a leading `i32` argument.
//!
//! Why: JS called from wasm may call back into wasm, and an exception out of that inner
//! call must put the shadow stack back to where the import was called, not to its base
//! (the outer call's frames are still live; see `$rethrow` in the glue). The glue used to
//! read the exported stack-pointer global at every import call, and reading a
//! `WebAssembly.Global` from JS costs ~15 ns, four times a whole bare wasm → JS call
//! (`callImport` in `cargo xtask bench`). Read by wasm, it is one `global.get`.
//!
//! Each such import becomes a small local function with the original signature that
//! calls a new import of the same name taking `(stack pointer, ...params)`, and every
//! direct call of it is then inlined (the arguments go to locals, the pointer is pushed
//! before them): V8 does not inline wasm calls, and the extra call cost ~0.7 ns of a
//! ~5 ns import call. The wrapper stays for indirect calls. A module without the
//! `__stack_pointer` global passes 0 (its glue never resets the stack).

use anyhow::Result;
use std::collections::HashMap;
use walrus::ir::{
    Call, GlobalGet, Instr, InstrSeq, InstrSeqId, LocalGet, LocalSet, Value, Visitor,
};
use walrus::{FunctionId, GlobalId, LocalFunction, LocalId, Module, ModuleLocals, ValType};

pub fn run(module: &mut Module) -> Result<()> {
    let stack_pointer = module
        .globals
        .iter()
        .find(|g| g.name.as_deref() == Some("__stack_pointer"))
        .map(|g| g.id());
    let wrappers = wrap_imports(module, stack_pointer)?;
    inline_wrappers(module, &wrappers, stack_pointer);
    Ok(())
}

/// Each wrapper → the import it calls and its parameter types.
type Wrappers = HashMap<FunctionId, (FunctionId, Vec<ValType>)>;

/// Every import that runs user JS becomes an import taking the stack pointer first, and
/// the old import's id a wrapper passing it.
fn wrap_imports(module: &mut Module, stack_pointer: Option<GlobalId>) -> Result<Wrappers> {
    let imports: Vec<(String, String, FunctionId)> = module
        .imports
        .iter()
        .filter(|i| runs_user_js(&i.module, &i.name))
        .filter_map(|i| match i.kind {
            walrus::ImportKind::Function(f) => Some((i.module.clone(), i.name.clone(), f)),
            _ => None,
        })
        .collect();
    let mut wrappers = HashMap::new();
    for (import_module, name, func) in imports {
        let ty = module.types.get(module.funcs.get(func).ty());
        let results = ty.results().to_vec();
        let params: Vec<ValType> = std::iter::once(ValType::I32)
            .chain(ty.params().iter().copied())
            .collect();
        let with_stack = module.types.add(&params, &results);
        // Added before the old import is deleted: for a moment, two share the name.
        let (callee, _) = module.add_import_func(&import_module, &name, with_stack);
        module.replace_imported_func(func, |(body, args)| {
            match stack_pointer {
                Some(global) => body.global_get(global),
                None => body.i32_const(0),
            };
            for arg in args {
                body.local_get(*arg);
            }
            body.call(callee);
        })?;
        let params = module
            .types
            .get(module.funcs.get(func).ty())
            .params()
            .to_vec();
        wrappers.insert(func, (callee, params));
    }
    Ok(wrappers)
}

/// Every call of a wrapper replaced by the wrapper's body, the arguments spilled to
/// locals around the stack pointer.
fn inline_wrappers(module: &mut Module, wrappers: &Wrappers, stack_pointer: Option<GlobalId>) {
    for (id, func) in module.funcs.iter_local_mut() {
        if wrappers.contains_key(&id) {
            continue;
        }
        let mut spill = Spill::default();
        // Back to front, so that splicing never moves a site still to do.
        for (seq, pos, wrapper) in call_sites(func, wrappers).into_iter().rev() {
            let (callee, params) = &wrappers[&wrapper];
            let locals = spill.locals(&mut module.locals, params);
            let mut code: Vec<Instr> = locals
                .iter()
                .rev()
                .map(|&local| LocalSet { local }.into())
                .collect();
            code.push(match stack_pointer {
                Some(global) => GlobalGet { global }.into(),
                None => Instr::Const(walrus::ir::Const {
                    value: Value::I32(0),
                }),
            });
            code.extend(locals.iter().map(|&local| Instr::from(LocalGet { local })));
            code.push(Call { func: *callee }.into());
            let mut body = func.builder_mut().instr_seq(seq);
            body.instrs_mut().remove(pos);
            for (i, instr) in code.into_iter().enumerate() {
                body.instr_at(pos + i, instr);
            }
        }
    }
}

/// Whether the import `module`.`name` runs user JS code, which may call back into wasm.
fn runs_user_js(module: &str, name: &str) -> bool {
    module == bridge_schema::JS_IMPORT_MODULE
        || (module == bridge_schema::JS_VALUE_MODULE
            && bridge_schema::abi::js_values::ops::REENTRANT.contains(&name))
        || (module == bridge_schema::abi::tasks::MODULE
            && bridge_schema::abi::tasks::REENTRANT.contains(&name))
}

/// Scratch locals of one function for the inlined calls' arguments, shared between sites.
#[derive(Default)]
struct Spill {
    by_type: HashMap<ValType, Vec<LocalId>>,
}

impl Spill {
    /// One local per parameter (the n-th parameter of a type gets that type's n-th local).
    fn locals(&mut self, all: &mut ModuleLocals, params: &[ValType]) -> Vec<LocalId> {
        let mut used: HashMap<ValType, usize> = HashMap::new();
        params
            .iter()
            .map(|&ty| {
                let n = used.entry(ty).or_default();
                let pool = self.by_type.entry(ty).or_default();
                if pool.len() == *n {
                    pool.push(all.add(ty));
                }
                *n += 1;
                pool[*n - 1]
            })
            .collect()
    }
}

/// Every direct call of a wrapper in `func`: (sequence, position, wrapper).
fn call_sites(
    func: &LocalFunction,
    wrappers: &HashMap<FunctionId, (FunctionId, Vec<ValType>)>,
) -> Vec<(InstrSeqId, usize, FunctionId)> {
    struct Sites<'a> {
        wrappers: &'a HashMap<FunctionId, (FunctionId, Vec<ValType>)>,
        found: Vec<(InstrSeqId, usize, FunctionId)>,
    }
    impl<'instr> Visitor<'instr> for Sites<'_> {
        fn start_instr_seq(&mut self, seq: &'instr InstrSeq) {
            for (pos, (instr, _)) in seq.instrs.iter().enumerate() {
                if let Instr::Call(Call { func }) = instr
                    && self.wrappers.contains_key(func)
                {
                    self.found.push((seq.id(), pos, *func));
                }
            }
        }
    }
    let mut sites = Sites {
        wrappers,
        found: Vec::new(),
    };
    walrus::ir::dfs_in_order(&mut sites, func, func.entry_block());
    sites.found
}
