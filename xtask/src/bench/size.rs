//! The size table (issue 12): gzip'd bytes of generated packages. Generates crates with
//! 1, 10 and 100 copies of the bench class (constructor, `make`, `roundtrip`, `consume`,
//! a getter; identity mode `rust`), builds each with `cargo bridge build --release`, and
//! the 1-class crate as a wasm-bindgen user writes it (with the pinned `wasm-bindgen` CLI,
//! when the peer runs). Both for the web (`--target web`), as shipped to browsers. Crates live under `target/bench-size/` and build into the
//! fixtures' target directory (same release profile: the runtime compiles once), so later
//! runs only rebuild what changed. The rows are without wasm-opt on
//! either side; the 1-class packages are measured once more after `wasm-opt -O`.

use super::model::{Optimized, PackageSize, SizeReport};
use crate::fixtures::CargoBridge;
use anyhow::{Context, Result};
use flate2::Compression;
use flate2::write::GzEncoder;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use xshell::{Shell, cmd};

/// Class counts of the glue rows.
pub const CLASS_COUNTS: [usize; 3] = [1, 10, 100];

/// The bridge crate's source: `n` copies of the bench class.
fn bridge_source(n: usize) -> String {
    let mut out = String::from("use bridge_runtime::{Handle, bridge};\n");
    for i in 0..n {
        out += &format!(
            r#"
#[bridge]
pub struct Item{i} {{
    value: i32,
}}

#[bridge]
impl Item{i} {{
    #[bridge(constructor)]
    pub fn new(value: i32) -> Item{i} {{
        Item{i} {{ value }}
    }}
    pub fn make(value: i32) -> Item{i} {{
        Item{i} {{ value }}
    }}
    pub fn roundtrip(obj: Handle<Item{i}>) -> Handle<Item{i}> {{
        obj
    }}
    pub fn consume(obj: &Item{i}) -> i32 {{
        obj.value
    }}
    #[bridge(getter)]
    pub fn value(&self) -> i32 {{
        self.value
    }}
}}
"#
        );
    }
    out
}

/// The 1-class crate as a wasm-bindgen user writes it.
const PEER_SOURCE: &str = r#"use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct Item0 {
    value: i32,
}

#[wasm_bindgen]
impl Item0 {
    #[wasm_bindgen(constructor)]
    pub fn new(value: i32) -> Item0 {
        Item0 { value }
    }
    pub fn make(value: i32) -> Item0 {
        Item0 { value }
    }
    pub fn roundtrip(obj: Item0) -> Item0 {
        obj
    }
    pub fn consume(obj: &Item0) -> i32 {
        obj.value
    }
    #[wasm_bindgen(getter)]
    pub fn value(&self) -> i32 {
        self.value
    }
}
"#;

const PROFILE: &str = "[profile.release]\nopt-level = 3\nlto = true\ncodegen-units = 1\n";

fn write_crate(dir: &Path, name: &str, deps: &str, source: &str) -> Result<PathBuf> {
    std::fs::create_dir_all(dir.join("src"))?;
    let manifest = dir.join("Cargo.toml");
    let toml = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
         [lib]\ncrate-type = [\"cdylib\"]\n\n[dependencies]\n{deps}\n\n\
         [package.metadata.bridge]\nidentity-mode = \"rust\"\nwasm-opt = false\n\n{PROFILE}\n[workspace]\n"
    );
    // Rewritten only when different: an unchanged crate is not rebuilt.
    for (path, text) in [
        (&manifest, &toml),
        (&dir.join("src/lib.rs"), &source.to_string()),
    ] {
        if std::fs::read_to_string(path).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
        }
    }
    Ok(manifest)
}

/// gzip (level 9, as servers precompress) size of a file.
pub fn gzip_len(path: &Path) -> Result<u64> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    gz.write_all(&bytes)?;
    Ok(gz.finish()?.len() as u64)
}

fn package(js: &Path, wasm: &Path) -> Result<PackageSize> {
    Ok(PackageSize {
        js: std::fs::metadata(js)?.len(),
        js_gz: gzip_len(js)?,
        wasm: std::fs::metadata(wasm)?.len(),
        wasm_gz: gzip_len(wasm)?,
    })
}

