//! The code check of `cargo xtask docs`: every ```` ```rust ```` block of the guide and the
//! README must still compile against this checkout's `bridge-runtime`, for wasm32 as a
//! bridge crate is built. `mdbook test` cannot do it: it links each block into a host
//! executable, and a `#[bridge]` crate is a wasm module whose imports only the glue
//! provides.
//!
//! Each block becomes a module of one scratch crate (`target/docs-check/`, built into the
//! fixtures' target directory so the runtime compiles once), checked with one
//! `cargo check --target wasm32-unknown-unknown`; an error names the block's file and line.
//! The block is its module's text as the reader sees it after an implied
//! `use bridge_runtime::*; use std::{collections::*, fmt};` (blocks leave those imports out), plus its hidden lines (`# ` at
//! the start, as rustdoc and mdBook hide them) for context it leans on; a `…` standing
//! for elided code, and a function body written `{ .. }`, are checked as `todo!()`. Blocks tagged
//! `ignore` (or `compile_fail`) are skipped: use it for a block that needs crates the
//! check does not have (wasm-bindgen, web-sys) or shows an excerpt. A JS module file a
//! block imports (`module = "js/host.mjs"`) is made empty in the scratch crate: the macro
//! checks that it exists.

use anyhow::{Context, Result, bail};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use xshell::{Shell, cmd};

/// One Rust block to check.
#[derive(Debug, PartialEq, Eq)]
pub struct Block {
    pub file: PathBuf,
    /// 1-based line of the opening fence.
    pub line: usize,
    pub code: String,
}

/// The checked Rust blocks of a Markdown text (hidden lines unhidden).
pub fn rust_blocks(file: &Path, text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(String, usize, bool, String)> = None; // fence, line, checked, code
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let fence: String = trimmed
            .chars()
            .take_while(|&c| c == '`' || c == '~')
            .collect();
        if let Some((marker, start, checked, mut code)) = open.take() {
            if fence.len() >= marker.len() && fence.starts_with(marker.as_str()) {
                if checked {
                    out.push(Block {
                        file: file.to_path_buf(),
                        line: start,
                        code,
                    });
                }
            } else {
                code.push_str(&unhide(line));
                code.push('\n');
                open = Some((marker, start, checked, code));
            }
            continue;
        }
        if fence.len() >= 3 {
            let info = trimmed[fence.len()..].trim();
            let tags: Vec<&str> = info
                .split([',', ' '])
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .collect();
            let checked = tags.first() == Some(&"rust")
                && !tags.iter().any(|t| matches!(*t, "ignore" | "compile_fail"));
            open = Some((fence, i + 1, checked, String::new()));
        }
    }
    out
}

/// A line as the compiler sees it: `# x` → `x`, `#` → ``, `##x` → `#x`, and an elided
/// part (`{ … }`, a `…` argument, a function's body `{ .. }`) as `todo!()`.
fn unhide(line: &str) -> String {
    let mut line = line.replace('…', "todo!()");
    // `fn f() { .. }`: an elided body, the last `{ .. }` of the line (others are a
    // pattern's rest).
    if let Some(at) = line.find("fn ")
        && let Some(body) = line[at..].rfind("{ .. }")
    {
        line.replace_range(at + body..at + body + "{ .. }".len(), "{ todo!() }");
    }
    let line = line.as_str();
    let trimmed = line.trim_start();
    let indent = &line[..line.len() - trimmed.len()];
    if trimmed == "#" {
        String::new()
    } else if let Some(rest) = trimmed.strip_prefix("# ") {
        format!("{indent}{rest}")
    } else if let Some(rest) = trimmed.strip_prefix("##") {
        format!("{indent}#{rest}")
    } else {
        line.to_string()
    }
}

