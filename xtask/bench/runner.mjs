// One (scenario, mode) of `cargo xtask bench`, in this fresh Node process.
//
//   node --expose-gc runner.mjs --pkg PATH --scenario NAME --mode MODE --kind KIND
//        [--iterations N] [--min-runs 5] [--max-runs 15] [--target-cv 0.05] [--budget-ms MS]
//        [--warmup-ms 1000] [--quick 1]
//   node --expose-gc runner.mjs --pkg PATH --scenario POOL_SCENARIO --variant NAME --kind time ...
//        (a release-pool scenario of pools.mjs: variants instead of modes, time only)
//
// MODE: none | pointer | rust (the bench fixture's BenchNone/BenchPointer/BenchRust),
//       floor (the same loop against the bare `floor` export, as many calls as the
//       scenario makes crossings), alloc-floor (the scenario's `allocFloor` loop, if it
//       has one), js-only (the scenario's own JS over plain JS objects, if it has
//       `jsOnly`; no package), wasm-bindgen (the peer package).
// KIND: time      warm-up, then adaptive sampling with IQR outlier removal;
//       sustained warm-up, then 10 back-to-back runs with no pause (finalizers get no
//                 chance to run);
//       memory    warm-up, then one run sampling the JS heap, plus wasm memory probes;
//       paired    (with --paired-with NAME) this scenario and NAME in turn in this process,
//                 both orders alternating; the primary phase `ratio` is this scenario's cost
//                 per crossing over NAME's, sample by sample (`runMs`, `pairedMs`: each run).
// --quick 1: a smoke run (workloads build their small shapes).
// Prints one line `BENCH_JSON {...}` on stdout; progress goes to stderr.

import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import v8 from "node:v8";
import { bridgeApi, peerApi, rowOf } from "./api.mjs";
import { ALONGSIDE_SCENARIOS, SCENARIOS } from "./scenarios.mjs";
import { POOL_SCENARIOS, measurePool } from "./pools.mjs";
import * as sampler from "./sampler.mjs";
import { settlerFor } from "./settle.mjs";

