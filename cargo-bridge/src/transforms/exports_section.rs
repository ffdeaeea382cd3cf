//! Takes the `__bridge_exports` custom section out of the module and decodes it.

use crate::exports::{self, Exports};
use anyhow::{Result, bail};
use walrus::Module;

pub fn run(module: &mut Module, wasm_name: &str) -> Result<Exports> {
    let Some(section) = module.customs.remove_raw(bridge_schema::SECTION_NAME) else {
        bail!(
            "{wasm_name} has no `{}` section: the crate exports nothing with #[bridge] (or was \
             not built against bridge-runtime); add #[bridge] to a struct, impl or function",
            bridge_schema::SECTION_NAME
        );
    };
    exports::decode(&section.data, wasm_name)
}
