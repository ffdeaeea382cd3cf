//! Writing the wasm-pack-style package: `<name>.js`, `<name>.d.ts`, `<name>_bg.wasm`,
//! `package.json` (the last two unless `--no-typescript`, `--no-pack`). Files are written
//! whole, and only after every step succeeded.
//!
//! Each file goes through a file of the process's own renamed over it, so a concurrent reader
//! never sees half a file. package.json takes its metadata from Cargo.toml and `sideEffects`
//! per target; `package::Files` is the stem, the npm name, and whether there is a `.d.ts` and
//! a package.json. wasm-bindgen's `<lib>_bg.js` and `snippets/` are written when there are any.

use crate::cli::Target;
use crate::glue::Glue;
use crate::workspace::BridgeCrate;
use anyhow::{Context, Result};
use serde_json::json;
use std::path::{Path, PathBuf};

/// Where the package goes and what it is called.
pub struct Files {
    pub out_dir: PathBuf,
    /// `<stem>.js`, …: the lib name or `--out-name`.
    pub stem: String,
    /// package.json's name: `npm-name` or the crate name, under `--scope`.
    pub npm_name: String,
    /// The `.d.ts` (not with `--no-typescript`).
    pub typescript: bool,
    /// package.json (not with `--no-pack`).
    pub package_json: bool,
}

pub fn write(
    package: &Files,
    krate: &BridgeCrate,
    target: Target,
    glue: &Glue,
    wasm: &[u8],
    wasm_bindgen_files: &[(String, Vec<u8>)],
) -> Result<()> {
    let out_dir = &package.out_dir;
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("creating the output directory {}", out_dir.display()))?;
    let name = &package.stem;
    let mut files = vec![
        (format!("{name}.js"), glue.js.as_bytes().to_vec()),
        (format!("{name}_bg.wasm"), wasm.to_vec()),
    ];
    if package.typescript {
        files.push((format!("{name}.d.ts"), glue.dts.as_bytes().to_vec()));
    }
    if package.package_json {
        let mut imported: Vec<String> = glue.imported_files.clone();
        imported.extend(wasm_bindgen_files.iter().map(|(path, _)| path.clone()));
        let manifest = package_json(package, krate, target, &imported);
        files.push(("package.json".into(), manifest.into_bytes()));
    }
    for (file, bytes) in &files {
        replace_file(&out_dir.join(file), bytes)?;
    }
    Ok(())
}

/// Write wasm-bindgen's files (its `_bg.js`, its snippets) into the package.
pub fn write_files(out_dir: &Path, files: &[(String, Vec<u8>)]) -> Result<()> {
    for (rel, bytes) in files {
        let path = out_dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        replace_file(&path, bytes)?;
    }
    Ok(())
}

/// Write `bytes` to `path` through a file of this process's own beside it, renamed over
/// `path`: a reader (a test importing the package while another build of it runs) sees
/// the old file or the new one, never a half-written one.
fn replace_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let partial = path.with_file_name(format!(".{name}.{}.partial", std::process::id()));
    std::fs::write(&partial, bytes).with_context(|| format!("writing {}", partial.display()))?;
    if let Err(error) = std::fs::rename(&partial, path) {
        let _ = std::fs::remove_file(&partial);
        return Err(error).with_context(|| format!("replacing {}", path.display()));
    }
    Ok(())
}

/// package.json from the crate's metadata. `sideEffects` is true to the target: the
/// nodejs and bundler glue instantiate the module when imported, the web glue only in
/// `init()`, so bundlers may drop an unused web glue but must keep the others; imported
/// JS snippets may have effects of their own.
fn package_json(
    package: &Files,
    krate: &BridgeCrate,
    target: Target,
    imported_files: &[String],
) -> String {
    let name = &package.stem;
    let mut effects: Vec<String> = match target {
        Target::Web => Vec::new(),
        Target::Nodejs | Target::Bundler | Target::NodejsCjs => vec![format!("./{name}.js")],
    };
    effects.extend(imported_files.iter().map(|f| format!("./{f}")));
    let side_effects = if effects.is_empty() {
        json!(false)
    } else {
        json!(effects)
    };
    let mut manifest = json!({
        "name": package.npm_name,
        "version": krate.version,
    });
    for (key, value) in [
        ("description", &krate.description),
        ("license", &krate.license),
        ("repository", &krate.repository),
    ] {
        if let Some(value) = value {
            manifest[key] = json!(value);
        }
    }
    let module_type = match target {
        Target::NodejsCjs => "commonjs",
        Target::Nodejs | Target::Web | Target::Bundler => "module",
    };
    let mut rest = json!({
        "type": module_type,
        "main": format!("{name}.js"),
        "types": format!("{name}.d.ts"),
        "exports": {
            ".": {
                "types": format!("./{name}.d.ts"),
                "default": format!("./{name}.js"),
            }
        },
        "files": [format!("{name}.js"), format!("{name}.d.ts"), format!("{name}_bg.wasm")],
        "sideEffects": side_effects,
    });
    if !package.typescript {
        rest.as_object_mut().expect("an object").remove("types");
        rest["exports"]["."] = json!({ "default": format!("./{name}.js") });
        rest["files"] = json!([format!("{name}.js"), format!("{name}_bg.wasm")]);
    }
    for (key, value) in rest.as_object().expect("an object") {
        manifest[key] = value.clone();
    }
    for file in imported_files {
        manifest["files"]
            .as_array_mut()
            .expect("files is an array")
            .push(json!(file));
    }
    let mut text = serde_json::to_string_pretty(&manifest).expect("json serializes");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read as _;

    #[test]
    fn a_replaced_file_is_old_or_new_for_a_reader_never_half_and_leaves_nothing_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pkg.js");
        std::fs::write(&path, "old contents").unwrap();
        let mut reader = std::fs::File::open(&path).unwrap();
        replace_file(&path, b"new").unwrap();
        let mut seen = String::new();
        reader.read_to_string(&mut seen).unwrap();
        assert_eq!(
            seen, "old contents",
            "an open reader keeps the old file whole"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, ["pkg.js"]);
    }
}
