//! Which crates `cargo bridge test` tests, and how: a crate depending on bridge-runtime goes
//! through the package pipeline (its unit-test build with bridge glue); a crate that only
//! links wasm-bindgen (a `wasm-pack test` crate) is tested here, as wasm-pack does it:
//! `cargo test --no-run --tests` for wasm32 (its unit tests and each `tests/*.rs`), then
//! for each test module with `#[wasm_bindgen_test]`s, wasm-bindgen's CLI (the version the
//! crate locks, as for builds) with `--target web`, whose `initSync`/`init` hand back the
//! instance's exports the harness finds the tests in, and the harness in Node or Chromium.
//! A module `wasm_bindgen_test_configure!` sends to a host other than this run's is
//! skipped and reported, never run where it cannot work.

use super::host::{Hosts, run_host};
use super::wasm_info;
use super::{not_run, scan};
use crate::build::cargo::{self, WASM_TARGET};
use crate::cli::TestArgs;
use crate::settings::flags;
use anyhow::{Context, Result, bail};
use cargo_metadata::{DependencyKind, Message, Metadata, MetadataCommand, Package, PackageId};
use std::collections::BTreeSet;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub struct Selection {
    /// Crates depending on bridge-runtime.
    pub bridge: Vec<BridgeCrate>,
    pub plain: Vec<PlainCrate>,
}

pub struct BridgeCrate {
    pub name: String,
    /// Its integration tests: (target name, file relative to the crate).
    pub integration_tests: Vec<(String, PathBuf)>,
}

pub struct PlainCrate {
    name: String,
    dir: PathBuf,
    /// The wasm-bindgen version its test build links.
    wasm_bindgen: String,
    workspace_manifest: PathBuf,
    target_dir: PathBuf,
}

/// The crates to test: `-p`'s, else the manifest's package, else every workspace member
/// that depends on bridge-runtime or links wasm-bindgen.
pub fn select(args: &TestArgs) -> Result<Selection> {
    crate::build::runtime_copy::restore_for(args.manifest_path.as_deref())?;
    let metadata = metadata(args)?;
    let (chosen, named) = chosen(&metadata, args.package.as_deref())?;
    let mut selection = Selection {
        bridge: Vec::new(),
        plain: Vec::new(),
    };
    for pkg in chosen {
        if pkg.dependencies.iter().any(|d| d.name == "bridge-runtime") {
            selection.bridge.push(bridge_crate(&metadata, pkg)?);
        } else if let Some(version) = test_wasm_bindgen(&metadata, pkg) {
            selection.plain.push(PlainCrate {
                name: pkg.name.to_string(),
                dir: pkg
                    .manifest_path
                    .parent()
                    .map(|d| d.as_std_path().to_path_buf())
                    .unwrap_or_default(),
                wasm_bindgen: version,
                workspace_manifest: metadata.workspace_root.join("Cargo.toml").into(),
                target_dir: metadata.target_directory.clone().into(),
            });
        } else if named {
            bail!(
                "`{}` neither depends on bridge-runtime nor links wasm-bindgen, so it has no tests \
                 to run in wasm: run its tests with `cargo test`",
                pkg.name
            );
        }
    }
    if selection.bridge.is_empty() && selection.plain.is_empty() {
        bail!(
            "no crate in the workspace at {} depends on bridge-runtime or links wasm-bindgen, so \
             there are no tests to run in wasm: run them with `cargo test`",
            metadata.workspace_root
        );
    }
    Ok(selection)
}

/// The workspace as the wasm32 test build sees it (its features).
fn metadata(args: &TestArgs) -> Result<Metadata> {
    let cargo_args = flags::cargo_args(&args.build_args())?;
    let mut cmd = MetadataCommand::new();
    let mut options = vec!["--filter-platform".to_string(), WASM_TARGET.to_string()];
    options.extend(flags::feature_args(&cargo_args));
    cmd.other_options(options);
    if let Some(path) = &args.manifest_path {
        cmd.manifest_path(path);
    }
    cmd.exec()
        .context("reading the workspace with `cargo metadata`")
        .map_err(crate::build::runtime_copy::explain_metadata_error)
}

