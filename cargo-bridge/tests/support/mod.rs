//! Shared helpers for the CLI integration tests: throwaway Cargo workspaces in temporary
//! directories and a runner for the real `cargo-bridge` binary.
//!
//! Every child process builds into one shared target directory, the one the xtask builds
//! the fixtures in (`<repo>/fixtures/target`), so `bridge-runtime` and its dependencies
//! (the macro's host build, debug and release, wasm-bindgen's crates) are compiled once
//! for all tests and the fixture builds of `cargo xtask test`: the same units (same
//! sources, features and profiles) as theirs. Because the `.wasm` of a cdylib is uplifted
//! to `<target>/wasm32-unknown-unknown/debug/<lib>.wasm`, every test must use crate names
//! no other test and no fixture uses (tests run in parallel).

#![allow(dead_code)] // each test binary uses a different subset

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Root of the cargo-bridge repository.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cargo-bridge lives in the repository root")
        .to_path_buf()
}

/// The target directory shared by every child build: the fixtures' (the default of
/// `xtask/src/fixtures.rs` `fixtures_target_dir`).
pub fn shared_target_dir() -> PathBuf {
    repo_root().join("fixtures").join("target")
}

/// `bridge-runtime = { path = "<repo>/bridge-runtime" }`, TOML-escaped.
pub fn runtime_dependency() -> String {
    let path = repo_root().join("bridge-runtime");
    format!(
        "bridge-runtime = {{ path = {} }}",
        toml_string(&path.display().to_string())
    )
}

fn toml_string(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// A temporary Cargo workspace; deleted on drop.
pub struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    /// An empty directory; add a workspace manifest with [`Project::file`].
    pub fn empty() -> Self {
        let dir = tempfile::Builder::new()
            .prefix("cargo-bridge-cli-")
            .tempdir()
            .expect("create a temporary directory");
        Project { dir }
    }

    /// A workspace whose root `Cargo.toml` has `members` and then `extra` (e.g. a
    /// `[workspace.metadata.bridge]` table).
    pub fn workspace(members: &[&str], extra: &str) -> Self {
        let project = Project::empty();
        let members: Vec<String> = members.iter().map(|m| toml_string(m)).collect();
        project.file(
            "Cargo.toml",
            &format!(
                "[workspace]\nresolver = \"3\"\nmembers = [{}]\n\n{extra}\n",
                members.join(", ")
            ),
        );
        project
    }

    /// Absolute root directory (symlinks resolved, so it matches the paths `cargo
    /// metadata` reports).
    pub fn root(&self) -> PathBuf {
        self.dir
            .path()
            .canonicalize()
            .expect("canonicalize the temporary directory")
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root().join(rel)
    }

    /// Write `contents` to `rel`, creating parent directories.
    pub fn file(&self, rel: &str, contents: &str) -> &Self {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).expect("create parent directories");
        std::fs::write(&path, contents).expect("write a project file");
        self
    }

    /// A member crate `dir/` named `name` with `[lib] crate-type = [crate_types]`, a
    /// dependency on bridge-runtime, `extra` TOML after `[dependencies]` (e.g. a
    /// `[package.metadata.bridge]` table) and `lib_rs` as `src/lib.rs`.
    pub fn bridge_crate(
        &self,
        dir: &str,
        name: &str,
        crate_types: &str,
        extra: &str,
        lib_rs: &str,
    ) -> &Self {
        self.file(
            &format!("{dir}/Cargo.toml"),
            &format!(
                "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
                 [lib]\ncrate-type = [{crate_types}]\n\n[dependencies]\n{}\n\n{extra}\n",
                runtime_dependency()
            ),
        )
        .file(&format!("{dir}/src/lib.rs"), lib_rs)
    }

    /// Run `cargo-bridge bridge <args...>` in the project root.
    pub fn run(&self, args: &[&str]) -> Run {
        run_in(&self.root(), args)
    }

    /// Run `cargo-bridge bridge build <args...>` in the project root.
    pub fn build(&self, args: &[&str]) -> Run {
        let mut all = vec!["build"];
        all.extend_from_slice(args);
        self.run(&all)
    }
}

