//! The plain-crate build-cost section's measuring (issue 43): each plain wasm-bindgen
//! fixture (no bridge-runtime) built by `cargo bridge build --target bundler` and by what
//! `wasm-pack build` runs by hand: `cargo build --lib --target wasm32-unknown-unknown`,
//! the wasm-bindgen CLI of the crate's locked version (the one cargo bridge runs, from
//! the bridge home), and for release the same `wasm-opt` with the crate's
//! `[package.metadata.wasm-pack.profile.release] wasm-opt` flags (wasm-pack's default `-O`).
//! Measured as CPU time of the processes (`cpu.rs`), the two ways in turn: from a fresh
//! target directory each (cold), then after touching `src/lib.rs`, debug and release; and
//! the packages' gzip'd `.js` + `.wasm` bytes.

use crate::cpu;
use crate::model::{BuildSpent, PairedBuilds, PlainBuildCost, PlainBuildRow, PlainProfileCost};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;
use xtask::fixtures::{CargoBridge, TargetDirLock, bridge_home, fixtures_target_dir};

/// A plain wasm-bindgen fixture.
pub struct Fixture {
    /// Its directory under `fixtures/` (the row's name).
    pub dir: &'static str,
    /// The workspace manifest and lockfile, under `fixtures/`.
    pub workspace: &'static str,
    pub package: &'static str,
}

pub const FIXTURES: [Fixture; 2] = [
    Fixture {
        dir: "wasm-pack/plain",
        workspace: "wasm-pack",
        package: "wbg-plain",
    },
    Fixture {
        dir: "wbg-tests",
        workspace: "wbg-tests",
        package: "wbg-tests",
    },
];

/// What to build: `touches` paired touch builds per profile, cold pairs or not (else an
/// untimed warm-up pair, unless `warm_up` is off: a smoke run), which profiles, which
/// fixtures.
pub struct Plan {
    pub fixtures: usize,
    pub cold: bool,
    pub warm_up: bool,
    pub touches: u32,
    pub release: bool,
    pub release_cli: bool,
}

pub fn measure(root: &Path, bridge: &CargoBridge, plan: &Plan) -> Result<PlainBuildCost> {
    let wasm_opt = wasm_opt()?;
    // Its touches rewrite modules other fixture builds may be reading (`TargetDirLock`).
    let _turn = TargetDirLock::exclusive()?;
    let mut rows = Vec::new();
    for fixture in FIXTURES.iter().take(plan.fixtures) {
        let crate_ = Crate::new(root, fixture, plan.cold)?;
        let cli = wasm_bindgen_cli(&crate_.wasm_bindgen)?;
        let mut profiles = Vec::new();
        for release in [false, true].into_iter().filter(|r| !r || plan.release) {
            let ways = Ways {
                krate: &crate_,
                bridge,
                cli: &cli,
                wasm_opt: &wasm_opt,
                release,
            };
            profiles.push(ways.measure(plan)?);
        }
        rows.push(PlainBuildRow {
            fixture: fixture.dir,
            wasm_bindgen: crate_.wasm_bindgen.clone(),
            profiles,
        });
    }
    Ok(PlainBuildCost {
        rows,
        release_cli: plan.release_cli,
        skipped: None,
        wasm_opt: wasm_opt.display().to_string(),
    })
}

/// A fixture resolved: its paths and what it locks.
struct Crate {
    dir: &'static str,
    manifest: PathBuf,
    package: &'static str,
    lib_name: String,
    touch: PathBuf,
    wasm_bindgen: String,
    /// `[package.metadata.wasm-pack.profile.release] wasm-opt`, else `-O`.
    release_opt: Vec<String>,
    /// Scratch of both ways (packages, and target directories of the cold builds).
    base: PathBuf,
    /// Cold runs: a target directory per way under `base`; else both build in the
    /// fixtures' target directory (its dependencies usually built by the tests already).
    own_targets: bool,
}

