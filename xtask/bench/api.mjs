// The scenarios' view of a package (`api`: a class, its pool, release, floor, probes) and
// the row a mode runs: one definition for the Node runner (runner.mjs) and the browser
// bench page (xtask/js/browser/bench-page.mjs), so both hosts run the same scenario code
// against the same api. `m` is the loaded package (its namespace or, for the peer built
// `--target nodejs`, its CommonJS exports); `small`: the workloads' small shapes.

/** wasm-bindgen's peer package (fixtures/bench/peer). */
export function peerApi(m, small) {
  return {
    C: m.PeerItem,
    Pool: m.PeerPool,
    Tree: m.PeerTree,
    small,
    release: (o) => o.free(),
    releaseSent: (sent, got) => got.free(),
    // callClosure: `into_js_value` gave the closure to JS; the GC frees it.
    releaseClosure() {},
    floor: m.floor,
    movePoint: m.movePoint,
    fillF64: m.fillF64,
    tupleReturn: m.tupleReturn,
    mapReturn: m.mapReturn,
    // viewRead: the book's way, a Uint8Array over the memory at the cells' address.
    life: {
      make: (w, h) => Object.assign(new m.PeerLife(w, h), { n: w * h, memory: m.wasmMemory() }),
      tick: (l) => l.tick(),
      cells: (l) => new Uint8Array(l.memory.buffer, l.cells(), l.n),
      free: (l) => l.free(),
    },
    // recordVec_100: the item getter makes a new wrapper; both are freed at once.
    hit: { item: (h) => h.item, done: (h, item) => (item.free(), h.free()), teardown() {} },
    // iterate: what a wasm-bindgen user writes around a cursor struct's next().
    cycle(pool) {
      const cursor = pool.cycle();
      return {
        [Symbol.iterator]() {
          return this;
        },
        next() {
          const value = cursor.next();
          return value === undefined ? { value, done: true } : { value, done: false };
        },
        return() {
          cursor.free();
          return { value: undefined, done: true };
        },
      };
    },
    probes: m,
    stats: () => null,
  };
}

/** The bench fixture's classes of one identity mode (the floors use the `rust` ones). */
export function bridgeApi(m, mode, small) {
  const suffix = { none: "None", pointer: "Pointer", rust: "Rust", floor: "Rust", "alloc-floor": "Rust" }[mode];
  if (!suffix) throw new Error(`unknown mode ${mode}`);
  const C = m[`Bench${suffix}`];
  return {
    C,
    Pool: m[`Pool${suffix}`],
    Tree: m[`Tree${suffix}`],
    small,
    release: (o) => o.release(),
    releaseSent: (sent, got) => sent.release(),
    releaseClosure: (f) => f.release(),
    floor: m.floor,
    movePoint: m.movePoint,
    fillF64: m.fillF64,
    tupleReturn: m.tupleReturn,
    mapReturn: m.mapReturn,
    life: {
      make: (w, h) => new m.Life(w, h),
      tick: (l) => l.tick(),
      cells: (l) => l.cells(),
      free: (l) => l.release(),
    },
    // recordVec_100: records are plain objects; their items stay cached until teardown.
    hit: {
      item: (h) => h.item,
      done() {},
      teardown(hits) {
        for (const h of hits) h.item.release();
      },
    },
    cycle: (pool) => pool.cycle(),
    rawMake: m.rawMake,
    rawFree: m.rawFree,
    probes: m,
    stats: () => m.__bridgeStats()[C.name],
  };
}

/**
 * What `mode` runs of `scenario`: its loop (the scenario's own, or its floor), the state
 * (made by the scenario's setup, except for the floors, which need none), and whether
 * the scenario's counters and teardown apply. `load()` gives the package's api; the
 * js-only row needs no package.
 */
export async function rowOf(scenario, name, mode, small, load) {
  if (mode === "js-only" && !scenario.jsOnly) throw new Error(`${name} has no js-only row`);
  const api = mode === "js-only" ? scenario.jsOnly(small) : await load();
  const floor = mode === "floor" || mode === "alloc-floor";
  const run = { floor: scenario.floor, "alloc-floor": scenario.allocFloor }[mode] ?? scenario.run;
  if (!run) throw new Error(`${name} has no ${mode} row`);
  const state = floor ? { x: 1, sink: 0, seq: 0 } : scenario.setup(api);
  return { api, run, state, floor };
}
