//! Table exports after `wasm-opt`: binaryen 108 (Debian's `binaryen` package) writes every
//! table export with the index of the first table when a module has two (wasm-bindgen's
//! externref table beside rustc's function table), so `__wbindgen_externrefs` would point
//! at the `funcref` table and loading fails in wasm-bindgen's table set-up. Each export
//! must keep its table's element type; a wrong one is pointed back at the one table of that
//! type. A module whose exports came through intact (every module with one table) is
//! returned as it is, byte for byte.

use anyhow::{Context, Result, bail};
use walrus::{ExportItem, Module, ModuleConfig, RefType};

/// `optimized` (wasm-opt's output of `input`) with its table exports' element types as in
/// `input`.
pub fn repair(input: &[u8], optimized: Vec<u8>) -> Result<Vec<u8>> {
    let want = table_exports(&parse(input, "the module before wasm-opt")?);
    let mut module = parse(&optimized, "wasm-opt's output")?;
    if table_exports(&module) == want {
        return Ok(optimized);
    }
    for (name, element_ty) in want {
        let candidates: Vec<_> = module
            .tables
            .iter()
            .filter(|t| t.element_ty == element_ty)
            .map(|t| t.id())
            .collect();
        let [table] = candidates[..] else {
            bail!(
                "wasm-opt's output exports table `{name}` with the wrong element type and has \
                 {} tables of the right one ({element_ty:?}); set `wasm-opt = false` in \
                 [package.metadata.bridge] or install a newer binaryen",
                candidates.len()
            );
        };
        let export = module
            .exports
            .iter_mut()
            .find(|e| e.name == name)
            .with_context(|| format!("wasm-opt's output lost the export `{name}`"))?;
        export.item = ExportItem::Table(table);
    }
    Ok(module.emit_wasm())
}

fn parse(bytes: &[u8], what: &str) -> Result<Module> {
    let mut config = ModuleConfig::new();
    config
        .generate_name_section(false)
        .generate_producers_section(false);
    Module::from_buffer_with_config(bytes, &config).with_context(|| format!("reading {what}"))
}

/// (export name, element type) of every table export, in export order.
fn table_exports(module: &Module) -> Vec<(String, RefType)> {
    module
        .exports
        .iter()
        .filter_map(|e| match e.item {
            ExportItem::Table(t) => Some((e.name.clone(), module.tables.get(t).element_ty)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module with a funcref and an externref table; `externrefs` exports table `index`.
    fn module(index: u32) -> Vec<u8> {
        let mut m = Module::default();
        let funcs = m.tables.add_local(false, 1, None, RefType::FUNCREF);
        let externs = m.tables.add_local(false, 4, None, RefType::EXTERNREF);
        m.exports
            .add("externrefs", if index == 0 { funcs } else { externs });
        m.emit_wasm()
    }

    #[test]
    fn a_table_export_moved_to_the_wrong_table_is_pointed_back() {
        let fixed = repair(&module(1), module(0)).unwrap();
        let m = parse(&fixed, "fixed").unwrap();
        assert_eq!(
            table_exports(&m),
            [("externrefs".to_string(), RefType::EXTERNREF)]
        );
        // Intact exports: the bytes are returned unchanged.
        let intact = module(1);
        assert_eq!(repair(&module(1), intact.clone()).unwrap(), intact);
    }
}
