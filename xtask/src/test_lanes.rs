//! The `cargo test` phase of `cargo xtask test` as two `cargo test --workspace` runs side by
//! side rather than one: cargo runs its test binaries one after another, and the slowest
//! ones leave a core idle for much of their time (a few tests each, most of it one `cargo
//! build` of a scratch crate at a time, or waiting on a timeout, Node or Chromium). The
//! side lane runs those binaries ([`SIDE`]); the main lane runs every other one (named from
//! the test build's own messages, so a new test file lands in it); the doc tests run after
//! whichever lane ends first.
//! Both name `--workspace`, so features resolve as in the test build and nothing compiles
//! again; the CLI tests already run in parallel within a binary (each builds crates named
//! as no other test's), so two binaries at once share nothing either.

use anyhow::{Result, bail};

/// The integration-test binaries of the side lane: together about as long as all the
/// others (fresh clone: ~210 s against ~250 s; nothing changed: ~110 s against ~90 s).
pub const SIDE: &[&str] = &["new", "bridge_test", "wbg_test", "with_wasm_bindgen"];

/// The `cargo test --workspace --quiet` arguments of each lane: the side lane's, then the
/// main lane's (every library and binary's unit tests and every other integration test).
/// The doc tests (`--doc`, which mixes with no other target flag) run after either lane.
pub fn lanes(messages: &str) -> Result<(Vec<String>, Vec<String>)> {
    let tests = integration_tests(messages);
    if let Some(missing) = SIDE.iter().find(|name| !tests.iter().any(|t| t == *name)) {
        bail!(
            "the test build made no integration test `{missing}`: rename it in `SIDE` \
             (xtask/src/test_lanes.rs) too"
        );
    }
    let side = SIDE
        .iter()
        .flat_map(|name| ["--test".to_string(), name.to_string()])
        .collect();
    let mut main = vec!["--lib".to_string(), "--bins".to_string()];
    for name in tests.iter().filter(|t| !SIDE.contains(&t.as_str())) {
        main.extend(["--test".to_string(), name.clone()]);
    }
    Ok((side, main))
}

/// The integration tests (`kind: ["test"]` targets) in `cargo test --no-run
/// --message-format=json` output, each name once.
fn integration_tests(messages: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in messages.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if message["reason"] == "compiler-artifact"
            && message["target"]["kind"] == serde_json::json!(["test"])
            && let Some(name) = message["target"]["name"].as_str()
            && !names.iter().any(|n| n == name)
        {
            names.push(name.to_string());
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn artifact(kind: &str, name: &str) -> String {
        format!(
            r#"{{"reason":"compiler-artifact","target":{{"name":"{name}","kind":["{kind}"]}},"profile":{{"test":true}}}}"#
        )
    }

    #[test]
    fn every_integration_test_runs_in_exactly_one_lane_and_units_in_the_main_one() {
        let mut messages: Vec<String> = SIDE.iter().map(|n| artifact("test", n)).collect();
        messages.extend([
            artifact("test", "cli"),
            artifact("test", "ui"),
            artifact("bin", "cargo-bridge"),
            artifact("lib", "xtask"),
            "not json".to_string(),
            // Built twice (a test and its bench profile): still one `--test`.
            artifact("test", "cli"),
        ]);
        let (side, main) = lanes(&messages.join("\n")).unwrap();
        let tests = |args: &[String]| -> Vec<String> {
            args.windows(2)
                .filter(|w| w[0] == "--test")
                .map(|w| w[1].clone())
                .collect()
        };
        assert_eq!(tests(&side), SIDE);
        assert_eq!(tests(&main), ["cli", "ui"]);
        assert_eq!(&main[..2], ["--lib", "--bins"]);
        assert!(!side.contains(&"--lib".to_string()));
    }

    #[test]
    fn a_side_lane_test_the_build_did_not_make_is_an_error_naming_it() {
        let messages: Vec<String> = SIDE[1..].iter().map(|n| artifact("test", n)).collect();
        let err = lanes(&messages.join("\n")).unwrap_err().to_string();
        assert!(err.contains(&format!("`{}`", SIDE[0])), "{err}");
    }
}
