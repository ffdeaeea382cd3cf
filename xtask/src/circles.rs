//! `cargo xtask circles`: import circles between the modules of each crate of the workspace.
//!
//! A module's edges are the modules its code names: `use` trees and paths in code (types,
//! expressions, patterns, macro names) that start with `crate::`, `super::`, `self::` or
//! the name of a child module, each resolved to the deepest module it reaches
//! (`super::format::table` → `format`, `use super::*` → the parent). A circle is a set of
//! modules that reach each other (a strongly connected component of more than one module).
//! Items under `#[cfg(test)]` are left out: a test module may reach anywhere in its crate.
//! Not seen: inherent methods (`run.median()` names no module) and `macro_rules!` textual
//! scope; both are one-way by construction here (impls of a type beside its users, macros
//! defined before the modules that use them).

use anyhow::{Context, Result, bail};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// The crates checked, by their root file (relative to the project root).
pub const CRATES: &[(&str, &str)] = &[
    ("cargo-bridge", "cargo-bridge/src/main.rs"),
    ("bridge-runtime", "bridge-runtime/src/lib.rs"),
    ("bridge-macro", "bridge-runtime/macro/src/lib.rs"),
    ("bridge-schema", "bridge-runtime/schema/src/lib.rs"),
    ("xtask", "xtask/src/lib.rs"),
    ("bridge-bench", "xtask/bench/src/main.rs"),
];

/// Crates whose circles are known and left for later, with where that is planned. Such a
/// crate without circles is an error too, so the entry goes once they are gone.
pub const KNOWN: &[(&str, &str)] = &[];

/// `cargo xtask circles`: print every crate's circles; fail on any outside `KNOWN`.
pub fn run(root: &Path) -> Result<()> {
    let mut problems = Vec::new();
    for (name, file) in CRATES {
        let circles = crate_circles(&root.join(file), &|p| {
            std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))
        })?;
        let known = KNOWN.iter().find(|(k, _)| k == name).map(|(_, why)| *why);
        match (circles.is_empty(), known) {
            (true, None) => println!("circles: {name}: none"),
            (true, Some(_)) => problems.push(format!(
                "{name} has no import circles any more: remove it from KNOWN in xtask/src/circles.rs"
            )),
            (false, known) => {
                let label = known.map_or(String::new(), |why| format!(" (known: {why})"));
                println!("circles: {name}: {}{label}", circles.len());
                for c in &circles {
                    println!("  {}", c.describe());
                }
                if known.is_none() {
                    problems.push(format!(
                        "{name} has {} import circle(s); make the imports between those \
                         modules point one way (a shared leaf module, or move the item to \
                         the module that uses it)",
                        circles.len()
                    ));
                }
            }
        }
    }
    if !problems.is_empty() {
        bail!("{}", problems.join("\n"));
    }
    Ok(())
}

/// One circle: its modules and, for each edge between two of them, what names the other.
pub struct Circle {
    pub modules: Vec<String>,
    pub edges: Vec<(String, String, String)>,
}

impl Circle {
    fn describe(&self) -> String {
        let edges: Vec<String> = self
            .edges
            .iter()
            .map(|(from, to, via)| format!("{from} → {to} ({via})"))
            .collect();
        format!("{{{}}}: {}", self.modules.join(", "), edges.join("; "))
    }
}

/// A module of the tree: its path from the crate root (`bench::report::format`).
struct Module {
    path: Vec<String>,
    /// Where it is written (inline modules: their file).
    file: PathBuf,
    items: Vec<syn::Item>,
}

impl Module {
    fn name(&self) -> String {
        if self.path.is_empty() {
            "crate".into()
        } else {
            self.path.join("::")
        }
    }
}

/// The circles of the crate whose root file is `root`, read with `read`.
pub fn crate_circles(root: &Path, read: &dyn Fn(&Path) -> Result<String>) -> Result<Vec<Circle>> {
    let mut modules = Vec::new();
    let text = read(root)?;
    let file = syn::parse_file(&text).with_context(|| format!("parsing {}", root.display()))?;
    let dir = root.parent().unwrap_or(Path::new("")).to_path_buf();
    load(Vec::new(), root, dir, file.items, read, &mut modules)?;

    let edges = edges(&modules);
    Ok(circles(&modules, &edges))
}

