//! One home for what a build is asked for, read and checked before anything is built.
//!
//! Every setting a manifest gives cargo bridge is read here, in one order of precedence:
//! a class's attribute > its crate's `[package.metadata.bridge]` > the workspace's
//! `[workspace.metadata.bridge]` > the default. [`Settings::read`] reads bridge's tables of
//! the workspace and of every package in the build's graph into one resolved
//! [`CrateSettings`] per crate (how its exports are named and held: `identity-mode`,
//! `js-names`); [`package`] reads what a packaged crate's package gets (`npm-name`,
//! `wasm-opt`, the profile tables, and wasm-pack's `[package.metadata.wasm-pack]`) into its
//! [`PackageSettings`]. The pieces: `identity.rs` and `js_names.rs` (the two values, and
//! the renaming `js-names` makes), `packaging.rs` (the package's keys, wasm-pack's table),
//! `workspace.rs` (`cargo metadata`: which crates; `metadata_cache.rs` keeps its answer
//! between builds), `flags.rs` (the command line's build
//! flags). Bad input is an error naming the manifest, the key, the value and the valid ones.

pub mod flags;
pub mod identity;
pub mod js_names;
mod metadata_cache;
pub mod packaging;
pub mod workspace;

use crate::postprocess::exports::ClassExport;
use anyhow::{Result, anyhow, bail};
use cargo_metadata::Metadata;
use identity::IdentityMode;
use js_names::JsNames;
use packaging::PackageSettings;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const WORKSPACE_TABLE: &str = "workspace.metadata.bridge";
const PACKAGE_TABLE: &str = "package.metadata.bridge";
/// The keys of bridge's table in a crate's manifest (the last three: `packaging.rs`).
const PACKAGE_KEYS: [&str; 5] = [
    identity::KEY,
    js_names::KEY,
    "npm-name",
    "wasm-opt",
    "profile",
];
/// The keys of bridge's table in the workspace's manifest: the defaults of its crates.
const WORKSPACE_KEYS: [&str; 2] = [identity::KEY, js_names::KEY];

/// One crate's settings, resolved: its own key, else the workspace's, else the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrateSettings {
    pub identity_mode: IdentityMode,
    pub js_names: JsNames,
}

/// The settings of every crate in the build's graph. A class resolves against the crate
/// that declared it, so crates linked into one module keep their own.
#[derive(Debug)]
pub struct Settings {
    crates: BTreeMap<String, CrateSettings>,
    /// A crate the graph does not list: the workspace's defaults.
    fallback: CrateSettings,
}

/// What one table says, before the defaults fill it in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Keys {
    identity_mode: Option<IdentityMode>,
    js_names: Option<JsNames>,
}

impl Settings {
    /// Read bridge's table of the workspace (`manifest`) and of every package of `metadata`.
    /// The workspace's `identity-mode` is every crate's default; its `js-names` only its
    /// members' (not crates.io dependencies', whose authors chose their names).
    pub fn read(metadata: &Metadata, manifest: &Path) -> Result<Settings> {
        let defaults = read_keys(
            &metadata.workspace_metadata,
            manifest,
            WORKSPACE_TABLE,
            &WORKSPACE_KEYS,
        )?;
        let mut crates = BTreeMap::new();
        for pkg in &metadata.packages {
            let own = read_keys(
                &pkg.metadata,
                pkg.manifest_path.as_std_path(),
                PACKAGE_TABLE,
                &PACKAGE_KEYS,
            )?;
            let member = metadata.workspace_members.contains(&pkg.id);
            let names = own
                .js_names
                .or(defaults.js_names.filter(|_| member))
                .unwrap_or(JsNames::CamelCase);
            let settings = CrateSettings {
                identity_mode: own
                    .identity_mode
                    .or(defaults.identity_mode)
                    .unwrap_or_default(),
                js_names: names,
            };
            crates.insert(pkg.name.to_string(), settings);
        }
        Ok(Settings::new(crates, defaults.identity_mode))
    }

    fn new(crates: BTreeMap<String, CrateSettings>, default_mode: Option<IdentityMode>) -> Self {
        let fallback = CrateSettings {
            identity_mode: default_mode.unwrap_or_default(),
            js_names: JsNames::CamelCase,
        };
        Settings { crates, fallback }
    }

    /// The settings of crate `name`.
    pub fn of(&self, name: &str) -> CrateSettings {
        self.crates.get(name).copied().unwrap_or(self.fallback)
    }

    /// The crates whose exports keep their Rust names (`js-names = "as-written"`).
    pub fn as_written(&self) -> BTreeSet<String> {
        let keeps = |(_, s): &(&String, &CrateSettings)| s.js_names == JsNames::AsWritten;
        self.crates
            .iter()
            .filter(keeps)
            .map(|(name, _)| name.clone())
            .collect()
    }

    /// A class's identity mode: its attribute, else its crate's.
    pub fn identity_mode(&self, class: &ClassExport) -> Result<IdentityMode> {
        let Some(attr) = &class.identity_mode else {
            return Ok(self.of(&class.crate_name).identity_mode);
        };
        // The macro validated it; a mismatch means the runtime and CLI disagree.
        IdentityMode::parse(attr).ok_or_else(|| {
            anyhow!(
                "class `{}` of crate `{}` has identity_mode = \"{attr}\"; valid values are \
                 \"none\", \"pointer\", \"rust\"",
                class.rust_name,
                class.crate_name
            )
        })
    }
}

