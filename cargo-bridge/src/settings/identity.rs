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
    /// Every mode: the names the macro accepts (`bridge_schema::IDENTITY_MODES`, tested),
    /// each with its template `templates/identity/<mode>.js.j2` (`glue/mod.rs` tests).
    pub const ALL: [IdentityMode; 3] = [
        IdentityMode::None,
        IdentityMode::Pointer,
        IdentityMode::Rust,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            IdentityMode::None => "none",
            IdentityMode::Pointer => "pointer",
            IdentityMode::Rust => "rust",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        IdentityMode::ALL.into_iter().find(|m| m.as_str() == s)
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

    #[test]
    fn the_modes_are_the_ones_the_macro_accepts() {
        let names = IdentityMode::ALL.map(IdentityMode::as_str);
        assert_eq!(names, bridge_schema::IDENTITY_MODES);
        for m in IdentityMode::ALL {
            assert_eq!(IdentityMode::parse(m.as_str()), Some(m));
        }
        assert_eq!(IdentityMode::parse("Rust"), None);
    }

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
