//! The size table's module side (issue 24): what each runtime feature keeps in a package's
//! `.wasm`, measured by building the package without it. A feature only some runtime
//! exports reach goes with those exports (`wasm-metadce` keeps every other export as a
//! root, then `wasm-opt -O` runs as for the shipped module); a feature the thunks reach
//! is built against a copy of `bridge-runtime` with one edit (the measurement's own copy
//! under `target/bench-size/`, never a package anyone ships). Bytes: the module gzip'd,
//! less the module without the feature gzip'd, both after `wasm-opt -O`.

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use xshell::{Shell, cmd};

/// How the bench builds a package without a feature.
pub enum Without {
    /// The runtime exports named by these prefixes, and what only they reach.
    Exports(&'static [&'static str]),
    /// The crate built against a runtime copy whose `file` (under `src/`) has `find`
    /// replaced by `replace`.
    Patch {
        file: &'static str,
        find: &'static str,
        replace: &'static str,
    },
}

/// The module's features: name, how to leave it out, why it stays.
pub const MODULE_FEATURES: [(&str, Without, &str); 4] = [
    (
        "panic messages",
        Without::Patch {
            file: "panic_hook.rs",
            find: "    std::panic::set_hook(Box::new(hook));\n",
            replace: "    let _ = hook;\n",
        },
        "a panic becomes an Error with Rust's message: std formats the message into a String \
         for any panic hook (core::fmt, String growth, realloc); wasm-bindgen without \
         console_error_panic_hook throws a bare `unreachable`",
    ),
    (
        "borrow-check messages",
        Without::Patch {
            file: "abi.rs",
            find: "    let state = match conflict_of(flag) {\n",
            // Always true, which LLVM sees and rustc does not lint.
            replace: "    if flag == flag {\n        \
                      return BridgeError::new(String::new());\n    }\n    \
                      let state = match conflict_of(flag) {\n",
        },
        "aliasing `&mut` or a borrowed object throws an Error naming the class, member and \
         parameter (the check itself stays)",
    ),
    (
        "fast pools in wasm",
        Without::Exports(&["__bridge_pool_"]),
        "a `rust`-mode class's pool entries are kept and drained in wasm (none without a \
         `rust`-mode class)",
    ),
    (
        "undoing borrows after a panic",
        Without::Exports(&["__bridge_unborrow"]),
        "a panic ends exactly the borrows its call still held",
    ),
];

/// What building the crate again takes: its source and `Cargo.toml` text with the runtime
/// dependency line, so a patched variant can point it at its runtime copy.
pub struct Rebuild<'a> {
    pub name: &'a str,
    pub source: &'a str,
    /// The crate's `[package.metadata.bridge]` lines.
    pub mode: &'a str,
    /// `size::write_crate` and `size::gzip_len` (passed in: this module is below `size`).
    pub write_crate: fn(&Path, &str, &str, &str, &str, bool) -> Result<PathBuf>,
    pub gzip_len: fn(&Path) -> Result<u64>,
}