/// The packages `-p` names, else the manifest's package, else every member; and whether
/// they were named (a named one that has no tests in wasm is an error).
fn chosen<'m>(metadata: &'m Metadata, package: Option<&str>) -> Result<(Vec<&'m Package>, bool)> {
    let members = metadata.workspace_packages();
    Ok(match package {
        Some(spec) => {
            let name = spec.split_once('@').map_or(spec, |(name, _)| name);
            match members.iter().find(|p| p.name.as_str() == name) {
                Some(pkg) => (vec![*pkg], true),
                None => {
                    let names: Vec<&str> = members.iter().map(|p| p.name.as_str()).collect();
                    bail!(
                        "package `{name}` is not a member of the workspace at {}; members: {}",
                        metadata.workspace_root,
                        names.join(", ")
                    );
                }
            }
        }
        None => match metadata.root_package() {
            Some(root) => (vec![root], true),
            None => (members.clone(), false),
        },
    })
}

/// A crate depending on bridge-runtime, and its integration tests.
fn bridge_crate(metadata: &Metadata, pkg: &Package) -> Result<BridgeCrate> {
    // The package pipeline runs wasm-bindgen's CLI for what the crate links; its
    // test build must not link more (wasm-bindgen-test brings wasm-bindgen).
    if let (Some(version), None) = (
        test_wasm_bindgen(metadata, pkg),
        crate::wasm_bindgen::detect::locked_version(metadata, pkg),
    ) {
        bail!(
            "`{}` links wasm-bindgen {version} only through its dev-dependencies \
             (wasm-bindgen-test), which cargo bridge test does not support for a crate \
             depending on bridge-runtime: add `wasm-bindgen = \"={version}\"` to its \
             [dependencies]",
            pkg.name
        );
    }
    let dir = pkg
        .manifest_path
        .parent()
        .map(|d| d.as_std_path().to_path_buf());
    let integration_tests = pkg
        .targets
        .iter()
        .filter(|t| t.kind.contains(&cargo_metadata::TargetKind::Test))
        .map(|t| {
            let file = t.src_path.as_std_path();
            let relative = dir
                .as_deref()
                .and_then(|d| file.strip_prefix(d).ok())
                .unwrap_or(file);
            (t.name.clone(), relative.to_path_buf())
        })
        .collect();
    Ok(BridgeCrate {
        name: pkg.name.to_string(),
        integration_tests,
    })
}

/// The wasm-bindgen version `pkg`'s test build links: through its normal and
/// dev-dependencies (`wasm-bindgen-test`), then their normal ones.
fn test_wasm_bindgen(metadata: &Metadata, pkg: &Package) -> Option<String> {
    let resolve = metadata.resolve.as_ref()?;
    let mut seen: BTreeSet<&PackageId> = BTreeSet::new();
    let mut stack = vec![(&pkg.id, true)];
    while let Some((id, root)) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let Some(node) = resolve.nodes.iter().find(|n| &n.id == id) else {
            continue;
        };
        for dep in &node.deps {
            let linked = dep.dep_kinds.iter().any(|k| {
                k.kind == DependencyKind::Normal || root && k.kind == DependencyKind::Development
            });
            if linked {
                stack.push((&dep.pkg, false));
            }
        }
    }
    metadata
        .packages
        .iter()
        .filter(|p| p.name.as_str() == "wasm-bindgen" && seen.contains(&p.id))
        .map(|p| p.version.to_string())
        .max()
}

/// One test module cargo built.
struct TestModule {
    /// `src/lib.rs`, `tests/web.rs`: what `cargo test` names it by.
    source: String,
    wasm: PathBuf,
}

/// Build and run `krate`'s tests; whether one failed.
pub fn run(
    krate: &PlainCrate,
    args: &TestArgs,
    hosts: &Hosts,
    options: &serde_json::Value,
) -> Result<bool> {
    cargo::ensure_wasm_target(args.quiet)?;
    let cli = crate::wasm_bindgen::cli::find_or_install(&krate.wasm_bindgen, args.quiet)
        .with_context(|| format!("preparing to test `{}`", krate.name))?;
    let modules = build(krate, args)?;
    let mut outcome = not_run::Outcome {
        integration_built: true,
        ..Default::default()
    };
    let mut failed = false;
    for (index, module) in modules.iter().enumerate() {
        let bytes = std::fs::read(&module.wasm)
            .with_context(|| format!("reading {}", module.wasm.display()))?;
        let info = wasm_info::read(&bytes)
            .with_context(|| format!("reading {}", module.wasm.display()))?;
        if info.wbg_tests.is_empty() {
            continue;
        }
        if let Some(why) = wasm_info::skip_reason(info.host, hosts.chromium.is_some()) {
            outcome
                .skipped
                .push((info.wbg_tests.len(), format!("in {}: {why}", module.source)));
            outcome.compiled.extend(info.wbg_tests);
            continue;
        }
        let out_dir = module_dir(krate, hosts, index);
        bindgen(&cli, &module.wasm, &out_dir)?;
        let (module_failed, result) = run_host(
            hosts,
            &out_dir.join(".runner"),
            wbg_plan(&out_dir),
            options,
            &format!("{} of {}", module.source, krate.name),
            args.quiet,
        )?;
        failed |= module_failed;
        outcome.add(result);
    }
    let declared = scan::declared(&krate.dir);
    not_run::report(
        &krate.name,
        &krate.name.replace('-', "_"),
        &declared,
        &outcome,
    )?;
    Ok(failed)
}

