//! `cargo bridge new NAME`: a bridge crate that builds and whose test passes at once.
//!
//! `bridge-runtime` is not on crates.io, so the CLI carries the runtime crates' sources
//! (embedded at its own build, see build.rs) and writes them once per version and
//! content hash to `$CARGO_BRIDGE_HOME` (default `$CARGO_HOME/bridge`, i.e.
//! `~/.cargo/bridge`): `runtime-<version>-<hash>/`. The new crate depends on that copy by
//! path, so it resolves offline, outside this repository, and keeps working when the
//! checkout the CLI was installed from is gone. A later cargo-bridge writes its own copy
//! beside it; an existing copy is reused (and rewritten if it is incomplete).

use anyhow::{Context, Result, bail};
use minijinja::{Environment, context};
use std::path::{Path, PathBuf};

mod runtime {
    include!(concat!(env!("OUT_DIR"), "/runtime_sources.rs"));
}

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
    let runtime = write_runtime(&bridge_home()?)?;
    let mut env = Environment::new();
    env.set_keep_trailing_newline(true);
    for (template, _, source) in TEMPLATES {
        env.add_template(template, source)?;
    }
    let ctx = context! {
        name => name,
        lib_name => name.replace('-', "_"),
        // A TOML string literal, escaped.
        runtime_path => toml::Value::String(runtime.join("bridge-runtime").display().to_string()).to_string(),
        version => env!("CARGO_PKG_VERSION"),
    };
    for (template, file, _) in TEMPLATES {
        let text = env.get_template(template)?.render(&ctx)?;
        let dest = path.join(file.replace("{name}", &name));
        std::fs::create_dir_all(dest.parent().expect("files are inside the crate"))?;
        std::fs::write(&dest, text).with_context(|| format!("writing {}", dest.display()))?;
    }
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

/// `$CARGO_BRIDGE_HOME`, else `$CARGO_HOME/bridge`, else `~/.cargo/bridge`.
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
            "neither CARGO_BRIDGE_HOME, CARGO_HOME nor HOME is set: set CARGO_BRIDGE_HOME to a directory for the runtime sources and tools"
        ),
    }
}

/// Write the embedded runtime sources to `<home>/runtime-<version>-<hash>/` unless a
/// complete copy is there; returns that directory.
fn write_runtime(home: &Path) -> Result<PathBuf> {
    let dir = home.join(format!(
        "runtime-{}-{}",
        env!("CARGO_PKG_VERSION"),
        runtime::HASH
    ));
    let marker = dir.join(".complete");
    if marker.is_file() {
        return Ok(dir);
    }
    // Write beside, then rename: a crash never leaves a half copy under the final name.
    let staging = home.join(format!(".staging-{}-{}", runtime::HASH, std::process::id()));
    let result = (|| -> Result<()> {
        for (rel, text) in runtime::FILES {
            let dest = staging.join(rel);
            std::fs::create_dir_all(dest.parent().expect("files are inside the copy"))?;
            std::fs::write(&dest, text)?;
        }
        std::fs::write(staging.join(".complete"), "")?;
        if dir.exists() {
            std::fs::remove_dir_all(&dir)?;
        }
        std::fs::rename(&staging, &dir)?;
        Ok(())
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(e).with_context(|| {
            format!(
                "writing the bridge-runtime sources to {}; set CARGO_BRIDGE_HOME to a writable directory",
                dir.display()
            )
        });
    }
    Ok(dir)
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

    #[test]
    fn the_embedded_runtime_is_standalone() {
        let names: Vec<&str> = runtime::FILES.iter().map(|(p, _)| *p).collect();
        for needed in [
            "bridge-runtime/Cargo.toml",
            "bridge-runtime/src/lib.rs",
            "bridge-runtime/macro/Cargo.toml",
            "bridge-runtime/schema/Cargo.toml",
        ] {
            assert!(names.contains(&needed), "{needed} missing from {names:?}");
        }
        for (path, text) in runtime::FILES {
            if path.ends_with("Cargo.toml") {
                assert!(
                    !text.contains("workspace = true"),
                    "{path} still inherits:\n{text}"
                );
                assert!(
                    !text.contains(".workspace"),
                    "{path} still inherits:\n{text}"
                );
            }
        }
    }
}