/// The JS module paths blocks import with `module = "..."`.
fn js_modules(blocks: &[Block]) -> Vec<String> {
    let mut out = Vec::new();
    for block in blocks {
        let mut rest = block.code.as_str();
        while let Some(at) = rest.find("module = \"") {
            rest = &rest[at + "module = \"".len()..];
            if let Some(end) = rest.find('"') {
                out.push(rest[..end].to_string());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// What every block may leave out: the runtime's items, std's collections and `fmt`.
const PRELUDE: &str = "use bridge_runtime::*;\nuse std::{collections::*, fmt};\n";

/// The module name of a block: its file's stem and line.
fn module_name(block: &Block) -> String {
    let stem = block
        .file
        .file_stem()
        .map(|s| s.to_string_lossy().replace(['-', '.'], "_"))
        .unwrap_or_default();
    format!("{}_line_{}", stem.to_lowercase(), block.line)
}

/// The scratch crate's `src/lib.rs`: one module per block, under its source position,
/// and the line of `lib.rs` each block's first line is on.
fn lib_rs(blocks: &[Block]) -> (String, Vec<usize>) {
    let mut out = String::from(
        "//! Written by `cargo xtask docs`: the Rust blocks of the guide, one module each.\n\
         #![allow(dead_code, unused_imports, unused_variables, clippy::all)]\n",
    );
    let mut starts = Vec::new();
    for block in blocks {
        let _ = write!(
            out,
            "\n// {}:{}\n#[rustfmt::skip]\nmod {} {{\n{PRELUDE}",
            block.file.display(),
            block.line,
            module_name(block),
        );
        starts.push(out.lines().count() + 1);
        out.push_str(&block.code);
        out.push_str("}\n");
    }
    (out, starts)
}

/// Compiler messages about `src/lib.rs:L:C` retold as `<markdown file>:<line>:C`.
fn in_the_docs(messages: &str, blocks: &[Block], starts: &[usize]) -> String {
    let mut out = String::new();
    for message in messages.lines() {
        let place = message
            .strip_prefix("src/lib.rs:")
            .and_then(|rest| rest.split_once(':'))
            .and_then(|(line, rest)| Some((line.parse::<usize>().ok()?, rest)));
        let retold = place.and_then(|(line, rest)| {
            let i = starts.iter().rposition(|&start| start <= line)?;
            let block = &blocks[i];
            Some(format!(
                "{}:{}:{rest}",
                block.file.display(),
                block.line + 1 + line - starts[i]
            ))
        });
        out.push_str(retold.as_deref().unwrap_or(message));
        out.push('\n');
    }
    out
}

/// Check every Rust block of `files` (relative to `root`).
pub fn check(sh: &Shell, root: &Path, files: &[PathBuf], target_dir: &Path) -> Result<usize> {
    let mut blocks = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(root.join(file))
            .with_context(|| format!("reading {}", file.display()))?;
        blocks.extend(rust_blocks(file, &text));
    }
    let dir = root.join("target/docs-check");
    let starts = write_crate(root, &dir, &blocks)?;
    let manifest = dir.join("Cargo.toml");
    let output = cmd!(
        sh,
        "cargo check --quiet --manifest-path {manifest} --target wasm32-unknown-unknown --message-format short"
    )
    .env("CARGO_TARGET_DIR", target_dir)
    .ignore_status()
    .output()?;
    if !output.status.success() {
        let errors = in_the_docs(&String::from_utf8_lossy(&output.stderr), &blocks, &starts);
        bail!(
            "a Rust block of the guide no longer compiles (fix the block, give it hidden `# ` \
             lines for the context it needs, or tag it `ignore` if it cannot compile alone; \
             the crate checked is {}):\n{}",
            dir.display(),
            errors.trim_end()
        );
    }
    Ok(blocks.len())
}

/// Write the scratch crate, leaving files that are already right untouched (so cargo's
/// fingerprints hold between runs).
fn write_crate(root: &Path, dir: &Path, blocks: &[Block]) -> Result<Vec<usize>> {
    let runtime = root.join("bridge-runtime");
    let manifest = format!(
        "# Written by `cargo xtask docs`.\n[package]\nname = \"guide-blocks\"\nversion = \"0.0.0\"\n\
         edition = \"2024\"\npublish = false\n\n[lib]\npath = \"src/lib.rs\"\n\n\
         [dependencies]\nbridge-runtime = {{ path = {:?} }}\n\n[workspace]\n",
        runtime.display().to_string()
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest)?;
    let (lib, starts) = lib_rs(blocks);
    write_if_changed(&dir.join("src/lib.rs"), &lib)?;
    // The fixtures' lock file: the versions every test builds with.
    let lock = std::fs::read_to_string(root.join("fixtures/Cargo.lock"))
        .context("reading fixtures/Cargo.lock")?;
    if !dir.join("Cargo.lock").exists() {
        write_if_changed(&dir.join("Cargo.lock"), &lock)?;
    }
    for module in js_modules(blocks) {
        write_if_changed(&dir.join(module), "// Written by `cargo xtask docs`.\n")?;
    }
    Ok(starts)
}

fn write_if_changed(path: &Path, text: &str) -> Result<()> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_blocks_are_found_with_their_hidden_lines_and_others_skipped() {
        let text = "# Title\n```rust\n# use a::b;\nfn f() { … }\n##[attr]\nfn g(P { .. }: P) { .. }\n```\n\
                    ```rust,ignore\nnot rust\n```\n```js\nlet x;\n```\n\
                    ````markdown\n```rust\nfn g() {}\n```\n````\n```rust\n#\nfn h() {}\n```\n";
        let blocks = rust_blocks(Path::new("docs/a-b.md"), text);
        assert_eq!(blocks.len(), 2, "{blocks:?}");
        assert_eq!(blocks[0].line, 2);
        assert_eq!(
            blocks[0].code,
            "use a::b;\nfn f() { todo!() }\n#[attr]\nfn g(P { .. }: P) { todo!() }\n"
        );
        assert_eq!(blocks[1].line, 19);
        assert_eq!(blocks[1].code, "\nfn h() {}\n");
        assert_eq!(module_name(&blocks[1]), "a_b_line_19");
    }

    #[test]
    fn every_block_is_a_module_and_every_imported_js_module_a_file() {
        let blocks = vec![
            Block {
                file: "README.md".into(),
                line: 3,
                code: "#[bridge(module = \"js/host.mjs\")]\nextern \"C\" {}\n".into(),
            },
            Block {
                file: "docs/x.md".into(),
                line: 9,
                code: "#[bridge(module = \"js/host.mjs\")]\n#[bridge(module = \"lib.js\")]\n"
                    .into(),
            },
        ];
        let (lib, starts) = lib_rs(&blocks);
        assert!(lib.contains(
            "// README.md:3\n#[rustfmt::skip]\nmod readme_line_3 {\nuse bridge_runtime::*;\nuse std::{collections::*, fmt};\n#[bridge"
        ));
        assert!(lib.contains("mod x_line_9 {"));
        assert_eq!(js_modules(&blocks), ["js/host.mjs", "lib.js"]);
        // Each block's first line is where `starts` says, and errors point into the docs.
        let lines: Vec<&str> = lib.lines().collect();
        assert_eq!(lines[starts[0] - 1], "#[bridge(module = \"js/host.mjs\")]");
        assert_eq!(lines[starts[1]], "#[bridge(module = \"lib.js\")]");
        let messages = format!(
            "src/lib.rs:{}:3: error: boom\nerror: could not compile\n",
            starts[1] + 1
        );
        assert_eq!(
            in_the_docs(&messages, &blocks, &starts),
            "docs/x.md:11:3: error: boom\nerror: could not compile\n"
        );
    }
}
