//! The module's function exports by name, read once. The checks look up every record's
//! symbols (and their closure and finish exports); scanning the export list for each made
//! them quadratic in the number of exports (a 1,000-class crate has 5,000).

use std::collections::HashMap;
use walrus::{ExportItem, FunctionId, Module};

pub struct FuncExports<'a>(HashMap<&'a str, FunctionId>);

impl<'a> FuncExports<'a> {
    pub fn of(module: &'a Module) -> Self {
        let mut by_name = HashMap::new();
        for e in module.exports.iter() {
            if let ExportItem::Function(f) = e.item {
                // The first of a name, as a scan finds it.
                by_name.entry(e.name.as_str()).or_insert(f);
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
