//! A crate's packaging settings in `[package.metadata.bridge]`, validated before anything
//! is built: `npm-name` (the package.json name, scoped names allowed) and `wasm-opt`
//! (binaryen flags for `--release`, or `false`).

use anyhow::{Result, bail};
use serde_json::Value;
use std::path::Path;

const TABLE: &str = "[package.metadata.bridge]";

/// Whether and how `--release` runs binaryen's `wasm-opt` on the module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WasmOpt {
    /// `wasm-opt = false`: never.
    Off,
    /// Run with these flags when `wasm-opt` is on PATH (the default: `-O`).
    Flags(Vec<String>),
}

impl WasmOpt {
    pub fn default_flags() -> Self {
        WasmOpt::Flags(vec!["-O".into()])
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageSettings {
    /// The npm package name.
    pub npm_name: String,
    pub wasm_opt: WasmOpt,
}

/// Read the settings of package `crate_name` from its `[package.metadata]` value.
pub fn read(metadata: &Value, manifest: &Path, crate_name: &str) -> Result<PackageSettings> {
    let bridge = metadata.get("bridge");
    let npm_name = match bridge.and_then(|b| b.get("npm-name")) {
        None => {
            if let Err(why) = check_npm_name(crate_name) {
                bail!(
                    "{}: the crate name `{crate_name}` is not a valid npm package name ({why}); \
                     set `npm-name = \"...\"` in {TABLE}",
                    manifest.display()
                );
            }
            crate_name.to_string()
        }
        Some(Value::String(name)) => {
            if let Err(why) = check_npm_name(name) {
                bail!(
                    "{}: invalid {TABLE} npm-name = \"{name}\": {why}; npm names look like \
                     \"shelf\" or \"@acme/shelf\"",
                    manifest.display()
                );
            }
            name.clone()
        }
        Some(other) => bail!(
            "{}: {TABLE} npm-name must be a string such as \"@acme/shelf\", found {other}",
            manifest.display()
        ),
    };
    let wasm_opt = match bridge.and_then(|b| b.get("wasm-opt")) {
        None | Some(Value::Bool(true)) => WasmOpt::default_flags(),
        Some(Value::Bool(false)) => WasmOpt::Off,
        Some(Value::Array(items)) => {
            let flags: Option<Vec<String>> = items
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect();
            match flags {
                Some(flags) if !flags.is_empty() => WasmOpt::Flags(flags),
                _ => bail!(
                    "{}: {TABLE} wasm-opt must list flags as strings, e.g. [\"-O3\"], found {}",
                    manifest.display(),
                    Value::Array(items.clone())
                ),
            }
        }
        Some(other) => bail!(
            "{}: invalid {TABLE} wasm-opt = {other}; write a list of flags such as [\"-O3\"], \
             or false to turn wasm-opt off",
            manifest.display()
        ),
    };
    Ok(PackageSettings { npm_name, wasm_opt })
}

/// npm's rules for a package name (the ones `npm publish` enforces).
pub fn check_npm_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > 214 {
        return Err("it must have 1 to 214 characters".into());
    }
    let bare = match name.strip_prefix('@') {
        Some(scoped) => {
            let Some((scope, bare)) = scoped.split_once('/') else {
                return Err("a scoped name is `@scope/name`".into());
            };
            check_part(scope)?;
            bare
        }
        None => name,
    };
    check_part(bare)
}

pub fn check_part(part: &str) -> Result<(), String> {
    if part.is_empty() {
        return Err("the scope and the name must not be empty".into());
    }
    if part.starts_with(['.', '_']) {
        return Err(format!("`{part}` must not start with `.` or `_`"));
    }
    if let Some(c) = part
        .chars()
        .find(|c| !matches!(c, 'a'..='z' | '0'..='9' | '-' | '.' | '_' | '~'))
    {
        return Err(format!(
            "`{c}` is not allowed: use lowercase letters, digits, `-`, `.`, `_` and `~`"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read_json(v: Value, name: &str) -> Result<PackageSettings> {
        read(&v, Path::new("/x/Cargo.toml"), name)
    }

    #[test]
    fn defaults_come_from_the_crate() {
        let s = read_json(json!({}), "my-shelf").unwrap();
        assert_eq!(s.npm_name, "my-shelf");
        assert_eq!(s.wasm_opt, WasmOpt::Flags(vec!["-O".into()]));
    }

    #[test]
    fn npm_name_and_wasm_opt_are_read() {
        let s = read_json(
            json!({"bridge": {"npm-name": "@acme/shelf", "wasm-opt": ["-O3", "--strip-debug"]}}),
            "shelf",
        )
        .unwrap();
        assert_eq!(s.npm_name, "@acme/shelf");
        assert_eq!(
            s.wasm_opt,
            WasmOpt::Flags(vec!["-O3".into(), "--strip-debug".into()])
        );
        let off = read_json(json!({"bridge": {"wasm-opt": false}}), "shelf").unwrap();
        assert_eq!(off.wasm_opt, WasmOpt::Off);
    }

    #[test]
    fn bad_npm_names_say_why_and_how() {
        for (name, why) in [
            ("Shelf", "`S` is not allowed"),
            ("@acme", "@scope/name"),
            ("@acme/", "must not be empty"),
            ("_shelf", "must not start"),
        ] {
            let err = read_json(json!({"bridge": {"npm-name": name}}), "shelf")
                .unwrap_err()
                .to_string();
            assert!(err.contains("/x/Cargo.toml"), "{err}");
            assert!(err.contains("npm-name"), "{err}");
            assert!(err.contains(why), "{name}: {err}");
        }
        let err = read_json(json!({}), "My_Crate").unwrap_err().to_string();
        assert!(err.contains("set `npm-name"), "{err}");
    }

    #[test]
    fn bad_wasm_opt_values_show_the_form() {
        for v in [json!("-O3"), json!([]), json!([3])] {
            let err = read_json(json!({"bridge": {"wasm-opt": v}}), "shelf")
                .unwrap_err()
                .to_string();
            assert!(err.contains("wasm-opt"), "{err}");
            assert!(err.contains("[\"-O3\"]"), "{err}");
        }
    }
}
