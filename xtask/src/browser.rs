//! `cargo xtask test-browser`: the fixtures' node:test suites in headless Chromium.
//!
//! Builds every fixture (with `--filter`, only those the chosen suites need: see
//! [`selection`]) with `--target web --release` (so wasm-opt runs: the suites check
//! optimized output; but those in `DEBUG_BUILD`) into `target/browser/<fixture>/`, then hands a config to
//! `xtask/js/browser/run.mjs`, which serves the repository on 127.0.0.1, maps each
//! suite's `pkg/` imports to those builds and its `node:test`/`node:assert/strict` to
//! shims, and runs every suite in a fresh page (see that file).

use crate::fixtures::{FIXTURES, Fixture, build_fixture_with, install_cargo_bridge, project_root};
use crate::js_tools;
use anyhow::{Context, Result, bail};
use serde_json::json;
use std::path::{Path, PathBuf};
use xshell::{Shell, cmd};

/// Fixtures built without `--release` here: `wbg-interop` links web-sys, js-sys, chrono and
/// uuid, whose LTO release build costs minutes of CI; its debug build (made for the node
/// suites already) runs its suites in Chromium just as well, and a release build of a
/// crate linking wasm-bindgen, through wasm-opt, is the bench's alongside package.
const DEBUG_BUILD: &[&str] = &["wbg-interop"];

pub fn test_browser(sh: &Shell, filter: Option<&str>) -> Result<()> {
    let js = js_tools::npm_packages(sh)?;
    let chromium = js_tools::chromium(sh)?;
    js_tools::wasm_opt(sh)?;
    // The shims first: they must agree with Node's own node:assert/strict.
    let shim_tests = js.join("browser/assert.test.mjs");
    cmd!(sh, "node --test {shim_tests}").run()?;

    let root = project_root();
    let (build, mut suites) = selection(&root, filter)?;
    if suites.is_empty() {
        bail!("no test suites matched");
    }
    let bridge = install_cargo_bridge(sh)?;
    let out = root.join("target/browser");
    let mut packages = Vec::new();
    for f in build {
        let lib = f.package.replace('-', "_");
        let web_dir = out.join(f.package);
        let web_dir_arg = web_dir.display().to_string();
        let profile: &[&str] = if DEBUG_BUILD.contains(&f.package) {
            &[]
        } else {
            &["--release"]
        };
        let mut args = profile.to_vec();
        args.extend(["--target", "web", "--out-dir", &web_dir_arg]);
        build_fixture_with(sh, &bridge, &root.join(f.manifest), Some(f.package), &args)?;
        packages.push(json!({
            "glue": root.join(f.dir).join("pkg").join(format!("{lib}.js")),
            "web": web_dir.join(format!("{lib}.js")),
        }));
    }
    suites.sort();
    let config = json!({
        "root": root,
        "chromium": chromium,
        "packages": packages,
        "suites": suites,
    });
    let config_path = out.join("config.json");
    std::fs::write(&config_path, serde_json::to_string_pretty(&config)?)?;
    let runner = js.join("browser/run.mjs");
    cmd!(sh, "node {runner} {config_path}")
        .run()
        .context("browser suites failed (see the `not ok` lines above)")?;
    Ok(())
}

/// The fixtures to build (in [`FIXTURES`] order) and the suites to run. Unfiltered: every
/// fixture and every suite. Filtered: the suites of the fixtures whose name contains the
/// filter, and only the fixtures they need: their own, and each other fixture whose
/// `pkg/` a `.mjs` file in their `tests/` names (`../../kitchen-sink/pkg/...`: suites
/// import each other's packages). A package the run did not build is left out of the
/// import map, so a suite reaching one anyway fails on the nodejs glue, never on a stale
/// web build.
fn selection(root: &Path, filter: Option<&str>) -> Result<(Vec<&'static Fixture>, Vec<PathBuf>)> {
    let mut suites = Vec::new();
    let mut texts = Vec::new();
    let chosen: Vec<&Fixture> = FIXTURES
        .iter()
        .filter(|f| filter.is_none_or(|filter| f.package.contains(filter)))
        .collect();
    for f in &chosen {
        let tests = root.join(f.dir).join("tests");
        for entry in
            std::fs::read_dir(&tests).with_context(|| format!("reading {}", tests.display()))?
        {
            let file = entry?.path();
            let name = file.to_string_lossy();
            if name.ends_with(".test.mjs") {
                suites.push(file.clone());
            }
            if filter.is_some() && name.ends_with(".mjs") {
                texts.push(std::fs::read_to_string(&file)?);
            }
        }
    }
    let build = match filter {
        None => FIXTURES.iter().collect(),
        Some(_) => FIXTURES
            .iter()
            .filter(|f| {
                chosen.iter().any(|c| c.package == f.package) || {
                    let dir = Path::new(f.dir).file_name().unwrap_or_default();
                    let named = format!("/{}/pkg/", dir.to_string_lossy());
                    texts.iter().any(|text| text.contains(&named))
                }
            })
            .collect(),
    };
    Ok((build, suites))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(build: &[&Fixture]) -> Vec<&'static str> {
        build.iter().map(|f| f.package).collect()
    }

    #[test]
    fn unfiltered_builds_every_fixture_and_runs_every_suite() {
        let root = project_root();
        let (build, suites) = selection(&root, None).unwrap();
        assert_eq!(names(&build), names(&FIXTURES.iter().collect::<Vec<_>>()));
        for f in FIXTURES {
            let tests = root.join(f.dir).join("tests");
            assert!(
                suites.iter().any(|s| s.starts_with(&tests)),
                "no suite of {}",
                f.package
            );
        }
    }

    #[test]
    fn a_filter_builds_the_matching_fixtures_and_the_packages_their_suites_import() {
        let root = project_root();
        let (build, suites) = selection(&root, Some("shapes")).unwrap();
        assert_eq!(names(&build), ["shapes"]);
        let shapes = root.join("fixtures/shapes/tests");
        assert!(!suites.is_empty() && suites.iter().all(|s| s.starts_with(&shapes)));
        // identity's late-switch suite imports kitchen-sink's package.
        let (build, _) = selection(&root, Some("identity")).unwrap();
        assert_eq!(names(&build), ["kitchen-sink", "identity"]);
        // `/classes/pkg/` is not in `/js-classes/pkg/`: both match the filter by name.
        let (build, _) = selection(&root, Some("classes")).unwrap();
        assert_eq!(names(&build), ["js-classes", "classes"]);
        let (build, suites) = selection(&root, Some("no-such-fixture")).unwrap();
        assert!(build.is_empty() && suites.is_empty());
    }
}
