// `cargo bridge test` in Node: node node.mjs <glue.js> <filter>
import { pathToFileURL } from "node:url";
import { runTests } from "./harness.mjs";

const [glue, filter = ""] = process.argv.slice(2);
const state = {};
// An async test awaiting a Promise nothing settles leaves Node with an empty event loop
// and the loop below unfinished: say which test, and fail as a failed test does.
process.on("exit", () => {
  if (state.running !== undefined) {
    console.log(`test ${state.running} ... FAILED`);
    console.log("");
    console.log(`error: ${state.running} never finished: it awaits a Promise that nothing settles (Node's event loop is empty)`);
    process.exitCode = 101;
  }
});
const module = await import(pathToFileURL(glue).href);
process.exitCode = await runTests(module, filter, (line) => console.log(line), state);