/// Edges between the modules (by index): (from, to) → the first reference that made it.
fn edges(modules: &[Module]) -> BTreeMap<(usize, usize), String> {
    let names = Names {
        modules: modules.iter().map(|m| m.path.clone()).collect(),
        aliases: modules
            .iter()
            .map(|m| (m.path.clone(), aliases(&m.items)))
            .collect(),
    };
    let mut edges: BTreeMap<(usize, usize), String> = BTreeMap::new();
    let index: BTreeMap<Vec<String>, usize> = modules
        .iter()
        .enumerate()
        .map(|(i, m)| (m.path.clone(), i))
        .collect();
    for (from, m) in modules.iter().enumerate() {
        for reference in references(&m.items) {
            let Some(to) = resolve(&m.path, &reference, &names, 0) else {
                continue;
            };
            let to = index[&to];
            if to != from {
                edges
                    .entry((from, to))
                    .or_insert_with(|| reference.join("::"));
            }
        }
    }
    edges
}

/// The strongly connected components of more than one module.
fn circles(modules: &[Module], edges: &BTreeMap<(usize, usize), String>) -> Vec<Circle> {
    let graph: Vec<Vec<usize>> = (0..modules.len())
        .map(|from| {
            edges
                .keys()
                .filter(|(f, _)| *f == from)
                .map(|(_, t)| *t)
                .collect()
        })
        .collect();
    components(&graph)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            let inside: BTreeSet<usize> = c.iter().copied().collect();
            let label =
                |i: usize| format!("{} in {}", modules[i].name(), modules[i].file.display());
            Circle {
                modules: c.iter().map(|&i| label(i)).collect(),
                edges: edges
                    .iter()
                    .filter(|((f, t), _)| inside.contains(f) && inside.contains(t))
                    .map(|((f, t), via)| (modules[*f].name(), modules[*t].name(), via.clone()))
                    .collect(),
            }
        })
        .collect()
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

/// Add the module at `path` (its `items`, written in `file`) and its descendants;
/// `dir` is where the files of its `mod x;` children are.
fn load(
    path: Vec<String>,
    file: &Path,
    dir: PathBuf,
    items: Vec<syn::Item>,
    read: &dyn Fn(&Path) -> Result<String>,
    out: &mut Vec<Module>,
) -> Result<()> {
    let mut children = Vec::new();
    for item in &items {
        let syn::Item::Mod(m) = item else { continue };
        if is_test_only(&m.attrs) {
            continue;
        }
        if m.attrs.iter().any(|a| a.path().is_ident("path")) {
            bail!(
                "{}: `#[path]` on mod {} is not followed by the circle check; add it to \
                 xtask/src/circles.rs",
                file.display(),
                m.ident
            );
        }
        let name = m.ident.to_string();
        let mut child = path.clone();
        child.push(name.clone());
        match &m.content {
            Some((_, inline)) => {
                children.push((child, file.to_path_buf(), dir.join(&name), inline.clone()))
            }
            None => {
                let (found, items) = read_child(&name, file, &dir, read)?;
                children.push((child, found, dir.join(&name), items));
            }
        }
    }
    out.push(Module {
        path,
        file: file.to_path_buf(),
        items,
    });
    for (child, file, dir, items) in children {
        load(child, &file, dir, items, read, out)?;
    }
    Ok(())
}

/// The file of `mod name;` in `file` (`dir/name.rs` or `dir/name/mod.rs`) and its items.
fn read_child(
    name: &str,
    file: &Path,
    dir: &Path,
    read: &dyn Fn(&Path) -> Result<String>,
) -> Result<(PathBuf, Vec<syn::Item>)> {
    let flat = dir.join(format!("{name}.rs"));
    let nested = dir.join(name).join("mod.rs");
    let (found, text) = match read(&flat) {
        Ok(text) => (flat, text),
        Err(_) => {
            let text = read(&nested).with_context(|| {
                format!(
                    "mod {name} of {}: neither {} nor {}",
                    file.display(),
                    flat.display(),
                    nested.display()
                )
            })?;
            (nested, text)
        }
    };
    let parsed = syn::parse_file(&text).with_context(|| format!("parsing {}", found.display()))?;
    Ok((found, parsed.items))
}