impl Crate {
    fn new(root: &Path, fixture: &Fixture, own_targets: bool) -> Result<Crate> {
        let workspace = root.join("fixtures").join(fixture.workspace);
        let lock_path = workspace.join("Cargo.lock");
        let lock = std::fs::read_to_string(&lock_path)
            .with_context(|| format!("reading {}", lock_path.display()))?;
        let Some(wasm_bindgen) = locked_version(&lock, "wasm-bindgen") else {
            bail!("{} locks no wasm-bindgen", lock_path.display());
        };
        let crate_dir = root.join("fixtures").join(fixture.dir);
        let crate_manifest = crate_dir.join("Cargo.toml");
        let text = std::fs::read_to_string(&crate_manifest)
            .with_context(|| format!("reading {}", crate_manifest.display()))?;
        let release_opt = release_wasm_opt_flags(&text)
            .with_context(|| format!("reading {}", crate_manifest.display()))?;
        Ok(Crate {
            dir: fixture.dir,
            manifest: workspace.join("Cargo.toml"),
            package: fixture.package,
            lib_name: fixture.package.replace('-', "_"),
            touch: crate_dir.join("src/lib.rs"),
            wasm_bindgen,
            release_opt,
            base: root
                .join("target/bench-build/plain")
                .join(fixture.dir.replace('/', "-")),
            own_targets,
        })
    }

    fn target_dir(&self, way: &str) -> PathBuf {
        if self.own_targets {
            self.base.join(format!("target-{way}"))
        } else {
            fixtures_target_dir()
        }
    }
}

/// The two ways of building one profile of one crate.
struct Ways<'a> {
    krate: &'a Crate,
    bridge: &'a CargoBridge,
    cli: &'a Path,
    wasm_opt: &'a Path,
    release: bool,
}

impl Ways<'_> {
    fn profile(&self) -> &'static str {
        if self.release { "release" } else { "debug" }
    }

    fn measure(&self, plan: &Plan) -> Result<PlainProfileCost> {
        let cold = if plan.cold {
            Some(self.cold()?)
        } else if plan.warm_up {
            // No cold builds before: whichever way built first would compile the
            // dependencies in its touch build. Both ways once, untimed (they share the
            // target directory: cheap when the tests built it already).
            eprintln!(
                "bench: build-plain: {} {} warm-up",
                self.krate.dir,
                self.profile()
            );
            self.bridge_build()?;
            self.by_hand()?;
            None
        } else {
            None
        };
        let touch = self.touched(plan.touches)?;
        let bytes_gz = Some((
            crate::size::gzip_tree(&self.out("bridge"))?,
            crate::size::gzip_tree(&self.out("by-hand"))?,
        ));
        Ok(PlainProfileCost {
            release: self.release,
            cold,
            touch,
            bytes_gz,
        })
    }

    /// Both ways once from empty target directories.
    fn cold(&self) -> Result<PairedBuilds> {
        let k = self.krate;
        let mut pair = PairedBuilds::default();
        for way in ["bridge", "by-hand"] {
            let dir = k.target_dir(way);
            if dir.exists() {
                std::fs::remove_dir_all(&dir)
                    .with_context(|| format!("removing {}", dir.display()))?;
            }
        }
        eprintln!("bench: build-plain: {} {} cold", k.dir, self.profile());
        // The second cold build meets the page cache the first filled (sources,
        // the sysroot): cargo bridge goes first in debug, last in release.
        if self.release {
            pair.by_hand.push(self.by_hand()?);
            pair.bridge.push(self.bridge_build()?);
        } else {
            pair.bridge.push(self.bridge_build()?);
            pair.by_hand.push(self.by_hand()?);
        }
        Ok(pair)
    }

    /// Both ways `touches` times, each after touching the crate's source.
    fn touched(&self, touches: u32) -> Result<PairedBuilds> {
        let k = self.krate;
        let mut touch = PairedBuilds::default();
        for i in 0..touches {
            eprintln!(
                "bench: build-plain: {} {} after a touch ({}/{})",
                k.dir,
                self.profile(),
                i + 1,
                touches
            );
            // Who goes first alternates: neither way always meets a just-warmed cache.
            if i % 2 == 0 {
                touch_file(&k.touch)?;
                touch.bridge.push(self.bridge_build()?);
                touch_file(&k.touch)?;
                touch.by_hand.push(self.by_hand()?);
            } else {
                touch_file(&k.touch)?;
                touch.by_hand.push(self.by_hand()?);
                touch_file(&k.touch)?;
                touch.bridge.push(self.bridge_build()?);
            }
        }
        Ok(touch)
    }

    fn out(&self, way: &str) -> PathBuf {
        self.krate
            .base
            .join(format!("pkg-{way}-{}", self.profile()))
    }

    /// `cargo bridge build --target bundler [--release]`.
    fn bridge_build(&self) -> Result<BuildSpent> {
        let k = self.krate;
        let mut cmd = Command::new(&self.bridge.exe);
        cmd.args(["bridge", "build", "--quiet", "--target", "bundler"])
            .arg("--manifest-path")
            .arg(&k.manifest)
            .args(["-p", k.package])
            .arg("--out-dir")
            .arg(self.out("bridge"))
            .env("CARGO_TARGET_DIR", k.target_dir("bridge"));
        if self.release {
            cmd.arg("--release");
        }
        spent(cpu::run(&mut cmd)?)
    }

    /// What `wasm-pack build --target bundler [--dev]` runs: cargo, the wasm-bindgen CLI
    /// (wasm-pack's profile defaults: `--debug` glue for dev), wasm-opt for release.
    fn by_hand(&self) -> Result<BuildSpent> {
        let k = self.krate;
        let target = k.target_dir("by-hand");
        let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
        cargo
            .args([
                "build",
                "--quiet",
                "--lib",
                "--target",
                "wasm32-unknown-unknown",
            ])
            .arg("--manifest-path")
            .arg(&k.manifest)
            .args(["-p", k.package])
            .env("CARGO_TARGET_DIR", &target);
        if self.release {
            cargo.arg("--release");
        }
        let mut total = cpu::run(&mut cargo)?;
        let wasm = target
            .join("wasm32-unknown-unknown")
            .join(self.profile())
            .join(format!("{}.wasm", k.lib_name));
        let out = self.out("by-hand");
        let mut bindgen = Command::new(self.cli);
        bindgen
            .arg(&wasm)
            .arg("--out-dir")
            .arg(&out)
            .args(["--typescript", "--target", "bundler"]);
        if !self.release {
            bindgen.arg("--debug");
        }
        add(&mut total, cpu::run(&mut bindgen)?);
        if self.release {
            let module = out.join(format!("{}_bg.wasm", k.lib_name));
            let optimized = out.join(format!("{}_bg.wasm-opt.wasm", k.lib_name));
            let mut opt = Command::new(self.wasm_opt);
            opt.arg(&module)
                .arg("-o")
                .arg(&optimized)
                .args(&k.release_opt);
            add(&mut total, cpu::run(&mut opt)?);
            std::fs::rename(&optimized, &module)
                .with_context(|| format!("renaming {}", optimized.display()))?;
        }
        spent(total)
    }
}