/// Where the test module `index` of `krate` is bound: a folder per host, so a Node run
/// and a Chromium run at once do not share files.
fn module_dir(krate: &PlainCrate, hosts: &Hosts, index: usize) -> PathBuf {
    let host = if hosts.chromium.is_some() {
        "chromium"
    } else {
        "node"
    };
    let test = krate.target_dir.join("bridge/test").join(&krate.name);
    test.join(host).join(format!("module-{index}"))
}

/// The runner's plan for a module wasm-bindgen's CLI bound into `out_dir`: no bridge glue.
fn wbg_plan(out_dir: &Path) -> serde_json::Value {
    serde_json::json!({
        "glue": null,
        "wbg": {
            "glue": out_dir.join("test.js"),
            "wasm": out_dir.join("test_bg.wasm"),
            "skip": null,
        },
    })
}

/// `cargo test --no-run --tests` for wasm32: every test module, in cargo's order.
fn build(krate: &PlainCrate, args: &TestArgs) -> Result<Vec<TestModule>> {
    let cargo_args = flags::cargo_args(&args.build_args())?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["test", "--no-run", "--tests", "--target", WASM_TARGET])
        .arg("--manifest-path")
        .arg(&krate.workspace_manifest)
        .args(["--package", &krate.name])
        .arg("--message-format=json-render-diagnostics")
        .args(&cargo_args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    if args.quiet {
        cmd.arg("--quiet");
    }
    let mut child = cmd.spawn().context("running `cargo test --no-run`")?;
    let stdout = child.stdout.take().expect("piped stdout");
    let mut modules = Vec::new();
    for message in Message::parse_stream(BufReader::new(stdout)) {
        if let Message::CompilerArtifact(artifact) =
            message.context("reading cargo's build messages")?
            && artifact.profile.test
            && let Some(wasm) = artifact.executable
        {
            let source = artifact.target.src_path.as_std_path();
            modules.push(TestModule {
                source: source
                    .strip_prefix(&krate.dir)
                    .unwrap_or(source)
                    .display()
                    .to_string(),
                wasm: wasm.into_std_path_buf(),
            });
        }
    }
    let status = child.wait().context("waiting for `cargo test --no-run`")?;
    if !status.success() {
        bail!(
            "`cargo test --no-run` of `{}` for {WASM_TARGET} failed; see the compiler errors above",
            krate.name
        );
    }
    // cargo reports the artifacts in the order they finish, which varies between builds;
    // a module's output folder is named by its place in this list, so the order must not
    // (else a rerun of the same build finds another module's CLI output there and runs the
    // CLI again, and the run order moves between runs).
    modules.sort_by(|a, b| a.source.cmp(&b.source));
    Ok(modules)
}

/// wasm-bindgen's CLI over a test module: `<out_dir>/test.js` and `test_bg.wasm`; not
/// again for the module it last ran on (same path, size and time: a run of the same build
/// with another filter costs no CLI run, which is most of its time).
fn bindgen(cli: &Path, wasm: &Path, out_dir: &Path) -> Result<()> {
    let stamp_file = out_dir.join(".input");
    let stamp = std::fs::metadata(wasm).ok().and_then(|m| {
        Some(format!(
            "{} {} {:?} {}",
            wasm.display(),
            m.len(),
            m.modified().ok()?,
            cli.display()
        ))
    });
    if stamp.is_some()
        && std::fs::read_to_string(&stamp_file).ok() == stamp
        && out_dir.join("test.js").is_file()
        && out_dir.join("test_bg.wasm").is_file()
    {
        return Ok(());
    }
    let _ = std::fs::remove_dir_all(out_dir);
    let output = Command::new(cli)
        .args(["--target", "web", "--out-name", "test", "--no-typescript"])
        .arg("--out-dir")
        .arg(out_dir)
        .arg(wasm)
        .output()
        .with_context(|| format!("running {}", cli.display()))?;
    if !output.status.success() {
        bail!(
            "wasm-bindgen's CLI ({}) failed on {}:\n{}",
            cli.display(),
            wasm.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    if let Some(stamp) = stamp {
        let _ = std::fs::write(&stamp_file, stamp);
    }
    Ok(())
}
