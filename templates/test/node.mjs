// `cargo bridge test` in Node: node node.mjs <plan.json>
// The plan (written by cargo-bridge/src/test_runner): `glue` (the bridge glue, or null),
// `wbg` (null or `{ glue, wasm, skip }`: wasm-bindgen's `--target web` glue of a crate
// without bridge glue, or null `glue` when the bridge glue is the merged one), `options`
// (see harness.mjs) and `results`, the file the run's counts are written to.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
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
const result = await runTests(suite, plan.options, (line) => console.log(line));
writeFileSync(plan.results, JSON.stringify(result));
process.exitCode = result.code;
