//! Writing the wasm-pack-style package: `<name>.js`, `<name>.d.ts`, `<name>_bg.wasm`,
//! `package.json`. Files are written whole, and only after every step succeeded.

use crate::glue::Glue;
use crate::workspace::BridgeCrate;
use anyhow::{Context, Result};
use serde_json::json;
use std::path::Path;

pub fn write(out_dir: &Path, krate: &BridgeCrate, glue: &Glue, wasm: &[u8]) -> Result<()> {
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("creating the output directory {}", out_dir.display()))?;
    let name = &krate.lib_name;
    let files = [
        (format!("{name}.js"), glue.js.as_bytes()),
        (format!("{name}.d.ts"), glue.dts.as_bytes()),
        (format!("{name}_bg.wasm"), wasm),
    ];
    let manifest = package_json(krate, &glue.imported_files);
    for (file, bytes) in files
        .iter()
        .map(|(f, b)| (f.as_str(), *b))
        .chain([("package.json", manifest.as_bytes())])
    {
        let path = out_dir.join(file);
        std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

fn package_json(krate: &BridgeCrate, imported_files: &[String]) -> String {
    let name = &krate.lib_name;
    let mut manifest = json!({
        "name": krate.name,
        "version": krate.version,
        "type": "module",
        "main": format!("{name}.js"),
        "types": format!("{name}.d.ts"),
        "exports": {
            ".": {
                "types": format!("./{name}.d.ts"),
                "default": format!("./{name}.js"),
            }
        },
        "files": [format!("{name}.js"), format!("{name}.d.ts"), format!("{name}_bg.wasm")],
        "sideEffects": false,
    });
    for file in imported_files {
        manifest["files"]
            .as_array_mut()
            .expect("files is an array")
            .push(json!(file));
    }
    if let Some(description) = &krate.description {
        manifest["description"] = json!(description);
    }
    let mut text = serde_json::to_string_pretty(&manifest).expect("json serializes");
    text.push('\n');
    text
}
