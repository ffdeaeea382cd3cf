//! `cargo bridge new`: the scaffold builds with `cargo bridge build` and its test passes,
//! in an empty folder outside the repository, with the runtime sources the binary carries
//! (written to a fresh CARGO_BRIDGE_HOME, so nothing of this checkout is used).

mod support;

use support::{Project, read, run_in_env};

#[test]
fn new_crate_builds_and_its_test_passes() {
    let scratch = Project::empty();
    let home = scratch.path("bridge-home");
    let home_str = home.to_str().unwrap();
    let env = [("CARGO_BRIDGE_HOME", home_str)];
    run_in_env(&scratch.root(), &["new", "my-notes"], &env).ok();

    let dir = scratch.path("my-notes");
    let manifest = read(&dir.join("Cargo.toml"));
    assert!(
        manifest.contains("identity-mode = \"pointer\""),
        "{manifest}"
    );
    assert!(
        manifest.contains("\"rust\"    a Rust-owned identity table"),
        "{manifest}"
    );
    assert!(
        manifest.contains(&format!("{home_str}/runtime-")),
        "the dependency points at the written runtime copy:\n{manifest}"
    );
    assert!(
        !manifest.contains(support::repo_root().to_str().unwrap()),
        "the scaffold must not depend on this checkout:\n{manifest}"
    );
    assert!(dir.join("src/lib.rs").is_file());
    assert!(dir.join("tests/my-notes.test.mjs").is_file());

    run_in_env(&dir, &["build"], &env).ok();
    assert!(dir.join("pkg/my_notes_bg.wasm").is_file());
    let out = std::process::Command::new("node")
        .args(["--test", "tests/"])
        .current_dir(&dir)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("# pass 1"), "{stdout}");

    // A second crate reuses the runtime copy; an existing directory is an error.
    run_in_env(&scratch.root(), &["new", "other-notes"], &env).ok();
    let copies = std::fs::read_dir(&home).unwrap().count();
    assert_eq!(copies, 1, "one runtime copy per cargo-bridge version");
    run_in_env(&scratch.root(), &["new", "my-notes"], &env)
        .fails()
        .stderr_has(&["`my-notes` already exists"]);
    run_in_env(&scratch.root(), &["new", "My Notes"], &env)
        .fails()
        .stderr_has(&["cannot name a bridge crate", "lowercase letters"]);
}
