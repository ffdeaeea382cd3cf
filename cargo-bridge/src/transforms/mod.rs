//! Post-processing passes over the linked wasm module, one per file, in pipeline order
//! (`splice.rs` and `by_name.rs` are helpers they share, not passes).

pub mod by_name;
pub mod class_arg;
pub mod exports_section;
pub mod identity;
pub mod import_stack;
pub mod inline_identity;
pub mod pool_dispatch;
pub mod splice;
pub mod stack_pointer;
pub mod unused_exports;
pub mod wbg_entry;

use anyhow::{Context, Result, bail};
use walrus::{FunctionId, Module, ValType};

/// The function `module` exports as `name` (looked up in `exports`, its index), which
/// must take `params` and return nothing.
fn exported_func(
    module: &Module,
    exports: &by_name::FuncExports,
    name: &str,
    params: &[ValType],
) -> Result<FunctionId> {
    let func = exports
        .get(name)
        .with_context(|| format!("the module does not export the function `{name}`"))?;
    check_signature(module, func, params, &[], &format!("export `{name}`"))?;
    Ok(func)
}

/// A function the passes call or replace must have the signature the runtime gives it;
/// another one means the module was not built by a matching bridge-runtime.
fn check_signature(
    module: &Module,
    func: FunctionId,
    params: &[ValType],
    results: &[ValType],
    what: &str,
) -> Result<()> {
    let ty = module.types.get(module.funcs.get(func).ty());
    if ty.params() != params || ty.results() != results {
        bail!(
            "{what} has the signature {:?} -> {:?}, but bridge-runtime gives it {params:?} -> \
             {results:?}; rebuild with matching bridge-runtime and cargo-bridge versions",
            ty.params(),
            ty.results()
        );
    }
    Ok(())
}
