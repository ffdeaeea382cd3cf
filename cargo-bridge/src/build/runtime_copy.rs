//! The copies of `bridge-runtime` that bridge crates depend on by path.
//!
//! `bridge-runtime` is not on crates.io, so the CLI carries the runtime crates' sources
//! (embedded at its own build, see build.rs). `cargo bridge new` writes them into the new
//! crate as `.bridge/` (git-ignored) and the crate depends on
//! `{ path = ".bridge/bridge-runtime" }`, a path that is the same on every machine. Before
//! `cargo metadata` reads a workspace, `cargo bridge build` restores every copy its
//! manifests point at: a missing `.bridge/` (a fresh clone, CI), one written by another
//! cargo-bridge version (the runtime must match the CLI that post-processes its module),
//! and a missing `runtime-<version>-<hash>/` of this version in the bridge home (crates made
//! by earlier releases depended on that absolute path). A path it cannot restore is an
//! error saying what to write instead, never cargo's bare "failed to read …/Cargo.toml".

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/runtime_sources.rs"));
}

/// The directory name of a crate's own copy, beside its Cargo.toml.
pub const CRATE_COPY_DIR: &str = ".bridge";
/// The dependency a bridge crate declares on its own copy.
pub const CRATE_COPY_DEPENDENCY: &str = ".bridge/bridge-runtime";
/// In a copy's root: the `<version>-<hash>` of the cargo-bridge that wrote it.
const MARKER: &str = ".cargo-bridge-runtime";
const RUNTIME_CRATE: &str = "bridge-runtime";

/// `<version>-<hash>` of the runtime sources this binary carries.
pub fn id() -> String {
    format!("{}-{}", env!("CARGO_PKG_VERSION"), embedded::HASH)
}

/// Write the runtime into `root` (`root/bridge-runtime`, `root/bridge-runtime/macro`, …)
/// unless a copy of this version is there; a copy of another version is replaced.
pub fn ensure(root: &Path) -> Result<()> {
    if std::fs::read_to_string(root.join(MARKER)).ok().as_deref() == Some(&id())
        && root.join(RUNTIME_CRATE).join("Cargo.toml").is_file()
    {
        return Ok(());
    }
    write(root).with_context(|| {
        format!(
            "writing the bridge-runtime sources to {}; make the directory writable",
            root.display()
        )
    })
}

