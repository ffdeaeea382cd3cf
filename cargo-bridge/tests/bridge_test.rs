//! `cargo bridge test`: `#[bridge::test]` functions (in `#[cfg(test)]` modules too) run
//! inside wasm with the real glue, in Node and in headless Chromium; libtest's output and
//! exit code, a filter, a panicking test failing with its message while the others still
//! run; async tests awaiting JS promises, tests returning `Result<(), E>`; a hung async test
//! failing alone by its timeout; declared tests that did not run reported with why, and a
//! run over none of them an error.
//!
//! Crate names are unique per test (see `support`).

mod support;

use support::{Project, run_in_env};

const LIB: &str = r#"
use bridge_runtime::{bridge, JsError, JsPromise, JsValue};

#[bridge]
extern "C" {
    #[bridge(js_namespace = "Math")]
    fn max(a: f64, b: f64) -> f64;
    #[bridge(js_namespace = "JSON")]
    fn stringify(value: &JsValue) -> String;
    #[bridge(js_namespace = "Promise", js_name = "resolve")]
    async fn resolved(value: &JsValue) -> JsValue;
    #[bridge(js_namespace = "Promise", js_name = "reject")]
    async fn rejected(value: &JsValue) -> Result<JsValue, JsError>;
}

#[bridge]
pub struct Tally {
    n: u32,
}

#[bridge]
impl Tally {
    #[bridge(constructor)]
    pub fn new() -> Tally {
        Tally { n: 0 }
    }
    pub fn add(&mut self, by: u32) -> u32 {
        self.n += by;
        self.n
    }
}

/// Calls `f` with each of 1..=n and sums what it returns (a callback from Rust's side).
pub fn sum_with(n: u32, f: &dyn Fn(u32) -> u32) -> u32 {
    (1..=n).map(f).sum()
}

mod checks {
    use super::*;

    #[bridge::test]
    fn imports_reach_js() {
        assert_eq!(max(2.0, 5.0), 5.0);
        assert_eq!(stringify(&JsValue::from("hi")), "\"hi\"");
    }

    #[bridge::test]
    fn classes_and_closures_work() {
        let mut tally = Tally::new();
        assert_eq!(tally.add(2), 2);
        let double = |x: u32| x * 2;
        assert_eq!(sum_with(3, &double), 12);
    }

    #[bridge::test]
    fn panics_on_purpose() {
        let v: Vec<u32> = Vec::new();
        assert_eq!(v.len(), 1, "the vector is empty on purpose");
    }

    #[bridge::test]
    fn runs_after_the_panic() {
        assert_eq!(max(-1.0, -2.0), -1.0);
    }

    #[bridge::test]
    fn returns_err_on_purpose() -> Result<(), String> {
        Err(String::from("an Err on purpose"))
    }

    #[bridge::test]
    fn returns_ok() -> Result<(), String> {
        Ok(())
    }
}

#[cfg(test)]
mod later {
    use super::*;

    #[bridge::test]
    async fn awaits_imports_and_promises() {
        let seven = resolved(&JsValue::from(7.0)).await;
        assert_eq!(seven.as_f64(), Some(7.0));
        let text = JsPromise::new(JsValue::from("plain")).await.ok();
        assert_eq!(text.and_then(|v| v.as_string()).as_deref(), Some("plain"));
        assert_eq!(max(1.0, resolved(&JsValue::from(3.0)).await.as_f64().unwrap()), 3.0);
    }

    #[bridge::test]
    async fn a_rejection_fails_it() -> Result<(), JsError> {
        rejected(&JsValue::from("rejected on purpose")).await?;
        Ok(())
    }

    #[bridge::test]
    async fn panics_after_an_await() {
        resolved(&JsValue::null()).await;
        panic!("a panic after an await on purpose");
    }

    #[bridge::test]
    async fn runs_after_the_async_failures() -> Result<(), JsError> {
        let back = rejected(&JsValue::from(5.0)).await.err().map(|e| e.value.as_f64());
        assert_eq!(back, Some(Some(5.0)));
        Ok(())
    }
}
"#;

fn project(dir: &str, name: &str) -> Project {
    let project = Project::workspace(&[dir], "");
    project.bridge_crate(dir, name, "\"cdylib\"", "", LIB);
    project
}

