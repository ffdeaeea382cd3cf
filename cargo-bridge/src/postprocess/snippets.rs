//! JS module files that `#[bridge(module = "...")] extern` blocks import: found in their
//! crate's directory and copied into the package as `snippets/<crate>/<path>`, which the
//! glue imports (both targets).

use crate::postprocess::exports::ImportExport;
use anyhow::{Context, Result, anyhow, bail};
use bridge_schema::ImportSource;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One JS module file of a crate.
#[derive(Debug, Clone, PartialEq)]
pub struct Snippet {
    pub crate_name: String,
    /// As written in the attribute (relative to the crate's `Cargo.toml`).
    pub path: String,
    /// Where it is read from.
    pub source: PathBuf,
    /// Relative to the package directory, `/`-separated.
    pub dest: String,
}

/// The module files `imports` use, each once, in a stable order; a missing file is an
/// error naming the file and the functions imported from it.
pub fn resolve(
    imports: &[ImportExport],
    package_dirs: &BTreeMap<String, PathBuf>,
) -> Result<Vec<Snippet>> {
    let mut snippets: Vec<Snippet> = Vec::new();
    for ImportExport { crate_name, import } in imports {
        let ImportSource::Module { path, .. } = &import.source else {
            continue;
        };
        if snippets
            .iter()
            .any(|s| &s.crate_name == crate_name && &s.path == path)
        {
            continue;
        }
        let Some(dir) = package_dirs.get(crate_name) else {
            bail!(
                "crate `{crate_name}` imports JS functions from \"{path}\", but `cargo metadata` \
                 does not list the crate, so the file cannot be found; build from the workspace \
                 that contains it"
            );
        };
        let source = dir.join(path);
        if !source.is_file() {
            return Err(missing(imports, crate_name, path, &source));
        }
        snippets.push(Snippet {
            crate_name: crate_name.clone(),
            path: path.clone(),
            source,
            dest: format!("snippets/{crate_name}/{path}"),
        });
    }
    Ok(snippets)
}

/// The error for a JS module file that does not exist, naming the functions imported from it.
fn missing(imports: &[ImportExport], crate_name: &str, path: &str, source: &Path) -> anyhow::Error {
    let functions: Vec<String> = imports
        .iter()
        .filter(|i| i.crate_name == crate_name)
        .filter_map(|i| match &i.import.source {
            ImportSource::Module {
                path: p,
                name,
                namespace,
            } if p == path => Some(format!(
                "`{}`",
                namespace
                    .iter()
                    .chain([name])
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(".")
            )),
            _ => None,
        })
        .collect();
    anyhow!(
        "JS module {} (imported by crate `{crate_name}` for {}) does not exist: create it, \
         or fix the path in #[bridge(module = \"{path}\")] (relative to the crate's \
         Cargo.toml)",
        source.display(),
        functions.join(", ")
    )
}

/// Copy every snippet into `out_dir`.
pub fn copy(out_dir: &Path, snippets: &[Snippet]) -> Result<()> {
    for s in snippets {
        let dest = out_dir.join(&s.dest);
        if let Some(parent) = dest.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::copy(&s.source, &dest)
            .with_context(|| format!("copying {} to {}", s.source.display(), dest.display()))?;
        // Its TypeScript declarations, where the crate ships them: the `.d.ts` imports the
        // types of imported JS classes from the module.
        if let Some(types) = declarations(&s.source).filter(|t| t.is_file()) {
            let to = declarations(&dest).expect("the same extension");
            std::fs::copy(&types, &to)
                .with_context(|| format!("copying {} to {}", types.display(), to.display()))?;
        }
    }
    Ok(())
}

/// The declaration file TypeScript reads for the module `file`: `x.d.mts` for `x.mjs`,
/// `x.d.ts` for `x.js`, `x.d.cts` for `x.cjs`.
fn declarations(file: &Path) -> Option<PathBuf> {
    let ext = file.extension()?.to_str()?;
    let stem = file.file_stem()?.to_str()?;
    let decl = match ext {
        "mjs" => "d.mts",
        "js" => "d.ts",
        "cjs" => "d.cts",
        _ => return None,
    };
    Some(file.with_file_name(format!("{stem}.{decl}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use bridge_schema::{Import, Ty};

    fn import(name: &str, path: &str) -> ImportExport {
        ImportExport {
            crate_name: "demo".into(),
            import: Import {
                rust_name: name.into(),
                symbol: format!("demo::{name}"),
                source: ImportSource::Module {
                    path: path.into(),
                    name: name.into(),
                    namespace: Vec::new(),
                },
                params: vec![],
                ret: Ty::Unit,
                catch: false,
                member: None,
            },
        }
    }

    #[test]
    fn missing_file_names_the_file_and_functions() {
        let dir = tempfile::tempdir().unwrap();
        let dirs = BTreeMap::from([("demo".to_string(), dir.path().to_path_buf())]);
        let err = resolve(
            &[import("add", "js/gone.mjs"), import("sub", "js/gone.mjs")],
            &dirs,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("gone.mjs"), "{err}");
        assert!(err.contains("`add`, `sub`"), "{err}");
        assert!(err.contains("crate `demo`"), "{err}");
    }

    #[test]
    fn each_file_once_under_snippets() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("js")).unwrap();
        std::fs::write(dir.path().join("js/host.mjs"), "export function add() {}").unwrap();
        let dirs = BTreeMap::from([("demo".to_string(), dir.path().to_path_buf())]);
        let got = resolve(
            &[import("add", "js/host.mjs"), import("sub", "js/host.mjs")],
            &dirs,
        )
        .unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].dest, "snippets/demo/js/host.mjs");
    }
}