/// What the package of crate `name` gets, from its `[package.metadata]` value.
pub fn package(metadata: &Value, manifest: &Path, name: &str) -> Result<PackageSettings> {
    bridge_table(metadata, manifest, PACKAGE_TABLE, &PACKAGE_KEYS)?;
    packaging::read(metadata, manifest, name)
}

/// `identity-mode` and `js-names` of bridge's table in a `metadata` value
/// (`[package.metadata]` or `[workspace.metadata]`).
fn read_keys(metadata: &Value, manifest: &Path, table: &str, valid: &[&str]) -> Result<Keys> {
    let Some(bridge) = bridge_table(metadata, manifest, table, valid)? else {
        return Ok(Keys::default());
    };
    let identity_mode = bridge
        .get(identity::KEY)
        .map(|value| identity::from_value(value, manifest, table))
        .transpose()?;
    let js_names = bridge
        .get(js_names::KEY)
        .map(|value| js_names::from_value(value, manifest, table))
        .transpose()?;
    Ok(Keys {
        identity_mode,
        js_names,
    })
}

/// Bridge's table of a `metadata` value, if there is one; an error if it is not a table or
/// has a key outside `valid`.
fn bridge_table<'a>(
    metadata: &'a Value,
    manifest: &Path,
    table: &str,
    valid: &[&str],
) -> Result<Option<&'a Map<String, Value>>> {
    let Some(bridge) = metadata.get("bridge") else {
        return Ok(None);
    };
    let Some(bridge) = bridge.as_object() else {
        bail!(
            "{}: `{table}` must be a table, found `{}`; write `[{table}]` with `{} = \"rust\"`",
            manifest.display(),
            bridge,
            identity::KEY
        );
    };
    if let Some(key) = bridge.keys().find(|key| !valid.contains(&key.as_str())) {
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
    Ok(Some(bridge))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: Value) -> Result<Keys> {
        read_keys(&v, Path::new("/x/Cargo.toml"), PACKAGE_TABLE, &PACKAGE_KEYS)
    }

    #[test]
    fn the_tables_keys() {
        assert_eq!(read(json!({})).unwrap(), Keys::default());
        assert_eq!(read(json!({"bridge": {}})).unwrap(), Keys::default());
        let both = read(json!({"bridge": {"identity-mode": "rust", "js-names": "as-written"}}));
        assert_eq!(
            both.unwrap(),
            Keys {
                identity_mode: Some(IdentityMode::Rust),
                js_names: Some(JsNames::AsWritten)
            }
        );
        let err = read(json!({"bridge": "rust"})).unwrap_err().to_string();
        assert!(
            err.contains("/x/Cargo.toml: `package.metadata.bridge` must be a table"),
            "{err}"
        );
    }

    #[test]
    fn misspelled_key_is_an_error_listing_the_valid_ones() {
        let err = read(json!({"bridge": {"identity_mode": "rust"}}))
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown key `identity_mode`"), "{err}");
        assert!(
            err.contains("`identity-mode`, `js-names`, `npm-name`"),
            "{err}"
        );
        let workspace = read_keys(
            &json!({"bridge": {"npm-name": "x"}}),
            Path::new("/x/Cargo.toml"),
            WORKSPACE_TABLE,
            &WORKSPACE_KEYS,
        );
        let err = workspace.unwrap_err().to_string();
        assert!(
            err.contains("unknown key `npm-name` in [workspace.metadata.bridge]"),
            "{err}"
        );
    }

    fn class(crate_name: &str, attr: Option<&str>) -> ClassExport {
        ClassExport {
            crate_name: crate_name.into(),
            type_id: bridge_schema::type_id(crate_name, "C"),
            name: "C".into(),
            rust_name: "C".into(),
            identity_mode: attr.map(str::to_string),
            inspectable: false,
            doc: String::new(),
            members: Vec::new(),
        }
    }

    fn settings(default: Option<IdentityMode>, crates: &[(&str, IdentityMode)]) -> Settings {
        let crates = crates.iter().map(|(n, m)| {
            let s = CrateSettings {
                identity_mode: *m,
                js_names: JsNames::CamelCase,
            };
            (n.to_string(), s)
        });
        Settings::new(crates.collect(), default)
    }

    #[test]
    fn attribute_beats_crate_beats_workspace_beats_none() {
        use IdentityMode::*;
        let ws = settings(Some(Rust), &[("a", Pointer)]);
        let mode = |class| ws.identity_mode(&class).unwrap();
        assert_eq!(mode(class("a", Some("none"))), None);
        assert_eq!(mode(class("a", Option::None)), Pointer);
        assert_eq!(mode(class("b", Option::None)), Rust);
        let bare = settings(Option::None, &[]);
        assert_eq!(bare.identity_mode(&class("b", Option::None)).unwrap(), None);
        let err = bare.identity_mode(&class("b", Some("swift"))).unwrap_err();
        assert!(
            err.to_string().contains("identity_mode = \"swift\""),
            "{err}"
        );
    }

    #[test]
    fn each_crate_keeps_its_own_default() {
        use IdentityMode::*;
        let ws = settings(Option::None, &[("a", Rust), ("b", Pointer)]);
        let mode = |krate| ws.identity_mode(&class(krate, Option::None)).unwrap();
        assert_eq!(mode("a"), Rust);
        assert_eq!(mode("b"), Pointer);
        assert_eq!(mode("c"), None);
    }
}