/// Run `cargo-bridge bridge <args...>` (as `cargo bridge` would) in `dir`.
pub fn run_in(dir: &Path, args: &[&str]) -> Run {
    run_in_env(dir, args, &[])
}

/// [`run_in`] with extra environment variables (e.g. a `PATH` with a fake tool first).
pub fn run_in_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cargo-bridge"));
    cmd.arg("bridge")
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", shared_target_dir())
        .env("CARGO_TERM_COLOR", "never")
        .env("NO_COLOR", "1")
        // Variables `cargo test` sets for this test binary, not meant for the builds.
        .env_remove("CARGO_MANIFEST_DIR")
        .env_remove("CARGO_MANIFEST_PATH")
        .env_remove("CARGO_PRIMARY_PACKAGE")
        .env_remove("CARGO_BUILD_TARGET");
    cmd.envs(env.iter().copied());
    let output = cmd.output().expect("run cargo-bridge");
    Run::new(args, output)
}

/// A finished `cargo-bridge` run.
pub struct Run {
    pub args: Vec<String>,
    pub success: bool,
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    fn new(args: &[&str], output: Output) -> Self {
        Run {
            args: args.iter().map(|a| a.to_string()).collect(),
            success: output.status.success(),
            code: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    fn describe(&self) -> String {
        format!(
            "cargo-bridge bridge {}\n--- exit code: {:?}\n--- stdout:\n{}\n--- stderr:\n{}",
            self.args.join(" "),
            self.code,
            self.stdout,
            self.stderr
        )
    }

    /// Assert the run succeeded.
    #[track_caller]
    pub fn ok(&self) -> &Self {
        assert!(self.success, "expected success\n{}", self.describe());
        self
    }

    /// Assert the run failed with exit code 1 (cargo-bridge's error exit).
    #[track_caller]
    pub fn fails(&self) -> &Self {
        assert_eq!(
            self.code,
            Some(1),
            "expected exit code 1\n{}",
            self.describe()
        );
        self
    }

    /// Assert stderr contains every one of `needles`.
    #[track_caller]
    pub fn stderr_has(&self, needles: &[&str]) -> &Self {
        for needle in needles {
            assert!(
                self.stderr.contains(needle),
                "stderr lacks {needle:?}\n{}",
                self.describe()
            );
        }
        self
    }

    /// Assert stderr contains none of `needles`.
    #[track_caller]
    pub fn stderr_lacks(&self, needles: &[&str]) -> &Self {
        for needle in needles {
            assert!(
                !self.stderr.contains(needle),
                "stderr unexpectedly has {needle:?}\n{}",
                self.describe()
            );
        }
        self
    }

    /// Assert nothing was compiled: neither cargo's `Compiling` nor cargo-bridge's
    /// `Compiled` status line appears.
    #[track_caller]
    pub fn compiled_nothing(&self) -> &Self {
        self.stderr_lacks(&["Compiling", "Compiled"])
    }

    /// The line of stderr starting with `error: ` that cargo-bridge printed last.
    pub fn error_line(&self) -> &str {
        self.stderr
            .lines()
            .rev()
            .find(|l| l.starts_with("error: "))
            .unwrap_or("")
    }
}

/// Read a text file, with the path in the panic message.
#[track_caller]
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// Write the ES module `source` to `script`, run it with node and return its trimmed
/// stdout; a failed run panics with node's stderr.
#[track_caller]
pub fn run_node_module(script: &Path, source: &str) -> String {
    std::fs::write(script, source).unwrap_or_else(|e| panic!("writing {}: {e}", script.display()));
    let out = Command::new("node")
        .arg(script)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "node {} failed:\n{}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The class banner comment the glue writes above each class.
pub fn class_banner(class: &str, krate: &str, mode: &str) -> String {
    format!("// ---- class {class} (crate {krate}, identity mode \"{mode}\") ----")
}
