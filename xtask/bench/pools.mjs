// The release-pool scenarios of `cargo xtask bench` (issue 5).
//
// Each scenario has variants instead of modes; each (scenario, variant) runs in its own
// fresh process like an identity (scenario, mode), with the same warm-up and adaptive
// sampling (the shared loop of sampler.mjs), converging on the variant's `primary` phase:
//
// release100k: get N fresh objects (`C.make(i)`, kept in an array), then release them all.
//   oneByOne  rust  `obj.release()` for each, after the creation loop
//   poolDrain rust  created inside `pushPool()`, released by the one `popPool()`: the fast
//                   implementation (entries in linear memory, one wasm call drains them)
//   nonePool  none  the same with `none`-mode objects: the JS implementation (an array of
//                   wrappers, released one by one by the drain)
//   gc        none  the array is dropped and nothing else is done; the FinalizationRegistry
//                   drops them. Timed until the live-objects probe is back where it was,
//                   with gc() and an event-loop turn per poll.
//   Phases: createMs (the creation loop; with a pool, pushPool() too), releaseMs (the
//   synchronous release), droppedMs (from the start of the release until every Drop ran:
//   the same as releaseMs where release is synchronous, checked with the probe).
//
// emptyPoolPushPop: N times, nothing created in between (phase loopMs).
//   pushPop   `popPool(pushPool())`
//   withPool  `withPool(fn)` with `fn = () => 0`
//   bareCall  `x = floor(x)`: a bare wasm call (i32 in, i32 out), the unit of the ratio

import { pathToFileURL } from "node:url";
import { measure } from "./sampler.mjs";
import { settlerFor } from "./settle.mjs";

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
/** Polls of the gc variant before it gives up: FinalizationRegistry never caught up. */
const MAX_GC_POLLS = 1000;

function checkDropped(m, before, what) {
  const live = m.liveObjects();
  if (live !== before) throw new Error(`${what}: ${live - before} object(s) still alive after the release`);
}

export const POOL_SCENARIOS = {
  release100k: {
    iterations: 100_000,
    primary: { oneByOne: "releaseMs", poolDrain: "releaseMs", nonePool: "releaseMs", gc: "droppedMs" },
    variants: {
      oneByOne: {
        mode: "rust",
        sample(m, n) {
          const C = m.BenchRust;
          const before = m.liveObjects();
          const objs = [];
          const t0 = performance.now();
          for (let i = 0; i < n; i++) objs.push(C.make(i));
          const t1 = performance.now();
          for (let i = 0; i < n; i++) objs[i].release();
          const t2 = performance.now();
          checkDropped(m, before, "oneByOne");
          return { createMs: t1 - t0, releaseMs: t2 - t1, droppedMs: t2 - t1 };
        },
      },
      poolDrain: {
        mode: "rust",
        sample(m, n) {
          const C = m.BenchRust;
          const before = m.liveObjects();
          const objs = [];
          const t0 = performance.now();
          const pool = m.pushPool();
          for (let i = 0; i < n; i++) objs.push(C.make(i));
          const t1 = performance.now();
          m.popPool(pool);
          const t2 = performance.now();
          checkDropped(m, before, "poolDrain");
          if (objs.length > 0 && isLive(objs[objs.length - 1])) throw new Error("poolDrain: a drained wrapper is still live");
          return { createMs: t1 - t0, releaseMs: t2 - t1, droppedMs: t2 - t1 };
        },
      },
      nonePool: {
        mode: "none",
        sample(m, n) {
          const C = m.BenchNone;
          const before = m.liveObjects();
          const objs = [];
          const t0 = performance.now();
          const pool = m.pushPool();
          for (let i = 0; i < n; i++) objs.push(C.make(i));
          const t1 = performance.now();
          m.popPool(pool);
          const t2 = performance.now();
          checkDropped(m, before, "nonePool");
          return { createMs: t1 - t0, releaseMs: t2 - t1, droppedMs: t2 - t1 };
        },
      },
      gc: {
        mode: "none",
        async sample(m, n) {
          const C = m.BenchNone;
          const before = m.liveObjects();
          let objs = [];
          const t0 = performance.now();
          for (let i = 0; i < n; i++) objs.push(C.make(i));
          const t1 = performance.now();
          objs = null; // all there is to do synchronously
          const t2 = performance.now();
          let gcCalls = 0;
          while (m.liveObjects() > before) {
            if (gcCalls === MAX_GC_POLLS) throw new Error(`gc: ${m.liveObjects() - before} object(s) still alive after ${gcCalls} gc() calls`);
            globalThis.gc();
            gcCalls++;
            await tick();
          }
          const t3 = performance.now();
          return { createMs: t1 - t0, releaseMs: t2 - t1, droppedMs: t3 - t2, gcCalls };
        },
      },
    },
  },

  emptyPoolPushPop: {
    iterations: 1_000_000,
    primary: { pushPop: "loopMs", withPool: "loopMs", bareCall: "loopMs" },
    variants: {
      pushPop: {
        mode: "rust",
        sample(m, n) {
          const push = m.pushPool;
          const pop = m.popPool;
          const t0 = performance.now();
          for (let i = 0; i < n; i++) pop(push());
          return { loopMs: performance.now() - t0 };
        },
      },
      withPool: {
        mode: "rust",
        sample(m, n, st) {
          const withPool = m.withPool;
          const fn = () => 0;
          let sink = 0;
          const t0 = performance.now();
          for (let i = 0; i < n; i++) sink += withPool(fn);
          const t1 = performance.now();
          st.sink += sink;
          return { loopMs: t1 - t0 };
        },
      },
      bareCall: {
        mode: "floor",
        sample(m, n, st) {
          const floor = m.floor;
          let x = st.x;
          const t0 = performance.now();
          for (let i = 0; i < n; i++) x = floor(x);
          const t1 = performance.now();
          st.x = x;
          return { loopMs: t1 - t0 };
        },
      },
    },
  },
};

/**
 * One (pool scenario, variant) with the runner's arguments, through the shared measuring
 * loop (`sampler.mjs`), converging on the variant's primary phase.
 */
export async function measurePool(args, log) {
  const scenario = POOL_SCENARIOS[args.scenario];
  const variant = scenario.variants[args.variant];
  if (!variant) {
    throw new Error(`unknown variant ${args.variant} of ${args.scenario}: ${Object.keys(scenario.variants).join(", ")}`);
  }
  const m = await import(pathToFileURL(args.pkg).href);
  const n = args.iterations ?? scenario.iterations;
  const state = { x: 1, sink: 0 };
  const before = m.liveObjects();
  const result = await measure(
    () => variant.sample(m, n, state),
    scenario.primary[args.variant],
    // Between samples, as for the identity scenarios (by the mode of the variant's objects).
    settlerFor(variant.mode),
    args,
    log,
  );
  if (m.liveObjects() !== before) throw new Error(`${m.liveObjects() - before} object(s) left alive`);
  return result;
}

/** Does `obj` still reach its Rust object (a released wrapper throws when used)? */
function isLive(obj) {
  try {
    obj.value();
    return true;
  } catch {
    return false;
  }
}
