// `cargo xtask soak`: millions of mixed operations per identity mode in one process,
// through the model fuzz of fixtures/identity/tests/model.mjs (every answer still checked
// against the model, pools included), on two instances of the identity module.
// After each stretch everything is released and the garbage collected; then wasm linear
// memory, the Rust heap in use (both instances; the fixture counts its allocator's bytes)
// and the JS heap are sampled. Wasm memory, the Rust heap objects and values hold (in use
// minus the runtime's reusable buffers, which grow to a high-water mark) and the JS heap
// must be flat after the warm-up (the first tenth), and no object live at the end. Prints one JSON line
// (SOAK_JSON ...) with the figures, and exits non-zero on a failed check.
import { Fuzzer, loadModules, MODES } from "../../fixtures/identity/tests/model.mjs";

const perMode = Number(process.argv[2] ?? 10_000_000);
const STRETCH = 100_000;
// JS heap noise allowed after GC between the warm-up sample and the end.
const JS_HEAP_SLACK = 4 * 1024 * 1024;

const modules = await loadModules();
const wasmBytes = () => modules.reduce((sum, { m }) => sum + m.wasmMemoryPages() * 65536, 0);
const rustHeap = () => modules.reduce((sum, { m }) => sum + m.rustHeapBytes(), 0);
const runtimeBuffers = () => modules.reduce((sum, { m }) => sum + m.runtimeBufferBytes(), 0);
const sample = async () => ({ wasm: wasmBytes(), rust: rustHeap(), buffers: runtimeBuffers(), js: await jsHeap() });
const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
// FinalizationRegistry callbacks run as tasks between event-loop turns: let some pass
// (collecting in each) so the cleanups of collected wrappers have run when sampling.
async function jsHeap() {
  for (let i = 0; i < 5; i++) {
    globalThis.gc();
    await turn();
  }
  return process.memoryUsage().heapUsed;
}
const base = Number(process.env.BRIDGE_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const results = [];
let failed = false;
for (const mode of MODES) {
  const started = Date.now();
  let operations = 0;
  let stretch = 0;
  let warm = null;
  while (operations < perMode) {
    // No memory growth from hostile getters: wasm memory must stay flat here.
    const fuzzer = new Fuzzer(modules, base + stretch, { modes: [mode], runSeed: base, growMemory: false });
    operations += fuzzer.run(Math.min(STRETCH, perMode - operations));
    fuzzer.close();
    // Between stretches the process returns to the event loop, as any program does; one
    // that never does keeps the registry cells of collected wrappers until it does.
    await turn();
    stretch++;
    if (warm === null && operations >= perMode / 10) warm = await sample();
  }
  const end = await sample();
  const live = modules.reduce((sum, { m }) => sum + m[{ none: "PlainNode", pointer: "WeakNode", rust: "StrongNode" }[mode]].live(), 0);
  const result = {
    mode,
    operations,
    seconds: (Date.now() - started) / 1000,
    wasmBytesAfterWarmup: warm.wasm,
    wasmBytesAtEnd: end.wasm,
    rustHeapAfterWarmup: warm.rust,
    rustHeapAtEnd: end.rust,
    runtimeBuffersAfterWarmup: warm.buffers,
    runtimeBuffersAtEnd: end.buffers,
    jsHeapAfterWarmup: warm.js,
    jsHeapAtEnd: end.js,
    liveAtEnd: live,
  };
  const problems = [];
  if (end.wasm !== warm.wasm) problems.push(`wasm memory grew after warm-up: ${warm.wasm} -> ${end.wasm} bytes`);
  const held = (s) => s.rust - s.buffers;
  if (held(end) !== held(warm)) problems.push(`Rust heap held by objects and values changed after warm-up: ${held(warm)} -> ${held(end)} bytes`);
  if (end.js > warm.js + JS_HEAP_SLACK) problems.push(`JS heap grew after GC: ${warm.js} -> ${end.js} bytes`);
  if (live !== 0) problems.push(`${live} objects live at the end`);
  result.problems = problems;
  failed ||= problems.length !== 0;
  results.push(result);
  console.log(`soak ${mode}: ${operations} operations in ${result.seconds.toFixed(1)} s; wasm ${warm.wasm} -> ${end.wasm} bytes, Rust heap ${warm.rust} -> ${end.rust} bytes (runtime buffers ${warm.buffers} -> ${end.buffers}), JS heap ${(warm.js / 2 ** 20).toFixed(1)} -> ${(end.js / 2 ** 20).toFixed(1)} MiB after GC, ${live} live${problems.length ? `; FAILED: ${problems.join("; ")}` : ""}`);
}
console.log(`SOAK_JSON ${JSON.stringify({ seed: base, results })}`);
if (failed) process.exit(1);
