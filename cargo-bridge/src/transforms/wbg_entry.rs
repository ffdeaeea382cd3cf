//! In a crate that links wasm-bindgen: each function export wasm-bindgen's JS calls gets a
//! wrapper that records the shadow-stack pointer it was entered with in a new global,
//! exported as `bridge_schema::WBG_ENTRY_EXPORT`, and puts back the outer call's record
//! when it returns.
//!
//! Why: a trap (a panic in a `#[wasm_bindgen]` export) skips the epilogues of the frames
//! it leaves, so the stack pointer stays where the trap left it. wasm-bindgen's JS does
//! not restore it; left alone, every panic in that half leaks its frames until the stack
//! is exhausted, and then the bridge half's calls run out of stack too (`memory access
//! out of bounds`, or a stale panic message: ~1 300 panics of a 256-byte frame in
//! `fixtures/wasm-bindgen`). The glue hands wasm-bindgen's JS guarded exports
//! (`$wbgGuarded`, `templates/wasm_bindgen.js.j2`) whose catch puts the pointer back to
//! the record: the trapped call's own entry, exactly, wherever it was called from (top
//! level, a bridge callback, a wasm-bindgen import inside another call). The bridge
//! half's exports are not wrapped: their glue restores to `$stack.base` itself.
//!
//! The wrapper costs a global read and two writes per call of that half. A module without
//! the `__stack_pointer` global's name gets no wrapper (its glue skips the reset).

use std::collections::HashSet;
use walrus::{ExportItem, FunctionBuilder, FunctionKind, Module, ValType};

/// Wrap every local function `module` exports under a name in `called` (the identifiers
/// of wasm-bindgen's JS); returns how many were wrapped.
pub fn run(module: &mut Module, called: &HashSet<&str>) -> usize {
    let Some(stack_pointer) = module
        .globals
        .iter()
        .find(|g| g.name.as_deref() == Some("__stack_pointer"))
        .map(|g| g.id())
    else {
        return 0;
    };
    let targets: Vec<_> = module
        .exports
        .iter()
        .filter(|e| called.contains(e.name.as_str()))
        .filter_map(|e| match e.item {
            ExportItem::Function(f) => Some((e.id(), e.name.clone(), f)),
            _ => None,
        })
        .filter(|(_, _, f)| matches!(module.funcs.get(*f).kind, FunctionKind::Local(_)))
        .collect();
    if targets.is_empty() {
        return 0;
    }
    let entry = module.globals.add_local(
        ValType::I32,
        true,
        false,
        walrus::ConstExpr::Value(walrus::ir::Value::I32(0)),
    );
    module
        .exports
        .add(bridge_schema::WBG_ENTRY_EXPORT, ExportItem::Global(entry));
    let count = targets.len();
    for (export, name, func) in targets {
        let ty = module.types.get(module.funcs.get(func).ty());
        let (params, results) = (ty.params().to_vec(), ty.results().to_vec());
        let args: Vec<_> = params.iter().map(|t| module.locals.add(*t)).collect();
        let outer = module.locals.add(ValType::I32);
        let mut wrapper = FunctionBuilder::new(&mut module.types, &params, &results);
        wrapper.name(format!("{name} (entry recorded)"));
        let mut body = wrapper.func_body();
        body.global_get(entry)
            .local_set(outer)
            .global_get(stack_pointer)
            .global_set(entry);
        for arg in &args {
            body.local_get(*arg);
        }
        // The results stay on the stack under the outer record being put back.
        body.call(func).local_get(outer).global_set(entry);
        let wrapped = wrapper.finish(args, &mut module.funcs);
        module.exports.get_mut(export).item = ExportItem::Function(wrapped);
    }
    count
}

/// The identifiers in `js` (maximal runs of identifier characters): the export names
/// wasm-bindgen's JS can call (`wasm.greet(...)`).
pub fn identifiers(js: &str) -> HashSet<&str> {
    js.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .filter(|run| !run.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use walrus::ir::Value;
    use walrus::{Module, ModuleConfig};

    /// A module with `__stack_pointer`, an export `greet(i32) -> i32` that lowers the
    /// stack pointer by 16 and returns its argument + 1, and a bridge-style export.
    fn module() -> Module {
        let mut module = Module::with_config(ModuleConfig::new());
        let sp = module.globals.add_local(
            ValType::I32,
            true,
            false,
            walrus::ConstExpr::Value(Value::I32(1024)),
        );
        module.globals.get_mut(sp).name = Some("__stack_pointer".into());
        for name in ["greet", "crate::bridge_fn"] {
            let x = module.locals.add(ValType::I32);
            let mut f = FunctionBuilder::new(&mut module.types, &[ValType::I32], &[ValType::I32]);
            f.func_body()
                .global_get(sp)
                .i32_const(16)
                .binop(walrus::ir::BinaryOp::I32Sub)
                .global_set(sp)
                .local_get(x)
                .i32_const(1)
                .binop(walrus::ir::BinaryOp::I32Add);
            let id = f.finish(vec![x], &mut module.funcs);
            module.exports.add(name, id);
        }
        module
    }

    #[test]
    fn wraps_only_what_wasm_bindgens_js_calls_and_exports_the_record() {
        let mut module = module();
        let js = "export function greet(a) { return wasm.greet(a); }";
        assert_eq!(run(&mut module, &identifiers(js)), 1);
        let greet = module.exports.get_func("greet").unwrap();
        let name = module.funcs.get(greet).name.clone().unwrap();
        assert_eq!(name, "greet (entry recorded)");
        let bridge = module.exports.get_func("crate::bridge_fn").unwrap();
        assert_eq!(
            module.funcs.get(bridge).name,
            None,
            "bridge exports are not wrapped"
        );
        assert!(
            module
                .exports
                .iter()
                .any(|e| e.name == bridge_schema::WBG_ENTRY_EXPORT
                    && matches!(e.item, ExportItem::Global(_)))
        );
        // The wrapper has the callee's signature and still validates.
        let ty = module.types.get(module.funcs.get(greet).ty());
        assert_eq!(ty.params(), [ValType::I32]);
        assert_eq!(ty.results(), [ValType::I32]);
        let bytes = module.emit_wasm();
        assert!(Module::from_buffer(&bytes).is_ok());
    }

    #[test]
    fn a_module_without_the_stack_pointer_or_without_callers_is_left_alone() {
        let mut module = module();
        assert_eq!(run(&mut module, &identifiers("nothing here")), 0);
        assert!(
            !module
                .exports
                .iter()
                .any(|e| e.name == bridge_schema::WBG_ENTRY_EXPORT)
        );
        let mut stripped = module;
        let ids: Vec<_> = stripped.globals.iter().map(|g| g.id()).collect();
        for id in ids {
            stripped.globals.get_mut(id).name = None;
        }
        assert_eq!(run(&mut stripped, &identifiers("wasm.greet()")), 0);
    }
}
