//! The module's functions by export or import name, indexed once (analysis the passes and
//! the post-process checks share, not a pass). Looking up each class's or record's
//! functions with a scan of the export or import list made those steps quadratic in the
//! number of classes (a 1,000-class crate has 5,000 exports).

use std::collections::HashMap;
use walrus::{ExportItem, FunctionId, ImportKind, Module};

/// Function exports by name (as the module was when indexed).
pub struct FuncExports(HashMap<String, FunctionId>);

impl FuncExports {
    pub fn of(module: &Module) -> Self {
        let mut by_name = HashMap::new();
        for e in module.exports.iter() {
            if let ExportItem::Function(f) = e.item {
                // The first of a name, as a scan finds it.
                by_name.entry(e.name.clone()).or_insert(f);
            }
        }
        FuncExports(by_name)
    }

    /// The function exported as `name`.
    pub fn get(&self, name: &str) -> Option<FunctionId> {
        self.0.get(name).copied()
    }

    pub fn has(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }
}

/// The functions imported from `import_module`, by name (the first of a name).
pub fn func_imports(module: &Module, import_module: &str) -> HashMap<String, FunctionId> {
    let mut by_name = HashMap::new();
    for i in module.imports.iter() {
        if let (true, ImportKind::Function(f)) = (i.module == import_module, &i.kind) {
            by_name.entry(i.name.clone()).or_insert(*f);
        }
    }
    by_name
}
