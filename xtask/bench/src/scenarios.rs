//! The catalogue of scenarios: what each section of `cargo xtask bench` runs. The loops
//! themselves live in `xtask/bench/*.mjs` (identity: `scenarios.mjs`, release pools:
//! `pools.mjs`); the tests below keep the two sides in step.
//!
//! `SCENARIOS`, `POOL_SCENARIOS`, and `PAIRED`: the scenario pairs a target compares per
//! crossing, whose `rust` rows are also timed in turn in one process (`Kind::Paired`,
//! sampled on their ratio).
//!
//! **Adding a scenario** (an identity scenario, run in every mode and by the peer):
//! 1. Rust side of the loop: add what it calls to `bench_class!` in
//!    `fixtures/bench/src/lib.rs` (all three modes get it) and the same API to
//!    `fixtures/bench/peer/src/lib.rs` (as a wasm-bindgen user writes it).
//! 2. JS side: an entry in `xtask/bench/scenarios.mjs`: `{ iterations, crossings,
//!    setup(api), run(api, state, n), floor(api, state, n), teardown(api, state) }`; `run`
//!    must work in chunks (state in `state`), `floor` makes `crossings` bare `floor` calls
//!    per iteration, `teardown` releases what `setup` made; optional: `allocFloor` (an
//!    `alloc-floor` row), `counters(state)` (totals reported with every measure, e.g.
//!    `uiTree`'s memo hits), `jsOnly(small)` (a `js-only` row: an `api` of plain JS objects
//!    for the same `setup`, `run` and `teardown`; set `js_only` in the catalogue too). If it
//!    needs more of the package than `api` gives, extend `loadApi` in `runner.mjs` for both
//!    the bridge classes and the peer's.
//! 3. Catalogue: a [`Scenario`] here (same name, iterations, crossings; `quick_iterations`
//!    for the CI smoke run; `what` is its line in the docs). The tests below check the two
//!    sides agree (they load `scenarios.mjs` in Node, so an entry may come from a factory
//!    such as `consumeScenario`); `cargo xtask test-node --filter bench` runs it in every
//!    mode and checks it leaves no object behind.
//! 4. Targets, if the issue sets some: the group's function in
//!    `report/identity/targets.rs` (or a section of its own, listed in `report::targets`,
//!    for a family with its own table). The tables pick the scenario up by themselves. Try
//!    it: `cargo xtask bench --filter NAME --peer wasm-bindgen`.
//!
//! A scenario with variants instead of modes follows `pools.mjs` (`sample(m, n, state)`
//! returning phases, a `primary` phase per variant) and `POOL_SCENARIOS`, with its tables
//! in its own `report/` section (importing only the leaves; `report/mod.rs` adds its text,
//! doc and targets).

use crate::model::{Mode, PoolScenario, PoolVariant, Scenario};

