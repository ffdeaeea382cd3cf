//! The fmt phase of `cargo xtask test`: `cargo fmt --check` of every Rust workspace the
//! repo has, not only the root one (`cargo fmt --all` at the root never reaches
//! `fixtures/`, the wasm-bindgen fixture, the bench peer or the demo: each is a workspace
//! of its own).
//!
//! The workspaces are the tracked `Cargo.toml` files with a `[workspace]` table, so the
//! crates that tests and benchmarks write at run time (under `target/` or a temp dir,
//! never tracked) are never checked, and a new fixture workspace is checked once added.

use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::{Command, Output, Stdio};

pub fn check(root: &Path) -> Result<()> {
    let manifests = workspaces(root)?;
    // One `cargo fmt` per workspace, all at once: each is ~1 s of mostly process start-up
    // and metadata, so together they take about as long as the slowest.
    let mut children = Vec::new();
    for manifest in &manifests {
        let child = Command::new("cargo")
            .args(["fmt", "--all", "--check", "--manifest-path", manifest])
            .current_dir(root)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("running cargo fmt --check for {manifest}"))?;
        children.push((manifest, child));
    }
    let mut failed = Vec::new();
    for (manifest, child) in children {
        let out = child
            .wait_with_output()
            .with_context(|| format!("waiting for cargo fmt --check of {manifest}"))?;
        if !out.status.success() {
            print_output(&out);
            failed.push(manifest);
        }
    }
    if failed.is_empty() {
        return Ok(());
    }
    let fixes: Vec<String> = failed
        .iter()
        .map(|manifest| format!("  {}: run `{}`", workspace_name(manifest), fix(manifest)))
        .collect();
    bail!(
        "`cargo fmt --check` failed in {} of {} workspaces (diffs above); to format them:\n{}",
        failed.len(),
        manifests.len(),
        fixes.join("\n")
    )
}

fn print_output(out: &Output) {
    print!("{}", String::from_utf8_lossy(&out.stdout));
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
}

/// The command that formats the workspace of `manifest` (a path relative to the root).
fn fix(manifest: &str) -> String {
    if manifest == "Cargo.toml" {
        "cargo fmt --all".to_string()
    } else {
        format!("cargo fmt --all --manifest-path {manifest}")
    }
}

fn workspace_name(manifest: &str) -> &str {
    match manifest.strip_suffix("/Cargo.toml") {
        Some(dir) => dir,
        None => "the root workspace",
    }
}

/// The tracked manifests (paths relative to `root`) that are workspace roots, sorted.
fn workspaces(root: &Path) -> Result<Vec<String>> {
    let out = Command::new("git")
        .args(["ls-files", "-z", "--", "Cargo.toml", "**/Cargo.toml"])
        .current_dir(root)
        .output()
        .context("running git ls-files to find the Rust workspaces")?;
    if !out.status.success() {
        bail!(
            "git ls-files failed in {} (the fmt phase finds the workspaces among the tracked \
             Cargo.toml files, so it needs a git checkout): {}",
            root.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let mut manifests = Vec::new();
    for path in String::from_utf8(out.stdout)?.split('\0') {
        if path.is_empty() {
            continue;
        }
        // A tracked file deleted in the work tree is not a workspace any more.
        let Ok(text) = std::fs::read_to_string(root.join(path)) else {
            continue;
        };
        if is_workspace_root(&text) {
            manifests.push(path.to_string());
        }
    }
    manifests.sort();
    manifests.dedup();
    if !manifests.iter().any(|m| m == "Cargo.toml") {
        bail!(
            "found no workspace Cargo.toml at the root of {} among the tracked files",
            root.display()
        );
    }
    Ok(manifests)
}

/// Whether a manifest has a `[workspace]` table (its members are checked with it).
fn is_workspace_root(manifest: &str) -> bool {
    manifest.lines().any(|line| {
        let line = line.split('#').next().unwrap_or_default().trim();
        line == "[workspace]"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_workspace_root_is_a_manifest_with_a_workspace_table() {
        assert!(is_workspace_root(
            "[package]\nname = \"a\"\n\n[workspace]\n"
        ));
        assert!(is_workspace_root("[workspace] # its own\nmembers = []\n"));
        assert!(!is_workspace_root(
            "[package]\nedition.workspace = true\n[workspace.dependencies]\n# [workspace]\n"
        ));
    }

    #[test]
    fn the_repo_has_these_workspaces_and_none_under_target() {
        let found = workspaces(&crate::fixtures::project_root()).unwrap();
        for want in [
            "Cargo.toml",
            "fixtures/Cargo.toml",
            "fixtures/ws-default/Cargo.toml",
            "fixtures/wasm-bindgen/Cargo.toml",
            "fixtures/bench/peer/Cargo.toml",
            "examples/outline/Cargo.toml",
        ] {
            assert!(found.iter().any(|m| m == want), "{want} not in {found:?}");
        }
        assert!(found.iter().all(|m| !m.contains("target/")), "{found:?}");
    }

    #[test]
    fn the_fix_names_the_workspace_and_the_command() {
        assert_eq!(fix("Cargo.toml"), "cargo fmt --all");
        assert_eq!(
            fix("fixtures/Cargo.toml"),
            "cargo fmt --all --manifest-path fixtures/Cargo.toml"
        );
        assert_eq!(
            workspace_name("fixtures/bench/peer/Cargo.toml"),
            "fixtures/bench/peer"
        );
        assert_eq!(workspace_name("Cargo.toml"), "the root workspace");
    }
}
