//! The alongside package (issue 20's performance targets): `fixtures/bench` copied into a
//! crate that also links wasm-bindgen (one `#[wasm_bindgen]` function, and bridge-runtime's
//! `wasm-bindgen` feature with a conversion loop), built with `cargo bridge build --release`
//! like the bench package, so the same scenarios can run on both in one bench run. Also its
//! bytes: the joined package, and what wasm-bindgen's CLI alone makes of the same module.
//!
//! The crate lives under `target/bench-alongside/` and builds into the fixtures' target
//! directory (`fixtures::fixtures_target_dir`: wasm-bindgen and the runtime's
//! `wasm-bindgen` build are shared with `fixtures/wasm-bindgen`); it is rewritten only
//! where it changed, so later runs rebuild only what did.

use crate::model::AlongsideSize;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use xshell::{Shell, cmd};
use xtask::fixtures::CargoBridge;

/// The package (and lib) name of the generated crate.
const NAME: &str = "bench-alongside";
const LIB: &str = "bench_alongside";

/// What the copy adds to `fixtures/bench/src/lib.rs`: wasm-bindgen code beside the bridge
/// items, the loop the `jsValueConversion` scenario calls, and the two exports the
/// `mixedSignature` scenarios call.
const ADDED: &str = r#"

// ---- added by `cargo xtask bench` (xtask/bench/src/alongside.rs): wasm-bindgen code
// beside the bridge items, so the package is a joined one ----

/// A `#[wasm_bindgen]` export: the package's wasm-bindgen half.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = "wbgFloor")]
pub fn wbg_floor(x: i32) -> i32 {
    x.wrapping_add(1)
}

/// `jsValueConversion`: `n` round trips of `value` through wasm-bindgen's table (one
/// conversion each way per round trip) in one call.
#[bridge]
pub fn convert_round_trips(value: bridge_runtime::JsValue, n: u32) -> bridge_runtime::JsValue {
    let mut value = value;
    for _ in 0..n {
        let theirs: wasm_bindgen::JsValue = value.into();
        value = theirs.into();
    }
    value
}

/// `mixedSignature*` (issue 45): a `#[wasm_bindgen]` struct and enum taken by a `#[bridge]`
/// export and by the same `#[wasm_bindgen]` export.
#[wasm_bindgen::prelude::wasm_bindgen]
pub struct WbgPoint {
    x: i32,
    y: i32,
}

#[wasm_bindgen::prelude::wasm_bindgen]
impl WbgPoint {
    #[wasm_bindgen(constructor)]
    pub fn new(x: i32, y: i32) -> WbgPoint {
        WbgPoint { x, y }
    }
}

#[wasm_bindgen::prelude::wasm_bindgen]
#[derive(Clone, Copy)]
pub enum WbgAxis {
    X = 0,
    Y = 1,
}

fn along(p: &WbgPoint, axis: WbgAxis) -> i32 {
    match axis {
        WbgAxis::X => p.x,
        WbgAxis::Y => p.y,
    }
}

#[bridge(js_name = "mixedBridge")]
pub fn mixed_bridge(p: WbgPoint, axis: WbgAxis) -> i32 {
    along(&p, axis)
}

#[wasm_bindgen::prelude::wasm_bindgen(js_name = "mixedWasmBindgen")]
pub fn mixed_wasm_bindgen(p: WbgPoint, axis: WbgAxis) -> i32 {
    along(&p, axis)
}
"#;

/// Writes `path` only when its text differs (an unchanged crate is not rebuilt).
fn write_if_changed(path: &Path, text: &str) -> Result<()> {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// Copies the files under `from` to `to` (rewriting only what changed).
fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
        let path = entry?.path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &target)?;
        } else {
            write_if_changed(&target, &std::fs::read_to_string(&path)?)?;
        }
    }
    Ok(())
}

