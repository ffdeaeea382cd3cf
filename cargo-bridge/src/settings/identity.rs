//! The identity modes a class can have, and `identity-mode = "..."` in
//! `[package.metadata.bridge]` (a crate's default) or `[workspace.metadata.bridge]` (the
//! workspace's); `mod.rs` reads the tables and resolves which one a class gets.

use anyhow::{Result, bail};
use serde_json::Value;
use std::fmt;
use std::path::Path;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum IdentityMode {
    #[default]
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

pub const KEY: &str = "identity-mode";
const VALID: &str =
    "\"none\", \"pointer\" or \"rust\" (legacy booleans: true = \"pointer\", false = \"none\")";

/// The value of `identity-mode` in `[<table>]` of `manifest`.
pub fn from_value(value: &Value, manifest: &Path, table: &str) -> Result<IdentityMode> {
    let mode = match value {
        Value::String(s) => IdentityMode::parse(s),
        Value::Bool(true) => Some(IdentityMode::Pointer),
        Value::Bool(false) => Some(IdentityMode::None),
        _ => None,
    };
    match mode {
        Some(m) => Ok(m),
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
        let value = &v["bridge"]["identity-mode"];
        let manifest = Path::new("/x/Cargo.toml");
        Ok(Some(from_value(
            value,
            manifest,
            "package.metadata.bridge",
        )?))
    }

    #[test]
    fn valid_values_and_legacy_booleans() {
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
}
