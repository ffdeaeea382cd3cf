//! `cargo xtask docs` (and the docs phase of `cargo xtask test`): the user guide in `docs/`
//! is an mdBook (`docs/book.toml`, `docs/SUMMARY.md`), built into `target/book/` by the
//! mdBook of [`MDBOOK_VERSION`], which this task installs from crates.io into
//! `target/tools/` on first use. The task fails on a broken relative link or anchor in any
//! tracked Markdown file or a path the maps of the code (ARCHITECTURE.md, CONTRIBUTING.md,
//! templates/README.md) name that no longer exists (`links.rs`), and on a Rust block of the guide or the README that no
//! longer compiles (`blocks.rs`); first of all, on a map or the README grown past its
//! budget ([`BUDGETS`], issue 47: ARCHITECTURE.md is a map, per-file detail lives in each
//! file's `//!`).

mod blocks;
mod links;

use crate::fixtures::{fixtures_target_dir, project_root};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;
use xshell::{Shell, cmd};

/// The maps of the code: every repository path they write as inline code must exist.
const MAPS: [&str; 3] = ["ARCHITECTURE.md", "CONTRIBUTING.md", "templates/README.md"];

/// How large the docs read first may grow: a file, its limit and its unit. Past one, the
/// detail belongs in the guide (`docs/`) or the `//!` of the file it describes.
const BUDGETS: [(&str, usize, Unit); 2] = [
    ("ARCHITECTURE.md", 30 * 1024, Unit::Bytes),
    ("README.md", 150, Unit::Lines),
];

/// What a [`BUDGETS`] limit counts.
#[derive(Clone, Copy, Debug)]
enum Unit {
    Bytes,
    Lines,
}

/// The mdBook the guide is built with (pinned: its output and warnings change by version).
pub const MDBOOK_VERSION: &str = "0.5.4";

/// `cargo xtask docs`: install mdBook if needed, then [`check`].
pub fn run(sh: &Shell) -> Result<()> {
    let mdbook = install_mdbook()?;
    check(sh, &mdbook)
}

/// The three checks, in order of cost: links, the book's build (into `target/book/`, as
/// `docs/book.toml` says), the Rust blocks.
pub fn check(sh: &Shell, mdbook: &Path) -> Result<()> {
    let root = project_root();
    for (file, limit, unit) in BUDGETS {
        let text =
            std::fs::read_to_string(root.join(file)).with_context(|| format!("reading {file}"))?;
        over_budget(file, &text, limit, unit)?;
    }
    println!("docs: ARCHITECTURE.md and README.md are within their budgets");
    let markdown = tracked_markdown(sh)?;
    let links = links::check(&root, &markdown)?;
    println!(
        "docs: {links} links in {} Markdown files resolve",
        markdown.len()
    );
    let maps = MAPS.map(PathBuf::from);
    let paths = links::check_code_paths(&root, &maps)?;
    println!("docs: {paths} paths the maps name exist");
    cmd!(sh, "{mdbook} build docs")
        .quiet()
        .run()
        .context("building the user guide (docs/) with mdBook")?;
    println!("docs: the user guide is in target/book/index.html");
    let mut chapters = chapters(&std::fs::read_to_string(root.join("docs/SUMMARY.md"))?);
    chapters.push(PathBuf::from("README.md"));
    let blocks = blocks::check(sh, &root, &chapters, &fixtures_target_dir())?;
    println!("docs: {blocks} Rust blocks of the guide and the README compile");
    Ok(())
}

/// An error naming the file, its size and the limit when `text` is past it.
fn over_budget(file: &str, text: &str, limit: usize, unit: Unit) -> Result<()> {
    let (size, what) = match unit {
        Unit::Bytes => (text.len(), "bytes"),
        Unit::Lines => (text.lines().count(), "lines"),
    };
    if size > limit {
        bail!(
            "{file} is {size} {what}, over its budget of {limit} (xtask/src/docs.rs BUDGETS): \
             move per-file detail into that file's `//!` doc or the guide (docs/)"
        );
    }
    Ok(())
}

/// Every Markdown file git tracks (never `node_modules/` or build output).
fn tracked_markdown(sh: &Shell) -> Result<Vec<PathBuf>> {
    let root = project_root();
    let listing = cmd!(sh, "git -C {root} ls-files -- *.md").read()?;
    Ok(listing.lines().map(PathBuf::from).collect())
}

