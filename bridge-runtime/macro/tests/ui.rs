//! Every compile error of `#[bridge]`, checked by its message and where it points: the
//! cases in `ui/*.rs`, their expected rustc output in `ui/*.stderr` (trybuild compiles
//! them all in one cargo run; `TRYBUILD=overwrite` rewrites the snapshots, to be read
//! before committing). `every_message_has_a_case` fails when a message of the parse layer
//! appears in no snapshot, so a new error comes with its case.

mod support;

use std::path::Path;
use support::rust_files;

#[test]
fn compile_errors_say_what_and_where() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}

/// String literals of the parse layer that are no message, or a message no input
/// reaches, each with why.
const NOT_CHECKED: &[(&str, &str)] = &[
    (
        "not a function type",
        "types::callback is only called with a trait object",
    ),
    (
        "unsupported bound",
        "syn refuses the other bounds of a trait object (`use<..>`) before the macro sees it",
    ),
    (
        "a Rust closure returned to JS cannot return a reference or a function",
        "jscall::check, run on every function type as it is classified, refuses these \
         results first (\"JS functions return what exports take, owned\", \"a JS function \
         returned to Rust is a JsValue\")",
    ),
    (
        "it cannot be a parameter",
        "lifts::param answers for a parameter type that classify (and, for a closure's \
         arguments, jscall::check) accepted but no `ParamLift` reads: none today; a new type \
         accepted before it gets one is refused here, not a panic in generate",
    ),
    (
        "it cannot be a result",
        "lifts::result answers for a result type that classify (and, for a Rust closure's \
         result, jscall::check_closure_signature) accepted but no `ResultValue` lowers: none \
         today; a new type accepted before it gets one is refused here, not a panic",
    ),
    (
        "it cannot cross here",
        "lifts::parts answers where the lowering table has no row for a type classify and \
         the position checks (jscall::check for calls into JS) accepted: none today",
    ),
    (
        "a result is at most one wasm value",
        "lifts::result_part: every result row of the lowering table is one value or none \
         today (more come back in the return area); a new row of more is refused here, not \
         a panic",
    ),
];

#[test]
fn every_message_has_a_case() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let snapshots = read_all(&root.join("tests/ui"), "stderr");
    let snapshots = normalize(&snapshots);
    let mut missing = Vec::new();
    let mut sources = rust_files(&root.join("src/parse"));
    sources.sort();
    assert!(sources.len() > 5, "no parse layer sources in {root:?}");
    assert!(
        sources
            .iter()
            .any(|p| p.ends_with("parse/imports/function.rs")),
        "the scan misses parse/'s subdirectories"
    );
    // `#[bridge::test]` checks its function outside the three layers.
    sources.push(root.join("src/test_attr.rs"));
    let mut seen = 0;
    for path in &sources {
        let text = std::fs::read_to_string(path).expect("a source file");
        for message in messages(&text) {
            seen += 1;
            if NOT_CHECKED.iter().any(|(m, _)| *m == message) {
                continue;
            }
            let longest = fragments(&message)
                .into_iter()
                .max_by_key(|f| f.len())
                .unwrap_or_default();
            if !snapshots.contains(&normalize(&longest)) {
                let file = path.strip_prefix(root).unwrap_or(path).display();
                missing.push(format!("{file}: {message:?}"));
            }
        }
    }
    assert!(seen > 50, "found only {seen} messages: is the scan broken?");
    let unused: Vec<_> = NOT_CHECKED
        .iter()
        .filter(|(m, _)| {
            !sources.iter().any(|p| {
                messages(&std::fs::read_to_string(p).unwrap())
                    .iter()
                    .any(|x| x == m)
            })
        })
        .collect();
    assert!(
        missing.is_empty() && unused.is_empty(),
        "messages of src/parse or src/test_attr.rs with no UI case in tests/ui (add a case, then \
         TRYBUILD=overwrite cargo test -p bridge-macro --test ui):\n{}\n\
         NOT_CHECKED entries no longer in the source: {unused:?}",
        missing.join("\n")
    );
}

/// The contents of the files in `dir` ending in `.ext`, joined.
fn read_all(dir: &Path, ext: &str) -> String {
    let mut out = String::new();
    for entry in std::fs::read_dir(dir).expect("tests/ui") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == ext) {
            out.push_str(&std::fs::read_to_string(&path).expect("a snapshot"));
            out.push('\n');
        }
    }
    out
}

/// Runs of whitespace as one space.
fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every message-like string literal of a source file (outside `#[cfg(test)]` items):
/// literals in code and in macro arguments (`format!("..")`) with a space in them.
fn messages(source: &str) -> Vec<String> {
    use syn::visit::Visit;
    struct Literals(Vec<String>);
    impl<'ast> Visit<'ast> for Literals {
        fn visit_item(&mut self, item: &'ast syn::Item) {
            let attrs = match item {
                syn::Item::Mod(m) => &m.attrs,
                syn::Item::Fn(f) => &f.attrs,
                _ => return syn::visit::visit_item(self, item),
            };
            let test_only = attrs.iter().any(|a| {
                a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
            });
            if !test_only {
                syn::visit::visit_item(self, item);
            }
        }
        fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}
        fn visit_lit_str(&mut self, lit: &'ast syn::LitStr) {
            self.0.push(lit.value());
        }
        fn visit_macro(&mut self, mac: &'ast syn::Macro) {
            // An `unreachable!`/`panic!` states an invariant, not a message to users.
            let invariant = ["unreachable", "panic", "assert"]
                .iter()
                .any(|m| mac.path.is_ident(m));
            if !invariant {
                walk_tokens(mac.tokens.clone(), &mut self.0);
            }
        }
        fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
            // So does an `.expect("..")`.
            if call.method == "expect" {
                return self.visit_expr(&call.receiver);
            }
            syn::visit::visit_expr_method_call(self, call);
        }
    }
    fn walk_tokens(tokens: proc_macro2::TokenStream, out: &mut Vec<String>) {
        for t in tokens {
            match t {
                proc_macro2::TokenTree::Literal(l) => {
                    if let Ok(s) = syn::parse_str::<syn::LitStr>(&l.to_string()) {
                        out.push(s.value());
                    }
                }
                proc_macro2::TokenTree::Group(g) => walk_tokens(g.stream(), out),
                _ => {}
            }
        }
    }
    let file = syn::parse_file(source).expect("the source parses");
    let mut literals = Literals(Vec::new());
    literals.visit_file(&file);
    literals
        .0
        .into_iter()
        .filter(|s| s.contains(' ') && s.len() >= 16)
        .collect()
}

/// The fixed text of a format string between its `{..}` placeholders (`{{` is `{`).
fn fragments(format: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.last_mut().unwrap().push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.last_mut().unwrap().push('}');
            }
            '{' => {
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                }
                out.push(String::new());
            }
            _ => out.last_mut().unwrap().push(c),
        }
    }
    out
}
