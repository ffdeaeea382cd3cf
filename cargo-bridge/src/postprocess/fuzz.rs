//! Build-side fuzzing: the whole post-process applied to mutated real fixture modules
//! (`kitchen-sink`, `identity` and `data`, built for wasm32 on first use). Bytes flipped, sections
//! truncated, dropped or repeated, export records with wrong kinds, types, names or
//! versions, wasm imports and exports the runtime relies on removed or retyped: the
//! post-process must return an error that names the module, or a module that validates,
//! and never panic.
//!
//! A short run is part of `cargo test`; `cargo xtask fuzz` runs it for minutes
//! (`BRIDGE_FUZZ_SECONDS`). Every failure prints the failing input (proptest shrinks it)
//! and the seed of the run.

mod corpus;
mod mutate;

use super::{Naming, run};
use crate::settings::identity::IdentityMode;
use mutate::Mutation;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

/// Cases in a plain `cargo test` run, per property.
const CI_CASES: u32 = 160;

const MODES: [IdentityMode; 3] = IdentityMode::ALL;

/// One case: a fixture module, the mutations applied to it in order, and the identity
/// mode given to each class (by position, cycling).
#[derive(Debug, Clone)]
struct Case {
    module: usize,
    mutations: Vec<Mutation>,
    modes: Vec<u8>,
}

fn case() -> impl Strategy<Value = Case> {
    (
        0..corpus::modules().len(),
        prop::collection::vec(mutate::mutation(), 1..4),
        prop::collection::vec(0u8..3, 1..6),
    )
        .prop_map(|(module, mutations, modes)| Case {
            module,
            mutations,
            modes,
        })
}

type Outcome = std::thread::Result<anyhow::Result<super::Output>>;

/// Mutates the case's module and post-processes it, catching a panic.
fn process(case: &Case) -> Outcome {
    let (name, original) = &corpus::modules()[case.module];
    let mut bytes = original.clone();
    for m in &case.mutations {
        bytes = mutate::apply(m, bytes);
    }
    let naming = Naming {
        crate_name: "fuzzed",
        lib_name: "fuzzed",
        target: "nodejs",
        // Both glues meet the mutated modules.
        debug: case.mutations.len() % 2 == 1,
        keep_names: case.mutations.len() % 2 == 1,
        as_written: &std::collections::BTreeSet::new(),
    };
    let classes = std::cell::Cell::new(0usize);
    catch_unwind(AssertUnwindSafe(|| {
        run(
            &bytes,
            name,
            &naming,
            &mut crate::timings::Laps::start(name),
            None,
            |_| {
                let i = classes.get();
                classes.set(i + 1);
                Ok(MODES[usize::from(case.modes[i % case.modes.len()])])
            },
            |imports| crate::postprocess::snippets::resolve(imports, corpus::package_dirs()),
        )
    }))
}

/// The property: an error naming the module, or valid wasm; never a panic.
fn check(case: &Case) -> Result<(), TestCaseError> {
    let name = &corpus::modules()[case.module].0;
    match process(case) {
        Err(panic) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(TestCaseError::fail(format!(
                "the post-process panicked: {message}"
            )))
        }
        Ok(Err(error)) => {
            let message = format!("{error:#}");
            tally(&message.replace(name.as_str(), "<module>"));
            prop_assert!(
                message.contains(name.as_str()),
                "the error does not name the module `{name}`: {message}"
            );
            Ok(())
        }
        Ok(Ok(output)) => {
            tally("ok");
            walrus::Module::from_buffer(&output.wasm).map_err(|e| {
                TestCaseError::fail(format!("the post-process emitted invalid wasm: {e:#}"))
            })?;
            prop_assert!(output.glue.js.contains("export"), "empty glue");
            Ok(())
        }
    }
}

/// How often each kind of outcome occurred (the first words of the error), so a run
/// shows that the mutations reach past the parser.
static OUTCOMES: std::sync::Mutex<std::collections::BTreeMap<String, u64>> =
    std::sync::Mutex::new(std::collections::BTreeMap::new());

fn tally(message: &str) {
    let key: String = message
        .split(['`', '{', '(', '"'])
        .next()
        .unwrap_or_default()
        .chars()
        .take(50)
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .collect();
    *OUTCOMES.lock().unwrap().entry(key).or_default() += 1;
}

/// Runs the property for `BRIDGE_FUZZ_SECONDS` (in rounds of fresh seeds), or
/// [`CI_CASES`] cases once. Returns the number of cases run.
fn fuzz(label: &str, strategy: impl Strategy<Value = Case>) -> u64 {
    let seconds: Option<u64> = std::env::var("BRIDGE_FUZZ_SECONDS").ok().map(|s| {
        s.parse()
            .expect("BRIDGE_FUZZ_SECONDS is a number of seconds")
    });
    let deadline = seconds.map(|s| Instant::now() + Duration::from_secs(s));
    let mut total = 0u64;
    loop {
        let seed: [u8; 32] = rand_seed();
        let config = Config {
            cases: CI_CASES,
            failure_persistence: None,
            ..Config::default()
        };
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed);
        let mut runner = TestRunner::new_with_rng(config, rng);
        if let Err(e) = runner.run(&strategy, |c| check(&c)) {
            panic!("{label}: {e}\nseed (BRIDGE_FUZZ_SEED): {}", hex(&seed));
        }
        total += u64::from(CI_CASES);
        match deadline {
            Some(d) if Instant::now() < d => continue,
            _ => break,
        }
    }
    println!("{label}: {total} cases without a panic; outcomes (shrinking included):");
    for (outcome, count) in OUTCOMES.lock().unwrap().iter() {
        println!("  {count:>8}  {outcome}");
    }
    total
}

/// `BRIDGE_FUZZ_SEED` (64 hex digits) replays a run; otherwise a fresh seed.
fn rand_seed() -> [u8; 32] {
    if let Ok(hex) = std::env::var("BRIDGE_FUZZ_SEED") {
        let mut seed = [0u8; 32];
        for (i, byte) in seed.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16)
                .expect("BRIDGE_FUZZ_SEED is 64 hex digits");
        }
        return seed;
    }
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let mut seed = [0u8; 32];
    seed[..16].copy_from_slice(&nanos.to_le_bytes());
    seed[16..20].copy_from_slice(&std::process::id().to_le_bytes());
    seed
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn mutated_fixture_modules_give_errors_never_panics() {
    let cases = fuzz("post-process fuzz", case());
    assert!(cases >= u64::from(CI_CASES));
}

#[test]
fn unmutated_fixture_modules_process() {
    // The corpus itself is valid: otherwise every case above would be an early error.
    for (index, (name, _)) in corpus::modules().iter().enumerate() {
        for mode in 0..3 {
            let case = Case {
                module: index,
                mutations: Vec::new(),
                modes: vec![mode],
            };
            match process(&case) {
                Ok(Ok(output)) => assert!(
                    output.glue.js.contains("$class = "),
                    "{name}: no class in the glue"
                ),
                Ok(Err(e)) => panic!("{name} in mode {mode}: {e:#}"),
                Err(_) => panic!("{name} in mode {mode}: panicked"),
            }
        }
    }
}