fn write(root: &Path) -> Result<()> {
    let parent = root.parent().context("the copy's directory has a parent")?;
    std::fs::create_dir_all(parent)?;
    // Write beside, then rename: a crash never leaves a half copy under the final name.
    let staging = parent.join(format!(
        ".staging-{}-{}",
        embedded::HASH,
        std::process::id()
    ));
    let result = (|| -> Result<()> {
        for (rel, text) in embedded::FILES {
            let dest = staging.join(rel);
            std::fs::create_dir_all(dest.parent().expect("files are inside the copy"))?;
            std::fs::write(&dest, text)?;
        }
        std::fs::write(staging.join(MARKER), id())?;
        if root.exists() {
            std::fs::remove_dir_all(root)?;
        }
        std::fs::rename(&staging, root)?;
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    result
}

/// Restore the runtime copies that the manifest cargo will read (`--manifest-path`, or the
/// first Cargo.toml from the current directory up) and its workspace members depend on.
pub fn restore_for(manifest_path: Option<&Path>) -> Result<()> {
    let manifest = match manifest_path {
        Some(path) => path.to_path_buf(),
        None => match find_manifest(&std::env::current_dir()?) {
            Some(path) => path,
            // cargo metadata reports the missing manifest in its own words.
            None => return Ok(()),
        },
    };
    // A manifest that is missing or not TOML is cargo metadata's to report.
    let Some(table) = read_manifest(&manifest) else {
        return Ok(());
    };
    let dir = manifest.parent().unwrap_or(Path::new("."));
    restore_in(&manifest, &table)?;
    for member in workspace_members(&table, dir) {
        let member_manifest = member.join("Cargo.toml");
        if let Some(member_table) = read_manifest(&member_manifest) {
            restore_in(&member_manifest, &member_table)?;
        }
    }
    Ok(())
}

fn find_manifest(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .map(|dir| dir.join("Cargo.toml"))
        .find(|path| path.is_file())
}

fn read_manifest(path: &Path) -> Option<toml::Table> {
    std::fs::read_to_string(path).ok()?.parse().ok()
}

/// The member directories `[workspace] members` names (a trailing `/*` lists a folder).
fn workspace_members(manifest: &toml::Table, dir: &Path) -> Vec<PathBuf> {
    let members = manifest
        .get("workspace")
        .and_then(|w| w.get("members"))
        .and_then(|m| m.as_array())
        .map(|m| m.iter().filter_map(|v| v.as_str()).collect::<Vec<_>>())
        .unwrap_or_default();
    let mut dirs = Vec::new();
    for member in members {
        match member.strip_suffix("/*") {
            Some(folder) => {
                if let Ok(entries) = std::fs::read_dir(dir.join(folder)) {
                    dirs.extend(entries.flatten().map(|e| e.path()));
                }
            }
            None if !member.contains(['*', '?', '[']) => dirs.push(dir.join(member)),
            // Other globs: cargo metadata expands them; a member's missing copy then gets
            // the hint `explain_metadata_error` adds.
            None => {}
        }
    }
    dirs
}

/// Every `bridge-runtime` path dependency of one manifest: its `[dependencies]` (also
/// per target) and `[workspace.dependencies]`.
fn restore_in(manifest: &Path, table: &toml::Table) -> Result<()> {
    let dir = manifest.parent().unwrap_or(Path::new("."));
    let mut tables: Vec<Option<&toml::Value>> = Vec::new();
    for key in ["dependencies", "build-dependencies", "dev-dependencies"] {
        tables.push(table.get(key));
        if let Some(targets) = table.get("target").and_then(|t| t.as_table()) {
            tables.extend(targets.values().map(|target| target.get(key)));
        }
    }
    tables.push(table.get("workspace").and_then(|w| w.get("dependencies")));
    for deps in tables.into_iter().flatten().filter_map(|t| t.as_table()) {
        for (name, spec) in deps {
            let Some(spec) = spec.as_table() else {
                continue;
            };
            let package = spec.get("package").and_then(|p| p.as_str()).unwrap_or(name);
            if package != RUNTIME_CRATE {
                continue;
            }
            if let Some(path) = spec.get("path").and_then(|p| p.as_str()) {
                restore_dependency(manifest, &dir.join(path), path)?;
            }
        }
    }
    Ok(())
}

/// Restore one `bridge-runtime = { path = "<written>" }` (`path`: resolved against the
/// manifest's directory), or explain why it cannot be.
fn restore_dependency(manifest: &Path, path: &Path, written: &str) -> Result<()> {
    let root = path.parent().filter(|_| path.ends_with(RUNTIME_CRATE));
    let root_name = root
        .and_then(|r| r.file_name())
        .and_then(|n| n.to_str())
        .unwrap_or("");
    let present = path.join("Cargo.toml").is_file();
    let fix = format!(
        "depend on the copy cargo bridge writes into the crate: \
         `bridge-runtime = {{ path = \"{CRATE_COPY_DEPENDENCY}\" }}`"
    );
    match root {
        // The crate's own copy: written when missing, replaced when another version wrote it.
        Some(root) if root_name == CRATE_COPY_DIR => ensure(root),
        // A copy earlier releases wrote to the bridge home, of this version: restorable.
        Some(root) if !present && root_name == format!("runtime-{}", id()) => ensure(root),
        _ if present => Ok(()),
        Some(_) if root_name.starts_with("runtime-") => bail!(
            "{}: `bridge-runtime` depends on `{written}`, which does not exist: that copy of \
             the runtime was written by another cargo-bridge version (this one carries \
             runtime-{}); {fix}",
            manifest.display(),
            id()
        ),
        _ => bail!(
            "{}: `bridge-runtime` depends on `{written}`, which has no Cargo.toml; {fix}, or \
             point the path at a checkout of bridge-runtime",
            manifest.display()
        ),
    }
}

/// cargo metadata failed: if it could not read a `bridge-runtime` manifest, say what to do.
pub fn explain_metadata_error(error: anyhow::Error) -> anyhow::Error {
    let text = format!("{error:#}");
    if text.contains("failed to read") && text.contains(RUNTIME_CRATE) {
        error.context(format!(
            "a crate depends on a `bridge-runtime` that is missing; depend on the copy cargo \
             bridge writes into each crate: `bridge-runtime = {{ path = \"{CRATE_COPY_DEPENDENCY}\" }}`"
        ))
    } else {
        error
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_runtime_is_standalone() {
        let names: Vec<&str> = embedded::FILES.iter().map(|(p, _)| *p).collect();
        for needed in [
            "bridge-runtime/Cargo.toml",
            "bridge-runtime/src/lib.rs",
            "bridge-runtime/macro/Cargo.toml",
            "bridge-runtime/schema/Cargo.toml",
        ] {
            assert!(names.contains(&needed), "{needed} missing from {names:?}");
        }
        for (path, text) in embedded::FILES {
            if path.ends_with("Cargo.toml") {
                assert!(
                    !text.contains("workspace = true"),
                    "{path} still inherits:\n{text}"
                );
                assert!(
                    !text.contains(".workspace"),
                    "{path} still inherits:\n{text}"
                );
            }
        }
    }

    #[test]
    fn a_copy_of_another_version_is_replaced_and_one_of_this_version_kept() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join(CRATE_COPY_DIR);
        ensure(&root).unwrap();
        let lib = root.join("bridge-runtime/src/lib.rs");
        let original = std::fs::read_to_string(&lib).unwrap();
        // Same version: an edit survives (nothing is rewritten, so cargo rebuilds nothing).
        std::fs::write(&lib, "// edited").unwrap();
        ensure(&root).unwrap();
        assert_eq!(std::fs::read_to_string(&lib).unwrap(), "// edited");
        // Another version's copy is replaced by this one.
        std::fs::write(root.join(MARKER), "0.0.0-0000000000000000").unwrap();
        ensure(&root).unwrap();
        assert_eq!(std::fs::read_to_string(&lib).unwrap(), original);
        assert_eq!(std::fs::read_to_string(root.join(MARKER)).unwrap(), id());
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(leftovers, [CRATE_COPY_DIR], "no staging directory is left");
    }
}
