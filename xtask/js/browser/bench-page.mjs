// One (scenario, mode) of `cargo xtask bench-browser`, inside a fresh Chromium page: the
// Node runner's scenarios (xtask/bench/scenarios.mjs), api and rows (xtask/bench/api.mjs)
// and measuring loop (xtask/bench/sampler.mjs), against the bench fixture's `rust`-mode
// class, its floor, the scenario's js-only objects or the wasm-bindgen peer (packages
// built for `--target web`).
import { SCENARIOS } from "/xtask/bench/scenarios.mjs";
import { measure } from "/xtask/bench/sampler.mjs";
import { settlerFor } from "/xtask/bench/settle.mjs";
import { bridgeApi, peerApi, rowOf } from "/xtask/bench/api.mjs";

/** The package of a row, built for `--target web` (its `default()` instantiates it). */
async function loadApi(mode, { bridge, peer, quick }) {
  const m = await import(mode === "wasm-bindgen" ? peer : bridge);
  await m.default();
  return mode === "wasm-bindgen" ? peerApi(m, quick) : bridgeApi(m, mode, quick);
}

export async function runOne(config) {
  const { scenario: name, mode, quick } = config;
  const scenario = SCENARIOS[name];
  if (!scenario) throw new Error(`unknown scenario ${name}`);
  const { api, run, state, floor } = await rowOf(scenario, name, mode, quick, () => loadApi(mode, config));
  const iterations = quick ? Math.max(1, Math.floor(scenario.iterations / 100)) : scenario.iterations;
  // The Node runner's settle(): full GCs only for the mode whose wrappers finalizers clean up.
  const settle = settlerFor(mode);
  const sample = () => {
    const t0 = performance.now();
    run(api, state, iterations);
    return { runMs: performance.now() - t0 };
  };
  const args = quick
    ? { minRuns: 3, maxRuns: 5, targetCv: 0.2, budgetMs: 10_000, warmupMs: 50 }
    : { minRuns: 5, maxRuns: 15, targetCv: 0.05, budgetMs: 120_000, warmupMs: 1000 };
  const result = await measure(sample, "runMs", settle, args, (msg) => console.log(msg));
  if (!floor) scenario.teardown(api, state);
  return { scenario: name, mode, iterations, medianMs: result.medianMs, cv: result.cv, kept: result.kept, converged: result.converged };
}