/// gzip'd module bytes each of [`MODULE_FEATURES`] keeps in the package whose built
/// (not yet optimized) module is `wasm`; `None` where a feature was not measured for it
/// (`patches`: false skips the rebuilds).
pub fn feature_bytes(
    sh: &Shell,
    root: &Path,
    cargo_bridge: &xtask::fixtures::CargoBridge,
    wasm: &Path,
    rebuild: &Rebuild,
    patches: bool,
) -> Result<Vec<(&'static str, Option<u64>, &'static str)>> {
    let base = root.join("target/bench-size/without");
    std::fs::create_dir_all(&base)?;
    let exports = export_names(&std::fs::read(wasm)?)?;
    let whole = optimized_gz(sh, wasm, &exports, &[], &base.join(rebuild.name), rebuild)?;
    let mut out = Vec::new();
    for (name, without, why) in &MODULE_FEATURES {
        let bytes = match without {
            Without::Exports(prefixes) => {
                let tag = base.join(format!("{}-{}", rebuild.name, slug(name)));
                Some(
                    whole
                        .saturating_sub(optimized_gz(sh, wasm, &exports, prefixes, &tag, rebuild)?),
                )
            }
            Without::Patch {
                file,
                find,
                replace,
            } if patches => {
                let runtime = patched_runtime(root, &base, name, file, find, replace)?;
                let module = build_against(sh, cargo_bridge, &base, rebuild, name, &runtime)?;
                let names = export_names(&std::fs::read(&module)?)?;
                let tag = base.join(format!("{}-{}-opt", rebuild.name, slug(name)));
                Some(whole.saturating_sub(optimized_gz(sh, &module, &names, &[], &tag, rebuild)?))
            }
            Without::Patch { .. } => None,
        };
        out.push((*name, bytes, *why));
    }
    Ok(out)
}

fn slug(name: &str) -> String {
    name.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
}

/// `wasm` without the exports starting with one of `drop` (and what only they reach),
/// through `wasm-opt -O`, gzip'd. With none dropped, the shipped module's path too (so
/// both sides of a difference went through `wasm-metadce`).
fn optimized_gz(
    sh: &Shell,
    wasm: &Path,
    exports: &[String],
    drop: &[&str],
    tag: &Path,
    rebuild: &Rebuild,
) -> Result<u64> {
    let graph: Vec<serde_json::Value> = exports
        .iter()
        .filter(|e| !drop.iter().any(|p| e.starts_with(p)))
        .enumerate()
        .map(|(i, e)| serde_json::json!({ "name": format!("e{i}"), "export": e, "root": true }))
        .collect();
    let graph_file = tag.with_extension("graph.json");
    std::fs::write(&graph_file, serde_json::to_string(&graph)?)?;
    let kept = tag.with_extension("dce.wasm");
    let opt = tag.with_extension("opt.wasm");
    cmd!(sh, "wasm-metadce {wasm} -f {graph_file} -o {kept}")
        .quiet()
        .ignore_stdout()
        .run()
        .with_context(|| format!("wasm-metadce on {}", wasm.display()))?;
    crate::opt_cache::wasm_opt(sh, &["-O"], &kept, &opt)?.run()?;
    (rebuild.gzip_len)(&opt)
}

/// A copy of `bridge-runtime` (its `src/` and a manifest naming the real macro and
/// schema crates) with one edit, under `base`.
fn patched_runtime(
    root: &Path,
    base: &Path,
    feature: &str,
    file: &str,
    find: &str,
    replace: &str,
) -> Result<PathBuf> {
    let dir = base.join(format!("runtime-{}", slug(feature)));
    let src = root.join("bridge-runtime/src");
    copy_dir(&src, &dir.join("src"))?;
    let path = dir.join("src").join(file);
    let text = std::fs::read_to_string(&path)?;
    if !text.contains(find) {
        bail!(
            "bench size: bridge-runtime/src/{file} no longer contains the line the \
             \"{feature}\" measurement replaces; update MODULE_FEATURES in \
             xtask/bench/src/size_without.rs: {find:?}"
        );
    }
    write_if_changed(&path, &text.replacen(find, replace, 1))?;
    let abs = |p: &str| root.join(p).display().to_string();
    let manifest = format!(
        "[package]\nname = \"bridge-runtime\"\nedition = \"2024\"\nversion = \"{}\"\n\
         publish = false\n\n[dependencies]\nbridge-macro = {{ path = {:?} }}\n\
         bridge-schema = {{ path = {:?} }}\n\n[features]\nwasm-bindgen = []\n",
        workspace_version(root)?,
        abs("bridge-runtime/macro"),
        abs("bridge-runtime/schema"),
    );
    write_if_changed(&dir.join("Cargo.toml"), &manifest)?;
    Ok(dir)
}

