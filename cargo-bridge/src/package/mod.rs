//! Writing the wasm-pack-style package: `<name>.js`, `<name>_bg.wasm`, `<name>.d.ts` and
//! `<name>_bg.wasm.d.ts` (not with `--no-typescript`), `package.json` (not with
//! `--no-pack`), and what wasm-pack
//! adds beside them: the crate's README and LICENSE files (not with `--no-pack`) and a
//! `.gitignore` of `*`. package.json has every field wasm-pack writes from Cargo.toml
//! (`collaborators` from `authors`, `homepage`, `keywords`, `repository` as an object, a
//! `license-file` as `SEE LICENSE IN <file>`). Files are written whole, and only after
//! every step succeeded.
//!
//! Each file goes through a file of the process's own renamed over it, so a concurrent reader
//! never sees half a file. `package::Files` is the stem, the npm name, and whether there is a
//! `.d.ts` and a package.json. wasm-bindgen's `<lib>_bg.js` and `snippets/` are written when
//! there are any.

use crate::cli::Target;
use crate::glue::Glue;
use crate::settings::workspace::BridgeCrate;
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
        let module_dts = crate::glue::render_module_dts(&krate.name, name, wasm)?;
        files.push((format!("{name}_bg.wasm.d.ts"), module_dts.into_bytes()));
    }
    if package.package_json {
        let mut imported: Vec<String> = glue.imported_files.clone();
        imported.extend(wasm_bindgen_files.iter().map(|(path, _)| path.clone()));
        let mut licenses = Vec::new();
        for (file, bytes) in readme_and_licenses(krate)? {
            licenses.push(file.clone());
            files.push((file, bytes));
        }
        licenses.retain(|f| f.starts_with("LICENSE") && f != "LICENSE");
        let manifest = package_json(package, krate, target, &imported, &licenses);
        files.push(("package.json".into(), manifest.into_bytes()));
    }
    files.push((".gitignore".into(), GITIGNORE.to_vec()));
    for (file, bytes) in &files {
        replace_file(&out_dir.join(file), bytes)?;
    }
    Ok(())
}

/// What wasm-pack writes in `.gitignore`: a package is build output.
const GITIGNORE: &[u8] = b"*";

/// The crate's README (`readme`, else `README.md`) and its license files (`license-file`,
/// else every `LICENSE*` file of its directory), as (file name in the package, bytes).
fn readme_and_licenses(krate: &BridgeCrate) -> Result<Vec<(String, Vec<u8>)>> {
    let mut sources = Vec::new();
    if let Some(readme) = &krate.readme {
        sources.push(("README.md".to_string(), readme.clone()));
    }
    match &krate.license_file {
        Some(file) => {
            let path = krate.dir.join(file);
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            sources.push((name.into_owned(), path));
        }
        None => {
            let entries = std::fs::read_dir(&krate.dir)
                .with_context(|| format!("reading {}", krate.dir.display()))?;
            let mut found = Vec::new();
            for entry in entries {
                let entry = entry?;
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with("LICENSE") && entry.path().is_file() {
                    found.push((name, entry.path()));
                }
            }
            found.sort();
            sources.extend(found);
        }
    }
    sources
        .into_iter()
        .map(|(name, path)| {
            let bytes = std::fs::read(&path).with_context(|| {
                format!("reading {} (to copy it into the package)", path.display())
            })?;
            Ok((name, bytes))
        })
        .collect()
}

/// Every file under `dir`, sorted, as (`/`-separated path relative to `dir`, bytes).
pub fn files_under(dir: &Path) -> Result<Vec<(String, Vec<u8>)>> {
    paths_under(dir)?
        .into_iter()
        .map(|(rel, path)| {
            let bytes =
                std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
            Ok((rel, bytes))
        })
        .collect()
}

/// Every file under `dir`, sorted, as (`/`-separated path relative to `dir`, path).
fn paths_under(dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(here) = stack.pop() {
        for entry in
            std::fs::read_dir(&here).with_context(|| format!("reading {}", here.display()))?
        {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let rel = path
                .strip_prefix(dir)
                .expect("under dir")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            files.push((rel, path));
        }
    }
    files.sort();
    Ok(files)
}

/// Move every file under `from` (a tool's scratch output) to the same path under `to`;
/// their `/`-separated paths, sorted. Each is renamed over its old version (a reader sees
/// the old file or the new one), without copying its bytes: a debug module is megabytes,
/// copied on every rebuild otherwise. Across file systems, it is copied as [`write_files`]
/// writes.
pub fn move_files(from: &Path, to: &Path) -> Result<Vec<String>> {
    let files = paths_under(from)?;
    for (rel, path) in &files {
        let dest = to.join(rel);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        if std::fs::rename(path, &dest).is_err() {
            let bytes =
                std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
            replace_file(&dest, &bytes)?;
        }
    }
    Ok(files.into_iter().map(|(rel, _)| rel).collect())
}

