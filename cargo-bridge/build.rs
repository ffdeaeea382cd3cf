//! Embeds the sources of the runtime crates (`bridge-runtime`, `bridge-macro`,
//! `bridge-schema`) for `cargo bridge new`: bridge-runtime is not published, so the CLI
//! writes this copy next to the user's crates (see src/scaffold.rs). Their manifests
//! inherit from this workspace (`edition.workspace = true`, ...); the copies get those
//! values written out, so they build outside it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The runtime crates, relative to the workspace root.
const CRATES: &[&str] = &[
    "bridge-runtime",
    "bridge-runtime/macro",
    "bridge-runtime/schema",
];

fn main() {
    let manifest_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest_dir.parent().unwrap().to_path_buf();
    let workspace: toml::Table = read(&root.join("Cargo.toml")).parse().unwrap();
    println!(
        "cargo:rerun-if-changed={}",
        root.join("Cargo.toml").display()
    );

    let mut files: Vec<(String, String)> = Vec::new();
    for krate in CRATES {
        let dir = root.join(krate);
        println!("cargo:rerun-if-changed={}", dir.display());
        let manifest = standalone_manifest(&read(&dir.join("Cargo.toml")), &workspace, krate);
        files.push((format!("{krate}/Cargo.toml"), manifest));
        let mut sources = Vec::new();
        collect(&dir.join("src"), &mut sources);
        sources.sort();
        for file in sources {
            let rel = file.strip_prefix(&root).unwrap();
            let rel = rel.to_str().unwrap().replace('\\', "/");
            files.push((rel, read(&file)));
        }
    }

    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut out = String::from(
        "/// (path relative to the copy's root, contents)\npub const FILES: &[(&str, &str)] = &[\n",
    );
    for (path, text) in &files {
        for b in path.bytes().chain([0]).chain(text.bytes()).chain([0]) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        writeln!(out, "    ({path:?}, {text:?}),").unwrap();
    }
    out.push_str("];\n");
    writeln!(out, "/// FNV-1a of every path and text: names the copy's directory.\npub const HASH: &str = \"{:016x}\";", hash).unwrap();
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("runtime_sources.rs");
    std::fs::write(dest, out).unwrap();
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
    {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The crate's manifest with `workspace = true` values filled in from the workspace,
/// path dependencies relative to the crate, and no dev-dependencies or lints.
fn standalone_manifest(text: &str, workspace: &toml::Table, krate: &str) -> String {
    let mut manifest: toml::Table = text.parse().unwrap();
    let ws = workspace["workspace"].as_table().unwrap();
    let ws_package = ws.get("package").and_then(|p| p.as_table());
    let ws_deps = ws.get("dependencies").and_then(|d| d.as_table());
    if let Some(package) = manifest.get_mut("package").and_then(|p| p.as_table_mut()) {
        for (key, value) in package.iter_mut() {
            if inherits(value) {
                *value = ws_package
                    .and_then(|p| p.get(key))
                    .cloned()
                    .unwrap_or_else(|| {
                        panic!("{krate}: package.{key} inherits from the workspace, which lacks it")
                    });
            }
        }
    }
    manifest.remove("dev-dependencies");
    manifest.remove("lints");
    for table in ["dependencies", "build-dependencies"] {
        if let Some(deps) = manifest.get_mut(table).and_then(|d| d.as_table_mut()) {
            for (name, value) in deps.iter_mut() {
                if !inherits(value) {
                    continue;
                }
                let mut resolved = ws_deps.and_then(|d| d.get(name)).cloned().unwrap_or_else(
                    || {
                        panic!(
                            "{krate}: dependency {name} inherits from the workspace, which lacks it"
                        )
                    },
                );
                if let toml::Value::String(version) = &resolved {
                    let mut t = toml::Table::new();
                    t.insert("version".into(), toml::Value::String(version.clone()));
                    resolved = toml::Value::Table(t);
                }
                let t = resolved.as_table_mut().unwrap();
                if let Some(toml::Value::String(path)) = t.get("path") {
                    let relative = relative_path(krate, path);
                    t.insert("path".into(), toml::Value::String(relative));
                }
                // Keys beside `workspace = true` (features, optional) add to the workspace's.
                for (k, v) in value.as_table().unwrap() {
                    if k != "workspace" {
                        t.insert(k.clone(), v.clone());
                    }
                }
                *value = resolved;
            }
        }
    }
    format!(
        "# Written by cargo-bridge from its own copy of {krate}; not a workspace member.\n{}",
        toml::to_string(&manifest).unwrap()
    )
}

fn inherits(value: &toml::Value) -> bool {
    value
        .as_table()
        .and_then(|t| t.get("workspace"))
        .and_then(|w| w.as_bool())
        == Some(true)
}

/// `to` (relative to the workspace root) as seen from the crate directory `from`.
fn relative_path(from: &str, to: &str) -> String {
    let from: Vec<&str> = from.split('/').collect();
    let to: Vec<&str> = to.split('/').collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<&str> = vec![".."; from.len() - common];
    parts.extend(&to[common..]);
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}
