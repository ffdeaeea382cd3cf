// One (scenario, mode) of `cargo xtask bench-browser`, inside a fresh Chromium page: the
// Node runner's scenarios (xtask/bench/scenarios.mjs) and measuring loop
// (xtask/bench/sampler.mjs), against the bench fixture's `rust`-mode class or the
// wasm-bindgen peer, both built for `--target web`.
import { SCENARIOS } from "/xtask/bench/scenarios.mjs";
import { measure } from "/xtask/bench/sampler.mjs";
import { settlerFor } from "/xtask/bench/settle.mjs";

async function loadApi(mode, { bridge, peer, quick }) {
  if (mode === "wasm-bindgen") {
    const m = await import(peer);
    await m.default();
    const memory = m.wasmMemory();
    return {
      C: m.PeerItem,
      Pool: m.PeerPool,
      small: quick,
      release: (o) => o.free(),
      releaseSent: (sent, got) => got.free(),
      floor: m.floor,
      // The Game of Life: the book's way, a Uint8Array over the memory at the cells' address.
      life: {
        make: (w, h) => Object.assign(new m.PeerLife(w, h), { n: w * h }),
        tick: (l) => l.tick(),
        cells: (l) => new Uint8Array(memory.buffer, l.cells(), l.n),
        free: (l) => l.free(),
      },
    };
  }
  if (mode !== "rust") throw new Error(`unknown mode ${mode}`);
  const m = await import(bridge);
  await m.default();
  return {
    C: m.BenchRust,
    Pool: m.PoolRust,
    small: quick,
    release: (o) => o.release(),
    releaseSent: (sent) => sent.release(),
    floor: m.floor,
    rawMake: m.rawMake,
    rawFree: m.rawFree,
    life: {
      make: (w, h) => new m.Life(w, h),
      tick: (l) => l.tick(),
      cells: (l) => l.cells(),
      free: (l) => l.release(),
    },
  };
}

export async function runOne(config) {
  const { scenario: name, mode, quick } = config;
  const scenario = SCENARIOS[name];
  if (!scenario) throw new Error(`unknown scenario ${name}`);
  const api = await loadApi(mode, config);
  const iterations = quick ? Math.max(1, Math.floor(scenario.iterations / 100)) : scenario.iterations;
  const state = scenario.setup(api);
  // The Node runner's settle(): full GCs only for the mode whose wrappers finalizers clean up.
  const settle = settlerFor(mode);
  const sample = () => {
    const t0 = performance.now();
    scenario.run(api, state, iterations);
    return { runMs: performance.now() - t0 };
  };
  const args = quick
    ? { minRuns: 3, maxRuns: 5, targetCv: 0.2, budgetMs: 10_000, warmupMs: 50 }
    : { minRuns: 5, maxRuns: 15, targetCv: 0.05, budgetMs: 120_000, warmupMs: 1000 };
  const result = await measure(sample, "runMs", settle, args, (msg) => console.log(msg));
  scenario.teardown(api, state);
  return { scenario: name, mode, iterations, medianMs: result.medianMs, cv: result.cv, kept: result.kept, converged: result.converged };
}
