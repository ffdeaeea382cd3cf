//! `cargo bridge new NAME`: a bridge crate that builds and whose test passes at once.
//!
//! The crate gets its own copy of the runtime sources in `.bridge/` (git-ignored; see
//! `build/runtime_copy.rs`) and depends on it by a relative path, so it builds the same on every
//! machine that has cargo-bridge: `cargo bridge build` restores the copy when it is missing.

use crate::build::runtime_copy;
use anyhow::{Context, Result, bail};
use minijinja::{Environment, context};
use std::path::{Path, PathBuf};

const TEMPLATES: &[(&str, &str, &str)] = &[
    // (template, file written, template source)
    (
        "Cargo.toml.j2",
        "Cargo.toml",
        include_str!("../../templates/new/Cargo.toml.j2"),
    ),
    (
        "lib.rs.j2",
        "src/lib.rs",
        include_str!("../../templates/new/lib.rs.j2"),
    ),
    (
        "test.mjs.j2",
        "tests/{name}.test.mjs",
        include_str!("../../templates/new/test.mjs.j2"),
    ),
    (
        "gitignore.j2",
        ".gitignore",
        include_str!("../../templates/new/gitignore.j2"),
    ),
];

pub fn new(path: &Path, quiet: bool) -> Result<()> {
    let name = crate_name(path)?;
    if path.exists() {
        bail!(
            "`{}` already exists; pick a new directory name (cargo bridge new only creates crates)",
            path.display()
        );
    }
    let mut env = Environment::new();
    env.set_keep_trailing_newline(true);
    for (template, _, source) in TEMPLATES {
        env.add_template(template, source)?;
    }
    let ctx = context! {
        name => name,
        lib_name => name.replace('-', "_"),
        // A TOML string literal.
        runtime_path => toml::Value::String(runtime_copy::CRATE_COPY_DEPENDENCY.into()).to_string(),
        runtime_dir => runtime_copy::CRATE_COPY_DIR,
        version => env!("CARGO_PKG_VERSION"),
    };
    for (template, file, _) in TEMPLATES {
        let text = env.get_template(template)?.render(&ctx)?;
        let dest = path.join(file.replace("{name}", &name));
        std::fs::create_dir_all(dest.parent().expect("files are inside the crate"))?;
        std::fs::write(&dest, text).with_context(|| format!("writing {}", dest.display()))?;
    }
    runtime_copy::ensure(&path.join(runtime_copy::CRATE_COPY_DIR))?;
    if !quiet {
        eprintln!(
            "     Created bridge crate `{name}` in {}\n\n  cd {} && cargo bridge build && node --test tests/",
            path.display(),
            path.display()
        );
    }
    Ok(())
}

/// The crate name: the directory's last component, checked like Cargo and npm do.
fn crate_name(path: &Path) -> Result<String> {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        bail!("`{}` does not end in a directory name", path.display());
    };
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
        && name.starts_with(|c: char| c.is_ascii_lowercase());
    if !valid {
        bail!(
            "`{name}` cannot name a bridge crate: use lowercase letters, digits, `-` and `_`, \
             starting with a letter (it becomes the Cargo and the npm package name)"
        );
    }
    Ok(name.to_string())
}

/// Where cargo-bridge keeps what it installs (wasm-bindgen CLIs) and where earlier
/// releases wrote the runtime: `$CARGO_BRIDGE_HOME`, else `$CARGO_HOME/bridge`, else
/// `~/.cargo/bridge`.
pub fn bridge_home() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os("CARGO_BRIDGE_HOME") {
        return Ok(PathBuf::from(dir));
    }
    if let Some(dir) = std::env::var_os("CARGO_HOME") {
        return Ok(PathBuf::from(dir).join("bridge"));
    }
    match std::env::var_os("HOME") {
        Some(home) => Ok(PathBuf::from(home).join(".cargo/bridge")),
        None => bail!(
            "neither CARGO_BRIDGE_HOME, CARGO_HOME nor HOME is set: set CARGO_BRIDGE_HOME to a directory for the tools cargo-bridge installs"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert_eq!(crate_name(Path::new("a/my-app")).unwrap(), "my-app");
        for bad in ["My-App", "1app", "app!"] {
            let err = crate_name(Path::new(bad)).unwrap_err().to_string();
            assert!(err.contains("lowercase letters"), "{err}");
        }
    }
}
