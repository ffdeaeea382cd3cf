//! Every import of the module cargo built must have a provider: the bridge glue (the
//! runtime's modules and `#[bridge] extern` blocks) or, when the crate links wasm-bindgen,
//! wasm-bindgen's CLI (its placeholder modules, which the CLI replaces by its own glue).
//! Anything else (a raw `#[link(wasm_import_module = "env")]`, a crate built for another
//! host) would only fail at `WebAssembly.Instance()`; here it is a build error naming the
//! module, the field and the crates whose compiled code imports it.

use anyhow::{Context, Result, bail};
use std::path::PathBuf;

/// The import modules of wasm-bindgen's macros, which its CLI resolves.
pub const WASM_BINDGEN_MODULES: &[&str] =
    &["__wbindgen_placeholder__", "__wbindgen_externref_xform__"];

/// Modules the bridge glue provides (or the transforms resolve).
const BRIDGE_MODULES: &[&str] = &[
    bridge_schema::abi::host::MODULE,
    bridge_schema::JS_VALUE_MODULE,
    bridge_schema::abi::tasks::MODULE,
    bridge_schema::JS_IMPORT_MODULE,
    bridge_schema::IDENTITY_IMPORT_MODULE,
];

/// Does the bridge glue (or a transform) provide the import module `module`?
pub fn provided_by_bridge(module: &str) -> bool {
    BRIDGE_MODULES.contains(&module)
}

/// A compiled crate of the build: its name and its `.rlib`.
pub struct CrateArtifact {
    pub name: String,
    pub rlib: PathBuf,
}

/// Check the imports of the module `bytes` (read from `wasm_name`); `wasm_bindgen` is the
/// version the crate links, if any.
pub fn check(
    bytes: &[u8],
    wasm_name: &str,
    wasm_bindgen: Option<&str>,
    crates: &[CrateArtifact],
) -> Result<()> {
    for (module_name, field) in
        imports(bytes).with_context(|| format!("{wasm_name} is not a valid WebAssembly module"))?
    {
        let module_name = module_name.as_str();
        let field = field.as_str();
        if BRIDGE_MODULES.contains(&module_name) {
            continue;
        }
        if WASM_BINDGEN_MODULES.contains(&module_name) {
            if wasm_bindgen.is_some() {
                continue;
            }
            bail!(
                "{wasm_name} imports `{field}` from wasm-bindgen's `{module_name}`, but no \
                 `wasm-bindgen` is in the crate's dependency graph for wasm32 (cargo metadata), \
                 so nothing would provide it{}; depend on `wasm-bindgen` in Cargo.toml (the same \
                 version the code was compiled against), so that cargo bridge runs its CLI",
                users(crates, module_name, field)
            );
        }
        bail!(
            "{wasm_name} imports `{field}` from module `{module_name}`, which nothing provides: \
             neither the bridge glue nor wasm-bindgen supplies `{module_name}`, so loading the \
             package would fail{}; declare JS functions with a #[bridge] extern block (or \
             wasm-bindgen's #[wasm_bindgen] extern), or remove the dependency built for another \
             host",
            users(crates, module_name, field)
        );
    }
    Ok(())
}

/// The (module, field) of every import of `wasm`. Only the sections before the import
/// section are read: a debug module is megabytes of code and DWARF that a full parse
/// would decode on every build (the later steps, wasm-bindgen's CLI or walrus, read and
/// check the whole module).
fn imports(wasm: &[u8]) -> Result<Vec<(String, String)>> {
    let mut found = Vec::new();
    for payload in wasmparser::Parser::new(0).parse_all(wasm) {
        match payload? {
            wasmparser::Payload::ImportSection(section) => {
                for import in section.into_imports() {
                    let import = import?;
                    found.push((import.module.to_string(), import.name.to_string()));
                }
                break;
            }
            // Sections come in a fixed order: none after these holds imports.
            wasmparser::Payload::FunctionSection(_)
            | wasmparser::Payload::CodeSectionStart { .. }
            | wasmparser::Payload::End(_) => break,
            _ => {}
        }
    }
    Ok(found)
}

/// ` (imported by the compiled code of crate `a`, `b`)`, or nothing if no crate's object
/// code shows it (an LTO build's rlibs may hold only bitcode).
fn users(crates: &[CrateArtifact], module: &str, field: &str) -> String {
    let needle = import_entry(module, field);
    let mut names: Vec<&str> = crates
        .iter()
        .filter(|c| {
            std::fs::read(&c.rlib)
                .is_ok_and(|bytes| bytes.windows(needle.len()).any(|w| w == needle))
        })
        .map(|c| c.name.as_str())
        .collect();
    names.sort();
    names.dedup();
    if names.is_empty() {
        return String::new();
    }
    let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    format!(
        " (imported by the compiled code of crate {})",
        list.join(", ")
    )
}

/// How a wasm import section spells `module.field` (each name prefixed by its LEB128
/// length): the bytes to look for in a crate's object files.
fn import_entry(module: &str, field: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for name in [module, field] {
        let mut len = name.len();
        loop {
            let byte = (len & 0x7f) as u8;
            len >>= 7;
            if len == 0 {
                out.push(byte);
                break;
            }
            out.push(byte | 0x80);
        }
        out.extend_from_slice(name.as_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_imports_are_read_from_the_import_section() {
        let mut module = walrus::Module::default();
        let ty = module.types.add(&[walrus::ValType::I32], &[]);
        module.add_import_func("env", "f", ty);
        module.add_import_func("__wbindgen_placeholder__", "g", ty);
        let bytes = module.emit_wasm();
        assert_eq!(
            imports(&bytes).unwrap(),
            [
                ("env".to_string(), "f".to_string()),
                ("__wbindgen_placeholder__".to_string(), "g".to_string())
            ]
        );
        assert!(imports(b"\0asm\x02\0\0\0").is_err(), "a bad header");
        let error = check(b"not wasm", "x.wasm", None, &[]).unwrap_err();
        assert!(
            format!("{error:#}").contains("x.wasm is not a valid WebAssembly module"),
            "{error:#}"
        );
        let error = check(&bytes, "x.wasm", None, &[]).unwrap_err();
        assert!(
            format!("{error:#}").contains("`f` from module `env`"),
            "{error:#}"
        );
    }

    #[test]
    fn import_entries_are_length_prefixed() {
        assert_eq!(import_entry("env", "f"), b"\x03env\x01f");
        let long = "x".repeat(200);
        let entry = import_entry("m", &long);
        assert_eq!(&entry[..4], b"\x01m\xc8\x01");
    }
}
