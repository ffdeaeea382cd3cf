//! `cargo xtask fn-lengths`: how long the project's functions are, so "no function over 100
//! lines, at most 10 over 60" (issue 47) can be re-checked rather than believed.
//!
//! A function's length is its lines from `fn` to its closing brace (doc comments and
//! attributes not counted); functions nested in another count on their own too. Test code
//! is left out: `#[cfg(test)]` modules (inline or in their own file), `#[test]` functions.
//! Each crate of [`crate::circles::CRATES`] is read from its root along its `mod` tree, and
//! `cargo-bridge/build.rs` beside them. The limits are the whole repository's: every
//! crate's long functions count together, and any over the limits fail the task.

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use syn::spanned::Spanned;
use syn::visit::Visit;

/// No function longer than this (lines).
const MAX: usize = 100;
/// A function longer than this is long; at most [`LONG_ALLOWED`] in all the crates.
const LONG: usize = 60;
const LONG_ALLOWED: usize = 10;

/// One function: where it is, its name (`Type::method` in an impl) and its lines.
#[derive(Debug, PartialEq, Eq)]
pub struct Function {
    pub file: PathBuf,
    pub line: usize,
    pub name: String,
    pub lines: usize,
}

/// `cargo xtask fn-lengths`: every crate's counts and long functions; fail if they break
/// the limits.
pub fn run(root: &Path) -> Result<()> {
    let mut roots: Vec<(&str, PathBuf)> = crate::circles::CRATES
        .iter()
        .map(|(name, file)| (*name, root.join(file)))
        .collect();
    roots.push(("cargo-bridge", root.join("cargo-bridge/build.rs")));
    let mut long_ones = Vec::new();
    let mut total = (0, 0, 0);
    for name in crate::circles::CRATES.iter().map(|(name, _)| *name) {
        let mut functions = Vec::new();
        for (_, file) in roots.iter().filter(|(n, _)| *n == name) {
            functions.extend(crate_functions(file)?);
        }
        let long = functions.iter().filter(|f| f.lines > LONG).count();
        let over = functions.iter().filter(|f| f.lines > MAX).count();
        println!(
            "fn-lengths: {name}: {} functions, {long} over {LONG} lines, {over} over {MAX}",
            functions.len()
        );
        total = (total.0 + functions.len(), total.1 + long, total.2 + over);
        long_ones.extend(functions.into_iter().filter(|f| f.lines > LONG));
    }
    println!(
        "fn-lengths: all: {} functions, {} over {LONG} lines, {} over {MAX}",
        total.0, total.1, total.2
    );
    long_ones.sort_by_key(|f| std::cmp::Reverse(f.lines));
    println!("over {LONG} lines:");
    for f in &long_ones {
        let file = f.file.strip_prefix(root).unwrap_or(&f.file);
        println!("  {:>4}  {}:{} {}", f.lines, file.display(), f.line, f.name);
    }
    check_limits(&long_ones)
}

/// The limits over the long functions of all the crates.
fn check_limits(long: &[Function]) -> Result<()> {
    let over: Vec<&Function> = long.iter().filter(|f| f.lines > MAX).collect();
    if !over.is_empty() || long.len() > LONG_ALLOWED {
        let longest = long
            .iter()
            .max_by_key(|f| f.lines)
            .map_or(String::new(), |f| {
                format!(
                    " (the longest: {} in {}, {} lines)",
                    f.name,
                    f.file.display(),
                    f.lines
                )
            });
        bail!(
            "{} function(s) over {MAX} lines and {} over {LONG} (at most {LONG_ALLOWED}) in the \
             repository{longest}: split the longest along their steps (preludes → call → \
             result, flags → plan → run → report); all of them are listed above",
            over.len(),
            long.len(),
        );
    }
    Ok(())
}

/// The non-test functions of the crate whose root file is `root`.
pub fn crate_functions(root: &Path) -> Result<Vec<Function>> {
    let mut out = Vec::new();
    let dir = root.parent().unwrap_or(Path::new("")).to_path_buf();
    // A root's `mod x;` children are `x.rs` or `x/mod.rs` beside it.
    walk_file(root, dir, &mut out)?;
    Ok(out)
}

/// Read `file` and collect its functions; `dir` is where its `mod x;` children are.
fn walk_file(file: &Path, dir: PathBuf, out: &mut Vec<Function>) -> Result<()> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let parsed = syn::parse_file(&text).with_context(|| format!("parsing {}", file.display()))?;
    walk_items(file, &dir, &parsed.items, out)
}

