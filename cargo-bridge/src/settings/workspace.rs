//! The Cargo workspace as `cargo bridge` sees it: which crates to build, where their
//! packages go, and every crate's settings (read by `mod.rs`, validated up front).

use crate::settings::Settings;
use crate::settings::packaging::PackageSettings;
use anyhow::{Context, Result, bail};
use cargo_metadata::{CrateType, Metadata, MetadataCommand, Package, TargetKind};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The target every bridge crate is built for (`build/cargo.rs` builds for it).
pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
const RUNTIME_CRATE: &str = "bridge-runtime";

pub struct Workspace {
    pub manifest_path: PathBuf,
    pub target_dir: PathBuf,
    /// Every package's settings (`identity-mode`, `js-names`), resolved.
    pub settings: Settings,
    /// The crates to build.
    pub crates: Vec<BridgeCrate>,
    /// Directory of every package in the dependency graph, by name (JS module files of
    /// `#[bridge] extern` blocks are relative to their crate's directory).
    pub package_dirs: BTreeMap<String, PathBuf>,
}

pub struct BridgeCrate {
    /// Cargo package name (`my-crate`).
    pub name: String,
    /// Library target name (`my_crate`): the `.wasm` file and the glue files are named after it.
    pub lib_name: String,
    pub dir: PathBuf,
    pub version: String,
    pub description: Option<String>,
    pub license: Option<String>,
    pub repository: Option<String>,
    /// package.json's `collaborators`, as wasm-pack writes them.
    pub authors: Vec<String>,
    pub homepage: Option<String>,
    pub keywords: Vec<String>,
    /// `license-file`: package.json's license is then `SEE LICENSE IN <file>`.
    pub license_file: Option<String>,
    /// The README copied into the package: `readme` of Cargo.toml, else `README.md`.
    pub readme: Option<PathBuf>,
    /// Depends on bridge-runtime. A crate that does not is a plain wasm-bindgen crate:
    /// its package is what wasm-bindgen's CLI writes (`wasm_bindgen/plain.rs`).
    pub bridge: bool,
    /// `[package.metadata.bridge]` npm-name and the profiles' settings.
    pub settings: PackageSettings,
    /// The locked version of `wasm-bindgen` if the crate's wasm32 build links it (directly
    /// or through any dependency): its wasm-bindgen half is then processed by that
    /// version's CLI (`wasm_bindgen/`).
    pub wasm_bindgen: Option<String>,
}

/// `features`: the build's feature flags (`--features a`, `--no-default-features`, …), so
/// the resolve graph is the build's.
pub fn load(
    manifest_path: Option<&Path>,
    package: Option<&str>,
    features: &[String],
) -> Result<Workspace> {
    let mut cmd = MetadataCommand::new();
    // The resolve graph as the wasm32 build sees it: a crate's `wasm-bindgen` often comes
    // through a `[target.'cfg(target_arch = "wasm32")'.dependencies]` table (uuid's `js`).
    let mut options = vec!["--filter-platform".to_string(), WASM_TARGET.to_string()];
    options.extend(features.iter().cloned());
    cmd.other_options(options.clone());
    if let Some(path) = manifest_path {
        check_manifest_path(path)?;
        cmd.manifest_path(path);
    }
    let metadata = super::metadata_cache::exec(&cmd, manifest_path, &options)
        .context("reading the workspace with `cargo metadata`")
        .map_err(crate::build::runtime_copy::explain_metadata_error)?;
    let manifest_path = metadata
        .workspace_root
        .join("Cargo.toml")
        .into_std_path_buf();
    let settings = Settings::read(&metadata, &manifest_path)?;
    let crates = select_crates(&metadata, manifest_path.as_path(), package)?;
    let package_dirs = metadata
        .packages
        .iter()
        .filter_map(|p| {
            let dir = p.manifest_path.parent()?.as_std_path().to_path_buf();
            Some((p.name.to_string(), dir))
        })
        .collect();
    Ok(Workspace {
        package_dirs,
        manifest_path,
        target_dir: metadata.target_directory.clone().into_std_path_buf(),
        settings,
        crates,
    })
}

/// `--manifest-path` names a manifest that exists (cargo's own message for a directory
/// does not say what to pass instead).
fn check_manifest_path(path: &Path) -> Result<()> {
    if path.is_dir() {
        let inside = path.join("Cargo.toml");
        let hint = if inside.is_file() {
            format!(
                "pass the manifest in it: --manifest-path {}",
                inside.display()
            )
        } else {
            "pass --manifest-path with the path of a Cargo.toml file".to_string()
        };
        bail!(
            "--manifest-path `{}` is a directory, not a manifest; {hint}",
            path.display()
        );
    }
    if !path.is_file() {
        bail!(
            "manifest `{}` does not exist; pass --manifest-path with the path of a Cargo.toml",
            path.display()
        );
    }
    Ok(())
}

fn depends_on_runtime(pkg: &Package) -> bool {
    pkg.dependencies.iter().any(|d| d.name == RUNTIME_CRATE)
}

fn lib_target(pkg: &Package) -> Option<&cargo_metadata::Target> {
    pkg.targets.iter().find(|t| {
        t.kind
            .iter()
            .any(|k| matches!(k, TargetKind::Lib | TargetKind::CDyLib | TargetKind::RLib))
    })
}

fn is_cdylib(pkg: &Package) -> bool {
    lib_target(pkg).is_some_and(|t| t.crate_types.contains(&CrateType::CDyLib))
}

