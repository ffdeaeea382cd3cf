// `cargo bridge test` in Node: node node.mjs <glue.js> <filter>
import { pathToFileURL } from "node:url";
import { runTests } from "./harness.mjs";

const [glue, filter = ""] = process.argv.slice(2);
const module = await import(pathToFileURL(glue).href);
process.exitCode = await runTests(module, filter, (line) => console.log(line));