fn walk_items(file: &Path, dir: &Path, items: &[syn::Item], out: &mut Vec<Function>) -> Result<()> {
    let mut visitor = Collect {
        file,
        owner: None,
        out,
    };
    for item in items {
        if let syn::Item::Mod(m) = item {
            if is_test_only(&m.attrs) {
                continue;
            }
            let name = m.ident.to_string();
            match &m.content {
                Some((_, inner)) => walk_items(file, &dir.join(&name), inner, visitor.out)?,
                None => {
                    let flat = dir.join(format!("{name}.rs"));
                    let (path, child_dir) = if flat.is_file() {
                        (flat, dir.join(&name))
                    } else {
                        (dir.join(&name).join("mod.rs"), dir.join(&name))
                    };
                    walk_file(&path, child_dir, visitor.out)?;
                }
            }
        } else {
            visitor.visit_item(item);
        }
    }
    Ok(())
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        (a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test")))
            || a.path().is_ident("test")
    })
}

/// Collects the functions of one module's items (not descending into modules: `walk_items`
/// does, to find their files).
struct Collect<'f, 'o> {
    file: &'f Path,
    /// The impl's or trait's type, for names.
    owner: Option<String>,
    out: &'o mut Vec<Function>,
}

impl Collect<'_, '_> {
    fn push(&mut self, name: &syn::Ident, start: proc_macro2::Span, body: &syn::Block) {
        let first = start.start().line;
        let last = body.span().end().line;
        let name = match &self.owner {
            Some(owner) => format!("{owner}::{name}"),
            None => name.to_string(),
        };
        self.out.push(Function {
            file: self.file.to_path_buf(),
            line: first,
            name,
            lines: last + 1 - first,
        });
    }
}

impl<'ast> Visit<'ast> for Collect<'_, '_> {
    fn visit_item_mod(&mut self, _: &'ast syn::ItemMod) {}

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if is_test_only(&f.attrs) {
            return;
        }
        let owner = self.owner.take();
        self.push(&f.sig.ident, f.sig.fn_token.span, &f.block);
        syn::visit::visit_item_fn(self, f);
        self.owner = owner;
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        if is_test_only(&i.attrs) {
            return;
        }
        let ty = &i.self_ty;
        let owner = self
            .owner
            .replace(quote_type(ty).unwrap_or_else(|| "impl".into()));
        syn::visit::visit_item_impl(self, i);
        self.owner = owner;
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if is_test_only(&f.attrs) {
            return;
        }
        self.push(&f.sig.ident, f.sig.fn_token.span, &f.block);
        let owner = self.owner.take();
        syn::visit::visit_impl_item_fn(self, f);
        self.owner = owner;
    }

    fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
        let owner = self.owner.replace(t.ident.to_string());
        syn::visit::visit_item_trait(self, t);
        self.owner = owner;
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(body) = &f.default {
            self.push(&f.sig.ident, f.sig.fn_token.span, body);
        }
        let owner = self.owner.take();
        syn::visit::visit_trait_item_fn(self, f);
        self.owner = owner;
    }
}

/// The last segment of an impl's type (`Foo` of `crate::a::Foo<T>`), if it is a path.
fn quote_type(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn functions(files: &[(&str, &str)]) -> Vec<(String, usize)> {
        let dir = std::env::temp_dir().join(format!("fn-lengths-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (path, text) in files {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let found = crate_functions(&dir.join("lib.rs")).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        found.into_iter().map(|f| (f.name, f.lines)).collect()
    }

    #[test]
    fn counts_from_fn_to_the_closing_brace_and_leaves_tests_out() {
        let lib = "/// doc\n#[inline]\npub fn one() {}\n\nfn three() {\n    let x = 1;\n}\n\
                   mod a;\nmod b;\n#[cfg(test)]\nmod t;\n#[cfg(test)]\nmod inline { fn no() {} }\n\
                   #[test]\nfn a_test() {}\n";
        let a = "struct S;\nimpl S {\n    fn m(&self) {\n        fn inner() {\n        }\n    }\n}\n\
                 trait T {\n    fn needed(&self);\n    fn given(&self) {}\n}\n";
        let found = functions(&[
            ("lib.rs", lib),
            ("a.rs", a),
            ("b/mod.rs", "fn in_b() {}\n"),
            ("t.rs", "fn in_tests() {}\n"),
        ]);
        assert_eq!(
            found,
            [
                ("one".to_string(), 1),
                ("three".to_string(), 3),
                ("S::m".to_string(), 4),
                ("inner".to_string(), 2),
                ("T::given".to_string(), 1),
                ("in_b".to_string(), 1),
            ]
        );
    }

    #[test]
    fn the_limits() {
        let long = |lines| Function {
            file: "f.rs".into(),
            line: 1,
            name: "f".into(),
            lines,
        };
        check_limits(
            &(0..LONG_ALLOWED)
                .map(|_| long(LONG + 1))
                .collect::<Vec<_>>(),
        )
        .unwrap();
        check_limits(
            &(0..=LONG_ALLOWED)
                .map(|_| long(LONG + 1))
                .collect::<Vec<_>>(),
        )
        .unwrap_err();
        check_limits(&[long(MAX + 1)]).unwrap_err();
        check_limits(&[long(MAX)]).unwrap();
    }
}
