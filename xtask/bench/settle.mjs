// What runs between timed samples, untimed: one definition for the Node runner
// (runner.mjs, pools.mjs) and the browser bench page (xtask/js/browser/bench-page.mjs).

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Rows whose wrappers are cleaned up by FinalizationRegistry callbacks. */
const FINALIZING_ROWS = ["none", "pointer", "wasm-bindgen"];

/**
 * `settle()` for a row. Every row: a minor GC and an event-loop turn. Rows with finalizers
 * first get full GCs, so that their callbacks for the last run's wrappers run now rather
 * than inside the next timed run. (A forced full GC deoptimizes the glue's optimized code,
 * "reason: weak objects", and the next run pays for re-optimizing it: rows that leave
 * nothing to finalize are spared that.)
 */
export function settlerFor(row) {
  const finalizes = FINALIZING_ROWS.includes(row);
  return async function settle() {
    if (finalizes) {
      globalThis.gc();
      await tick();
      await tick();
      globalThis.gc();
    }
    globalThis.gc({ type: "minor" });
    await tick();
  };
}