#[test]
fn tests_run_in_wasm_with_libtest_output_in_node_and_chromium() {
    let project = project("bt", "bt-crate");
    let expected_lines = [
        "running 10 tests",
        "test checks::classes_and_closures_work ... ok",
        "test checks::imports_reach_js ... ok",
        "test checks::panics_on_purpose ... FAILED",
        "test checks::returns_err_on_purpose ... FAILED",
        "test checks::returns_ok ... ok",
        "test checks::runs_after_the_panic ... ok",
        "test later::a_rejection_fails_it ... FAILED",
        "test later::awaits_imports_and_promises ... ok",
        "test later::panics_after_an_await ... FAILED",
        "test later::runs_after_the_async_failures ... ok",
        "---- checks::panics_on_purpose ----",
        "the vector is empty on purpose",
        "---- checks::returns_err_on_purpose ----\nError: \"an Err on purpose\"\n",
        "---- later::a_rejection_fails_it ----\n\
         Error: JsError { name: \"\", message: \"rejected on purpose\", .. }\n",
        "---- later::panics_after_an_await ----",
        "a panic after an await on purpose",
        "failures:\n    checks::panics_on_purpose\n    \
         checks::returns_err_on_purpose\n    later::a_rejection_fails_it\n    \
         later::panics_after_an_await\n",
        "test result: FAILED. 6 passed; 4 failed; 0 ignored; 0 measured; 0 filtered out",
    ];
    let node = project.run(&["test"]);
    assert_eq!(node.code, Some(101), "{}\n{}", node.stdout, node.stderr);
    for line in expected_lines {
        assert!(
            node.stdout.contains(line),
            "{line:?} missing:\n{}",
            node.stdout
        );
    }
    // The tests ran in source order's sorted order, one line each.
    assert_eq!(node.stdout.matches(" ... ").count(), 10, "{}", node.stdout);

    // A filter: only the matching tests run, the rest are counted as filtered out.
    let filtered = project.run(&["test", "imports_reach"]);
    assert_eq!(
        filtered.code,
        Some(0),
        "{}\n{}",
        filtered.stdout,
        filtered.stderr
    );
    assert!(
        filtered.stdout.contains("running 1 test\n")
            && filtered.stdout.contains(
                "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 9 filtered out"
            ),
        "{}",
        filtered.stdout
    );

    // The same tests in headless Chromium (a --target web build).
    let chromium = project.run(&["test", "--chromium"]);
    assert_eq!(
        chromium.code,
        Some(101),
        "{}\n{}",
        chromium.stdout,
        chromium.stderr
    );
    assert!(
        chromium.stderr.contains("(headless Chromium)"),
        "{}",
        chromium.stderr
    );
    for line in expected_lines {
        assert!(
            chromium.stdout.contains(line),
            "{line:?} missing:\n{}",
            chromium.stdout
        );
    }

    // The package build has no test exports.
    project.build(&[]).ok();
    let js = support::read(&project.path("bt/pkg/bt_crate.js"));
    assert!(!js.contains("bridgeTest_"), "{js}");
}

#[test]
fn unsupported_tests_are_compile_errors() {
    let project = Project::workspace(&["bta"], "");
    project.bridge_crate(
        "bta",
        "bt-bad-crate",
        "\"cdylib\"",
        "",
        "use bridge_runtime::bridge;\n\
         #[bridge::test]\nfn with_arg(x: u32) { let _ = x; }\n\
         #[bridge::test]\nfn returns() -> u32 { 1 }\n",
    );
    let run = project.run(&["test"]);
    run.fails().stderr_has(&[
        "a #[bridge::test] function takes no parameters",
        "a #[bridge::test] function returns `()` or `Result<(), E>`",
    ]);
}

