//! Removes the exports that only the glue could call and that the package's glue never
//! names, so the final GC drops their code: a package without strings has no
//! `__bridge_realloc`, one without wire values no `__bridge_wire_in`, a `rust`-mode class
//! no `#retain`. Runs after the glue is rendered (and pruned, see `glue/prune.rs`).
//! Class members and user functions (the glue calls each of them) are never candidates.

use std::collections::HashMap;
use walrus::Module;

/// Exports only the glue uses: the runtime's (`__bridge_*`, and the linker's `__data_end`,
/// `__heap_base`) and a class's generated ones (`<type id>#retain`, ...: `#` marks names
/// no Rust item can spell, see ARCHITECTURE.md "Type ids and symbols").
/// `__wbgt_*` are `#[wasm_bindgen_test]`s (only test builds have them): `cargo bridge
/// test`'s runner calls them from outside the glue.
fn glue_only(name: &str) -> bool {
    (name.starts_with("__") && !name.starts_with("__wbgt_")) || name.contains('#')
}

/// Delete every glue-only export whose name does not occur in `glue`.
pub fn run(module: &mut Module, glue: &str) {
    let identifiers = Identifiers::of(glue);
    let unused: Vec<_> = module
        .exports
        .iter()
        .filter(|e| glue_only(&e.name) && !identifiers.names(&e.name))
        .map(|e| e.id())
        .collect();
    for id in unused {
        module.exports.delete(id);
    }
}

fn ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// The maximal runs of identifier characters in `text`, each with its byte offset.
fn runs(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split(|c: char| !ident(c))
        .filter(|run| !run.is_empty())
        .map(move |run| (run.as_ptr() as usize - text.as_ptr() as usize, run))
}

/// The glue's whole identifiers and where each occurs, read once: looking every export up
/// by scanning the whole glue made this pass quadratic in the number of classes (each
/// class adds both exports and glue; 8 s of a 1,000-class build).
struct Identifiers<'a> {
    glue: &'a str,
    at: HashMap<&'a str, Vec<usize>>,
}

impl<'a> Identifiers<'a> {
    fn of(glue: &'a str) -> Self {
        let mut at: HashMap<&str, Vec<usize>> = HashMap::new();
        for (offset, run) in runs(glue) {
            at.entry(run).or_default().push(offset);
        }
        Identifiers { glue, at }
    }

    /// Does the glue name `export` as a whole identifier (`$wasm.__bridge_free`, not a
    /// longer `__bridge_free_all`; `x["crate::T#retain"]`)? Every such occurrence has each
    /// identifier run of `export` as a whole identifier of the glue, so only the places of
    /// its rarest run are checked.
    fn names(&self, export: &str) -> bool {
        let count = |run: &str| self.at.get(run).map_or(0, Vec::len);
        let Some((offset, run)) = runs(export).min_by_key(|(_, run)| count(run)) else {
            // No identifier character at all (only a foreign module's names).
            return names_by_scan(self.glue, export);
        };
        let Some(places) = self.at.get(run) else {
            return false;
        };
        places
            .iter()
            .filter_map(|p| p.checked_sub(offset))
            .any(|at| {
                self.glue
                    .get(at..)
                    .is_some_and(|rest| rest.starts_with(export))
                    && !self.glue[..at].chars().next_back().is_some_and(ident)
                    && !self.glue[at + export.len()..]
                        .chars()
                        .next()
                        .is_some_and(ident)
            })
    }
}

/// The definition, by scanning the whole glue.
fn names_by_scan(glue: &str, export: &str) -> bool {
    glue.match_indices(export).any(|(at, _)| {
        !glue[..at].chars().next_back().is_some_and(ident)
            && !glue[at + export.len()..].chars().next().is_some_and(ident)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_export_is_named_only_as_a_whole_identifier() {
        let glue = "$wasm.__bridge_free(p); $wasm.__bridge_pool_keep_all(); x[\"__bridge_init\"]";
        let ids = Identifiers::of(glue);
        assert!(ids.names("__bridge_free"));
        assert!(ids.names("__bridge_init"));
        assert!(!ids.names("__bridge_pool_keep"));
        assert!(!ids.names("__bridge_alloc"));
    }

    #[test]
    fn names_with_type_ids_are_found_as_the_whole_name_only() {
        let glue = "é $wasm[\"my-crate::Item1#retain\"](p); $wasm[\"my-crate::Item10#drop\"]; \
                    x.Item1; \"other::Item1#retain_all\"";
        let ids = Identifiers::of(glue);
        let exports = [
            "my-crate::Item1#retain",
            "my-crate::Item1#drop",
            "my-crate::Item10#drop",
            "crate::Item1#retain",
            "other::Item1#retain",
            "other::Item1#retain_all",
            "Item1",
            "Item10#drop",
            "é",
            "#",
        ];
        for export in exports {
            assert_eq!(ids.names(export), names_by_scan(glue, export), "{export}");
        }
        assert!(ids.names("my-crate::Item1#retain"));
        assert!(!ids.names("my-crate::Item1#drop"));
        assert!(!ids.names("other::Item1#retain"));
    }
}