fn workspace_version(root: &Path) -> Result<String> {
    let text = std::fs::read_to_string(root.join("Cargo.toml"))?;
    let package = text
        .split("[workspace.package]")
        .nth(1)
        .context("Cargo.toml has no [workspace.package]")?;
    package
        .lines()
        .find_map(|l| l.strip_prefix("version = "))
        .map(|v| v.trim_matches('"').to_string())
        .context("[workspace.package] has no version")
}

/// `cargo bridge build --release --target web` of the crate against `runtime`.
fn build_against(
    sh: &Shell,
    cargo_bridge: &xtask::fixtures::CargoBridge,
    base: &Path,
    rebuild: &Rebuild,
    feature: &str,
    runtime: &Path,
) -> Result<PathBuf> {
    let name = format!(
        "{}_without_{}",
        rebuild.name,
        slug(feature).replace('-', "_")
    );
    eprintln!("bench: size: building {name} (against a runtime without {feature})");
    let dir = base.join(&name);
    let deps = format!(
        "bridge-runtime = {{ path = {:?} }}",
        runtime.display().to_string()
    );
    let manifest = (rebuild.write_crate)(&dir, &name, &deps, rebuild.mode, rebuild.source, false)?;
    let out = dir.join("pkg");
    cargo_bridge
        .build_release_web(sh, &manifest, &out)
        .with_context(|| format!("building {name}"))?;
    Ok(out.join(format!("{name}_bg.wasm")))
}

fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            write_if_changed(&target, &std::fs::read_to_string(entry.path())?)?;
        }
    }
    Ok(())
}

/// Unchanged files keep their mtime, so cargo rebuilds only what an edit changed.
fn write_if_changed(path: &Path, text: &str) -> Result<()> {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// The export names of a wasm module, in order.
pub fn export_names(bytes: &[u8]) -> Result<Vec<String>> {
    if bytes.get(..4) != Some(b"\0asm") {
        bail!("not a wasm module");
    }
    let mut at = 8;
    let leb = |at: &mut usize| -> Result<usize> {
        let (mut value, mut shift) = (0usize, 0);
        loop {
            let b = *bytes.get(*at).context("truncated wasm module")?;
            *at += 1;
            value |= ((b & 0x7f) as usize) << shift;
            if b < 0x80 {
                return Ok(value);
            }
            shift += 7;
        }
    };
    while at < bytes.len() {
        let id = bytes[at];
        at += 1;
        let size = leb(&mut at)?;
        let end = at + size;
        if id == 7 {
            let mut names = Vec::new();
            for _ in 0..leb(&mut at)? {
                let len = leb(&mut at)?;
                let name = bytes.get(at..at + len).context("truncated export name")?;
                names.push(String::from_utf8_lossy(name).into_owned());
                at += len + 1;
                leb(&mut at)?;
            }
            return Ok(names);
        }
        at = end;
    }
    Ok(Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_names_are_read_in_order() {
        // A module of one type, one function and two exports of it ("a", "bc").
        let module = [
            0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, // header
            1, 4, 1, 0x60, 0, 0, // type section: () -> ()
            3, 2, 1, 0, // function section
            7, 9, 2, 1, b'a', 0, 0, 2, b'b', b'c', 0, 0, // exports
            10, 4, 1, 2, 0, 0x0b, // code
        ];
        assert_eq!(export_names(&module).unwrap(), ["a", "bc"]);
        assert!(export_names(b"nope").is_err());
    }

    #[test]
    fn every_patch_still_finds_its_line() {
        let src = xtask::fixtures::project_root().join("bridge-runtime/src");
        for (name, without, _) in &MODULE_FEATURES {
            if let Without::Patch { file, find, .. } = without {
                let text = std::fs::read_to_string(src.join(file)).unwrap();
                assert_eq!(text.matches(find).count(), 1, "{name}: {find:?} in {file}");
            }
        }
    }
}
