//! The `cargo bridge build` flags that shape the package or reach cargo, checked before
//! anything is built: `--out-name`, `--scope`, the feature flags and the cargo arguments
//! after `--` (which may not take over what cargo bridge itself decides).

use crate::cli::BuildArgs;
use crate::settings::packaging::{check_npm_name, check_part};
use crate::settings::workspace::BridgeCrate;
use anyhow::{Result, bail};

/// Each flag cargo bridge sets itself (a prefix for its `--flag=value` form too), and
/// what to do instead.
const OWNED_BY_CARGO_BRIDGE: &[(&[&str], &str)] = &[
    (
        &["--release", "-r", "--profile"],
        "choose the profile with `cargo bridge build --dev`, `--profiling` or `--release`",
    ),
    (
        &["--target"],
        "the wasm target is always wasm32-unknown-unknown; `cargo bridge build --target` \
         picks the JS environment (nodejs, web, bundler)",
    ),
    (
        &["--manifest-path", "-p", "--package"],
        "pass it to cargo bridge, before the `--`",
    ),
    (
        &[
            "--workspace",
            "--all",
            "--exclude",
            "--lib",
            "--bin",
            "--bins",
            "--example",
            "--examples",
            "--test",
            "--tests",
            "--bench",
            "--benches",
            "--all-targets",
        ],
        "cargo bridge builds the library of each bridge crate; choose crates with `-p`",
    ),
    (
        &["--message-format"],
        "cargo bridge reads cargo's JSON messages",
    ),
];

/// The arguments `cargo build` gets beyond cargo bridge's own: the feature flags, then
/// everything after `--`.
pub fn cargo_args(args: &BuildArgs) -> Result<Vec<String>> {
    for arg in &args.cargo_args {
        for (flags, fix) in OWNED_BY_CARGO_BRIDGE {
            let taken = flags.iter().find(|flag| {
                arg == *flag
                    || arg.starts_with(&format!("{flag}="))
                    // `-pNAME`: a short flag with its value attached.
                    || (flag.len() == 2 && arg.starts_with(*flag))
            });
            if let Some(flag) = taken {
                bail!("`{arg}` after `--` sets `{flag}`, which cargo bridge sets itself: {fix}");
            }
        }
    }
    let mut out = Vec::new();
    for features in &args.features.features {
        out.push("--features".to_string());
        out.push(features.clone());
    }
    if args.features.all_features {
        out.push("--all-features".into());
    }
    if args.features.no_default_features {
        out.push("--no-default-features".into());
    }
    out.extend(args.cargo_args.iter().cloned());
    Ok(out)
}

/// The feature arguments among `cargo_args` (for `cargo metadata`, whose resolve graph
/// must be the build's: a feature may pull in wasm-bindgen).
pub fn feature_args(cargo_args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut args = cargo_args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--features" | "-F" => {
                out.push("--features".into());
                out.extend(args.next().cloned());
            }
            "--all-features" | "--no-default-features" => out.push(arg.clone()),
            _ if arg.starts_with("--features=") || arg.starts_with("-F") => {
                let value = arg
                    .strip_prefix("--features=")
                    .or_else(|| arg.strip_prefix("-F"))
                    .unwrap_or_default();
                out.push("--features".into());
                out.push(value.trim_start_matches('=').to_string());
            }
            _ => {}
        }
    }
    out
}

/// `--out-name`: the stem of the package's files.
pub fn check_out_name(name: &str) -> Result<()> {
    let bad = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')));
    let why = if name.is_empty() {
        Some("it is empty".to_string())
    } else if let Some(c) = bad {
        Some(format!("`{c}` is not allowed"))
    } else if name.starts_with(['.', '-']) {
        Some("it must not start with `.` or `-`".to_string())
    } else {
        None
    };
    if let Some(why) = why {
        bail!(
            "invalid --out-name `{name}`: {why}; it names the files NAME.js, NAME.d.ts and \
             NAME_bg.wasm, so use ASCII letters, digits, `_`, `-` and `.`"
        );
    }
    Ok(())
}

/// `--scope` is written `acme` or `@acme`; returns the bare scope.
pub fn check_scope(scope: &str) -> Result<&str> {
    let bare = scope.strip_prefix('@').unwrap_or(scope);
    if let Err(why) = check_part(bare) {
        bail!("invalid --scope `{scope}`: {why} (npm scopes look like `acme`)");
    }
    Ok(bare)
}

/// The package.json name: the crate's npm name, under `--scope` if given.
pub fn npm_name(krate: &BridgeCrate, scope: Option<&str>) -> Result<String> {
    let name = &krate.settings.npm_name;
    let Some(scope) = scope else {
        return Ok(name.clone());
    };
    if name.starts_with('@') {
        bail!(
            "--scope {scope}: the package name of `{}` is `{name}` (npm-name in \
             [package.metadata.bridge]), which has a scope already; drop --scope or the scope \
             in npm-name",
            krate.name
        );
    }
    let scoped = format!("@{scope}/{name}");
    if let Err(why) = check_npm_name(&scoped) {
        bail!("--scope {scope}: `{scoped}` is not a valid npm package name: {why}");
    }
    Ok(scoped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_flags_are_found_in_every_spelling() {
        let args: Vec<String> = [
            "--locked",
            "--features",
            "a b",
            "-F",
            "c",
            "--features=d",
            "-Fe",
            "--no-default-features",
            "--all-features",
            "-v",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            feature_args(&args),
            [
                "--features",
                "a b",
                "--features",
                "c",
                "--features",
                "d",
                "--features",
                "e",
                "--no-default-features",
                "--all-features"
            ]
        );
    }

    #[test]
    fn out_names_are_file_stems() {
        check_out_name("shelf.v2_x-y").unwrap();
        for (bad, why) in [
            ("", "it is empty"),
            ("a/b", "`/` is not allowed"),
            (".hidden", "must not start"),
            ("über", "`ü` is not allowed"),
        ] {
            let err = check_out_name(bad).unwrap_err().to_string();
            assert!(err.contains(&format!("--out-name `{bad}`")), "{err}");
            assert!(err.contains(why), "{err}");
        }
    }
}
