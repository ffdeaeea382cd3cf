//! `cargo metadata`'s answer kept between builds: on a rebuild after an edit to a source
//! file, the resolve is the same, and running cargo for it cost about 30 ms of CPU per
//! build, a fifth of a small crate's whole rebuild (issue 43's touch-build cost).
//!
//! An entry is used only when everything cargo read to answer is as it was: the command
//! (manifest, features, working directory, cargo-bridge's version) and the environment
//! cargo reads (`CARGO*`, `RUSTUP_*`, `RUSTC*`, `PATH`) are its key; then the contents of
//! `Cargo.lock` and every local package's manifest (workspace members and path
//! dependencies), the cargo configuration and toolchain files of the working directory's
//! and the workspace root's ancestors; whether the files cargo looks for beside a manifest
//! exist (`build.rs`, `src/lib.rs`, `src/main.rs`, a README); and the modification times
//! of the folders whose listing cargo reads (`src/bin`, `examples`, `tests`, `benches`,
//! the folders of glob `members`). Not a package's own folder: the build writes `pkg/`
//! into it. Anything else differing (an entry unreadable, written by
//! another version) means running cargo again. Entries live in the bridge home
//! (`cache/metadata/`, one file per key, written whole by rename); a failure to write one
//! is not an error.

use anyhow::Result;
use cargo_metadata::{Metadata, MetadataCommand};
use serde::{Deserialize, Serialize};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

/// Bumped when what an entry records changes.
const FORMAT: u32 = 1;
/// Entries kept; the oldest go first.
const KEEP: usize = 64;

#[derive(Serialize, Deserialize)]
struct Entry {
    key: String,
    /// (path, how it is seen, what it was) for every input: see [`observe`].
    inputs: Vec<(PathBuf, Seen, String)>,
    metadata: Metadata,
}

/// How an input is compared.
#[derive(Clone, Copy, Serialize, Deserialize, PartialEq, Debug)]
enum Seen {
    /// A file's length and contents.
    Contents,
    /// Whether the path exists.
    Exists,
    /// A folder's modification time (its listing).
    Listing,
}

/// `cmd`'s answer (`manifest_path`, `options`: what `cmd` was given), from the cache when
/// nothing it depends on changed.
pub fn exec(
    cmd: &MetadataCommand,
    manifest_path: Option<&Path>,
    options: &[String],
) -> Result<Metadata> {
    let key = key(manifest_path, options);
    let file = crate::scaffold::bridge_home().ok().map(|home| {
        home.join("cache/metadata")
            .join(format!("{:016x}.json", hash(&key)))
    });
    if let Some(metadata) = file.as_deref().and_then(|f| cached(f, &key)) {
        return Ok(metadata);
    }
    let metadata = cmd.exec()?;
    if let Some(file) = file {
        store(&file, key, &metadata);
    }
    Ok(metadata)
}

fn key(manifest_path: Option<&Path>, options: &[String]) -> String {
    let mut env: Vec<(String, String)> = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.to_string_lossy().into_owned())))
        .filter(|(k, _)| cargo_reads(k))
        .collect();
    env.sort();
    serde_json::json!({
        "format": FORMAT,
        "cargo-bridge": env!("CARGO_PKG_VERSION"),
        "cwd": std::env::current_dir().ok(),
        "manifest": manifest_path.map(|p| std::path::absolute(p).unwrap_or(p.to_path_buf())),
        "options": options,
        "env": env,
    })
    .to_string()
}

/// The environment variables that can change what `cargo metadata` answers: cargo's own
/// and its configuration's (`CARGO_*`, not cargo-bridge's `CARGO_BRIDGE_*` or a
/// jobserver's `CARGO_MAKEFLAGS`), rustup's, the compiler, `PATH` (which cargo runs).
fn cargo_reads(name: &str) -> bool {
    (name == "CARGO" || name.starts_with("CARGO_"))
        && !name.starts_with("CARGO_BRIDGE_")
        && name != "CARGO_MAKEFLAGS"
        || name.starts_with("RUSTUP_")
        || name.starts_with("RUSTC")
        || name == "PATH"
}

fn hash(text: impl Hash) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

fn cached(file: &Path, key: &str) -> Option<Metadata> {
    let text = std::fs::read(file).ok()?;
    let entry: Entry = serde_json::from_slice(&text).ok()?;
    let fresh = entry.key == key
        && entry
            .inputs
            .iter()
            .all(|(path, seen, was)| observe(path, *seen) == *was);
    fresh.then_some(entry.metadata)
}

fn store(file: &Path, key: String, metadata: &Metadata) {
    let inputs = inputs(metadata)
        .into_iter()
        .map(|(path, seen)| {
            let state = observe(&path, seen);
            (path, seen, state)
        })
        .collect();
    let entry = Entry {
        key,
        inputs,
        metadata: metadata.clone(),
    };
    let Some(dir) = file.parent() else { return };
    let Ok(text) = serde_json::to_vec(&entry) else {
        return;
    };
    let partial = file.with_extension(format!("{}.partial", std::process::id()));
    let written = std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&partial, text))
        .and_then(|()| std::fs::rename(&partial, file));
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
        return;
    }
    evict(dir);
}