pub const SCENARIOS: &[Scenario] = &[
    Scenario {
        name: "passBothWaysRoundtrip",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 1,
        objects_per_iteration: 1,
        alloc_floor: false,
        js_only: false,
        what: "Rust returns an object, JS passes it back: `obj = C.roundtrip(obj)`",
    },
    Scenario {
        name: "getPoolRepeated_100",
        iterations: 10_000,
        quick_iterations: 20,
        crossings: 100,
        objects_per_iteration: 100,
        alloc_floor: false,
        js_only: false,
        what: "Rust returns the same 100 objects as a fresh `Vec<Handle<C>>`: `pool.all()`",
    },
    Scenario {
        name: "iterate",
        iterations: 10_000,
        quick_iterations: 20,
        crossings: 100,
        objects_per_iteration: 100,
        alloc_floor: false,
        js_only: false,
        what: "the same 100 objects pulled one per `next()` through a Rust iterator, \
               `for (const c of pool.cycle())` (`impl Iterator<Item = Handle<C>>`), 100 per \
               iteration: per crossing beside `getPoolRepeated_100`'s `Vec<Handle<C>>` \
               (wasm-bindgen: a cursor struct's `next()` in a JS iterator)",
    },
    Scenario {
        name: "churnObjects",
        iterations: 100_000,
        quick_iterations: 1_000,
        crossings: 3,
        objects_per_iteration: 1,
        alloc_floor: false,
        js_only: false,
        what: "`new C(i)`, `C.roundtrip(obj)`, `obj.release()`",
    },
    Scenario {
        name: "rustConsumesSameObject",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 1,
        objects_per_iteration: 1,
        alloc_floor: false,
        js_only: false,
        what: "JS passes one object, Rust reads it: `C.consume(obj)` (`&C` in, `i32` out)",
    },
    Scenario {
        name: "rustCreatesObject",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 2,
        objects_per_iteration: 1,
        alloc_floor: true,
        js_only: false,
        what: "a fresh object per call, released at once in every mode: `C.make(i).release()`",
    },
    Scenario {
        name: "viewRead",
        iterations: 20,
        quick_iterations: 2,
        crossings: 2,
        objects_per_iteration: 0,
        alloc_floor: false,
        js_only: false,
        what: "the Game of Life, 1024×1024 cells: `life.tick()`, then JS reads every cell \
               through `life.cells()`, a `&[u8]` view of wasm memory (wasm-bindgen: \
               `new Uint8Array(memory.buffer, life.cells(), n)`)",
    },
    Scenario {
        name: "lifeRender_256",
        iterations: 100,
        quick_iterations: 2,
        crossings: 2,
        objects_per_iteration: 0,
        alloc_floor: false,
        js_only: false,
        what: "the Game of Life workload, 256×256 cells: per iteration one frame of the Rust and \
               WebAssembly book's loop, `life.tick()`, then every cell read through the \
               `life.cells()` view and its colour written into an RGBA `Uint8ClampedArray` the \
               size of an `ImageData` (the book's `drawCells` without a canvas; the same JS for \
               both peers)",
    },
    Scenario {
        name: "lifeRender_1024",
        iterations: 10,
        quick_iterations: 1,
        crossings: 2,
        objects_per_iteration: 0,
        alloc_floor: false,
        js_only: false,
        what: "`lifeRender_256` at 1024×1024 cells",
    },
    Scenario {
        name: "mutSlice",
        iterations: 100_000,
        quick_iterations: 2_000,
        crossings: 1,
        objects_per_iteration: 0,
        alloc_floor: false,
        js_only: false,
        what: "`fillF64(buf, i)`: a 1,024-element `&mut [f64]` Rust fills, written back into \
               the caller's `Float64Array`",
    },
    Scenario {
        name: "tupleReturn",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 1,
        objects_per_iteration: 0,
        alloc_floor: false,
        js_only: false,
        what: "`tupleReturn(i)`: a `(u32, f64)` returned as a JS array, both elements read \
               (wasm-bindgen: serde-wasm-bindgen)",
    },
    Scenario {
        name: "mapReturn",
        iterations: 20_000,
        quick_iterations: 200,
        crossings: 1,
        objects_per_iteration: 0,
        alloc_floor: false,
        js_only: false,
        what: "`mapReturn()`: a `HashMap<String, u32>` of 100 entries returned as a JS `Map`, \
               one entry read (wasm-bindgen: serde-wasm-bindgen's `Map`)",
    },
    Scenario {
        name: "recordRoundtrip",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 1,
        objects_per_iteration: 0,
        alloc_floor: false,
        js_only: true,
        what: "a `{x, y}` record in and out: `p = movePoint(p)` (wasm-bindgen: \
               serde-wasm-bindgen)",
    },
    Scenario {
        name: "resultOkConsume",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 1,
        objects_per_iteration: 1,
        alloc_floor: false,
        js_only: false,
        what: "`C.consumeOk(obj)`: `rustConsumesSameObject` returning `Result::Ok(i32)`",
    },
    Scenario {
        name: "recordVec_100",
        iterations: 10_000,
        quick_iterations: 20,
        crossings: 100,
        objects_per_iteration: 100,
        alloc_floor: false,
        js_only: true,
        what: "100 records `{ item, x }` holding the same 100 objects each time: \
               `pool.hits()`, both fields read (wasm-bindgen: a struct with getters)",
    },
    Scenario {
        name: "uiTree",
        iterations: 1,
        quick_iterations: 1,
        crossings: 303_333,
        objects_per_iteration: 101_111,
        alloc_floor: false,
        js_only: true,
        what: "the real workload: a Rust-owned tree (101 111 nodes, 5 levels) rendered like UI \
               code: per iteration, 1% of the nodes edited in Rust, then a full re-render (per \
               node `parent()`, the `version` getter, a memo lookup in a `WeakMap` keyed by the \
               node, `value` on a miss, `children()`)",
    },
    Scenario {
        name: "callImport",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 1,
        objects_per_iteration: 1,
        alloc_floor: false,
        js_only: false,
        what: "Rust calls a JS import `(i32) -> i32` in a loop (floor: a bare wasm → JS import \
               call; the peer imports a global)",
    },
    Scenario {
        name: "callJsMethod",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 1,
        objects_per_iteration: 1,
        alloc_floor: false,
        js_only: false,
        what: "Rust calls a method of an imported JS class (`counter.add(1)`, `pub type` in an \
               extern block; the peer: a wasm-bindgen imported type's method) in a loop \
               (floor: a bare import call)",
    },
    Scenario {
        name: "callCallback",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 1,
        objects_per_iteration: 1,
        alloc_floor: false,
        js_only: false,
        what: "Rust calls the JS function passed for the call (`&dyn Fn(i32) -> i32`; the \
               peer: `&js_sys::Function` and `call1`) in a loop (floor: a bare import call)",
    },
    Scenario {
        name: "lentClosure",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 2,
        objects_per_iteration: 0,
        alloc_floor: false,
        js_only: false,
        what: "Rust lends a closure to a JS import that calls it once: `x = apply_lent(&|v| v \
               + 1, x)` (`&dyn Fn(i32) -> i32`; the peer: a `Closure<dyn Fn(i32) -> i32>` made \
               per call and passed as `&Closure`) in a loop (floor: a bare import call)",
    },
    Scenario {
        name: "asyncReturn",
        iterations: 100_000,
        quick_iterations: 1_000,
        crossings: 1,
        objects_per_iteration: 0,
        alloc_floor: false,
        js_only: false,
        what: "JS awaits a Rust `async fn` that returns at once: `x = await asyncNow(x)` (the \
               peer: a wasm-bindgen `async fn` export, wasm-bindgen-futures) in a loop (floor: \
               `x = await floor(x)`)",
    },
    Scenario {
        name: "awaitJs",
        iterations: 100_000,
        quick_iterations: 1_000,
        crossings: 2,
        objects_per_iteration: 0,
        alloc_floor: false,
        js_only: false,
        what: "Rust awaits an already-resolved JS Promise N times in one task: \
               `JsPromise::new(p.clone()).await` (the peer: `JsFuture::from(p.clone()).await`), \
               one `awaitResolvedN(p, N)` call (floor: JS awaits the promise and makes two \
               bare calls per iteration)",
    },
    Scenario {
        name: "jsValueRoundtrip",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 1,
        objects_per_iteration: 1,
        alloc_floor: false,
        js_only: false,
        what: "a JS object into Rust and back: `v = roundtripValue(v)` (`JsValue` in and out)",
    },
    Scenario {
        name: "callClosure",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 1,
        objects_per_iteration: 0,
        alloc_floor: false,
        js_only: false,
        what: "JS calls a Rust closure an export returned: `x = f(x)` (`Box<dyn Fn(i32) -> \
               i32>`; the peer: `Closure<dyn Fn(i32) -> i32>` handed to JS with \
               `into_js_value`)",
    },
    Scenario {
        name: "fieldRead",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 1,
        objects_per_iteration: 0,
        alloc_floor: false,
        js_only: false,
        what: "JS reads a `pub` field of a Rust object: `x += obj.value` (an `i32`; the peer: \
               the getter wasm-bindgen generates for a `pub` field)",
    },
];