/// Does `version` (a full `1.2.3` or a prefix like `1.2`, as in cargo's package specs)
/// name `actual`?
fn version_matches(actual: &cargo_metadata::semver::Version, version: &str) -> bool {
    let full = actual.to_string();
    full == version || full.starts_with(&format!("{version}."))
}

fn select_crates(
    metadata: &Metadata,
    workspace_manifest: &Path,
    package: Option<&str>,
) -> Result<Vec<BridgeCrate>> {
    let chosen: Vec<&Package> = if let Some(spec) = package {
        vec![named_member(metadata, workspace_manifest, spec)?]
    } else if let Some(root) = metadata.root_package() {
        vec![root]
    } else {
        default_members(metadata, workspace_manifest)?
    };
    chosen
        .into_iter()
        .map(|pkg| {
            let wasm_bindgen = crate::wasm_bindgen::detect::locked_version(metadata, pkg);
            check_bridge_crate(pkg, wasm_bindgen)
        })
        .collect()
}

/// The member `-p` names: a package ID spec as cargo takes it, `name` or `name@version`.
fn named_member<'m>(
    metadata: &'m Metadata,
    workspace_manifest: &Path,
    spec: &str,
) -> Result<&'m Package> {
    let members = metadata.workspace_packages();
    let (name, version) = match spec.split_once('@') {
        Some((name, version)) => (name, Some(version)),
        None => (spec, None),
    };
    let Some(pkg) = members.iter().find(|p| p.name.as_str() == name) else {
        let names: Vec<&str> = members.iter().map(|p| p.name.as_str()).collect();
        bail!(
            "package `{name}` is not a member of the workspace at {}; members: {}",
            workspace_manifest.display(),
            names.join(", ")
        );
    };
    if let Some(version) = version
        && !version_matches(&pkg.version, version)
    {
        bail!(
            "package `{spec}`: the workspace member `{name}` is version {}, not {version}; \
             pass `-p {name}` or `-p {name}@{}`",
            pkg.version,
            pkg.version
        );
    }
    Ok(*pkg)
}

/// A virtual workspace's crates to build: its bridge crates, else (a wasm-pack workspace)
/// its wasm-bindgen cdylibs.
fn default_members<'m>(
    metadata: &'m Metadata,
    workspace_manifest: &Path,
) -> Result<Vec<&'m Package>> {
    let members = metadata.workspace_packages();
    let bridge: Vec<&Package> = members
        .iter()
        .copied()
        .filter(|p| depends_on_runtime(p) && is_cdylib(p))
        .collect();
    let plain: Vec<&Package> = members
        .iter()
        .copied()
        .filter(|p| {
            is_cdylib(p) && crate::wasm_bindgen::detect::locked_version(metadata, p).is_some()
        })
        .collect();
    if bridge.is_empty() && plain.is_empty() {
        bail!(
            "no bridge crates in the workspace at {}: a bridge crate depends on `{RUNTIME_CRATE}` \
             (or on `wasm-bindgen`, as wasm-pack builds them) and has \
             `[lib] crate-type = [\"cdylib\"]`",
            workspace_manifest.display()
        );
    }
    Ok(if bridge.is_empty() { plain } else { bridge })
}

fn check_bridge_crate(pkg: &Package, wasm_bindgen: Option<String>) -> Result<BridgeCrate> {
    let manifest = pkg.manifest_path.as_std_path();
    let bridge = depends_on_runtime(pkg);
    if !bridge && wasm_bindgen.is_none() {
        bail!(
            "crate `{}` ({}) depends on neither `{RUNTIME_CRATE}` nor `wasm-bindgen`, so it \
             exports nothing to JS: add `{RUNTIME_CRATE}` to its [dependencies] and export \
             items with #[bridge] (or `wasm-bindgen` and #[wasm_bindgen])",
            pkg.name,
            manifest.display()
        );
    }
    let Some(lib) = lib_target(pkg) else {
        bail!(
            "crate `{}` ({}) has no library target: add src/lib.rs and `[lib] crate-type = [\"cdylib\"]`",
            pkg.name,
            manifest.display()
        );
    };
    if !is_cdylib(pkg) {
        bail!(
            "crate `{}` is not a cdylib, so it cannot become a wasm module: add `[lib] crate-type = \
             [\"cdylib\"]` (keep \"rlib\" too if other crates depend on it) to {}",
            pkg.name,
            manifest.display()
        );
    }
    let settings = crate::settings::package(&pkg.metadata, manifest, &pkg.name)?;
    let dir = manifest
        .parent()
        .expect("a manifest has a directory")
        .to_path_buf();
    // wasm-pack's rule: `readme` if set (`false` turns it off), else README.md.
    let readme = match &pkg.readme {
        Some(file) => Some(dir.join(file.as_std_path())),
        None => Some(dir.join("README.md")),
    }
    .filter(|path| path.is_file());
    Ok(BridgeCrate {
        name: pkg.name.to_string(),
        lib_name: lib.name.replace('-', "_"),
        authors: pkg.authors.clone(),
        homepage: pkg.homepage.clone(),
        keywords: pkg.keywords.clone(),
        license_file: pkg.license_file.as_ref().map(|f| f.to_string()),
        readme,
        bridge,
        dir,
        version: pkg.version.to_string(),
        description: pkg.description.clone(),
        license: pkg.license.clone(),
        repository: pkg.repository.clone(),
        settings,
        wasm_bindgen,
    })
}
