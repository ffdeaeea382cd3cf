//! The link check of `cargo xtask docs`: every relative link of every tracked Markdown file
//! (`[text](path)`, `[text](path#anchor)`, `[text](#anchor)`, `![alt](image)` and reference
//! definitions `[name]: path`) must name a file or directory that exists, and an anchor
//! must be a heading of the Markdown file it points into (GitHub's and mdBook's rule: the
//! heading's text lowercased, spaces to `-`, other punctuation but `-` and `_` dropped, a
//! repeated heading suffixed `-1`, `-2`, …; an `<a id="..">` counts too). Links inside code
//! (fenced blocks and `inline spans`) are text, not links; `scheme:` links (https, mailto)
//! are not followed.

use anyhow::{Context, Result, bail};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// One broken link: where it is and what is wrong.
#[derive(Debug, PartialEq, Eq)]
pub struct Broken {
    pub file: PathBuf,
    pub line: usize,
    pub target: String,
    pub why: String,
}

/// Check every file in `files` (paths relative to `root`); an error lists every broken link.
pub fn check(root: &Path, files: &[PathBuf]) -> Result<usize> {
    let mut anchors = Anchors::default();
    let mut broken = Vec::new();
    let mut count = 0;
    for file in files {
        let text = std::fs::read_to_string(root.join(file))
            .with_context(|| format!("reading {}", file.display()))?;
        for link in links(&text) {
            count += 1;
            if let Some(why) = resolve(root, file, &link.target, &mut anchors)? {
                broken.push(Broken {
                    file: file.clone(),
                    line: link.line,
                    target: link.target,
                    why,
                });
            }
        }
    }
    if !broken.is_empty() {
        let list: Vec<String> = broken
            .iter()
            .map(|b| {
                format!(
                    "  {}:{}: ({}) {}",
                    b.file.display(),
                    b.line,
                    b.target,
                    b.why
                )
            })
            .collect();
        bail!(
            "{} broken link(s) in the Markdown files; fix the path or the anchor (a heading's \
             anchor is its text lowercased, spaces as `-`, punctuation dropped):\n{}",
            broken.len(),
            list.join("\n")
        );
    }
    Ok(count)
}

/// Why `target`, written in `file`, does not resolve; `None` when it does.
fn resolve(
    root: &Path,
    file: &Path,
    target: &str,
    anchors: &mut Anchors,
) -> Result<Option<String>> {
    if is_external(target) {
        return Ok(None);
    }
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (target, None),
    };
    let dest = if path.is_empty() {
        file.to_path_buf()
    } else {
        normalize(&file.parent().unwrap_or(Path::new("")).join(path))
    };
    if dest.starts_with("..") {
        return Ok(Some("points outside the repository".into()));
    }
    if !root.join(&dest).exists() {
        return Ok(Some(format!("{} does not exist", dest.display())));
    }
    let Some(anchor) = anchor else {
        return Ok(None);
    };
    if dest.extension().is_none_or(|e| e != "md") {
        return Ok(None);
    }
    let known = anchors.of(root, &dest)?;
    if known.contains(anchor) {
        Ok(None)
    } else {
        Ok(Some(format!(
            "{} has no heading with the anchor `#{anchor}`",
            dest.display()
        )))
    }
}

fn is_external(target: &str) -> bool {
    match target.split_once(':') {
        Some((scheme, _)) => {
            !scheme.is_empty()
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '+')
        }
        None => false,
    }
}

/// `a/b/../c` → `a/c`, `./a` → `a` (without touching the file system).
fn normalize(path: &Path) -> PathBuf {
    let mut out: Vec<&std::ffi::OsStr> = Vec::new();
    let mut ups = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if out.pop().is_none() {
                    ups.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out.iter().fold(ups, |acc, p| acc.join(p))
}

/// The anchors of each Markdown file, read once.
#[derive(Default)]
struct Anchors(HashMap<PathBuf, BTreeSet<String>>);

impl Anchors {
    fn of(&mut self, root: &Path, file: &Path) -> Result<&BTreeSet<String>> {
        if !self.0.contains_key(file) {
            let text = std::fs::read_to_string(root.join(file))
                .with_context(|| format!("reading {}", file.display()))?;
            self.0.insert(file.to_path_buf(), anchors(&text));
        }
        Ok(&self.0[file])
    }
}

/// The anchors a Markdown text defines: its headings' slugs and `<a id|name="..">`s.
pub fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = BTreeSet::new();
    for (line, _) in prose_lines(text) {
        let trimmed = line.trim_start();
        let hashes = trimmed.chars().take_while(|&c| c == '#').count();
        if (1..=6).contains(&hashes) && trimmed[hashes..].starts_with([' ', '\t']) {
            let slug = slug(trimmed[hashes..].trim().trim_end_matches('#').trim());
            let n = seen.entry(slug.clone()).or_default();
            out.insert(if *n == 0 {
                slug.clone()
            } else {
                format!("{slug}-{n}")
            });
            *n += 1;
        }
        for attr in ["id=\"", "name=\""] {
            let mut rest = line;
            while let Some(at) = rest.find("<a ") {
                rest = &rest[at + 3..];
                let tag_end = rest.find('>').unwrap_or(rest.len());
                if let Some(start) = rest[..tag_end].find(attr) {
                    let value = &rest[start + attr.len()..tag_end];
                    if let Some(end) = value.find('"') {
                        out.insert(value[..end].to_string());
                    }
                }
            }
        }
    }
    out
}