/// Rows a target compares across two scenarios, per crossing: (scenario, partner). Their
/// `rust` rows are also timed in turn in one process (`Kind::Paired`), so a slow phase
/// of the machine, or of a process's JIT placement, falls on both alike (rows timed in
/// separate processes moved this ratio between 1.1 and 2.4 on the same code).
pub const PAIRED: &[(&str, &str)] = &[("iterate", "getPoolRepeated_100")];

pub const RELEASE: &str = "release100k";
pub const PUSH_POP: &str = "emptyPoolPushPop";

pub const POOL_SCENARIOS: &[PoolScenario] = &[
    PoolScenario {
        name: RELEASE,
        iterations: 100_000,
        quick_iterations: 500,
        unit: "objects",
        what: "get N fresh objects (`C.make(i)`, kept in an array), then release them all",
        variants: &[
            PoolVariant {
                name: "oneByOne",
                mode: Mode::Rust,
                what: "`obj.release()` for each, after the creation loop",
            },
            PoolVariant {
                name: "poolDrain",
                mode: Mode::Rust,
                what: "created inside `pushPool()`, released by one `popPool()`: the fast pool \
                       (entries in linear memory, one wasm call drains them)",
            },
            PoolVariant {
                name: "nonePool",
                mode: Mode::None,
                what: "the same with `none`-mode objects: the JS pool (an array of wrappers, \
                       `release()`d one by one by the drain)",
            },
            PoolVariant {
                name: "gc",
                mode: Mode::None,
                what: "the array is dropped, nothing else: the FinalizationRegistry drops them \
                       (timed until the live-objects probe is back, polling with `gc()` and an \
                       event-loop turn)",
            },
        ],
    },
    PoolScenario {
        name: PUSH_POP,
        iterations: 1_000_000,
        quick_iterations: 2_000,
        unit: "pairs",
        what: "a pool with nothing in it, N times",
        variants: &[
            PoolVariant {
                name: "pushPop",
                mode: Mode::Rust,
                what: "`popPool(pushPool())`",
            },
            PoolVariant {
                name: "withPool",
                mode: Mode::Rust,
                what: "`withPool(fn)`, `fn = () => 0`",
            },
            PoolVariant {
                name: "bareCall",
                mode: Mode::Floor,
                what: "`x = floor(x)`: a bare wasm call (`i32` in, `i32` out), the unit",
            },
        ],
    },
];

