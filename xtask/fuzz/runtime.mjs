// `cargo xtask fuzz`, runtime side: the model fuzz of fixtures/identity/tests/model.mjs
// for a number of seconds (argv[2]), in stretches of fresh seeds on the same two module
// instances (every other one with the async operations); prints the totals. A failure prints its run seed (BRIDGE_FUZZ_SEED replays).
import { Fuzzer, loadModules } from "../../fixtures/identity/tests/model.mjs";

const seconds = Number(process.argv[2] ?? 60);
const modules = await loadModules();
const base = Number(process.env.BRIDGE_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const deadline = Date.now() + seconds * 1000;
let operations = 0;
let stretches = 0;
while (Date.now() < deadline || stretches === 0) {
  // Every other stretch draws the async operations too (handles held across awaits).
  const async = stretches % 2 === 1;
  const fuzzer = new Fuzzer(modules, base + stretches, { runSeed: base, async });
  operations += async ? await fuzzer.runAsync(10_000) : fuzzer.run(10_000);
  fuzzer.close();
  stretches++;
}
console.log(`runtime model fuzz: ${operations} operations in ${stretches} stretches (run seed ${base}), no disagreement with the model`);
