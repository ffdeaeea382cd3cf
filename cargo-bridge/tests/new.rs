//! `cargo bridge new`: the scaffold builds with `cargo bridge build` and its test passes,
//! in an empty folder outside the repository, with the runtime sources the binary carries
//! (written into the crate's `.bridge/`, so nothing of this checkout is used), also after
//! the copy is gone, as on a teammate's fresh clone.

mod support;

use std::path::Path;
use support::{Project, read, run_in_env};

/// The `<version>-<hash>` of the runtime this cargo-bridge carries, from the copy it wrote.
fn runtime_id(krate: &Path) -> String {
    read(&krate.join(".bridge/.cargo-bridge-runtime"))
}

fn node_test_passes(dir: &Path) {
    let out = std::process::Command::new("node")
        .args(["--test", "tests/"])
        .current_dir(dir)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("# pass 1"), "{stdout}");
}

#[test]
fn new_crate_builds_and_its_test_passes() {
    let scratch = Project::empty();
    let home = scratch.path("bridge-home");
    let env = [("CARGO_BRIDGE_HOME", home.to_str().unwrap())];
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
        manifest.contains(r#"bridge-runtime = { path = ".bridge/bridge-runtime" }"#),
        "the dependency is the crate's own copy, by a path that holds on every machine:\n{manifest}"
    );
    assert!(
        !manifest.contains(support::repo_root().to_str().unwrap()),
        "the scaffold must not depend on this checkout:\n{manifest}"
    );
    assert!(dir.join(".bridge/bridge-runtime/Cargo.toml").is_file());
    assert!(read(&dir.join(".gitignore")).contains("/.bridge"));
    assert!(dir.join("src/lib.rs").is_file());
    assert!(dir.join("tests/my-notes.test.mjs").is_file());

    run_in_env(&dir, &["build"], &env)
        .ok()
        .stderr_has(&[&format!(
            "Packaged my-notes → {} (2 classes by identity mode: 2 pointer)",
            dir.join("pkg").display()
        )]);
    assert!(dir.join("pkg/my_notes_bg.wasm").is_file());
    node_test_passes(&dir);
    // Its #[bridge::test] runs inside wasm.
    let test = run_in_env(&dir, &["test"], &env);
    test.ok();
    assert!(
        test.stdout
            .contains("test tests::a_starred_note_counts_its_stars ... ok")
            && test.stdout.contains("test result: ok. 1 passed; 0 failed"),
        "{}",
        test.stdout
    );

    // An existing directory and a bad name are errors.
    run_in_env(&scratch.root(), &["new", "my-notes"], &env)
        .fails()
        .stderr_has(&["`my-notes` already exists"]);
    run_in_env(&scratch.root(), &["new", "My Notes"], &env)
        .fails()
        .stderr_has(&["cannot name a bridge crate", "lowercase letters"]);
}

/// A teammate's clone has no `.bridge/` (it is git-ignored): `cargo bridge build` writes it,
/// and replaces a copy another cargo-bridge version wrote.
#[test]
fn a_missing_or_outdated_runtime_copy_restores_itself() {
    let scratch = Project::empty();
    let env = [(
        "CARGO_BRIDGE_HOME",
        scratch.path("bridge-home").to_str().unwrap().to_string(),
    )];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    run_in_env(&scratch.root(), &["new", "clone-notes"], &env).ok();
    let dir = scratch.path("clone-notes");
    let id = runtime_id(&dir);
    std::fs::remove_dir_all(dir.join(".bridge")).unwrap();

    run_in_env(&dir, &["build"], &env)
        .ok()
        .stderr_lacks(&["failed to read"]);
    assert_eq!(runtime_id(&dir), id);
    node_test_passes(&dir);

    // Written by another version (and edited): replaced by this version's sources.
    std::fs::write(
        dir.join(".bridge/.cargo-bridge-runtime"),
        "0.0.1-0000000000000000",
    )
    .unwrap();
    std::fs::write(
        dir.join(".bridge/bridge-runtime/src/lib.rs"),
        "compile_error!(\"the old copy\");",
    )
    .unwrap();
    run_in_env(&dir, &["build"], &env).ok();
    assert_eq!(runtime_id(&dir), id);
}

/// Crates made by earlier releases depend on `<bridge home>/runtime-<version>-<hash>` by
/// absolute path: this version's is restored; another version's is an error saying what
/// to write instead, never cargo's bare "failed to read .../Cargo.toml".
#[test]
fn an_absolute_runtime_path_is_restored_or_explained() {
    let scratch = Project::empty();
    let home = scratch.path("bridge-home");
    let env = [("CARGO_BRIDGE_HOME", home.to_str().unwrap())];
    run_in_env(&scratch.root(), &["new", "legacy-notes"], &env).ok();
    let dir = scratch.path("legacy-notes");
    let id = runtime_id(&dir);
    std::fs::remove_dir_all(dir.join(".bridge")).unwrap();
    let manifest = read(&dir.join("Cargo.toml"));
    let point_at = |runtime: &Path| {
        let text = manifest.replace(
            r#"path = ".bridge/bridge-runtime""#,
            &format!("path = {:?}", runtime.display().to_string()),
        );
        assert_ne!(text, manifest);
        std::fs::write(dir.join("Cargo.toml"), text).unwrap();
    };

    let other = home.join("runtime-0.0.1-0000000000000000/bridge-runtime");
    point_at(&other);
    run_in_env(&dir, &["build"], &env)
        .fails()
        .stderr_has(&[
            "runtime-0.0.1-0000000000000000/bridge-runtime`, which does not exist",
            "written by another cargo-bridge version",
            &format!("this one carries runtime-{id}"),
            r#"`bridge-runtime = { path = ".bridge/bridge-runtime" }`"#,
        ])
        .stderr_lacks(&["failed to read"]);

    let nowhere = scratch.path("nowhere/bridge-runtime");
    point_at(&nowhere);
    run_in_env(&dir, &["build"], &env)
        .fails()
        .stderr_has(&[
            "nowhere/bridge-runtime`, which has no Cargo.toml",
            r#"`bridge-runtime = { path = ".bridge/bridge-runtime" }`"#,
        ])
        .stderr_lacks(&["failed to read"]);

    let ours = home.join(format!("runtime-{id}/bridge-runtime"));
    point_at(&ours);
    run_in_env(&dir, &["build"], &env).ok();
    assert!(ours.join("Cargo.toml").is_file());
    node_test_passes(&dir);
}
