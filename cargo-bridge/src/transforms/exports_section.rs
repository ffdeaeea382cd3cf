//! Takes the `__bridge_exports` custom section out of the module and decodes it, and
//! removes the exports that only kept records in the link
//! (`bridge_schema::data_anchor_export`).

use crate::postprocess::exports::{self, Exports};
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
    let exports = exports::decode(&section.data, wasm_name)?;
    let type_ids = exports.records.iter().map(|r| &r.def.type_id);
    let anchors: Vec<String> = type_ids
        .chain(exports.enums.iter().map(|e| &e.def.type_id))
        .map(|id| bridge_schema::data_anchor_export(id))
        .collect();
    let stale: Vec<_> = module
        .exports
        .iter()
        .filter(|e| anchors.contains(&e.name))
        .map(|e| e.id())
        .collect();
    for id in stale {
        module.exports.delete(id);
    }
    Ok(exports)
}
