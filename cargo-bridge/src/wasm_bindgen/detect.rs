//! Does a crate's wasm32 build link `wasm-bindgen`, and which version? Read from the
//! resolve graph `cargo metadata --filter-platform wasm32-unknown-unknown` gives (the
//! versions Cargo.lock pins), following normal dependencies only: build and dev
//! dependencies never reach the module.

use cargo_metadata::{DependencyKind, Metadata, Package, PackageId};
use std::collections::BTreeSet;

/// The crate wasm-bindgen's CLI must match exactly.
pub const CRATE: &str = "wasm-bindgen";

/// The locked version of `wasm-bindgen` in `pkg`'s normal dependency graph, if any.
pub fn locked_version(metadata: &Metadata, pkg: &Package) -> Option<String> {
    let resolve = metadata.resolve.as_ref()?;
    let mut seen: BTreeSet<&PackageId> = BTreeSet::new();
    let mut stack = vec![&pkg.id];
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let Some(node) = resolve.nodes.iter().find(|n| &n.id == id) else {
            continue;
        };
        for dep in &node.deps {
            let normal = dep
                .dep_kinds
                .iter()
                .any(|k| k.kind == DependencyKind::Normal);
            if normal {
                stack.push(&dep.pkg);
            }
        }
    }
    metadata
        .packages
        .iter()
        .filter(|p| p.name.as_str() == CRATE && seen.contains(&p.id))
        .map(|p| p.version.to_string())
        .max()
}
