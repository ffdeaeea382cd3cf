//! Binaryen's `wasm-opt` on the module (the profile's flags: `--release` and
//! `--profiling` by default), after the walrus transforms (so it optimizes the inlined
//! identity hooks too, and the transforms see rustc's output, whose shape they expect).
//! Which binaryen: `binaryen.rs`. wasm-opt is told the module's WebAssembly features: it
//! reads rustc's `target_features` section itself, and a module without one (built with
//! `strip = true`) gets rustc's default features by flag, so wasm-opt neither rejects
//! its bulk-memory or sign-ext instructions nor adds instructions the target lacks, unless
//! the crate's flags name features of their own (as wasm-pack, which adds none).

use crate::progress::Step;
use crate::settings::packaging::WasmOpt;
use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::Command;

const PROGRAM: &str = "wasm-opt";

/// The features rustc enables by default for `wasm32-unknown-unknown` (1.87 and later),
/// as binaryen's flags: what a stripped module may use.
const RUSTC_DEFAULT_FEATURES: [&str; 7] = [
    "--enable-bulk-memory",
    "--enable-bulk-memory-opt",
    "--enable-sign-ext",
    "--enable-nontrapping-float-to-int",
    "--enable-reference-types",
    "--enable-multivalue",
    "--enable-mutable-globals",
];

/// Did rustc's `target_features` section not reach `wasm` (the module cargo built)? Then
/// it was stripped (`strip = true`), and wasm-opt is told rustc's default features. The
/// module wasm-opt gets cannot say: wasm-bindgen's CLI writes a section of its own,
/// naming only the features it uses itself.
pub fn features_stripped(cargo_wasm: &[u8]) -> bool {
    !has_custom_section(cargo_wasm, "target_features")
}

/// wasm-opt's flags: the profile's, and for a module whose features were stripped,
/// rustc's default features, unless the flags name features themselves (wasm-pack's
/// `wasm-opt = ["-Oz", "--enable-bulk-memory", …]`): then the crate's list is the whole
/// list, as wasm-pack passes it, and the package is byte for byte what wasm-pack's
/// pipeline makes (wasm-opt writes the features it was told into the module).
fn arguments(flags: &[String], stripped: bool) -> Vec<String> {
    let mut args = flags.to_vec();
    let names_features = flags.iter().any(|flag| {
        flag.starts_with("--enable-")
            || flag.starts_with("--disable-")
            || ["--all-features", "-all", "--mvp-features", "-mvp"].contains(&flag.as_str())
    });
    if stripped && !names_features {
        args.extend(RUSTC_DEFAULT_FEATURES.iter().map(|f| f.to_string()));
    }
    args
}

/// The optimized module, or `wasm` unchanged when wasm-opt is off. `stripped`: see
/// [`features_stripped`].
/// `scratch` is the directory (in the target directory) where each run makes a directory
/// of its own for the two temporary files.
pub fn run(
    wasm: Vec<u8>,
    settings: &WasmOpt,
    scratch: &Path,
    lib_name: &str,
    stripped: bool,
    quiet: bool,
) -> Result<Vec<u8>> {
    let WasmOpt::Flags(flags) = settings else {
        return Ok(wasm);
    };
    let tool = crate::package::binaryen::find(quiet)?;
    let program = &tool.program;
    let step = Step::start("Optimizing", &format!("{lib_name} with {PROGRAM}"), quiet);
    // A directory of this run's own: two builds of one package at once (two test suites)
    // must not overwrite the input while the other's wasm-opt reads it.
    let run_dir = crate::scratch::run_dir(scratch, lib_name)?;
    let input = run_dir.path().join(format!("{lib_name}.pre-opt.wasm"));
    let output = run_dir.path().join(format!("{lib_name}.opt.wasm"));
    std::fs::write(&input, &wasm).with_context(|| format!("writing {}", input.display()))?;
    let args = arguments(flags, stripped);
    let out = Command::new(program)
        .args(&args)
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output()
        .with_context(|| format!("running {}", program.display()))?;
    if !out.status.success() {
        // Kept, so the failing input can be handed to wasm-opt again.
        let kept = run_dir.keep();
        bail!(
            "`{PROGRAM} {}` (binaryen {}, {}) failed on {}:\n{}\nif it names a WebAssembly \
             feature, this binaryen is too old for the module: use binaryen {} or newer (set \
             {} to its wasm-opt, or take the older one off PATH and cargo bridge installs \
             npm's binaryen {}); else fix the flags (`wasm-opt` in [package.metadata.bridge] \
             or [package.metadata.wasm-pack.profile.<profile>]), or set `wasm-opt = false`",
            args.join(" "),
            tool.version,
            program.display(),
            kept.join(format!("{lib_name}.pre-opt.wasm")).display(),
            String::from_utf8_lossy(&out.stderr).trim(),
            crate::package::binaryen::MIN_VERSION,
            crate::package::binaryen::ENV_OVERRIDE,
            crate::package::binaryen::PINNED,
        );
    }
    let optimized =
        std::fs::read(&output).with_context(|| format!("reading {}", output.display()))?;
    let optimized = crate::package::table_exports::repair(&wasm, optimized)?;
    step.done(
        "Optimized",
        &format!("{lib_name}: {} → {} bytes", wasm.len(), optimized.len()),
    );
    Ok(optimized)
}

