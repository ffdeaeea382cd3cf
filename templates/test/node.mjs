// `cargo bridge test` in Node: node node.mjs <plan.json>
// The plan (written by cargo-bridge/src/test_runner): `glue` (the bridge glue, or null),
// `wbg` (null or `{ glue, wasm, skip }`: wasm-bindgen's `--target web` glue of a crate
// without bridge glue, or null `glue` when the bridge glue is the merged one), `options`
// (see harness.mjs) and `results`, the file the run's counts are written to.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { captureConsole, instanceExports, runTests, watchInstances } from "./harness.mjs";

const plan = JSON.parse(readFileSync(process.argv[2], "utf8"));
captureConsole();
watchInstances();
const suite = { glue: null, wbg: null };
if (plan.glue !== null) suite.glue = await import(pathToFileURL(plan.glue).href);
if (plan.wbg !== null) {
  if (plan.wbg.glue === null) {
    // The bridge glue is the merged package: it re-exports wasm-bindgen's items, and the
    // tests are exports of the instance it made.
    suite.wbg = { module: suite.glue, exports: instanceExports(), skip: plan.wbg.skip };
  } else {
    const module = await import(pathToFileURL(plan.wbg.glue).href);
    const exports = module.initSync({ module: readFileSync(plan.wbg.wasm) });
    suite.wbg = { module, exports, skip: plan.wbg.skip };
  }
}
// A test that never returns holds the thread, so no timer of it fires: a watchdog thread
// sees the same test running past its timeout (plus 10 s), says so and ends the process.
const beat = new Int32Array(new SharedArrayBuffer(8)); // [tests started, 1 while one runs]
const watchdog = new Worker(
  `const { workerData: { beat, limitMs }, parentPort } = require("node:worker_threads");
  const { writeSync } = require("node:fs");
  let name = "", seen = -1, since = Date.now();
  parentPort.on("message", (m) => { name = m; });
  setInterval(() => {
    const started = Atomics.load(beat, 0);
    if (Atomics.load(beat, 1) === 0 || started !== seen) { seen = started; since = Date.now(); return; }
    if (Date.now() - since < limitMs) return;
    writeSync(1, "test " + name + " ... FAILED\\n\\nerror: " + name + " has not returned after " +
      Math.round(limitMs / 1000) + " s and holds the thread (a synchronous test that never " +
      "returns?), so it cannot fail alone: the run stops here, without the tests after it\\n");
    process.kill(process.pid, "SIGKILL");
  }, 500);`,
  { eval: true, workerData: { beat, limitMs: plan.options.timeoutMs + 10_000 } },
);
watchdog.unref();
const hooks = {
  started(name) {
    watchdog.postMessage(name);
    Atomics.add(beat, 0, 1);
    Atomics.store(beat, 1, 1);
  },
  finished() {
    Atomics.store(beat, 1, 0);
  },
};
const result = await runTests(suite, plan.options, (line) => console.log(line), hooks);
writeFileSync(plan.results, JSON.stringify(result));
process.exitCode = result.code;
