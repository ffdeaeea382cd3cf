//! `cargo bridge test` as `wasm-pack test`: the `#[wasm_bindgen_test]`s of a plain
//! wasm-bindgen crate (`fixtures/wbg-tests`, no bridge-runtime) run in Node by default and
//! in headless Chromium with `--chromium`: sync and async tests, a failure with its message
//! and captured console output, `#[should_panic]`, `#[ignore]` (and `--ignored`,
//! `--include-ignored`), filters, and a `run_in_browser` module run only in Chromium and
//! reported as not run in Node. Uses the real wasm-bindgen CLI (the shared bridge home).

mod support;

use support::{Run, repo_root, run_in_env};

fn bridge_home() -> String {
    std::env::var("CARGO_BRIDGE_HOME")
        .unwrap_or_else(|_| repo_root().join("target/bridge-home").display().to_string())
}

fn run(args: &[&str]) -> Run {
    let mut all = vec!["test"];
    all.extend_from_slice(args);
    run_in_env(
        &repo_root().join("fixtures/wbg-tests"),
        &all,
        &[("CARGO_BRIDGE_HOME", &bridge_home())],
    )
}

#[track_caller]
fn has(run: &Run, lines: &[&str]) {
    for line in lines {
        assert!(
            run.stdout.contains(line),
            "{line:?} missing:\n{}\n{}",
            run.stdout,
            run.stderr
        );
    }
}

const UNIT_TESTS: &[&str] = &[
    "running 5 tests\n\
     test tests::adds ... ok\n\
     test tests::awaits_a_promise ... ok\n\
     test tests::fails_on_purpose ... FAILED\n\
     test tests::ignored_one ... ignored\n\
     test tests::panics_as_expected ... ok\n",
    "---- tests::fails_on_purpose ----\nlog output:\n    a line the failure shows\n",
    "assertion `left == right` failed: add is not wrong, this test is",
    "failures:\n    tests::fails_on_purpose\n",
    "test result: FAILED. 3 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out\n",
];

#[test]
fn wasm_bindgen_tests_run_in_node_as_wasm_pack_runs_them() {
    let node = run(&[]);
    assert_eq!(node.code, Some(101), "{}\n{}", node.stdout, node.stderr);
    has(&node, UNIT_TESTS);
    // The run_in_browser module is not run in Node, and said so (once).
    has(
        &node,
        &["note: 1 test function of `wbg-tests` did not run:\n    \
           1 #[wasm_bindgen_test]: in tests/browser.rs: \
           wasm_bindgen_test_configure!(run_in_browser): they run with `cargo bridge test --chromium`\n"],
    );
    assert!(!node.stdout.contains("has_a_document"), "{}", node.stdout);

    // A filter, --exact, --ignored, --include-ignored; runs of the same build reuse the
    // wasm-bindgen CLI's output (its run is most of a run's time).
    let glue_times = || {
        let dir = support::shared_target_dir().join("bridge/test/wbg-tests/node");
        let mut times: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .filter_map(|module| std::fs::metadata(module.path().join("test.js")).ok())
            .map(|m| m.modified().unwrap())
            .collect();
        times.sort();
        times
    };
    let before = glue_times();
    assert!(!before.is_empty());
    let filtered = run(&["awaits"]);
    filtered.ok();
    has(
        &filtered,
        &[
            "running 1 test\ntest tests::awaits_a_promise ... ok\n",
            "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 4 filtered out",
        ],
    );
    let none = run(&["tests::add", "--exact"]);
    none.ok();
    has(
        &none,
        &[
            "running 0 tests\n",
            "0 passed; 0 failed; 0 ignored; 0 measured; 5 filtered out",
        ],
    );
    let exact = run(&["tests::adds", "--exact"]);
    exact.ok();
    has(&exact, &["running 1 test\ntest tests::adds ... ok\n"]);
    let ignored = run(&["--ignored"]);
    assert_eq!(ignored.code, Some(101), "{}", ignored.stdout);
    has(
        &ignored,
        &[
            "running 1 test\ntest tests::ignored_one ... FAILED\n",
            "an ignored test ran",
        ],
    );
    let included = run(&["--include-ignored", "one"]);
    assert_eq!(included.code, Some(101), "{}", included.stdout);
    has(&included, &["test tests::ignored_one ... FAILED\n"]);
    assert_eq!(
        glue_times(),
        before,
        "the CLI ran again over the same module"
    );
}

#[test]
fn wasm_bindgen_tests_run_in_chromium_with_the_browser_only_module() {
    let chromium = run(&["--chromium"]);
    assert_eq!(
        chromium.code,
        Some(101),
        "{}\n{}",
        chromium.stdout,
        chromium.stderr
    );
    has(&chromium, UNIT_TESTS);
    has(
        &chromium,
        &["running 1 test\ntest has_a_document ... ok\n\ntest result: ok. 1 passed"],
    );
    assert!(
        chromium
            .stderr
            .contains("tests/browser.rs of wbg-tests (headless Chromium)"),
        "{}",
        chromium.stderr
    );
    assert!(
        !chromium.stdout.contains("did not run"),
        "{}",
        chromium.stdout
    );
}