fn add(total: &mut cpu::Spent, more: cpu::Spent) {
    total.cpu_ms += more.cpu_ms;
    total.wall_ms += more.wall_ms;
}

fn spent(s: cpu::Spent) -> Result<BuildSpent> {
    Ok(BuildSpent {
        cpu_ms: s.cpu_ms,
        wall_ms: s.wall_ms,
    })
}

fn touch_file(path: &Path) -> Result<()> {
    std::fs::File::options()
        .append(true)
        .open(path)
        .and_then(|f| f.set_modified(std::time::SystemTime::now()))
        .with_context(|| format!("touching {}", path.display()))
}

/// The version of `package` a `Cargo.lock` records (the first, if several).
fn locked_version(lock: &str, package: &str) -> Option<String> {
    let mut lines = lock.lines().map(str::trim);
    while let Some(line) = lines.next() {
        if line == format!("name = \"{package}\"") {
            let version = lines.next()?.strip_prefix("version = \"")?;
            return Some(version.strip_suffix('"')?.to_string());
        }
    }
    None
}

/// The release wasm-opt flags of a crate manifest as wasm-pack reads them: `-O` unless
/// `[package.metadata.wasm-pack.profile.release] wasm-opt` lists others.
fn release_wasm_opt_flags(manifest: &str) -> Result<Vec<String>> {
    let value: toml::Value = toml::from_str(manifest)?;
    let flags = [
        "package",
        "metadata",
        "wasm-pack",
        "profile",
        "release",
        "wasm-opt",
    ]
    .iter()
    .try_fold(&value, |v, key| v.get(key));
    match flags {
        None => Ok(vec!["-O".into()]),
        Some(toml::Value::Array(items)) => items
            .iter()
            .map(|f| {
                f.as_str()
                    .map(String::from)
                    .context("wasm-opt flags must be strings")
            })
            .collect(),
        Some(other) => bail!("wasm-opt = {other}: this bench reads a list of flags only"),
    }
}

