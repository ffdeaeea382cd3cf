//! Post-processing passes over the linked wasm module, one per file, in pipeline order.

pub mod exports_section;
pub mod identity;
pub mod inline_identity;
pub mod pool_dispatch;

use anyhow::{Context, Result};
use walrus::{FunctionId, Module};

/// The function `module` exports as `name`.
fn exported_func(module: &Module, name: &str) -> Result<FunctionId> {
    module
        .exports
        .get_func(name)
        .with_context(|| format!("the module does not export `{name}`"))
}