/// A bridge crate with both kinds of tests: one build, one runtime start, one report in
/// which `#[bridge::test]`s and `#[wasm_bindgen_test]`s interleave by path; a
/// `run_in_browser` configuration keeps the wasm-bindgen tests to Chromium (the bridge
/// tests still run in Node).
#[test]
fn both_kinds_of_tests_in_one_crate_give_one_report() {
    let project = support::Project::workspace(&["mx"], "");
    let lib = "use bridge_runtime::bridge;\nuse wasm_bindgen::prelude::*;\n\n\
               #[bridge]\npub fn double(x: u32) -> u32 { x * 2 }\n\n\
               #[wasm_bindgen]\npub fn triple(x: u32) -> u32 { x * 3 }\n\n\
               #[cfg(test)]\nmod tests {\n    use super::*;\n    \
                   use wasm_bindgen_test::wasm_bindgen_test;\n    CONFIGURE\n\
                   #[bridge::test]\n    fn a_bridge_side() { assert_eq!(double(2), 4); }\n    \
                   #[wasm_bindgen_test]\n    fn b_wbg_side() { assert_eq!(triple(2), 6); }\n    \
                   #[bridge::test]\n    fn c_bridge_fails() { assert_eq!(double(1), 3, \"bridge failure on purpose\"); }\n    \
                   #[wasm_bindgen_test]\n    async fn d_wbg_fails() { assert_eq!(triple(1), 4, \"wbg failure on purpose\"); }\n}\n";
    project
        .bridge_crate(
            "mx",
            "mixed-tests-crate",
            "\"cdylib\"",
            "wasm-bindgen = \"=0.2.130\"\n\n[dev-dependencies]\nwasm-bindgen-test = \"0.3\"\n",
            &lib.replace("CONFIGURE", ""),
        )
        // The versions fixtures/wbg-tests locks (wasm-bindgen 0.2.130, the CLI's).
        .file(
            "Cargo.lock",
            &support::read(&repo_root().join("fixtures/wbg-tests/Cargo.lock")),
        );
    let env = [("CARGO_BRIDGE_HOME", bridge_home())];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    for args in [&["test"][..], &["test", "--chromium"]] {
        let run = run_in_env(&project.root(), args, &env);
        assert_eq!(
            run.code,
            Some(101),
            "{args:?}\n{}\n{}",
            run.stdout,
            run.stderr
        );
        has(
            &run,
            &[
                "running 4 tests\n\
                 test tests::a_bridge_side ... ok\n\
                 test tests::b_wbg_side ... ok\n\
                 test tests::c_bridge_fails ... FAILED\n\
                 test tests::d_wbg_fails ... FAILED\n",
                "bridge failure on purpose",
                "wbg failure on purpose",
                "failures:\n    tests::c_bridge_fails\n    tests::d_wbg_fails\n",
                "test result: FAILED. 2 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out\n",
            ],
        );
        assert_eq!(
            run.stdout.matches("test result:").count(),
            1,
            "{}",
            run.stdout
        );
    }
    // Configured run_in_browser: in Node only the bridge tests run, the others are listed.
    project.file(
        "mx/src/lib.rs",
        &lib.replace(
            "CONFIGURE",
            "wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);",
        ),
    );
    let node = run_in_env(&project.root(), &["test"], &env);
    assert_eq!(node.code, Some(101), "{}\n{}", node.stdout, node.stderr);
    has(
        &node,
        &[
            "running 2 tests\ntest tests::a_bridge_side ... ok\ntest tests::c_bridge_fails ... FAILED\n",
            "note: 2 test functions of `mixed-tests-crate` did not run:\n    \
             2 #[wasm_bindgen_test]s: wasm_bindgen_test_configure!(run_in_browser)",
        ],
    );
}

/// A bridge crate that gets wasm-bindgen only through wasm-bindgen-test (a dev-dependency):
/// its test build would link a wasm-bindgen its package build does not; named, with the fix,
/// before anything is compiled.
#[test]
fn wasm_bindgen_only_through_dev_dependencies_is_named_with_the_fix() {
    let project = support::Project::workspace(&["mxd"], "");
    project
        .bridge_crate(
            "mxd",
            "mixed-dev-only-crate",
            "\"cdylib\"",
            "[dev-dependencies]\nwasm-bindgen-test = \"0.3\"\n",
            "#[bridge_runtime::bridge]\npub fn one() -> u32 { 1 }\n",
        )
        .file(
            "Cargo.lock",
            &support::read(&repo_root().join("fixtures/wbg-tests/Cargo.lock")),
        );
    let home = bridge_home();
    run_in_env(&project.root(), &["test"], &[("CARGO_BRIDGE_HOME", &home)])
        .fails()
        .stderr_has(&[
            "`mixed-dev-only-crate` links wasm-bindgen 0.2.130 only through its dev-dependencies",
            "add `wasm-bindgen = \"=0.2.130\"` to its [dependencies]",
        ])
        .compiled_nothing();
}