/// The generated crate's manifest: the bench fixture's settings (release profile, crate
/// type), bridge-runtime with its `wasm-bindgen` feature, wasm-bindgen at `version`.
fn manifest(runtime: &Path, version: &str) -> String {
    format!(
        "[package]\nname = \"{NAME}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
         [lib]\ncrate-type = [\"cdylib\"]\n\n[dependencies]\n\
         bridge-runtime = {{ path = {:?}, features = [\"wasm-bindgen\"] }}\n\
         wasm-bindgen = \"={version}\"\n\n\
         [profile.release]\nopt-level = 3\nlto = true\ncodegen-units = 1\n\n[workspace]\n",
        runtime.display().to_string()
    )
}

/// Generates and builds the alongside package (`--target nodejs`, as the bench package);
/// returns the path of its JS module.
pub fn build(sh: &Shell, root: &Path, cargo_bridge: &CargoBridge) -> Result<PathBuf> {
    let base = root.join("target/bench-alongside");
    let dir = base.join(NAME);
    let src = root.join("fixtures/bench/src");
    std::fs::create_dir_all(dir.join("src"))?;
    for entry in std::fs::read_dir(&src).with_context(|| format!("reading {}", src.display()))? {
        let file = entry?.path();
        if file.extension().is_some_and(|e| e == "rs") {
            let mut text = std::fs::read_to_string(&file)?;
            if file.file_name().is_some_and(|n| n == "lib.rs") {
                text.push_str(ADDED);
            }
            write_if_changed(&dir.join("src").join(file.file_name().unwrap()), &text)?;
        }
    }
    // The JS modules its `#[bridge(module = ...)]` imports name, relative to the manifest.
    copy_tree(&root.join("fixtures/bench/js"), &dir.join("js"))?;
    let version = crate::peer::pinned_version(root)?;
    write_if_changed(
        &dir.join("Cargo.toml"),
        &manifest(&root.join("bridge-runtime"), &version),
    )?;
    // wasm-bindgen's fixture's lock: the same versions as the tested ones, and no registry
    // resolution on the first build.
    let lock = dir.join("Cargo.lock");
    if !lock.exists() {
        std::fs::copy(root.join("fixtures/wasm-bindgen/Cargo.lock"), &lock)?;
    }
    let manifest = dir.join("Cargo.toml");
    let out = dir.join("pkg");
    eprintln!("bench: building the alongside package (fixtures/bench + wasm-bindgen {version})");
    cargo_bridge
        .cmd(sh)
        .args(["build", "--quiet", "--release", "--manifest-path"])
        .arg(&manifest)
        .arg("--out-dir")
        .arg(&out)
        .env("CARGO_TARGET_DIR", xtask::fixtures::fixtures_target_dir())
        .env("CARGO_BRIDGE_HOME", xtask::fixtures::bridge_home())
        // Its bytes and calls are measured, not its build: wasm-opt's earlier output for
        // the same module is the same bytes (`xtask/src/wasm_opt_cache.rs`).
        .envs(
            xtask::fixtures::wasm_opt_cache(sh)
                .iter()
                .map(|(k, v)| (k, v)),
        )
        .run()
        .context("building the alongside package")?;
    Ok(out.join(format!("{LIB}.js")))
}

/// The bytes of the alongside package built by [`build`], and of wasm-bindgen's own output
/// for the same module (its CLI, `--target bundler`, on cargo's module, then `wasm-opt -O`
/// as wasm-pack would; `cargo bridge --release` runs it too).
/// `bridge_glue` is the bridge-only package's glue, for the same bridge items.
pub fn size(sh: &Shell, root: &Path, bridge_glue: &Path) -> Result<AlongsideSize> {
    let base = root.join("target/bench-alongside");
    let pkg = base.join(NAME).join("pkg");
    let joined = crate::size::gzip_tree(&pkg)?;
    let version = crate::peer::pinned_version(root)?;
    let cli = crate::peer::cli(sh, root, &version)?;
    let wasm = xtask::fixtures::fixtures_target_dir()
        .join(format!("wasm32-unknown-unknown/release/{LIB}.wasm"));
    let out = base.join("wasm-bindgen-only");
    let _ = std::fs::remove_dir_all(&out);
    cmd!(sh, "{cli} --target bundler --out-dir {out} {wasm}")
        .quiet()
        .run()
        .context("running wasm-bindgen alone on the alongside module")?;
    let module = out.join(format!("{LIB}_bg.wasm"));
    let optimized = crate::opt_cache::wasm_opt(sh, &["-O"], &module, &module)
        .and_then(|opt| Ok(opt.ignore_stderr().run()?))
        .is_ok();
    Ok(AlongsideSize {
        joined_gz: joined,
        wasm_bindgen_gz: crate::size::gzip_tree(&out)?,
        wasm_bindgen_opt: optimized,
        bridge_glue_gz: crate::size::gzip_len(bridge_glue)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_manifest_links_wasm_bindgen_and_the_runtime_feature() {
        let m = manifest(Path::new("/r/bridge-runtime"), "0.2.130");
        assert!(m.contains("wasm-bindgen = \"=0.2.130\""), "{m}");
        assert!(
            m.contains(
                "bridge-runtime = { path = \"/r/bridge-runtime\", features = [\"wasm-bindgen\"] }"
            ),
            "{m}"
        );
        assert!(m.contains("crate-type = [\"cdylib\"]"), "{m}");
    }

    #[test]
    fn gzip_tree_counts_package_files_below_the_directory_only() {
        let dir = std::env::temp_dir().join(format!("xtask-alongside-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("snippets/x")).unwrap();
        std::fs::write(dir.join("a.js"), "a".repeat(1000)).unwrap();
        std::fs::write(dir.join("snippets/x/b.js"), "b".repeat(1000)).unwrap();
        std::fs::write(dir.join("package.json"), "c".repeat(100_000)).unwrap();
        let both = crate::size::gzip_tree(&dir).unwrap();
        let one = crate::size::gzip_len(&dir.join("a.js")).unwrap();
        assert_eq!(both, 2 * one);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
