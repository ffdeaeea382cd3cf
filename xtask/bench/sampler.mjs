// The one measuring loop of `cargo xtask bench`, shared by every section (identity
// scenarios, release pools, ...): warm-up, then adaptive sampling with IQR outlier removal.
//
// A sample is an object of phases, each a number (`{ runMs }`, `{ createMs, releaseMs,
// droppedMs }`, ...); sampling converges on one of them, `primary`, and every phase is
// summarized over the same samples. `settle()` runs untimed after every sample.

import { summarize } from "./stats.mjs";

/**
 * Warm-up: whole samples until at least 3 and `warmupMs` have passed (JIT tiering of the
 * JS and of the wasm goes on for a while; short runs need many to settle), at most 50.
 * Returns the primary phase of each.
 */
export async function warmUp(sample, primary, settle, args) {
  const runs = [];
  let spent = 0;
  while (runs.length < 50 && (runs.length < 3 || spent < args.warmupMs)) {
    const t0 = performance.now();
    const s = await sample();
    spent += performance.now() - t0;
    runs.push(s[primary]);
    await settle();
    if (spent > args.budgetMs) break;
  }
  return runs;
}

/**
 * Warm-up, then samples until `minRuns` are taken and the primary phase's coefficient of
 * variation is at most `targetCv` (or `maxRuns`, or the budget, is reached).
 * Returns `{ primary, warmupRunsMs, targetCv, converged, ...summary of primary, phases }`.
 */
export async function measure(sample, primary, settle, args, log) {
  const warmupRunsMs = await warmUp(sample, primary, settle, args);
  const samples = [];
  let summary = null;
  const started = performance.now();
  while (samples.length < args.maxRuns) {
    samples.push(await sample());
    await settle();
    if (samples.length >= args.minRuns) {
      summary = summarize(samples.map((s) => s[primary]));
      if (summary.cv <= args.targetCv) break;
      if (performance.now() - started > args.budgetMs) {
        log(`time budget spent after ${samples.length} runs`);
        break;
      }
    }
  }
  summary ??= summarize(samples.map((s) => s[primary]));
  const phases = {};
  for (const key of Object.keys(samples[0])) phases[key] = summarize(samples.map((s) => s[key]));
  return { primary, warmupRunsMs, targetCv: args.targetCv, converged: summary.cv <= args.targetCv, ...summary, phases };
}