/// Every path a module's own items name (not its child modules' items), as segments; a
/// glob or `self` in a `use` tree names its prefix.
fn references(items: &[syn::Item]) -> Vec<Vec<String>> {
    struct Refs(Vec<Vec<String>>);
    impl<'a> Visit<'a> for Refs {
        fn visit_item_mod(&mut self, _: &'a syn::ItemMod) {}
        fn visit_item_use(&mut self, u: &'a syn::ItemUse) {
            if !is_test_only(&u.attrs) {
                let mut paths = Vec::new();
                use_paths(&u.tree, &mut Vec::new(), &mut paths);
                self.0.extend(paths.into_iter().map(|(_, path)| path));
            }
        }
        fn visit_item(&mut self, i: &'a syn::Item) {
            let attrs: &[syn::Attribute] = match i {
                syn::Item::Fn(x) => &x.attrs,
                syn::Item::Impl(x) => &x.attrs,
                syn::Item::Const(x) => &x.attrs,
                syn::Item::Static(x) => &x.attrs,
                syn::Item::Struct(x) => &x.attrs,
                syn::Item::Enum(x) => &x.attrs,
                syn::Item::Trait(x) => &x.attrs,
                syn::Item::Type(x) => &x.attrs,
                syn::Item::Macro(x) => &x.attrs,
                _ => &[],
            };
            if !is_test_only(attrs) {
                syn::visit::visit_item(self, i);
            }
        }
        fn visit_impl_item_fn(&mut self, f: &'a syn::ImplItemFn) {
            if !is_test_only(&f.attrs) {
                syn::visit::visit_impl_item_fn(self, f);
            }
        }
        fn visit_path(&mut self, p: &'a syn::Path) {
            if p.segments.len() > 1 {
                self.0
                    .push(p.segments.iter().map(|s| s.ident.to_string()).collect());
            }
            syn::visit::visit_path(self, p);
        }
        fn visit_macro(&mut self, m: &'a syn::Macro) {
            // A macro's arguments are tokens to syn (`vec![crate::a::X]`, `format!(..)`):
            // the paths written in them count as well.
            macro_paths(m.tokens.clone(), &mut self.0);
            syn::visit::visit_macro(self, m);
        }
    }
    let mut refs = Refs(Vec::new());
    for item in items {
        refs.visit_item(item);
    }
    refs.0
}

/// The paths (`a::b::c`, two segments or more) written in a macro's tokens, nested groups
/// included. Anything between the segments but `::` (generics, spaces are fine) ends a path:
/// missing a path there only hides an edge the macro's expansion has anyway in the same
/// spelling elsewhere, as the project writes no `Vec::<T>::new` in macro arguments.
fn macro_paths(tokens: proc_macro2::TokenStream, out: &mut Vec<Vec<String>>) {
    use proc_macro2::TokenTree;
    fn flush(path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        if path.len() > 1 {
            out.push(std::mem::take(path));
        }
        path.clear();
    }
    let mut path: Vec<String> = Vec::new();
    let mut colons = 0;
    for token in tokens {
        match token {
            TokenTree::Ident(ident) => {
                if colons != 2 {
                    flush(&mut path, out);
                }
                path.push(ident.to_string());
                colons = 0;
            }
            TokenTree::Punct(p) if p.as_char() == ':' => {
                colons += 1;
                if colons > 2 {
                    flush(&mut path, out);
                }
            }
            TokenTree::Group(group) => {
                flush(&mut path, out);
                colons = 0;
                macro_paths(group.stream(), out);
            }
            _ => {
                flush(&mut path, out);
                colons = 0;
            }
        }
    }
    flush(&mut path, out);
}

/// The paths a `use` tree imports, each with the name it binds (none for a glob, which
/// names its prefix).
fn use_paths(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Option<String>, Vec<String>)>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) if n.ident == "self" => {
            out.push((prefix.last().cloned(), prefix.clone()))
        }
        syn::UseTree::Name(n) => out.push((
            Some(n.ident.to_string()),
            [prefix.as_slice(), &[n.ident.to_string()]].concat(),
        )),
        syn::UseTree::Rename(r) => out.push((
            Some(r.rename.to_string()),
            [prefix.as_slice(), &[r.ident.to_string()]].concat(),
        )),
        syn::UseTree::Glob(_) => out.push((None, prefix.clone())),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_paths(t, prefix, out);
            }
        }
    }
}