/// Keep the [`KEEP`] entries used last (a read does not touch them: written last).
fn evict(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(|e| {
            let e = e.ok()?;
            Some((e.metadata().ok()?.modified().ok()?, e.path()))
        })
        .collect();
    if files.len() <= KEEP {
        return;
    }
    files.sort();
    for (_, path) in &files[..files.len() - KEEP] {
        let _ = std::fs::remove_file(path);
    }
}

/// What an input is now (as `seen`), or that it is absent.
fn observe(path: &Path, seen: Seen) -> String {
    let Ok(meta) = std::fs::metadata(path) else {
        return "absent".into();
    };
    match seen {
        Seen::Exists => "present".into(),
        Seen::Listing => {
            let modified = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            format!("listed {modified}")
        }
        Seen::Contents => match std::fs::read(path) {
            Ok(bytes) => format!("file {} {:016x}", bytes.len(), hash(&bytes)),
            Err(_) => "unreadable".into(),
        },
    }
}

/// Every input `metadata`'s answer depends on (see the module's comment).
fn inputs(metadata: &Metadata) -> Vec<(PathBuf, Seen)> {
    let root = metadata.workspace_root.as_std_path();
    let mut inputs = vec![
        (root.join("Cargo.toml"), Seen::Contents),
        (root.join("Cargo.lock"), Seen::Contents),
    ];
    for package in metadata.packages.iter().filter(|p| p.source.is_none()) {
        let manifest = package.manifest_path.as_std_path();
        inputs.push((manifest.to_path_buf(), Seen::Contents));
        let Some(dir) = manifest.parent() else {
            continue;
        };
        for file in [
            "build.rs",
            "src/lib.rs",
            "src/main.rs",
            "README.md",
            "README.txt",
            "README",
        ] {
            inputs.push((dir.join(file), Seen::Exists));
        }
        for folder in ["src/bin", "examples", "tests", "benches"] {
            inputs.push((dir.join(folder), Seen::Listing));
        }
    }
    inputs.extend(
        glob_member_dirs(root)
            .into_iter()
            .map(|d| (d, Seen::Listing)),
    );
    let cwd = std::env::current_dir().ok();
    let mut dirs: Vec<&Path> = root.ancestors().collect();
    if let Some(cwd) = &cwd {
        dirs.extend(cwd.ancestors());
    }
    for dir in dirs {
        for file in [
            ".cargo/config.toml",
            ".cargo/config",
            "rust-toolchain.toml",
            "rust-toolchain",
        ] {
            inputs.push((dir.join(file), Seen::Contents));
        }
    }
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    if let Some(home) = cargo_home {
        inputs.push((home.join("config.toml"), Seen::Contents));
        inputs.push((home.join("config"), Seen::Contents));
    }
    inputs.sort_by(|a, b| a.0.cmp(&b.0));
    inputs.dedup_by(|a, b| a.0 == b.0);
    inputs
}

/// The folders a glob in the root manifest's `workspace.members` or `exclude` lists (the
/// part before its first wildcard): a member added there changes their listing.
fn glob_member_dirs(root: &Path) -> Vec<PathBuf> {
    let Ok(text) = std::fs::read_to_string(root.join("Cargo.toml")) else {
        return Vec::new();
    };
    let Ok(manifest) = text.parse::<toml::Table>() else {
        return Vec::new();
    };
    let Some(workspace) = manifest.get("workspace") else {
        return Vec::new();
    };
    ["members", "exclude", "default-members"]
        .iter()
        .filter_map(|key| workspace.get(key)?.as_array())
        .flatten()
        .filter_map(|pattern| pattern.as_str())
        .filter_map(|pattern| {
            let wild = pattern.find(['*', '?', '['])?;
            let literal = &pattern[..wild];
            let dir = match literal.rfind('/') {
                Some(slash) => &literal[..slash],
                None => "",
            };
            Some(root.join(dir))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cargos_variables_are_in_the_key_and_ours_are_not() {
        for read in [
            "CARGO",
            "CARGO_TARGET_DIR",
            "RUSTUP_TOOLCHAIN",
            "RUSTC",
            "PATH",
        ] {
            assert!(cargo_reads(read), "{read}");
        }
        for ignored in ["CARGO_BRIDGE_TIMINGS", "CARGO_MAKEFLAGS", "HOME", "CARGOX"] {
            assert!(!cargo_reads(ignored), "{ignored}");
        }
    }

    #[test]
    fn an_input_is_seen_to_change() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("Cargo.toml");
        assert_eq!(observe(&file, Seen::Contents), "absent");
        assert_eq!(observe(&file, Seen::Exists), "absent");
        std::fs::write(&file, "[package]").unwrap();
        let before = observe(&file, Seen::Contents);
        std::fs::write(&file, "[packagE]").unwrap();
        assert_ne!(
            observe(&file, Seen::Contents),
            before,
            "same length, other contents"
        );
        assert_eq!(observe(&file, Seen::Exists), "present");
        let listing = observe(dir.path(), Seen::Listing);
        assert!(listing.starts_with("listed "), "{listing}");
    }

    #[test]
    fn glob_members_name_the_folder_before_the_wildcard() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("Cargo.toml"),
            "[workspace]\nmembers = [\"crates/*\", \"one\", \"x*\"]\nexclude = [\"crates/old-?\"]\n",
        )
        .unwrap();
        let root = dir.path();
        assert_eq!(
            glob_member_dirs(root),
            [root.join("crates"), root.join(""), root.join("crates")]
        );
    }
}