/// Does the module at `path` have #[bridge] items (the bridge export section)?
pub fn has_bridge_exports(path: &Path) -> Result<bool> {
    let wasm = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Ok(has_custom_section(&wasm, bridge_schema::SECTION_NAME))
}

/// Does the module have a custom section named `name`? (Sections are read by their
/// framing alone; a malformed module answers no, and wasm-opt then reports it.)
fn has_custom_section(wasm: &[u8], name: &str) -> bool {
    fn leb(bytes: &[u8], at: &mut usize) -> Option<usize> {
        let mut value = 0usize;
        for shift in (0..35).step_by(7) {
            let byte = *bytes.get(*at)?;
            *at += 1;
            value |= ((byte & 0x7f) as usize) << shift;
            if byte & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }
    let mut at = 8;
    while at < wasm.len() {
        let id = wasm[at];
        at += 1;
        let Some(size) = leb(wasm, &mut at) else {
            return false;
        };
        let end = at.saturating_add(size);
        if id == 0 {
            let mut name_at = at;
            if let Some(len) = leb(wasm, &mut name_at)
                && wasm.get(name_at..name_at + len) == Some(name.as_bytes())
            {
                return true;
            }
        }
        at = end;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stripped_module_gets_rustcs_features_unless_the_flags_name_their_own() {
        let flags = |list: &[&str]| list.iter().map(|f| f.to_string()).collect::<Vec<_>>();
        assert_eq!(arguments(&flags(&["-O"]), false), ["-O"]);
        let with_defaults = arguments(&flags(&["-O"]), true);
        assert_eq!(with_defaults[0], "-O");
        assert_eq!(&with_defaults[1..], RUSTC_DEFAULT_FEATURES);
        for own in [
            &["-Oz", "--enable-bulk-memory", "--enable-sign-ext"][..],
            &["-O", "--disable-reference-types"],
            &["-O", "--all-features"],
            &["-O", "-mvp"],
        ] {
            assert_eq!(arguments(&flags(own), true), flags(own), "{own:?}");
        }
    }

    #[test]
    fn finds_custom_sections_by_name() {
        let header = b"\0asm\x01\0\0\0".to_vec();
        let custom = |name: &str| {
            let mut section = vec![name.len() as u8];
            section.extend(name.as_bytes());
            section.extend([1, 2, 3]);
            let mut out = vec![0, section.len() as u8];
            out.extend(section);
            out
        };
        // A type section, then the custom one.
        let mut wasm = header.clone();
        wasm.extend([1, 1, 0]);
        wasm.extend(custom("target_features"));
        assert!(has_custom_section(&wasm, "target_features"));
        assert!(!has_custom_section(&wasm, "name"));
        let mut stripped = header;
        stripped.extend(custom("producers"));
        assert!(!has_custom_section(&stripped, "target_features"));
        assert!(!has_custom_section(b"\0asm", "target_features"));
    }
}
