// Serves a built app (DIR) on 127.0.0.1, opens its index.html in headless Chromium and
// prints what the page stored in `window.__bridgeResult` as JSON; exits non-zero on a
// page error or timeout. `node page.mjs DIR CHROMIUM` (cargo xtask test-packages).
import { resolve } from "node:path";
import { launch } from "./chromium.mjs";
import { serveStatic } from "./serve.mjs";

const [dir, chromiumPath] = process.argv.slice(2).map((a, i) => (i === 0 ? resolve(a) : a));
const server = await serveStatic(dir);
const browser = await launch(chromiumPath);
const errors = [];
try {
  const page = await browser.newPage();
  page.on("pageerror", (e) => errors.push(e.stack ?? String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => window.__bridgeResult !== undefined, null, { timeout: 30_000 });
  console.log(JSON.stringify(await page.evaluate(() => window.__bridgeResult)));
} catch (error) {
  console.error(`the app did not finish: ${error.message}\n${errors.join("\n")}`);
  process.exitCode = 1;
} finally {
  await browser.close();
  server.close();
}