/// The names a module's `use` items bind, and the paths they stand for: `crate::Handle`
/// reaches `handle` when the root has `pub use handle::Handle`, not the root.
fn aliases(items: &[syn::Item]) -> BTreeMap<String, Vec<String>> {
    let mut out = Vec::new();
    for item in items {
        if let syn::Item::Use(u) = item
            && !is_test_only(&u.attrs)
        {
            use_paths(&u.tree, &mut Vec::new(), &mut out);
        }
    }
    out.into_iter()
        .filter_map(|(name, path)| Some((name?, path)))
        .collect()
}

/// What a crate's modules are and the names their `use` items bind.
struct Names {
    modules: BTreeSet<Vec<String>>,
    aliases: BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>>,
}

/// The deepest module of the crate that `reference`, written in module `at`, reaches
/// (through the `use` aliases it meets); none for other crates and local names.
fn resolve(at: &[String], reference: &[String], names: &Names, depth: u32) -> Option<Vec<String>> {
    let mut base: Vec<String> = at.to_vec();
    let mut rest = reference;
    match rest.first()?.as_str() {
        "crate" => {
            base.clear();
            rest = &rest[1..];
        }
        "self" => rest = &rest[1..],
        "super" => {
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        // A child module, named as the first segment (2018 paths).
        first => {
            let mut child = base.clone();
            child.push(first.to_string());
            if !names.modules.contains(&child) {
                return None;
            }
        }
    }
    while let Some(seg) = rest.first() {
        let mut deeper = base.clone();
        deeper.push(seg.clone());
        if !names.modules.contains(&deeper) {
            break;
        }
        base = deeper;
        rest = &rest[1..];
    }
    // An item the module imports rather than defines: follow the import (a re-export
    // chain ends within a few steps; the bound only guards against glob loops).
    if let Some(seg) = rest.first()
        && let Some(alias) = names.aliases.get(&base).and_then(|a| a.get(seg))
        && depth < 16
        && (alias.len() > 1 || alias[0] != *seg)
    {
        let followed = [alias.as_slice(), &rest[1..]].concat();
        return resolve(&base, &followed, names, depth + 1);
    }
    Some(base)
}

/// Strongly connected components (Tarjan), each sorted, in order of their first module.
fn components(graph: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct State<'g> {
        graph: &'g [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for &w in &s.graph[v] {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(i) if s.on_stack[w] => s.low[v] = s.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut c = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                c.push(w);
                if w == v {
                    break;
                }
            }
            c.sort();
            s.out.push(c);
        }
    }
    let n = graph.len();
    let mut s = State {
        graph,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out.sort();
    s.out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn circles(files: &[(&str, &str)]) -> Vec<String> {
        let files: BTreeMap<PathBuf, String> = files
            .iter()
            .map(|(p, t)| (PathBuf::from(p), t.to_string()))
            .collect();
        let read = |p: &Path| {
            files
                .get(p)
                .cloned()
                .with_context(|| format!("no {}", p.display()))
        };
        crate_circles(Path::new("src/lib.rs"), &read)
            .unwrap()
            .into_iter()
            .map(|c| c.describe())
            .collect()
    }

    #[test]
    fn a_child_naming_its_parent_that_uses_it_is_a_circle() {
        let found = circles(&[
            ("src/lib.rs", "mod report;"),
            (
                "src/report/mod.rs",
                "mod tables; use tables::*; pub const MIB: f64 = 1.0;",
            ),
            ("src/report/tables.rs", "use super::*; fn f() {}"),
        ]);
        assert_eq!(
            found,
            [
                "{report in src/report/mod.rs, report::tables in src/report/tables.rs}: \
              report → report::tables (tables); report::tables → report (super)"
            ]
        );
    }

    #[test]
    fn siblings_through_inline_paths_and_crate_paths_close_a_circle() {
        let found = circles(&[
            ("src/lib.rs", "mod a; mod b; mod c;"),
            ("src/a.rs", "fn f() { crate::b::g(); }"),
            ("src/b.rs", "pub fn g() -> super::c::T { todo!() }"),
            (
                "src/c.rs",
                "pub struct T(crate::a::U); pub mod inner { pub struct U; }",
            ),
        ]);
        assert_eq!(found.len(), 1);
        assert!(found[0].starts_with("{a in src/a.rs, b in src/b.rs, c in src/c.rs}"));
    }

    #[test]
    fn paths_inside_macro_arguments_close_a_circle_too() {
        let found = circles(&[
            ("src/lib.rs", "mod workspace; mod build;"),
            (
                "src/workspace.rs",
                "pub fn load() -> Vec<String> { vec![\"--x\".into(), crate::build::TARGET.to_string()] }",
            ),
            (
                "src/build.rs",
                "use crate::workspace; pub const TARGET: &str = \"t\"; fn f() { workspace::load(); }",
            ),
        ]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("workspace → build (crate::build::TARGET)"),
            "{}",
            found[0]
        );
        let mut paths = Vec::new();
        macro_paths(
            "a::b, x: y::z, ::std::fmt, Vec::<u8>::new, (super::c::D), e :: f"
                .parse()
                .unwrap(),
            &mut paths,
        );
        assert_eq!(
            paths,
            [
                vec!["a", "b"],
                vec!["y", "z"],
                vec!["std", "fmt"],
                vec!["super", "c", "D"],
                vec!["e", "f"]
            ]
        );
    }

    #[test]
    fn one_way_imports_tests_and_other_crates_are_no_circle() {
        let found = circles(&[
            (
                "src/lib.rs",
                "mod leaf; mod user; use std::fmt; fn f() { user::g(); }",
            ),
            (
                "src/leaf.rs",
                "pub fn x() {} #[cfg(test)] mod tests { use crate::user; }",
            ),
            (
                "src/user.rs",
                "use crate::leaf; pub fn g() { leaf::x(); serde::f(); } \
                 #[cfg(test)] fn t() { crate::f(); } #[cfg(test)] use super::f;",
            ),
        ]);
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn a_re_export_leads_to_the_module_that_defines_the_item() {
        let files = [
            (
                "src/lib.rs",
                "mod handle; mod types; pub use handle::Handle;",
            ),
            ("src/handle.rs", "pub struct Handle;"),
            ("src/types.rs", "use crate::Handle; fn f(_: Handle) {}"),
        ];
        assert!(circles(&files).is_empty());
        // The same through an item the root defines itself is a circle.
        let found = circles(&[
            (
                "src/lib.rs",
                "mod types; pub struct Handle; fn f() { types::g() }",
            ),
            ("src/types.rs", "use crate::Handle; pub fn g() {}"),
        ]);
        assert_eq!(found.len(), 1, "{found:?}");
    }

    #[test]
    fn an_inline_module_is_its_own_node() {
        let found = circles(&[(
            "src/lib.rs",
            "mod outer { pub mod inner { pub fn f() { super::g() } } pub fn g() { inner::f() } }",
        )]);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].contains("outer::inner → outer (super::g)"),
            "{found:?}"
        );
    }

    /// The workspace itself: circles only in the crates `KNOWN` lists, and each of those
    /// still has one (else its entry must go).
    #[test]
    fn workspace_has_no_circles_but_the_known_ones() {
        let root = crate::fixtures::project_root();
        for (name, file) in CRATES {
            let found = crate_circles(&root.join(file), &|p| {
                std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))
            })
            .unwrap();
            let known = KNOWN.iter().any(|(k, _)| k == name);
            let described: Vec<String> = found.iter().map(Circle::describe).collect();
            assert_eq!(
                !found.is_empty(),
                known,
                "{name}: {described:#?} (see `cargo xtask circles`)"
            );
        }
    }
}
