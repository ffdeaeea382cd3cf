//! A crate's packaging settings, validated before anything is built: from
//! `[package.metadata.bridge]`, `npm-name` (the package.json name, scoped names allowed),
//! `wasm-opt` (binaryen flags for the optimized profiles, or `false`) and
//! `[package.metadata.bridge.profile.<dev|profiling|release>]`; from wasm-pack's own
//! `[package.metadata.wasm-pack.profile.<dev|profiling|release>]`, its `wasm-opt` and
//! `wasm-bindgen` keys (`debug-js-glue`, `demangle-name-section`, `dwarf-debug-info`,
//! `omit-default-module-path`, and wasm-pack 0.15's `split-linked-modules`), so a
//! wasm-pack crate builds as it did. A bridge key
//! overrides the wasm-pack one; a key of wasm-pack's table cargo bridge does not know is a
//! warning naming it (wasm-pack's table is another tool's, and grows), one of bridge's own
//! table an error (`mod.rs`, which calls [`read`] for each crate it packages).

use crate::cli::Profile;
use anyhow::{Result, bail};
use serde_json::{Map, Value};
use std::path::Path;

const TABLE: &str = "[package.metadata.bridge]";
const PROFILES: [&str; 3] = ["dev", "profiling", "release"];
const WASM_BINDGEN_KEYS: [&str; 5] = [
    "debug-js-glue",
    "demangle-name-section",
    "dwarf-debug-info",
    "omit-default-module-path",
    "split-linked-modules",
];

/// Whether and how binaryen's `wasm-opt` runs on the module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WasmOpt {
    /// `wasm-opt = false`: never.
    Off,
    /// Run with these flags (the default of the optimized profiles: `-O`).
    Flags(Vec<String>),
}

impl WasmOpt {
    pub fn default_flags() -> Self {
        WasmOpt::Flags(vec!["-O".into()])
    }
}

/// What one profile does after cargo: wasm-opt, and the flags of wasm-bindgen's CLI
/// (for crates linking wasm-bindgen), with wasm-pack's defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileSettings {
    pub wasm_opt: WasmOpt,
    /// `--debug`: wasm-bindgen's glue with its own debug checks.
    pub debug_js_glue: bool,
    /// Not `--no-demangle`: Rust names in the name section demangled.
    pub demangle_name_section: bool,
    /// `--keep-debug`: DWARF kept in the module.
    pub dwarf_debug_info: bool,
    /// `--omit-default-module-path` (the `web` target's `init()` needs the module's URL).
    pub omit_default_module_path: bool,
    /// `--split-linked-modules` (wasm-pack 0.15): linked JS modules as files of their own.
    pub split_linked_modules: bool,
}

