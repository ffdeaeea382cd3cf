//! The macro's layers as ARCHITECTURE.md states them: the model is data (parse builds it,
//! generate writes the code), so no model file holds tokens or names the layers around it;
//! parse writes no code but at the sites listed here, each saying why it stays; generate
//! leans on parse's checks (`expect`, `unreachable!`, `unwrap`) only where listed here, so
//! the lists shrink as generate gets types that hold only valid states (issue 47 item 2).

mod support;

use std::path::Path;
use support::rust_files;

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

/// The token-writing sites left in parse (file, text of the line), each with its reason
/// in a comment beside it: they rewrite the user's own tokens (`cfg_attr` rejoin) or build
/// parse's own input (`next_closure`), not code of the expansion.
const PARSE_WRITES: &[(&str, &str)] = &[
    ("attrs.rs", "rest.push(syn::parse_quote!(#[cfg_attr(all("),
    ("iterators.rs", "use quote::quote_spanned;"),
    ("iterators.rs", "syn::parse2(quote_spanned! {span=>"),
];

/// Where generate still trusts parse by a panic rather than a type (file, text of the
/// line). Remove an entry when its site goes; a new site fails `generate_trusts_types`.
const GENERATE_TRUSTS: &[(&str, &str)] = &[
    ("record.rs", ".expect(\"records always serialize\")"),
    ("record.rs", ".expect(\"strings serialize\")"),
    (
        "record.rs",
        ".expect(\"every placeholder occurs once, in order\")",
    ),
];

#[test]
fn parse_writes_code_only_where_it_says_why() {
    let found = sites("src/parse", &["quote!", "parse_quote", "quote_spanned"]);
    compare(&found, PARSE_WRITES, "PARSE_WRITES");
}

#[test]
fn generate_trusts_types() {
    let found = sites("src/generate", &[".expect(", "unreachable!(", ".unwrap()"]);
    compare(&found, GENERATE_TRUSTS, "GENERATE_TRUSTS");
}

/// Every line (file name, trimmed text) under `dir` naming one of `words`, outside
/// comments and `#[cfg(test)]` modules (read up to the first `#[cfg(test)]`).
fn sites(dir: &str, words: &[&str]) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut found = Vec::new();
    for path in rust_files(&root) {
        let text = std::fs::read_to_string(&path).expect("a source file");
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for line in text.lines().take_while(|l| l.trim() != "#[cfg(test)]") {
            let line = line.trim();
            if !line.starts_with("//") && words.iter().any(|w| line.contains(w)) {
                found.push((name.clone(), line.to_string()));
            }
        }
    }
    found
}

/// `found` is exactly the sites of `allowed` (in any order): a new one, or one that went.
fn compare(found: &[(String, String)], allowed: &[(&str, &str)], list: &str) {
    let new: Vec<_> = found
        .iter()
        .filter(|(file, line)| !allowed.iter().any(|(f, l)| f == file && line.contains(l)))
        .collect();
    let gone: Vec<_> = allowed
        .iter()
        .filter(|(f, l)| {
            !found
                .iter()
                .any(|(file, line)| f == file && line.contains(l))
        })
        .collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "{list} (tests/layers.rs) and the sources disagree.\nnew sites (give generate a type \
         that holds only valid states, or parse data instead of tokens): {new:#?}\nsites \
         gone (drop them from {list}): {gone:#?}"
    );
}