/// The case of issue 44: a `#[cfg(test)]` module (as every Rust developer writes one), one
/// passing and one deliberately failing test: `1 passed; 1 failed`, exit 101, the message
/// shown; in Node and in Chromium.
#[test]
fn tests_in_a_cfg_test_module_run_and_a_failure_fails_the_run() {
    let project = Project::workspace(&["bth"], "");
    project.bridge_crate(
        "bth",
        "bt-held-crate",
        "\"cdylib\"",
        "",
        "#[bridge_runtime::bridge]\npub fn two() -> u32 { 2 }\n\n\
         #[cfg(test)]\nmod held_out_tests {\n    \
             #[bridge_runtime::bridge::test]\n    fn adds_in_wasm() { assert_eq!(super::two() + 2, 4); }\n    \
             #[bridge_runtime::bridge::test]\n    fn fails_in_wasm() { assert_eq!(1, 2, \"deliberate\"); }\n}\n",
    );
    for args in [&["test"][..], &["test", "--chromium"]] {
        let run = project.run(args);
        assert_eq!(
            run.code,
            Some(101),
            "{args:?}\n{}\n{}",
            run.stdout,
            run.stderr
        );
        for line in [
            "running 2 tests\n",
            "test held_out_tests::adds_in_wasm ... ok\n",
            "test held_out_tests::fails_in_wasm ... FAILED\n",
            "---- held_out_tests::fails_in_wasm ----\n",
            "assertion `left == right` failed: deliberate",
            "failures:\n    held_out_tests::fails_in_wasm\n",
            "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n",
        ] {
            assert!(
                run.stdout.contains(line),
                "{args:?}: {line:?} missing:\n{}",
                run.stdout
            );
        }
    }
}

/// An async test awaiting a Promise nothing settles, between two passing ones: it fails
/// alone when its (configurable) time is up, the test after it runs, and the report ends
/// with the failures and the summary.
#[test]
fn a_hung_async_test_fails_alone_by_its_timeout() {
    let project = Project::workspace(&["btn"], "");
    project.bridge_crate(
        "btn",
        "bt-never-crate",
        "\"cdylib\"",
        "",
        "use bridge_runtime::{bridge, JsPromise, JsValue};\n\
         #[bridge]\nextern \"C\" {\n    \
             #[bridge(js_name = \"Function\")]\n    \
             fn function(body: &str) -> JsValue;\n}\n\
         #[cfg(test)]\nmod tests {\n    use super::*;\n\
         #[bridge::test]\nfn a_first() {}\n\
         #[bridge::test]\nasync fn b_waits_forever() {\n    \
             // A thenable whose `then` never calls back.\n    \
             let never = JsValue::object();\n    \
             never.set(\"then\", &function(\"\"));\n    \
             let _ = JsPromise::new(JsValue::undefined()).await;\n    \
             let _ = JsPromise::new(never).await;\n}\n\
         #[bridge::test]\nasync fn c_after() {\n    \
             let _ = JsPromise::new(JsValue::from(1.0)).await;\n}\n}\n\
         #[cfg(test)]\nmod spin {\n\
         #[bridge_runtime::bridge::test]\nfn forever() {\n    \
             loop { std::hint::spin_loop(); }\n}\n}\n",
    );
    for args in [
        &["test", "tests::", "--test-timeout", "2"][..],
        &["test", "tests::", "--test-timeout", "2", "--chromium"],
    ] {
        let run = project.run(args);
        assert_eq!(
            run.code,
            Some(101),
            "{args:?}\n{}\n{}",
            run.stdout,
            run.stderr
        );
        for line in [
            "test tests::a_first ... ok\n\
             test tests::b_waits_forever ... FAILED\n\
             test tests::c_after ... ok\n",
            "---- tests::b_waits_forever ----\n\
             the test did not finish within 2 s",
            "failures:\n    tests::b_waits_forever\n",
            "test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 1 filtered out\n",
        ] {
            assert!(
                run.stdout.contains(line),
                "{args:?}: {line:?} missing:\n{}",
                run.stdout
            );
        }
    }
    // A synchronous test that never returns holds the thread: Node's watchdog names it
    // after the timeout plus 10 s and ends the run (it cannot fail alone), never a hang.
    let spin = project.run(&["test", "spin", "--test-timeout", "1"]);
    spin.fails()
        .stderr_has(&["the test runner of unit tests of bt-never-crate failed"]);
    assert!(
        spin.stdout.contains(
            "test spin::forever ... FAILED\n\nerror: spin::forever has not returned after 11 s"
        ),
        "{}",
        spin.stdout
    );
    // A bad limit is named.
    let run = run_in_env(
        &project.root(),
        &["test"],
        &[("WASM_BINDGEN_TEST_TIMEOUT", "soon")],
    );
    run.fails()
        .stderr_has(&["WASM_BINDGEN_TEST_TIMEOUT is \"soon\", not a number of seconds"])
        .compiled_nothing();
}