impl ProfileSettings {
    /// wasm-pack's defaults: wasm-opt `-O` and release glue but for `dev`.
    fn defaults(profile: Profile) -> Self {
        ProfileSettings {
            wasm_opt: if profile.optimized() {
                WasmOpt::default_flags()
            } else {
                WasmOpt::Off
            },
            debug_js_glue: profile == Profile::Dev,
            demangle_name_section: true,
            dwarf_debug_info: false,
            omit_default_module_path: false,
            split_linked_modules: false,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageSettings {
    /// The npm package name.
    pub npm_name: String,
    pub dev: ProfileSettings,
    pub profiling: ProfileSettings,
    pub release: ProfileSettings,
    /// Keys read but not understood (wasm-pack's table), as messages naming each.
    pub warnings: Vec<String>,
}

impl PackageSettings {
    pub fn profile(&self, profile: Profile) -> &ProfileSettings {
        match profile {
            Profile::Dev => &self.dev,
            Profile::Profiling => &self.profiling,
            Profile::Release => &self.release,
        }
    }
}

fn profile_named(name: &str) -> Profile {
    match name {
        "dev" => Profile::Dev,
        "profiling" => Profile::Profiling,
        _ => Profile::Release,
    }
}

/// Read the settings of package `crate_name` from its `[package.metadata]` value.
pub fn read(metadata: &Value, manifest: &Path, crate_name: &str) -> Result<PackageSettings> {
    let bridge = metadata.get("bridge");
    let npm_name = read_npm_name(bridge, manifest, crate_name)?;
    let mut warnings = Vec::new();
    let mut profiles = PROFILES.map(|name| ProfileSettings::defaults(profile_named(name)));
    // wasm-pack's table first, then bridge's over it.
    if let Some(wasm_pack) = metadata.get("wasm-pack") {
        read_tool_table(
            wasm_pack,
            "package.metadata.wasm-pack",
            manifest,
            &mut profiles,
            &mut warnings,
        )?;
    }
    if let Some(bridge) = bridge {
        if let Some(value) = bridge.get("wasm-opt") {
            let table = format!("{TABLE} wasm-opt");
            let wasm_opt = read_wasm_opt(value, &table, manifest)?;
            for (name, settings) in PROFILES.iter().zip(profiles.iter_mut()) {
                if profile_named(name).optimized() {
                    settings.wasm_opt = wasm_opt.clone();
                }
            }
        }
        read_tool_table(
            bridge,
            "package.metadata.bridge",
            manifest,
            &mut profiles,
            &mut warnings,
        )?;
    }
    let [dev, profiling, release] = profiles;
    Ok(PackageSettings {
        npm_name,
        dev,
        profiling,
        release,
        warnings,
    })
}

/// The `profile.<name>` tables of `[<table>]` (wasm-pack's layout) into `profiles`. In
/// bridge's table only `profile` is read here (its keys are checked in `mod.rs`).
fn read_tool_table(
    tool: &Value,
    table: &str,
    manifest: &Path,
    profiles: &mut [ProfileSettings; 3],
    warnings: &mut Vec<String>,
) -> Result<()> {
    let lenient = table.ends_with("wasm-pack");
    let mut unknown = |key: String, valid: &[&str]| -> Result<()> {
        let valid = valid.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>();
        let message = format!(
            "{}: unknown key `{key}`; cargo bridge reads {}",
            manifest.display(),
            valid.join(", ")
        );
        if lenient {
            warnings.push(format!("{message} (the key is ignored)"));
            Ok(())
        } else {
            bail!("{message}")
        }
    };
    let tool = as_table(tool, &format!("[{table}]"), manifest)?;
    if lenient {
        for key in tool.keys().filter(|k| *k != "profile") {
            unknown(format!("{key}` in `[{table}]"), &["profile"])?;
        }
    }
    let Some(profile_tables) = tool.get("profile") else {
        return Ok(());
    };
    let Some(profile_tables) = profile_tables.as_object() else {
        bail!(
            "{}: `[{table}.profile]` must be a table of `dev`, `profiling` and `release`, \
             found {profile_tables}",
            manifest.display()
        );
    };
    for (name, value) in profile_tables {
        let Some(index) = PROFILES.iter().position(|p| p == name) else {
            unknown(format!("{name}` in `[{table}.profile]"), &PROFILES)?;
            continue;
        };
        let here = format!("[{table}.profile.{name}]");
        read_profile(value, &here, manifest, &mut profiles[index], &mut unknown)?;
    }
    Ok(())
}

/// One `[<here>]` profile table: `wasm-opt` and `wasm-bindgen` into `settings`.
fn read_profile(
    value: &Value,
    here: &str,
    manifest: &Path,
    settings: &mut ProfileSettings,
    unknown: &mut impl FnMut(String, &[&str]) -> Result<()>,
) -> Result<()> {
    let keys = as_table(value, here, manifest)?;
    for (key, value) in keys {
        match key.as_str() {
            "wasm-opt" => {
                settings.wasm_opt = read_wasm_opt(value, &format!("{here} wasm-opt"), manifest)?
            }
            "wasm-bindgen" => {
                let here = format!("{}.wasm-bindgen]", here.trim_end_matches(']'));
                read_wasm_bindgen(value, &here, manifest, settings, unknown)?
            }
            _ => unknown(format!("{key}` in `{here}"), &["wasm-opt", "wasm-bindgen"])?,
        }
    }
    Ok(())
}

/// `value` as a table, or the error naming `here` (the table's header) and what was found.
fn as_table<'a>(value: &'a Value, here: &str, manifest: &Path) -> Result<&'a Map<String, Value>> {
    match value.as_object() {
        Some(keys) => Ok(keys),
        None => bail!(
            "{}: `{here}` must be a table, found {value}",
            manifest.display()
        ),
    }
}

/// `wasm-opt = [flags]`, `true` (the default, `-O`) or `false`.
fn read_wasm_opt(value: &Value, key: &str, manifest: &Path) -> Result<WasmOpt> {
    Ok(match value {
        Value::Bool(true) => WasmOpt::default_flags(),
        Value::Bool(false) => WasmOpt::Off,
        Value::Array(items) => {
            let flags: Option<Vec<String>> = items
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect();
            match flags {
                Some(flags) if !flags.is_empty() => WasmOpt::Flags(flags),
                _ => bail!(
                    "{}: {key} must list flags as strings, e.g. [\"-O3\"], found {value}",
                    manifest.display(),
                ),
            }
        }
        other => bail!(
            "{}: invalid {key} = {other}; write a list of flags such as [\"-O3\"], \
             or false to turn wasm-opt off",
            manifest.display()
        ),
    })
}

/// A profile's `wasm-bindgen` table: booleans for the CLI's flags.
fn read_wasm_bindgen(
    value: &Value,
    here: &str,
    manifest: &Path,
    settings: &mut ProfileSettings,
    unknown: &mut impl FnMut(String, &[&str]) -> Result<()>,
) -> Result<()> {
    let keys = as_table(value, here, manifest)?;
    for (key, value) in keys {
        let slot = match key.as_str() {
            "debug-js-glue" => &mut settings.debug_js_glue,
            "demangle-name-section" => &mut settings.demangle_name_section,
            "dwarf-debug-info" => &mut settings.dwarf_debug_info,
            "omit-default-module-path" => &mut settings.omit_default_module_path,
            "split-linked-modules" => &mut settings.split_linked_modules,
            _ => {
                unknown(format!("{key}` in `{here}"), &WASM_BINDGEN_KEYS)?;
                continue;
            }
        };
        let Some(on) = value.as_bool() else {
            bail!(
                "{}: invalid {here} {key} = {value}; write true or false",
                manifest.display()
            );
        };
        *slot = on;
    }
    Ok(())
}

fn read_npm_name(bridge: Option<&Value>, manifest: &Path, crate_name: &str) -> Result<String> {
    Ok(match bridge.and_then(|b| b.get("npm-name")) {
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
    })
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
        assert_eq!(s.release.wasm_opt, WasmOpt::Flags(vec!["-O".into()]));
        assert_eq!(s.profiling.wasm_opt, WasmOpt::Flags(vec!["-O".into()]));
        assert_eq!(s.dev.wasm_opt, WasmOpt::Off);
        assert!(s.dev.debug_js_glue && !s.release.debug_js_glue);
        assert!(s.warnings.is_empty());
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
            s.release.wasm_opt,
            WasmOpt::Flags(vec!["-O3".into(), "--strip-debug".into()])
        );
        let off = read_json(json!({"bridge": {"wasm-opt": false}}), "shelf").unwrap();
        assert_eq!(off.release.wasm_opt, WasmOpt::Off);
        assert_eq!(off.profiling.wasm_opt, WasmOpt::Off);
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
    fn a_table_that_is_not_one_names_its_header_and_what_was_found() {
        for (metadata, header) in [
            (json!({"wasm-pack": 3}), "`[package.metadata.wasm-pack]`"),
            (
                json!({"wasm-pack": {"profile": {"release": "fast"}}}),
                "`[package.metadata.wasm-pack.profile.release]`",
            ),
            (
                json!({"bridge": {"profile": {"dev": {"wasm-bindgen": true}}}}),
                "`[package.metadata.bridge.profile.dev.wasm-bindgen]`",
            ),
        ] {
            let err = read_json(metadata, "shelf").unwrap_err().to_string();
            assert!(err.starts_with("/x/Cargo.toml: "), "{err}");
            assert!(
                err.contains(&format!("{header} must be a table, found ")),
                "{err}"
            );
        }
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

    #[test]
    fn wasm_packs_profiles_are_read_and_bridge_keys_override_them() {
        let s = read_json(
            json!({
                "wasm-pack": {"profile": {
                    "release": {"wasm-opt": ["-Oz", "--enable-bulk-memory"],
                                "wasm-bindgen": {"debug-js-glue": true, "demangle-name-section": false}},
                    "dev": {"wasm-opt": ["-O1"], "wasm-bindgen": {"dwarf-debug-info": true}},
                    "profiling": {"wasm-opt": false,
                                  "wasm-bindgen": {"omit-default-module-path": true,
                                                   "split-linked-modules": true}},
                }},
            }),
            "shelf",
        )
        .unwrap();
        assert_eq!(
            s.release.wasm_opt,
            WasmOpt::Flags(vec!["-Oz".into(), "--enable-bulk-memory".into()])
        );
        assert!(s.release.debug_js_glue && !s.release.demangle_name_section);
        assert_eq!(s.dev.wasm_opt, WasmOpt::Flags(vec!["-O1".into()]));
        assert!(s.dev.dwarf_debug_info && s.dev.debug_js_glue);
        assert_eq!(s.profiling.wasm_opt, WasmOpt::Off);
        assert!(s.profiling.omit_default_module_path && s.profiling.split_linked_modules);
        assert!(!s.release.split_linked_modules);
        assert!(s.warnings.is_empty(), "{:?}", s.warnings);
        // bridge's top-level wasm-opt, then its profile table, over wasm-pack's.
        let s = read_json(
            json!({
                "wasm-pack": {"profile": {"release": {"wasm-opt": ["-Oz"]},
                                          "profiling": {"wasm-opt": ["-Oz"]}}},
                "bridge": {"wasm-opt": ["-O3"], "profile": {"release": {
                    "wasm-opt": ["-O4"], "wasm-bindgen": {"debug-js-glue": true}}}},
            }),
            "shelf",
        )
        .unwrap();
        assert_eq!(s.release.wasm_opt, WasmOpt::Flags(vec!["-O4".into()]));
        assert!(s.release.debug_js_glue);
        assert_eq!(s.profiling.wasm_opt, WasmOpt::Flags(vec!["-O3".into()]));
    }

    #[test]
    fn unknown_wasm_pack_keys_are_warnings_naming_the_key_and_bridge_ones_errors() {
        let s = read_json(
            json!({"wasm-pack": {"profile": {
                "release": {"wasm-opt": false, "wasm-bindgen": {"future-key": true}},
                "custom": {},
            }, "other": 1}}),
            "shelf",
        )
        .unwrap();
        let all = s.warnings.join("\n");
        for key in ["`future-key`", "`custom`", "`other`"] {
            assert!(all.contains(key), "{key} in {all}");
        }
        assert!(all.contains("/x/Cargo.toml"), "{all}");
        assert_eq!(
            s.release.wasm_opt,
            WasmOpt::Off,
            "the known keys still count"
        );
        let err = read_json(
            json!({"bridge": {"profile": {"release": {"wasm-bindgen": {"debug-glue": true}}}}}),
            "shelf",
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("unknown key `debug-glue`"), "{err}");
        assert!(err.contains("`debug-js-glue`"), "{err}");
        let err = read_json(
            json!({"wasm-pack": {"profile": {"dev": {"wasm-bindgen": {"debug-js-glue": "yes"}}}}}),
            "shelf",
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains(
                "[package.metadata.wasm-pack.profile.dev.wasm-bindgen] debug-js-glue = \"yes\""
            ),
            "{err}"
        );
    }
}