/// The wasm-bindgen CLI cargo bridge runs for `version`: `$CARGO_BRIDGE_WASM_BINDGEN`,
/// else its copy in the bridge home (cargo bridge installs it there on first use; the
/// first cold build is cargo bridge's, so it exists by the first by-hand build).
fn wasm_bindgen_cli(version: &str) -> Result<PathBuf> {
    if let Some(path) = std::env::var_os("CARGO_BRIDGE_WASM_BINDGEN") {
        return Ok(PathBuf::from(path));
    }
    Ok(bridge_home().join(format!("wasm-bindgen-cli-{version}/bin/wasm-bindgen")))
}

/// The `wasm-opt` cargo bridge runs (`cargo-bridge/src/package/binaryen.rs`): `$CARGO_BRIDGE_WASM_OPT`,
/// else `wasm-opt` on PATH if binaryen 123 or newer, else npm's binaryen 132 in the bridge
/// home.
fn wasm_opt() -> Result<PathBuf> {
    if let Some(path) = std::env::var_os("CARGO_BRIDGE_WASM_OPT") {
        return Ok(PathBuf::from(path));
    }
    let on_path = Command::new("wasm-opt").arg("--version").output().ok();
    if let Some(out) = on_path
        && binaryen_version(&String::from_utf8_lossy(&out.stdout)).is_some_and(|v| v >= 123)
    {
        return Ok(PathBuf::from("wasm-opt"));
    }
    Ok(bridge_home().join("binaryen-132.0.0/node_modules/binaryen/bin/wasm-opt"))
}

/// `wasm-opt version 132 (version_132)` → 132.
fn binaryen_version(text: &str) -> Option<u32> {
    text.split_whitespace()
        .skip_while(|w| *w != "version")
        .nth(1)?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_locked_version_is_the_named_packages_own() {
        let lock = "[[package]]\nname = \"wasm-bindgen-macro\"\nversion = \"0.2.99\"\n\n\
                    [[package]]\nname = \"wasm-bindgen\"\nversion = \"0.2.130\"\n";
        assert_eq!(
            locked_version(lock, "wasm-bindgen").as_deref(),
            Some("0.2.130")
        );
        assert_eq!(locked_version(lock, "js-sys"), None);
    }

    #[test]
    fn release_flags_are_wasm_packs_or_its_default() {
        let with = "[package]\nname = \"x\"\n[package.metadata.wasm-pack.profile.release]\n\
                    wasm-opt = [\"-Oz\", \"--enable-sign-ext\"]\n";
        assert_eq!(
            release_wasm_opt_flags(with).unwrap(),
            ["-Oz", "--enable-sign-ext"]
        );
        assert_eq!(
            release_wasm_opt_flags("[package]\nname = \"x\"\n").unwrap(),
            ["-O"]
        );
        let off = "[package.metadata.wasm-pack.profile.release]\nwasm-opt = false\n";
        assert!(release_wasm_opt_flags(off).is_err());
    }

    #[test]
    fn binaryens_version_line_reads() {
        assert_eq!(
            binaryen_version("wasm-opt version 132 (version_132)\n"),
            Some(132)
        );
        assert_eq!(binaryen_version("wasm-opt version 108\n"), Some(108));
        assert_eq!(binaryen_version("bash: wasm-opt: not found"), None);
    }

    #[test]
    fn the_fixtures_exist_and_link_no_bridge_runtime() {
        let root = xtask::fixtures::project_root();
        for f in &FIXTURES {
            let manifest = root.join("fixtures").join(f.dir).join("Cargo.toml");
            let text = std::fs::read_to_string(&manifest).unwrap();
            assert!(
                text.contains(&format!("name = \"{}\"", f.package)),
                "{}",
                f.dir
            );
            assert!(!text.contains("bridge-runtime ="), "{}", f.dir);
            assert!(
                root.join("fixtures")
                    .join(f.workspace)
                    .join("Cargo.lock")
                    .is_file(),
                "{}",
                f.dir
            );
        }
    }
}