/// Build and measure with `cargo_bridge`, the fresh `cargo-bridge`; `counts` are the class
/// counts to build; `peer`: also the wasm-bindgen 1-class package.
pub fn measure(
    sh: &Shell,
    root: &Path,
    cargo_bridge: &CargoBridge,
    counts: &[usize],
    peer: bool,
) -> Result<SizeReport> {
    let base = root.join("target/bench-size");
    // Shared with the fixtures (same release profile): the runtime compiles once.
    let target = crate::fixtures::fixtures_target_dir();
    let runtime = root.join("bridge-runtime");
    let deps = format!(
        "bridge-runtime = {{ path = {:?} }}",
        runtime.display().to_string()
    );
    let mut bridge = Vec::new();
    for &n in counts {
        let name = format!("size{n}");
        eprintln!("bench: size: building {n} class(es) with `cargo bridge build --release`");
        let dir = base.join(&name);
        let manifest = write_crate(&dir, &name, &deps, &bridge_source(n))?;
        let out = dir.join("pkg");
        cargo_bridge
            .cmd(sh)
            .args([
                "build",
                "--quiet",
                "--release",
                "--target",
                "web",
                "--manifest-path",
            ])
            .arg(&manifest)
            .arg("--out-dir")
            .arg(&out)
            .env("CARGO_TARGET_DIR", &target)
            .run()
            .with_context(|| format!("building the {n}-class size crate"))?;
        bridge.push((
            n,
            package(
                &out.join(format!("{name}.js")),
                &out.join(format!("{name}_bg.wasm")),
            )?,
        ));
    }
    let peer = if peer {
        eprintln!("bench: size: building the 1-class wasm-bindgen package");
        let dir = base.join("peer1");
        let version = super::peer::pinned_version(root)?;
        let cli = super::peer::cli(sh, root, &version)?;
        let manifest = write_crate(
            &dir,
            "peer1",
            &format!("wasm-bindgen = \"={version}\""),
            PEER_SOURCE,
        )?;
        let peer_target = root.join("fixtures/bench/peer/target");
        cmd!(sh, "cargo build --quiet --release --target wasm32-unknown-unknown --manifest-path {manifest}")
            .env("CARGO_TARGET_DIR", &peer_target)
            .run()
            .context("building the wasm-bindgen size crate")?;
        let wasm = peer_target.join("wasm32-unknown-unknown/release/peer1.wasm");
        let out = dir.join("pkg");
        cmd!(sh, "{cli} --target web --out-dir {out} {wasm}")
            .run()
            .context("running wasm-bindgen on the size crate")?;
        Some(package(&out.join("peer1.js"), &out.join("peer1_bg.wasm"))?)
    } else {
        None
    };
    let optimized = optimized(sh, &base, &bridge, peer.is_some())?;
    Ok(SizeReport {
        bridge,
        peer,
        optimized,
    })
}

/// The 1-class packages after binaryen's `wasm-opt -O` (what `cargo bridge build
/// --release` runs by default, after its own transforms; wasm-pack runs it for
/// wasm-bindgen): the rows above are built with `wasm-opt = false`, so this runs the same
/// command on their modules. `None` when wasm-opt is not installed.
fn optimized(
    sh: &Shell,
    base: &Path,
    bridge: &[(usize, PackageSize)],
    peer: bool,
) -> Result<Option<Optimized>> {
    let Ok(version) = cmd!(sh, "wasm-opt --version")
        .quiet()
        .ignore_stderr()
        .read()
    else {
        eprintln!("bench: size: wasm-opt is not installed, no after-wasm-opt rows");
        return Ok(None);
    };
    let mut packages = Vec::new();
    let mut candidates = vec![("cargo-bridge", base.join("size1/pkg"), "size1")];
    if peer {
        candidates.push(("wasm-bindgen", base.join("peer1/pkg"), "peer1"));
    }
    for (name, dir, stem) in candidates {
        if name == "cargo-bridge" && !bridge.iter().any(|(n, _)| *n == 1) {
            continue;
        }
        let wasm = dir.join(format!("{stem}_bg.wasm"));
        let opt = dir.join(format!("{stem}_bg.opt.wasm"));
        cmd!(sh, "wasm-opt -O {wasm} -o {opt}")
            .quiet()
            .run()
            .with_context(|| format!("wasm-opt -O on {}", wasm.display()))?;
        let before = package(&dir.join(format!("{stem}.js")), &wasm)?;
        let after = package(&dir.join(format!("{stem}.js")), &opt)?;
        packages.push((name, before, after));
    }
    Ok(Some(Optimized {
        version: version.trim().to_string(),
        packages,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generated_crate_has_n_distinct_classes() {
        let src = bridge_source(3);
        for i in 0..3 {
            assert_eq!(src.matches(&format!("pub struct Item{i} ")).count(), 1);
        }
        assert!(!src.contains("Item3"));
    }

    #[test]
    fn gzip_shrinks_repetition_and_is_measured_on_the_file() {
        let dir = std::env::temp_dir().join(format!("xtask-gzip-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.txt");
        std::fs::write(&file, "abc".repeat(10_000)).unwrap();
        let gz = gzip_len(&file).unwrap();
        assert!(gz > 18 && gz < 200, "{gz}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
