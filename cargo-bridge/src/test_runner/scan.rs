//! The test functions a crate's source declares, found by parsing its files (`src/`
//! without `src/bin/`, and `tests/`): what `cargo bridge test` compares with the tests the
//! build actually holds, so a test a `#[cfg]` compiled out is reported rather than silently
//! missing (a green run over nothing is the worst answer a test command can give).

use std::path::{Path, PathBuf};
use syn::visit::Visit;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// `#[bridge::test]` (any path ending in `bridge::test`).
    Bridge,
    /// `#[wasm_bindgen_test]` (any path ending in `wasm_bindgen_test`).
    WasmBindgen,
    /// Plain `#[test]`: libtest's, run natively by `cargo test`, never in wasm.
    Native,
}

impl Kind {
    pub fn attribute(self) -> &'static str {
        match self {
            Kind::Bridge => "#[bridge::test]",
            Kind::WasmBindgen => "#[wasm_bindgen_test]",
            Kind::Native => "#[test]",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Declared {
    pub kind: Kind,
    /// The module path inside the crate, from its file and inline modules, then the
    /// function's name (`tests::adds`).
    pub path: String,
    /// The file, relative to the crate's directory.
    pub file: PathBuf,
    /// In `tests/` (an integration test, its own crate).
    pub integration: bool,
}

/// Every test function declared in `crate_dir`'s sources. Files that do not parse are
/// skipped (the build reports them).
pub fn declared(crate_dir: &Path) -> Vec<Declared> {
    let mut found = Vec::new();
    for (sub, integration) in [("src", false), ("tests", true)] {
        let root = crate_dir.join(sub);
        let mut files = Vec::new();
        rust_files(&root, &root.join("bin"), &mut files);
        files.sort();
        for file in files {
            let Ok(text) = std::fs::read_to_string(&file) else {
                continue;
            };
            let Ok(parsed) = syn::parse_file(&text) else {
                continue;
            };
            let relative = file.strip_prefix(&root).unwrap_or(&file);
            let mut visitor = Visitor {
                modules: if integration {
                    Vec::new()
                } else {
                    file_modules(relative)
                },
                found: &mut found,
                file: file.strip_prefix(crate_dir).unwrap_or(&file).to_path_buf(),
                integration,
            };
            visitor.visit_file(&parsed);
        }
    }
    found
}

fn rust_files(dir: &Path, skip: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path == skip {
            continue;
        }
        if path.is_dir() {
            rust_files(&path, skip, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under `src/`: `lib.rs` → [], `a.rs` and `a/mod.rs` → [a],
/// `a/b.rs` → [a, b].
fn file_modules(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.strip_suffix(".rs").unwrap_or(&last);
        let crate_root = parts.is_empty() && matches!(stem, "lib" | "main");
        if stem != "mod" && !crate_root {
            parts.push(stem.to_string());
        }
    }
    parts
}

struct Visitor<'a> {
    modules: Vec<String>,
    found: &'a mut Vec<Declared>,
    file: PathBuf,
    integration: bool,
}

impl<'ast> Visit<'ast> for Visitor<'_> {
    fn visit_item_mod(&mut self, module: &'ast syn::ItemMod) {
        self.modules.push(module.ident.to_string());
        syn::visit::visit_item_mod(self, module);
        self.modules.pop();
    }

    fn visit_item_fn(&mut self, func: &'ast syn::ItemFn) {
        if let Some(kind) = func.attrs.iter().find_map(|a| test_kind(a.path())) {
            let mut path = self.modules.clone();
            path.push(func.sig.ident.to_string());
            self.found.push(Declared {
                kind,
                path: path.join("::"),
                file: self.file.clone(),
                integration: self.integration,
            });
        }
        syn::visit::visit_item_fn(self, func);
    }
}

fn test_kind(path: &syn::Path) -> Option<Kind> {
    let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    match names.as_slice() {
        [.., a, b] if a == "bridge" && b == "test" => Some(Kind::Bridge),
        [.., last] if last == "wasm_bindgen_test" => Some(Kind::WasmBindgen),
        [only] if only == "test" => Some(Kind::Native),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_files_module_path_follows_rusts_layout() {
        let path = |p: &str| file_modules(Path::new(p)).join("::");
        assert_eq!(path("lib.rs"), "");
        assert_eq!(path("a.rs"), "a");
        assert_eq!(path("a/mod.rs"), "a");
        assert_eq!(path("a/b.rs"), "a::b");
        assert_eq!(path("a/lib.rs"), "a::lib");
    }

    #[test]
    fn test_functions_are_found_by_attribute_in_nested_modules_and_cfgs() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src/bin")).unwrap();
        std::fs::create_dir_all(dir.path().join("tests")).unwrap();
        std::fs::write(
            dir.path().join("src/lib.rs"),
            "#[cfg(test)] mod t {\n\
             #[bridge_runtime::bridge::test] fn a() {}\n\
             #[cfg(feature = \"x\")] mod inner { #[wasm_bindgen_test] async fn b() {} }\n\
             #[test] fn c() {}\n\
             #[bridge(js_name = \"t\")] fn not_a_test() {}\n}\n\
             // #[bridge::test] fn in_a_comment() {}\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("src/bin/tool.rs"), "#[test] fn bin() {}").unwrap();
        std::fs::write(
            dir.path().join("tests/web.rs"),
            "#[wasm_bindgen_test::wasm_bindgen_test] fn d() {}",
        )
        .unwrap();
        let found: Vec<(Kind, String, bool)> = declared(dir.path())
            .into_iter()
            .map(|d| (d.kind, d.path, d.integration))
            .collect();
        assert_eq!(
            found,
            [
                (Kind::Bridge, "t::a".to_string(), false),
                (Kind::WasmBindgen, "t::inner::b".to_string(), false),
                (Kind::Native, "t::c".to_string(), false),
                (Kind::WasmBindgen, "d".to_string(), true),
            ]
        );
    }
}
