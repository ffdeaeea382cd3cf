//! Hands the shadow-stack pointer to every JS function Rust calls (the imports in
//! `bridge_schema::JS_IMPORT_MODULE`: extern-block functions and callback trampolines) as
//! a leading `i32` argument.
//!
//! Why: JS called from wasm may call back into wasm, and an exception out of that inner
//! call must put the shadow stack back to where the import was called, not to its base
//! (the outer call's frames are still live; see `$rethrow` in the glue). The glue used to
//! read the exported stack-pointer global at every import call, and reading a
//! `WebAssembly.Global` from JS costs ~15 ns, four times a whole bare wasm → JS call
//! (`callImport` in `cargo xtask bench`). Read by wasm, it is one `global.get`.
//!
//! Each such import becomes a small local function with the original signature that
//! calls a new import of the same name taking `(stack pointer, ...params)`, so no call
//! site changes. A module without the `__stack_pointer` global passes 0 (its glue never
//! resets the stack).

use anyhow::Result;
use walrus::{FunctionId, Module, ValType};

pub fn run(module: &mut Module) -> Result<()> {
    let stack_pointer = module
        .globals
        .iter()
        .find(|g| g.name.as_deref() == Some("__stack_pointer"))
        .map(|g| g.id());
    let imports: Vec<(String, FunctionId)> = module
        .imports
        .iter()
        .filter(|i| i.module == bridge_schema::JS_IMPORT_MODULE)
        .filter_map(|i| match i.kind {
            walrus::ImportKind::Function(f) => Some((i.name.clone(), f)),
            _ => None,
        })
        .collect();
    for (name, func) in imports {
        let ty = module.types.get(module.funcs.get(func).ty());
        let results = ty.results().to_vec();
        let params: Vec<ValType> = std::iter::once(ValType::I32)
            .chain(ty.params().iter().copied())
            .collect();
        let with_stack = module.types.add(&params, &results);
        // Added before the old import is deleted: for a moment, two share the name.
        let (callee, _) =
            module.add_import_func(bridge_schema::JS_IMPORT_MODULE, &name, with_stack);
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
    }
    Ok(())
}
