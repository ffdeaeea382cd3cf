//! The names a package's module exports its classes' functions under: short, by the class's
//! index in the module (the glue's order, which is also its fast-pool class id), the same in
//! debug and release builds. The linker symbols the macro writes carry the crate and the
//! type (`<type id>::<rust name>`, `<type id>#drop_ref`: unique across every crate of a
//! link, ARCHITECTURE.md "Type ids and symbols"); the module keeps them until the glue is
//! rendered, then each class export becomes
//! - `<class index>:<member index>` for a member (`0:0`, `0:1`: the member's `$own<N>` in
//!   the class's glue), and
//! - `<class index>:r` for a `rust`-mode class's release wrapper, which its glue always
//!   calls and binds with its members, and
//! - `<class index>#<what>` for another generated one (`0#drop_ref`, `0#retain`: still a
//!   `#` name, which `transforms/unused_exports.rs` may drop).
//!
//! A class's names then differ from the previous class's by its index alone, which gzip
//! cannot copy, instead of a crate and type name it copies only in part: issue 48 measured
//! 6.7 B gz of export names per class against wasm-bindgen's 2.7. No Rust item's symbol
//! can take one of these names (they start with a digit); an `#[unsafe(export_name)]` of
//! the crate that does is a build error naming both. Debug builds keep each function's
//! Rust symbol in the name section (stack traces, profilers).

use anyhow::{Result, bail};
use std::collections::HashMap;
use walrus::{ExportId, ExportItem, Module};

/// What separates the class index from the member index in a member's export name.
pub const MEMBER_SEPARATOR: &str = ":";

/// The export of the `member`-th member (the glue's `$own<member>`) of the `class`-th class.
pub fn member(class: usize, member: usize) -> String {
    format!("{}{member}", member_prefix(class))
}

/// What follows the member prefix in the name of a `rust`-mode class's release wrapper.
pub const RELEASE_WRAPPER_SUFFIX: &str = "r";

/// The export of the `class`-th class's release wrapper (`<type id>#release_wrapper`):
/// named like a member (`<class index>:r`), since every `rust`-mode class's glue calls it,
/// so its binder joins it to the prefix as it joins the members' (no class index spelled
/// again in its glue); without a `#`, `transforms/unused_exports.rs` never drops it.
pub fn release_wrapper(class: usize) -> String {
    format!("{}{RELEASE_WRAPPER_SUFFIX}", member_prefix(class))
}

/// The glue's prefix of the `class`-th class's member exports: its binder joins the member
/// index to it (`$wasm[$id + 0]`), so the prefix is the one class-specific text.
pub fn member_prefix(class: usize) -> String {
    format!("{class}{MEMBER_SEPARATOR}")
}

/// The export a generated symbol of the class `type_id` (`<type id>#drop_ref`, ...) gets
/// in the `class`-th class: the type id replaced by the index (`<index>#drop_ref`).
pub fn generated(class: usize, type_id: &str, symbol: &str) -> String {
    let what = symbol.strip_prefix(type_id).unwrap_or(symbol);
    format!("{class}{what}")
}

