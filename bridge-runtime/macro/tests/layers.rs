//! The macro's layers as ARCHITECTURE.md states them: the model is data (parse builds it,
//! generate writes the code), so no model file holds tokens or names the layers around it.

use std::path::{Path, PathBuf};

/// What a model file may not name: tokens (code written before generate) and the layers.
const NOT_IN_THE_MODEL: &[&str] = &[
    "TokenStream",
    "quote!",
    "parse_quote",
    "crate::parse",
    "crate::generate",
];

#[test]
fn the_model_is_data() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/model");
    let files = rust_files(&root);
    assert!(files.len() > 5, "no model sources in {root:?}");
    let mut found = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("a source file");
        for (n, line) in text.lines().enumerate() {
            for word in NOT_IN_THE_MODEL {
                if line.contains(word) {
                    found.push(format!("{}:{}: {word}", path.display(), n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the model holds data only (parse builds it, generate writes code from it):\n{}",
        found.join("\n")
    );
}

/// The `.rs` files under `dir`, its subdirectories' too.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("src/model") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}