/// A heading's anchor: link targets dropped (`[t](u)` → `t`), then alphanumerics, `-` and
/// `_` kept (lowercased), whitespace as `-`, everything else dropped.
pub fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find("](") {
        let close = rest[open..].find(')').map_or(rest.len(), |c| open + c + 1);
        text.push_str(&rest[..open]);
        rest = &rest[close..];
    }
    text.push_str(rest);
    text.chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c.to_lowercase().collect::<String>())
            } else if c.is_whitespace() {
                Some("-".into())
            } else {
                None
            }
        })
        .collect()
}

/// A link found in prose, with its 1-based line.
#[derive(Debug, PartialEq, Eq)]
pub struct Link {
    pub line: usize,
    pub target: String,
}

/// The link targets of a Markdown text, outside code.
pub fn links(text: &str) -> Vec<Link> {
    let mut out = Vec::new();
    for (line, number) in prose_lines(text) {
        let prose = without_code_spans(line);
        // A reference definition: `[name]: target`.
        if let Some(rest) = prose.trim_start().strip_prefix('[')
            && let Some((_, target)) = rest.split_once("]:")
            && let Some(target) = target.split_whitespace().next()
        {
            out.push(Link {
                line: number,
                target: target.trim_matches(['<', '>']).to_string(),
            });
            continue;
        }
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').unwrap_or(rest.len());
            let inside = rest[..end].trim();
            // `(target "title")` and `(<target>)`.
            let target = inside.split_whitespace().next().unwrap_or("");
            let target = target.trim_matches(['<', '>']);
            if !target.is_empty() {
                out.push(Link {
                    line: number,
                    target: target.to_string(),
                });
            }
            rest = &rest[end..];
        }
    }
    out
}

/// The top-level directories whose paths the maps (ARCHITECTURE.md, CONTRIBUTING.md,
/// templates/README.md) write as inline code: each such path must exist.
const MAPPED: [&str; 7] = [
    "bridge-runtime/",
    "cargo-bridge/",
    "docs/",
    "examples/",
    "fixtures/",
    "templates/",
    "xtask/",
];

/// Inline-code paths into the repository (`cargo-bridge/src/pipeline.rs`) in a Markdown
/// text, with their lines; patterns (`*`, `{a,b}`, `<mode>`) and build output (`pkg/`,
/// `target/`, `node_modules/`) are not paths to check.
pub fn code_paths(text: &str) -> Vec<Link> {
    let mut out = Vec::new();
    for (line, number) in prose_lines(text) {
        for span in line.split('`').skip(1).step_by(2) {
            let path = span.split_once('#').map_or(span, |(path, _)| path);
            let pattern = path.contains(['*', '{', '<', ' ', '(', ':']);
            let built = path
                .split('/')
                .any(|part| matches!(part, "pkg" | "target" | "node_modules"));
            if MAPPED.iter().any(|dir| path.starts_with(dir)) && !pattern && !built {
                out.push(Link {
                    line: number,
                    target: path.to_string(),
                });
            }
        }
    }
    out
}

/// Check that every inline-code path of `files` exists; an error lists those that do not.
pub fn check_code_paths(root: &Path, files: &[PathBuf]) -> Result<usize> {
    let mut missing = Vec::new();
    let mut count = 0;
    for file in files {
        let text = std::fs::read_to_string(root.join(file))
            .with_context(|| format!("reading {}", file.display()))?;
        for path in code_paths(&text) {
            count += 1;
            if !root.join(&path.target).exists() {
                missing.push(format!(
                    "  {}:{}: `{}`",
                    file.display(),
                    path.line,
                    path.target
                ));
            }
        }
    }
    if !missing.is_empty() {
        bail!(
            "{} path(s) in the maps name no file or directory of the repository (a file moved \
             or was renamed: update the map):\n{}",
            missing.len(),
            missing.join("\n")
        );
    }
    Ok(count)
}

/// The lines outside fenced code blocks, with their 1-based numbers.
fn prose_lines(text: &str) -> impl Iterator<Item = (&str, usize)> {
    let mut fence: Option<String> = None;
    text.lines().enumerate().filter_map(move |(i, line)| {
        let trimmed = line.trim_start();
        let marker: String = trimmed
            .chars()
            .take_while(|&c| c == '`' || c == '~')
            .collect();
        let is_fence =
            marker.len() >= 3 && marker.chars().all(|c| c == marker.as_bytes()[0] as char);
        match &fence {
            Some(open) if is_fence && marker.starts_with(open.as_str()) => {
                fence = None;
                None
            }
            Some(_) => None,
            None if is_fence => {
                fence = Some(marker);
                None
            }
            None => Some((line, i + 1)),
        }
    })
}