/// Beside a plain wasm-bindgen crate's files (`written`, wasm-bindgen's): package.json
/// as wasm-pack writes it for the target, README, LICENSE files and `.gitignore`.
/// `dependencies`: those wasm-bindgen's own package.json named.
pub fn write_wasm_pack_extras(
    package: &Files,
    krate: &BridgeCrate,
    target: Target,
    written: &[&str],
    dependencies: Option<serde_json::Value>,
) -> Result<()> {
    let out_dir = &package.out_dir;
    let mut files = vec![(".gitignore".to_string(), GITIGNORE.to_vec())];
    // wasm-pack writes no package.json for Deno (it imports by URL).
    if package.package_json {
        let extras = readme_and_licenses(krate)?;
        let licenses: Vec<String> = extras
            .iter()
            .map(|(name, _)| name.clone())
            .filter(|f| f.starts_with("LICENSE") && f != "LICENSE")
            .collect();
        files.extend(extras);
        if target != Target::Deno {
            let snippets = written.iter().any(|f| f.starts_with("snippets/"));
            let manifest =
                wasm_pack_manifest(package, krate, target, &licenses, snippets, dependencies);
            files.push(("package.json".into(), manifest.into_bytes()));
        }
    }
    for (file, bytes) in &files {
        replace_file(&out_dir.join(file), bytes)?;
    }
    Ok(())
}

/// The fields wasm-pack writes from Cargo.toml, in its order, between `name` and the
/// entry points: `collaborators`, `description`, `version`, `license`, `repository`.
fn cargo_fields(manifest: &mut serde_json::Value, krate: &BridgeCrate) {
    if !krate.authors.is_empty() {
        manifest["collaborators"] = json!(krate.authors);
    }
    if let Some(description) = &krate.description {
        manifest["description"] = json!(description);
    }
    manifest["version"] = json!(krate.version);
    let license = krate.license.clone().or_else(|| {
        krate
            .license_file
            .as_ref()
            .map(|file| format!("SEE LICENSE IN {file}"))
    });
    if let Some(license) = license {
        manifest["license"] = json!(license);
    }
    if let Some(url) = &krate.repository {
        manifest["repository"] = json!({ "type": "git", "url": url });
    }
}

/// package.json of a plain wasm-bindgen crate: wasm-pack's for the target (CommonJS for
/// `nodejs-cjs`, ES modules for `bundler` and `web`, `browser` for `no-modules`), and
/// for our ES-module `nodejs` the ES-module form with the entry's side effects. One
/// addition: `snippets/` in `files` when wasm-bindgen wrote snippets (wasm-pack leaves
/// them out, so its published package lacks them).
fn wasm_pack_manifest(
    package: &Files,
    krate: &BridgeCrate,
    target: Target,
    licenses: &[String],
    snippets: bool,
    dependencies: Option<serde_json::Value>,
) -> String {
    let name = &package.stem;
    let main = format!("{name}.js");
    let esm = matches!(target, Target::Nodejs | Target::Bundler | Target::Web);
    let mut manifest = json!({ "name": package.npm_name });
    if esm {
        manifest["type"] = json!("module");
    }
    cargo_fields(&mut manifest, krate);
    let mut files = vec![format!("{name}_bg.wasm"), main.clone()];
    if target == Target::Bundler {
        files.push(format!("{name}_bg.js"));
    }
    if package.typescript {
        files.push(format!("{name}.d.ts"));
    }
    files.extend(licenses.iter().cloned());
    if snippets {
        files.push("snippets/".into());
    }
    manifest["files"] = json!(files);
    let entry = if target == Target::NoModules {
        "browser"
    } else {
        "main"
    };
    manifest[entry] = json!(main);
    if let Some(homepage) = &krate.homepage {
        manifest["homepage"] = json!(homepage);
    }
    if package.typescript {
        manifest["types"] = json!(format!("{name}.d.ts"));
    }
    if esm {
        let mut effects = Vec::new();
        if target != Target::Web {
            effects.push(format!("./{main}"));
        }
        effects.push("./snippets/*".to_string());
        manifest["sideEffects"] = json!(effects);
    }
    if !krate.keywords.is_empty() {
        manifest["keywords"] = json!(krate.keywords);
    }
    if let Some(dependencies) = dependencies {
        manifest["dependencies"] = dependencies;
    }
    let mut text = serde_json::to_string_pretty(&manifest).expect("json serializes");
    text.push('\n');
    text
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

/// package.json's `sideEffects`: the glue (it instantiates the module) but for `web`,
/// whose glue only does when `init()` is called, and the JS snippets it imports.
fn side_effects(stem: &str, target: Target, imported_files: &[String]) -> serde_json::Value {
    let mut effects: Vec<String> = match target {
        Target::Web => Vec::new(),
        Target::Nodejs | Target::Bundler | Target::NodejsCjs | Target::Deno | Target::NoModules => {
            vec![format!("./{stem}.js")]
        }
    };
    effects.extend(imported_files.iter().map(|f| format!("./{f}")));
    if effects.is_empty() {
        json!(false)
    } else {
        json!(effects)
    }
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
    licenses: &[String],
) -> String {
    let name = &package.stem;
    let side_effects = side_effects(name, target, imported_files);
    let mut manifest = json!({ "name": package.npm_name });
    cargo_fields(&mut manifest, krate);
    if let Some(homepage) = &krate.homepage {
        manifest["homepage"] = json!(homepage);
    }
    if !krate.keywords.is_empty() {
        manifest["keywords"] = json!(krate.keywords);
    }
    let module_type = match target {
        Target::NodejsCjs | Target::NoModules => "commonjs",
        Target::Nodejs | Target::Web | Target::Bundler | Target::Deno => "module",
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
    for file in imported_files.iter().chain(licenses) {
        manifest["files"]
            .as_array_mut()
            .expect("files is an array")
            .push(json!(file));
    }
    let mut text = serde_json::to_string_pretty(&manifest).expect("json serializes");
    text.push('\n');
    text
}

pub mod binaryen;
mod table_exports;
pub mod wasm_opt;

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
