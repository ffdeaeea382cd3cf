// `cargo xtask bench-browser`: the identity scenarios in headless Chromium, `rust` mode
// against wasm-bindgen. `node bench.mjs CONFIG`; CONFIG (written by
// xtask/bench/src/browser.rs) names the repository root, Chromium, the two web glues (URL
// paths under the root) and the rows ({scenario, mode}). Each row runs in a fresh page
// (bench-page.mjs); one `BENCH_BROWSER_JSON {...}` line per result on stdout.
import { readFileSync } from "node:fs";
import { launch } from "./chromium.mjs";
import { send, serveStatic } from "./serve.mjs";

const config = JSON.parse(readFileSync(process.argv[2], "utf8"));
const server = await serveStatic(config.root, (path, _url, res) => {
  if (path !== "/__bench.html") return false;
  send(res, "<!doctype html><meta charset=utf-8><title>cargo-bridge bench</title>", ".html");
  return true;
});
const browser = await launch(config.chromium);
try {
  for (const { scenario, mode } of config.rows) {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on("pageerror", (e) => process.stderr.write(`    [${scenario}/${mode}] page error: ${e.message}\n`));
    page.on("console", (m) => process.stderr.write(`    [${scenario}/${mode}] ${m.text()}\n`));
    await page.goto(`${server.origin}/__bench.html`);
    const result = await page.evaluate(
      async (cfg) => (await import("/xtask/js/browser/bench-page.mjs")).runOne(cfg),
      { scenario, mode, bridge: config.bridge, peer: config.peer, quick: config.quick },
    );
    console.log(`BENCH_BROWSER_JSON ${JSON.stringify(result)}`);
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