/// `line` with its inline code spans (`` `x` ``, ``` `` x `` ```) blanked out.
fn without_code_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
        let after = &rest[start + ticks..];
        let closing = "`".repeat(ticks);
        match after.find(&closing) {
            Some(end) => rest = &after[end + ticks..],
            None => {
                // An unclosed run is literal text.
                out.push_str(&rest[start..start + ticks]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_become_anchors_as_github_and_mdbook_make_them() {
        assert_eq!(
            slug("Lazy iterators: `impl Iterator<Item = T> + 'static` results"),
            "lazy-iterators-impl-iteratoritem--t--static-results"
        );
        assert_eq!(
            slug("Views of wasm memory: `&[T]` results"),
            "views-of-wasm-memory-t-results"
        );
        assert_eq!(slug("`cargo bridge build`"), "cargo-bridge-build");
        assert_eq!(slug("See [the guide](docs/x.md) now"), "see-the-guide-now");
        let text = "# Top\n## Same\n## Same\n```\n# not a heading\n```\n<a id=\"here\"></a>\n";
        let found = anchors(text);
        assert_eq!(
            found.into_iter().collect::<Vec<_>>(),
            ["here", "same", "same-1", "top"]
        );
    }

    #[test]
    fn links_in_code_are_text_and_titles_and_references_are_read() {
        let text = "See [a](a.md#x \"title\") and `[b](b.md)`.\n\
                    ```rust\nlet x = [c](d);\n```\n\
                    ![img](docs/demo.png) [e](https://example.org)\n\
                    [ref]: <refs.md>\n";
        let targets: Vec<(usize, String)> = links(text)
            .into_iter()
            .map(|l| (l.line, l.target))
            .collect();
        assert_eq!(
            targets,
            [
                (1, "a.md#x".to_string()),
                (5, "docs/demo.png".to_string()),
                (5, "https://example.org".to_string()),
                (6, "refs.md".to_string())
            ]
        );
    }

    #[test]
    fn a_missing_file_or_anchor_is_reported_with_its_line() {
        let dir = std::env::temp_dir().join(format!("xtask-links-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("docs")).unwrap();
        std::fs::write(dir.join("docs/a.md"), "# Title\n## Part two\n").unwrap();
        std::fs::write(
            dir.join("README.md"),
            "[ok](docs/a.md#part-two)\n[self](#readme)\n[gone](docs/b.md)\n\n[bad](docs/a.md#part-three)\n# Readme\n",
        )
        .unwrap();
        let err = check(&dir, &[PathBuf::from("README.md")])
            .unwrap_err()
            .to_string();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(err.starts_with("2 broken link(s)"), "{err}");
        assert!(
            err.contains("README.md:3: (docs/b.md) docs/b.md does not exist"),
            "{err}"
        );
        assert!(
            err.contains("README.md:5: (docs/a.md#part-three) docs/a.md has no heading with the anchor `#part-three`"),
            "{err}"
        );
    }

    #[test]
    fn code_paths_are_repository_paths_but_patterns_and_build_output() {
        let text = "See `cargo-bridge/src/pipeline.rs` and `xtask/bench/*.mjs`, \
                    `fixtures/bench/pkg`, `templates/identity/<mode>.js.j2`, `Vec<T>`,\n\
                    `docs/async.md#x` and ``cargo bridge build``.\n```\n`xtask/gone.rs`\n```\n";
        let found: Vec<(usize, String)> = code_paths(text)
            .into_iter()
            .map(|l| (l.line, l.target))
            .collect();
        assert_eq!(
            found,
            [
                (1, "cargo-bridge/src/pipeline.rs".to_string()),
                (2, "docs/async.md".to_string())
            ]
        );
        let dir = std::env::temp_dir().join(format!("xtask-paths-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("docs")).unwrap();
        std::fs::write(dir.join("docs/async.md"), "").unwrap();
        std::fs::write(dir.join("MAP.md"), text).unwrap();
        let err = check_code_paths(&dir, &[PathBuf::from("MAP.md")])
            .unwrap_err()
            .to_string();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(
            err.starts_with("1 path(s) in the maps")
                && err.ends_with("  MAP.md:1: `cargo-bridge/src/pipeline.rs`"),
            "{err}"
        );
    }

    #[test]
    fn relative_paths_resolve_from_the_linking_file() {
        assert_eq!(
            normalize(Path::new("docs/../README.md")),
            PathBuf::from("README.md")
        );
        assert_eq!(
            normalize(Path::new("./docs/./a.md")),
            PathBuf::from("docs/a.md")
        );
        assert_eq!(normalize(Path::new("../x.md")), PathBuf::from("../x.md"));
        assert!(is_external("https://x") && is_external("mailto:a@b"));
        assert!(!is_external("docs/a.md#b:c"));
    }
}