/// Give each export named like the first of a pair of `renames` the second name, the
/// renamed exports last and in `renames`' order (a class's exports side by side, as gzip
/// copies them best: 2 B gz a class less than in the linker's order). A name `renames`
/// lists that the module does not export (a mode's generated export it lacks) is skipped.
pub fn apply(module: &mut Module, renames: &[(String, String)], wasm_name: &str) -> Result<()> {
    let by_name: HashMap<&str, (ExportId, ExportItem)> = module
        .exports
        .iter()
        .map(|e| (e.name.as_str(), (e.id(), e.item)))
        .collect();
    // Each export once, by the first rename of its name (a corrupt module's records can
    // list one symbol twice: `postprocess/fuzz.rs` found it deleted twice).
    let mut seen = std::collections::HashSet::new();
    let moved: Vec<(ExportId, &str, &str, ExportItem)> = renames
        .iter()
        .filter_map(|(old, new)| {
            let (id, item) = by_name.get(old.as_str())?;
            seen.insert(*id)
                .then_some((*id, old.as_str(), new.as_str(), *item))
        })
        .collect();
    let new_names: HashMap<&str, &str> = moved.iter().map(|m| (m.2, m.1)).collect();
    let renamed: std::collections::HashSet<ExportId> = moved.iter().map(|m| m.0).collect();
    if let Some(clash) = module
        .exports
        .iter()
        .find(|e| !renamed.contains(&e.id()) && new_names.contains_key(e.name.as_str()))
    {
        bail!(
            "{wasm_name} exports `{name}` itself, the name cargo-bridge gives the class export \
             `{symbol}` (a class's exports are named `<class index>:<member index>` and \
             `<class index>#<what>`); rename that export (its `#[unsafe(export_name)]`)",
            name = clash.name,
            symbol = new_names[clash.name.as_str()],
        );
    }
    for (id, ..) in &moved {
        module.exports.delete(*id);
    }
    for (_, _, new, item) in moved {
        module.exports.add(new, item);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(exports: &[&str]) -> Module {
        let mut module = Module::default();
        for name in exports {
            let mut f = walrus::FunctionBuilder::new(&mut module.types, &[], &[]);
            f.func_body().unreachable();
            let id = f.finish(vec![], &mut module.funcs);
            module.exports.add(name, id);
        }
        module
    }

    fn names(module: &Module) -> Vec<&str> {
        module.exports.iter().map(|e| e.name.as_str()).collect()
    }

    fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn names_follow_the_class_and_member_index() {
        assert_eq!(member(7, 0), "7:0");
        assert_eq!(member_prefix(12), "12:");
        assert_eq!(release_wrapper(4), "4:r");
        assert_eq!(
            generated(3, "my-crate::Item", "my-crate::Item#release_wrapper"),
            "3#release_wrapper"
        );
    }

    #[test]
    fn renames_keep_the_function_and_group_by_class() {
        let mut m = module(&["a::B::value", "__bridge_init", "a::B::new", "a::B#drop_ref"]);
        let func = |m: &Module, n: &str| match m.exports.iter().find(|e| e.name == n) {
            Some(e) => match e.item {
                ExportItem::Function(f) => f,
                _ => unreachable!("functions only"),
            },
            None => panic!("no export {n}"),
        };
        let before = |n: &str| func(&m, n);
        let (new, value, drop_ref) = (
            before("a::B::new"),
            before("a::B::value"),
            before("a::B#drop_ref"),
        );
        let renames = pairs(&[
            ("a::B::new", "0:0"),
            ("a::B::value", "0:1"),
            ("a::B#release_wrapper", "0#release_wrapper"),
            ("a::B#drop_ref", "0#drop_ref"),
        ]);
        apply(&mut m, &renames, "x.wasm").unwrap();
        assert_eq!(names(&m), ["__bridge_init", "0:0", "0:1", "0#drop_ref"]);
        assert_eq!(func(&m, "0:0"), new);
        assert_eq!(func(&m, "0:1"), value);
        assert_eq!(func(&m, "0#drop_ref"), drop_ref);
    }

    #[test]
    fn a_name_listed_twice_is_renamed_once() {
        let mut m = module(&["a::B::new"]);
        let renames = pairs(&[("a::B::new", "0:0"), ("a::B::new", "0:1")]);
        apply(&mut m, &renames, "x.wasm").unwrap();
        assert_eq!(names(&m), ["0:0"]);
    }

    #[test]
    fn an_export_already_named_so_is_an_error() {
        let mut m = module(&["a::B::new", "0:0"]);
        let err = apply(&mut m, &pairs(&[("a::B::new", "0:0")]), "x.wasm").unwrap_err();
        assert_eq!(
            err.to_string(),
            "x.wasm exports `0:0` itself, the name cargo-bridge gives the class export \
             `a::B::new` (a class's exports are named `<class index>:<member index>` and \
             `<class index>#<what>`); rename that export (its `#[unsafe(export_name)]`)"
        );
        assert_eq!(names(&m), ["a::B::new", "0:0"], "nothing renamed");
    }
}
