//! Removes the exports that only the glue could call and that the package's glue never
//! names, so the final GC drops their code: a package without strings has no
//! `__bridge_realloc`, one without wire values no `__bridge_wire_in`, a `rust`-mode class
//! no `#retain`. Runs after the glue is rendered (and pruned, see `glue/prune.rs`).
//! Class members and user functions (the glue calls each of them) are never candidates.

use walrus::Module;

/// Exports only the glue uses: the runtime's (`__bridge_*`, and the linker's `__data_end`,
/// `__heap_base`) and a class's generated ones (`<type id>#retain`, ...: `#` marks names
/// no Rust item can spell, see ARCHITECTURE.md "Type ids and symbols").
fn glue_only(name: &str) -> bool {
    name.starts_with("__") || name.contains('#')
}

/// Delete every glue-only export whose name does not occur in `glue`.
pub fn run(module: &mut Module, glue: &str) {
    let unused: Vec<_> = module
        .exports
        .iter()
        .filter(|e| glue_only(&e.name) && !names(glue, &e.name))
        .map(|e| e.id())
        .collect();
    for id in unused {
        module.exports.delete(id);
    }
}

/// Does `glue` name `export` as a whole identifier (`$wasm.__bridge_free`, not a longer
/// `__bridge_free_all`)?
fn names(glue: &str, export: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    glue.match_indices(export).any(|(at, _)| {
        let before = glue[..at].chars().next_back();
        let after = glue[at + export.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

#[cfg(test)]
mod tests {
    use super::names;

    #[test]
    fn an_export_is_named_only_as_a_whole_identifier() {
        let glue = "$wasm.__bridge_free(p); $wasm.__bridge_pool_keep_all(); x[\"__bridge_init\"]";
        assert!(names(glue, "__bridge_free"));
        assert!(names(glue, "__bridge_init"));
        assert!(!names(glue, "__bridge_pool_keep"));
        assert!(!names(glue, "__bridge_alloc"));
    }
}