/// Declared tests that did not run are counted and named with why (a #[cfg] compiled them
/// out, an integration test); when none ran at all, the run is an error, not `ok`.
#[test]
fn tests_that_did_not_run_are_reported_and_none_run_is_an_error() {
    let project = Project::workspace(&["bts"], "");
    project
        .bridge_crate(
            "bts",
            "bt-skip-crate",
            "\"cdylib\"",
            "[features]\nslow = []\n",
            "#[cfg(test)]\nmod tests {\n    \
                 #[bridge_runtime::bridge::test]\n    fn runs() {}\n    \
                 #[cfg(feature = \"slow\")]\n    #[bridge_runtime::bridge::test]\n    fn slow_one() {}\n    \
                 #[test]\n    fn native_one() {}\n}\n\
             // Gated the way cargo bridge test asked for before #[cfg(test)] worked: still run.\n\
             #[cfg(bridge_test)]\nmod older {\n    \
                 #[bridge_runtime::bridge::test]\n    fn gated_the_old_way() {}\n}\n",
        )
        // An integration test with #[bridge::test]s: built and run as a package of its own.
        .file(
            "bts/tests/more.rs",
            "#[bridge_runtime::bridge::test]\nfn from_outside() {}\n\
             #[bridge_runtime::bridge::test]\nfn fails_outside() { panic!(\"outside on purpose\") }\n",
        )
        // One without: not built (for a bridge crate), and said so.
        .file(
            "bts/tests/web.rs",
            "#[wasm_bindgen_test::wasm_bindgen_test]\nfn web_only() {}\n",
        );
    let run = project.run(&["test"]);
    assert_eq!(run.code, Some(101), "{}\n{}", run.stdout, run.stderr);
    for line in [
        "test older::gated_the_old_way ... ok\n",
        "test result: ok. 2 passed; 0 failed",
        "running 2 tests\ntest fails_outside ... FAILED\ntest from_outside ... ok\n",
        "outside on purpose",
        "test result: FAILED. 1 passed; 1 failed",
        "note: 2 test functions of `bt-skip-crate` did not run:\n",
        "    tests::slow_one (src/lib.rs, #[bridge::test]): not in the test build: a #[cfg] \
         compiled it out",
        "    web_only (tests/web.rs, #[wasm_bindgen_test]): in an integration test without \
         #[bridge::test]s",
        "note: 1 #[test] function of `bt-skip-crate` runs natively (`cargo test`), not in wasm",
    ] {
        assert!(
            run.stdout.contains(line),
            "{line:?} missing:\n{}",
            run.stdout
        );
    }
    // With the feature, the gated test is in the build.
    std::fs::remove_file(project.path("bts/tests/web.rs")).unwrap();
    let slow = project.run(&["test", "-F", "slow", "tests::"]);
    slow.ok();
    assert!(
        slow.stdout
            .contains("test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 1 filtered out")
            && !slow.stdout.contains("did not run"),
        "{}",
        slow.stdout
    );
    // Only gated tests: nothing runs, and that is an error.
    project.file(
        "bts/src/lib.rs",
        "#[bridge_runtime::bridge]\npub fn one() -> u32 { 1 }\n\n\
         #[cfg(all(test, feature = \"slow\"))]\nmod tests {\n    \
             #[bridge_runtime::bridge::test]\n    fn slow_one() {}\n}\n",
    );
    std::fs::remove_file(project.path("bts/tests/more.rs")).unwrap();
    let none = project.run(&["test"]);
    none.fails()
        .stderr_has(&["`bt-skip-crate` has test functions, and none of them ran"]);
    assert!(
        none.stdout.contains("running 0 tests")
            && none.stdout.contains("tests::slow_one (src/lib.rs"),
        "{}",
        none.stdout
    );
}

#[test]
fn chromium_that_is_not_there_is_named() {
    let project = project("btc", "bt-nochrome-crate");
    let run = run_in_env(
        &project.root(),
        &["test", "--chromium"],
        &[("CHROMIUM", "/nonexistent/chromium")],
    );
    run.fails()
        .stderr_has(&["CHROMIUM is set to /nonexistent/chromium, which is not a file"])
        .compiled_nothing();
}