function parseArgs(argv) {
  const args = {
    minRuns: 5,
    maxRuns: 15,
    targetCv: 0.05,
    budgetMs: 600_000,
    warmupMs: 1000,
    sustainedRuns: 10,
  };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, "").replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`missing value for ${argv[i]}`);
    args[key] = ["pkg", "scenario", "mode", "kind", "variant", "pairedWith"].includes(key) ? value : Number(value);
  }
  const pool = args.scenario in POOL_SCENARIOS;
  for (const key of ["pkg", "scenario", pool ? "variant" : "mode", "kind"]) {
    if (args[key] === undefined) throw new Error(`--${key} is required`);
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");
const log = (msg) => process.stderr.write(`    [${args.scenario}/${args.mode ?? args.variant}/${args.kind}] ${msg}\n`);
if (args.scenario in POOL_SCENARIOS) {
  if (args.kind !== "time") throw new Error(`${args.scenario}: pool scenarios measure time only, not ${args.kind}`);
  const result = await measurePool(args, log);
  console.log("BENCH_JSON " + JSON.stringify({ result }));
} else {
  await measureIdentity();
}

async function measureIdentity() {
  const scenario = SCENARIOS[args.scenario] ?? ALONGSIDE_SCENARIOS[args.scenario];
  if (!scenario) throw new Error(`unknown scenario ${args.scenario}: ${[...Object.keys(SCENARIOS), ...Object.keys(ALONGSIDE_SCENARIOS), ...Object.keys(POOL_SCENARIOS)].join(", ")}`);
  const iterations = args.iterations ?? scenario.iterations;

  // The scenario's view of the package (api.mjs, shared with the browser bench page).
  const load = async () =>
    args.mode === "wasm-bindgen"
      ? peerApi(createRequire(import.meta.url)(args.pkg), args.quick === 1)
      : bridgeApi(await import(pathToFileURL(args.pkg).href), args.mode, args.quick === 1);
  const { api, run, state, floor: floorRow } = await rowOf(scenario, args.scenario, args.mode, args.quick === 1, load);

  const settle = settlerFor(args.mode);
  // An async scenario's loop is awaited: the time includes its microtasks, nothing else
  // (no timer or I/O turn runs before the last promise settles).
  // A synchronous row's timer (this row's, and a paired row's partner's).
  const timerOf = (loop, loopApi, loopState) => (n) => {
    const t0 = performance.now();
    loop(loopApi, loopState, n);
    return performance.now() - t0;
  };
  const timed = scenario.async
    ? async (n) => {
        const t0 = performance.now();
        await run(api, state, n);
        return performance.now() - t0;
      }
    : timerOf(run, api, state);
  const heapUsed = () => v8.getHeapStatistics().used_heap_size;
  function probes() {
    return {
      liveObjects: api.probes.liveObjects(),
      heapLiveBytes: api.probes.heapLiveBytes(),
      wasmMemoryBytes: api.probes.wasmMemoryBytes(),
    };
  }

  // `cpuMs`: the process's CPU time over the same run (every thread: after the warm-up,
  // mostly the main one). Not what the targets use; on a shared machine it leaves out the
  // time the process waited for a core, which `runMs` counts.
  async function sample() {
    const cpu = process.cpuUsage();
    const runMs = await timed(iterations);
    const used = process.cpuUsage(cpu);
    return { runMs, cpuMs: (used.user + used.system) / 1000 };
  }
  const warmUp = () => sampler.warmUp(sample, "runMs", settle, args);
  const measureTime = () => sampler.measure(sample, "runMs", settle, args, log);

  async function measureSustained() {
    await warmUp();
    const before = probes();
    const runs = [];
    let spent = 0;
    // Back to back, synchronously: no await, so no finalizer can run in between (an async
    // scenario awaits only microtasks, which run no finalizer either).
    for (let i = 0; i < args.sustainedRuns; i++) {
      const t = scenario.async ? await timed(iterations) : timed(iterations);
      runs.push(t);
      spent += t;
      if (spent > args.budgetMs && i + 1 < args.sustainedRuns) break;
    }
    const after = probes();
    await settle();
    return {
      runsMs: runs,
      truncated: runs.length < args.sustainedRuns,
      firstMs: runs[0],
      lastMs: runs[runs.length - 1],
      maxMs: Math.max(...runs),
      lastOverFirst: runs[runs.length - 1] / runs[0],
      liveObjectsGrowth: after.liveObjects - before.liveObjects,
      heapLiveBytesGrowth: after.heapLiveBytes - before.heapLiveBytes,
    };
  }

  async function measureMemory() {
    await warmUp();
    const before = probes();
    const heapBefore = heapUsed();
    const chunk = Math.max(1, Math.floor(iterations / 100));
    let peak = heapBefore;
    const t0 = performance.now();
    for (let done = 0; done < iterations; done += chunk) {
      if (scenario.async) await run(api, state, Math.min(chunk, iterations - done));
      else run(api, state, Math.min(chunk, iterations - done));
      const h = heapUsed();
      if (h > peak) peak = h;
    }
    const durationMs = performance.now() - t0;
    const heapEnd = heapUsed();
    const end = probes();
    const cache = api.stats();
    gc();
    const heapAfterGc = heapUsed();
    await settle();
    const settled = probes();
    return {
      durationMs,
      peakHeapDelta: Math.max(peak, heapEnd) - heapBefore,
      retainedHeapDelta: heapEnd - heapBefore,
      postGcHeapDelta: heapAfterGc - heapBefore,
      wasmMemoryGrowth: end.wasmMemoryBytes - before.wasmMemoryBytes,
      wasmMemoryBytes: end.wasmMemoryBytes,
      rustHeapGrowth: end.heapLiveBytes - before.heapLiveBytes,
      rustHeapGrowthAfterSettle: settled.heapLiveBytes - before.heapLiveBytes,
      liveObjectsGrowth: end.liveObjects - before.liveObjects,
      liveObjectsGrowthAfterSettle: settled.liveObjects - before.liveObjects,
      cache,
    };
  }

  // The partner's loop on the same package (the module is imported once), in the same
  // mode; its iterations make as many crossings as this scenario's.
  let partner = null;
  async function measurePaired() {
    const other = SCENARIOS[args.pairedWith];
    if (!other) throw new Error(`--paired-with: unknown scenario ${args.pairedWith}`);
    if (scenario.async || other.async) throw new Error("paired rows time synchronous scenarios only");
    partner = { scenario: other, ...(await rowOf(other, args.pairedWith, args.mode, args.quick === 1, load)) };
    const crossings = iterations * scenario.crossings;
    const otherIterations = Math.max(1, Math.round(crossings / other.crossings));
    const otherCrossings = otherIterations * other.crossings;
    const timedOther = timerOf(partner.run, partner.api, partner.state);
    let flip = false;
    const pairedSample = async () => {
      // Each order in turn: neither loop always runs right after the other.
      flip = !flip;
      let runMs, pairedMs;
      if (flip) {
        runMs = timed(iterations);
        pairedMs = timedOther(otherIterations);
      } else {
        pairedMs = timedOther(otherIterations);
        runMs = timed(iterations);
      }
      return { ratio: runMs / crossings / (pairedMs / otherCrossings), runMs, pairedMs };
    };
    return sampler.measure(pairedSample, "ratio", settle, args, log);
  }

  const measure = { time: measureTime, sustained: measureSustained, memory: measureMemory, paired: measurePaired }[args.kind];
  if (!measure) throw new Error(`unknown kind ${args.kind}`);
  const result = await measure();
  if (!floorRow && scenario.counters) result.counters = scenario.counters(state);
  if (!floorRow) scenario.teardown(api, state);
  if (partner !== null && !partner.floor) partner.scenario.teardown(partner.api, partner.state);
  console.log("BENCH_JSON " + JSON.stringify({ result }));
}
