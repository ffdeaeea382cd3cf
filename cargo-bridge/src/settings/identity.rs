//! Identity-mode configuration in Cargo manifests, validated before anything is built.
//!
//! `[package.metadata.bridge] identity-mode = "..."` sets a crate's default;
//! `[workspace.metadata.bridge] identity-mode = "..."` the workspace's. The other keys of
//! a crate's table are read by `packaging.rs`.

use anyhow::{Result, bail};
use serde_json::Value;
use std::fmt;
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum IdentityMode {
    None,
    Pointer,
    Rust,
}

impl IdentityMode {
    pub fn as_str(self) -> &'static str {
        match self {
            IdentityMode::None => "none",
            IdentityMode::Pointer => "pointer",
            IdentityMode::Rust => "rust",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "none" => Some(IdentityMode::None),
            "pointer" => Some(IdentityMode::Pointer),
            "rust" => Some(IdentityMode::Rust),
            _ => None,
        }
    }
}

impl fmt::Display for IdentityMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

const KEY: &str = "identity-mode";
const VALID: &str =
    "\"none\", \"pointer\" or \"rust\" (legacy booleans: true = \"pointer\", false = \"none\")";

/// Read `identity-mode` from a `metadata` value (`[package.metadata]` or
/// `[workspace.metadata]`); `table` names the TOML table for messages.
pub fn read_identity_mode(
    metadata: &Value,
    manifest: &Path,
    table: &str,
) -> Result<Option<IdentityMode>> {
    let Some(bridge) = metadata.get("bridge") else {
        return Ok(None);
    };
    let Some(bridge) = bridge.as_object() else {
        bail!(
            "{}: `{table}` must be a table, found `{}`; write `[{table}]` with `{KEY} = \"rust\"`",
            manifest.display(),
            bridge
        );
    };
    // A crate's table also holds its packaging settings (packaging.rs).
    let valid: &[&str] = if table.starts_with("package.") {
        &[
            KEY,
            crate::settings::js_names::KEY,
            "npm-name",
            "wasm-opt",
            "profile",
        ]
    } else {
        &[KEY, crate::settings::js_names::KEY]
    };
    for key in bridge.keys() {
        if !valid.contains(&key.as_str()) {
            bail!(
                "{}: unknown key `{key}` in [{table}]; valid keys: {} (with hyphens)",
                manifest.display(),
                valid
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    let Some(value) = bridge.get(KEY) else {
        return Ok(None);
    };
    let mode = match value {
        Value::String(s) => IdentityMode::parse(s),
        Value::Bool(true) => Some(IdentityMode::Pointer),
        Value::Bool(false) => Some(IdentityMode::None),
        _ => None,
    };
    match mode {
        Some(m) => Ok(Some(m)),
        None => bail!(
            "{}: invalid [{table}] {KEY} = {}; valid values are {VALID}",
            manifest.display(),
            toml_value(value)
        ),
    }
}

/// Show a JSON value the way it was written in TOML.
fn toml_value(v: &Value) -> String {
    match v {
        Value::Object(_) => format!("a table ({v})"),
        Value::Array(_) => format!("an array ({v})"),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: Value) -> Result<Option<IdentityMode>> {
        read_identity_mode(&v, Path::new("/x/Cargo.toml"), "package.metadata.bridge")
    }

    #[test]
    fn valid_values_and_legacy_booleans() {
        assert_eq!(read(json!({})).unwrap(), None);
        assert_eq!(read(json!({"bridge": {}})).unwrap(), None);
        assert_eq!(
            read(json!({"bridge": {"identity-mode": "rust"}})).unwrap(),
            Some(IdentityMode::Rust)
        );
        assert_eq!(
            read(json!({"bridge": {"identity-mode": true}})).unwrap(),
            Some(IdentityMode::Pointer)
        );
        assert_eq!(
            read(json!({"bridge": {"identity-mode": false}})).unwrap(),
            Some(IdentityMode::None)
        );
    }

    #[test]
    fn bad_values_name_file_key_value_and_valid_values() {
        for (value, shown) in [
            (json!("swfit"), "\"swfit\""),
            (json!(3), "3"),
            (json!({"mode": "rust"}), "a table"),
        ] {
            let err = read(json!({"bridge": {"identity-mode": value}}))
                .unwrap_err()
                .to_string();
            assert!(err.contains("/x/Cargo.toml"), "{err}");
            assert!(
                err.contains("[package.metadata.bridge] identity-mode"),
                "{err}"
            );
            assert!(err.contains(shown), "{err}");
            assert!(err.contains("\"none\", \"pointer\" or \"rust\""), "{err}");
        }
    }

    #[test]
    fn misspelled_key_is_an_error() {
        let err = read(json!({"bridge": {"identity_mode": "rust"}}))
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown key `identity_mode`"), "{err}");
    }
}
