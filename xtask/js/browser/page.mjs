// Serves a built app (DIR) on 127.0.0.1, opens its index.html in headless Chromium and
// prints what the page stored in `window.__bridgeResult` as JSON; exits non-zero on a
// page error or timeout. `node page.mjs DIR CHROMIUM` (cargo xtask test-packages).
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import { launch } from "./chromium.mjs";

const [dir, chromiumPath] = process.argv.slice(2).map((a, i) => (i === 0 ? resolve(a) : a));
const MIME = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".css": "text/css" };

const server = createServer(async (req, res) => {
  const path = decodeURIComponent(new URL(req.url, "http://127.0.0.1").pathname);
  const file = resolve(join(dir, path === "/" ? "index.html" : path));
  if (!file.startsWith(dir + sep)) {
    res.writeHead(403);
    return res.end();
  }
  try {
    const body = await readFile(file);
    res.writeHead(200, { "content-type": MIME[extname(file)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const browser = await launch(chromiumPath);
const errors = [];
try {
  const page = await browser.newPage();
  page.on("pageerror", (e) => errors.push(e.stack ?? String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => window.__bridgeResult !== undefined, null, { timeout: 30_000 });
  console.log(JSON.stringify(await page.evaluate(() => window.__bridgeResult)));
} catch (error) {
  console.error(`the app did not finish: ${error.message}\n${errors.join("\n")}`);
  process.exitCode = 1;
} finally {
  await browser.close();
  server.close();
}