/// The chapter files `SUMMARY.md` links, as paths from the project root.
fn chapters(summary: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for line in summary.lines() {
        if let Some(start) = line.find("](")
            && let Some(end) = line[start + 2..].find(')')
        {
            let file = PathBuf::from("docs").join(&line[start + 2..start + 2 + end]);
            if !out.contains(&file) {
                out.push(file);
            }
        }
    }
    out
}

/// The mdBook binary: `target/tools/mdbook-<version>/bin/mdbook`, installed with
/// `cargo install` on first use (unoptimized and without its `serve`/`watch` features: a
/// third of the CPU, and the build of a book this size takes a second either way), into a
/// staging directory renamed when complete.
pub fn install_mdbook() -> Result<PathBuf> {
    let tools = project_root().join("target/tools");
    let dir = tools.join(format!("mdbook-{MDBOOK_VERSION}"));
    let program = dir.join("bin/mdbook");
    if version_of(&program).as_deref() == Some(MDBOOK_VERSION) {
        return Ok(program);
    }
    std::fs::create_dir_all(&tools).with_context(|| format!("creating {}", tools.display()))?;
    let staging = tools.join(format!(
        "mdbook-{MDBOOK_VERSION}.partial-{}",
        std::process::id()
    ));
    let log_path = tools.join(format!("mdbook-{MDBOOK_VERSION}.install.log"));
    let log = std::fs::File::create(&log_path)?;
    eprintln!(
        "installing mdbook {MDBOOK_VERSION} (first use; log: {})",
        log_path.display()
    );
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["install", "mdbook", "--locked", "--version"])
        .arg(format!("={MDBOOK_VERSION}"))
        .args(["--no-default-features", "--features", "search"])
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
        .arg("--root")
        .arg(&staging)
        .stdout(log.try_clone()?)
        .stderr(log)
        .status()
        .context("running `cargo install mdbook`")?;
    if !status.success() {
        let _ = std::fs::remove_dir_all(&staging);
        bail!(
            "`cargo install mdbook --version ={MDBOOK_VERSION}` failed ({status}); see {}",
            log_path.display()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::rename(&staging, &dir)
        .with_context(|| format!("moving {} to {}", staging.display(), dir.display()))?;
    Ok(program)
}

/// What `<program> --version` says after `mdbook v`, if it runs.
fn version_of(program: &Path) -> Option<String> {
    let output = Command::new(program).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    Some(text.trim().strip_prefix("mdbook v")?.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chapters_are_the_files_summary_links_once_each() {
        let summary = "# Summary\n\n- [Start](getting-started.md)\n  - [More](more.md)\n\
                       - [Again](getting-started.md)\n";
        assert_eq!(
            chapters(summary),
            [
                PathBuf::from("docs/getting-started.md"),
                PathBuf::from("docs/more.md")
            ]
        );
    }

    #[test]
    fn a_file_past_its_budget_is_an_error_naming_it() {
        assert!(over_budget("A.md", "abc", 3, Unit::Bytes).is_ok());
        let err = over_budget("A.md", "abcd", 3, Unit::Bytes)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("A.md is 4 bytes, over its budget of 3"),
            "{err}"
        );
        assert!(over_budget("R.md", "a\nb\n", 2, Unit::Lines).is_ok());
        assert!(over_budget("R.md", "a\nb\nc", 2, Unit::Lines).is_err());
    }

    /// The maps of this checkout are within their budgets (the check itself).
    #[test]
    fn the_maps_of_the_repository_are_within_their_budgets() {
        for (file, limit, unit) in BUDGETS {
            let text = std::fs::read_to_string(project_root().join(file)).unwrap();
            over_budget(file, &text, limit, unit).unwrap();
        }
    }

    /// The tracked Markdown of this checkout: every link resolves (the check itself).
    #[test]
    fn every_link_of_the_repository_resolves() {
        let sh = Shell::new().unwrap();
        let files = tracked_markdown(&sh).unwrap();
        assert!(files.contains(&PathBuf::from("README.md")));
        links::check(&project_root(), &files).unwrap();
    }
}