/// Scenarios only the alongside package runs (issue 20; `ALONGSIDE_SCENARIOS` in
/// `scenarios.mjs`), in `rust` mode; it runs the identity scenarios above too.
pub const ALONGSIDE_SCENARIOS: &[Scenario] = &[
    Scenario {
        name: "jsValueConversion",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 1,
        objects_per_iteration: 1,
        alloc_floor: false,
        js_only: false,
        what: "one `JsValue` conversion each way per iteration (bridge → `wasm_bindgen::JsValue` → \
           bridge, `n` round trips inside one `convertRoundTrips(v, n)` call)",
    },
    Scenario {
        name: "mixedSignatureBridge",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 1,
        objects_per_iteration: 1,
        alloc_floor: false,
        js_only: false,
        what: "a `#[bridge]` export taking a `#[wasm_bindgen]` struct (made in JS, consumed) and \
               enum: `mixedBridge(new WbgPoint(i, 1), WbgAxis.Y)` (issue 45)",
    },
    Scenario {
        name: "mixedSignatureWasmBindgen",
        iterations: 1_000_000,
        quick_iterations: 2_000,
        crossings: 1,
        objects_per_iteration: 1,
        alloc_floor: false,
        js_only: false,
        what: "the same call to the same `#[wasm_bindgen]` export: \
               `mixedWasmBindgen(new WbgPoint(i, 1), WbgAxis.Y)`",
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use xtask::fixtures;

    /// `1000000` as the runners write it: `1_000_000`.
    fn js_number_literal(n: u64) -> String {
        n.to_string()
            .as_bytes()
            .rchunks(3)
            .rev()
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect::<Vec<_>>()
            .join("_")
    }

    fn runner_file(name: &str) -> String {
        std::fs::read_to_string(fixtures::project_root().join("xtask/bench").join(name)).unwrap()
    }

    #[test]
    fn number_literals_are_grouped_by_thousands() {
        assert_eq!(js_number_literal(1_000_000), "1_000_000");
        assert_eq!(js_number_literal(100), "100");
    }

    /// What `scenarios.mjs` exports, read by Node: name → (iterations, crossings, has an
    /// `allocFloor`, has a `jsOnly`). Some entries come from factories, so the text alone
    /// would not do.
    fn js_scenarios(export: &str) -> std::collections::BTreeMap<String, (u64, u64, bool, bool)> {
        let url = fixtures::project_root().join("xtask/bench/scenarios.mjs");
        let script = format!(
            "const {{ {export}: SCENARIOS }} = await import({:?}); \
             console.log(JSON.stringify(Object.entries(SCENARIOS).map(([name, s]) => \
             [name, [s.iterations, s.crossings, typeof s.allocFloor === 'function', \
             typeof s.jsOnly === 'function']])));",
            format!("file://{}", url.display())
        );
        let out = std::process::Command::new("node")
            .args(["--input-type=module", "-e", &script])
            .output()
            .expect("node runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let entries: Vec<(String, (u64, u64, bool, bool))> =
            serde_json::from_slice(&out.stdout).expect("scenario list");
        entries.into_iter().collect()
    }

    #[test]
    fn scenarios_match_the_js_runner() {
        catalogue_matches("SCENARIOS", SCENARIOS);
    }

    #[test]
    fn alongside_scenarios_match_the_js_runner() {
        catalogue_matches("ALONGSIDE_SCENARIOS", ALONGSIDE_SCENARIOS);
    }

    fn catalogue_matches(export: &str, catalogue: &[Scenario]) {
        let mut js = js_scenarios(export);
        for s in catalogue {
            let got = js
                .remove(s.name)
                .unwrap_or_else(|| panic!("{} is not in scenarios.mjs", s.name));
            assert_eq!(
                got,
                (s.iterations, s.crossings, s.alloc_floor, s.js_only),
                "{}: iterations, crossings, allocFloor, jsOnly",
                s.name
            );
        }
        assert!(
            js.is_empty(),
            "scenarios.mjs has scenarios the catalogue lacks: {:?}",
            js.keys()
        );
    }

    #[test]
    fn pool_scenarios_match_the_js_runner() {
        let js = runner_file("pools.mjs");
        for s in POOL_SCENARIOS {
            let at = js.find(&format!("  {}: {{", s.name)).expect(s.name);
            let body = &js[at..];
            let grouped = js_number_literal(s.iterations);
            assert!(
                body.contains(&format!("iterations: {grouped},")),
                "{}",
                s.name
            );
            for v in s.variants {
                let mode = v.mode.name();
                assert!(
                    body.contains(&format!("      {}: {{\n        mode: \"{mode}\",", v.name)),
                    "{} {}",
                    s.name,
                    v.name
                );
            }
        }
    }

    #[test]
    fn scenario_names_are_unique_across_sections() {
        let mut names: Vec<&str> = SCENARIOS
            .iter()
            .map(|s| s.name)
            .chain(POOL_SCENARIOS.iter().map(|s| s.name))
            .chain(ALONGSIDE_SCENARIOS.iter().map(|s| s.name))
            .collect();
        let n = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), n);
    }

    #[test]
    fn paired_rows_are_two_identity_scenarios() {
        for &(scenario, partner) in PAIRED {
            assert_ne!(scenario, partner);
            for name in [scenario, partner] {
                assert!(
                    SCENARIOS.iter().any(|s| s.name == name),
                    "{name} is not an identity scenario"
                );
            }
        }
    }
}
