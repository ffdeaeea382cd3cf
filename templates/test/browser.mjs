// `cargo bridge test --chromium`: node browser.mjs <chromium> <package dir> <glue file> <filter>
// Serves the package (a `--target web` build), this folder's harness and a page that runs
// it on 127.0.0.1, opens the page in headless Chromium and prints what the page reports.
// No browser driver: the page posts its output and exit code back to this server.
import { spawn } from "node:child_process";
import { readFile, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const [chromium, pkgDir, glueFile, filter = ""] = process.argv.slice(2);
const here = fileURLToPath(new URL(".", import.meta.url));
const TIMEOUT_MS = 120_000;
const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };

const page = `<!doctype html><meta charset="utf-8"><script type="module">
const report = (body) => fetch("/done", { method: "POST", body: JSON.stringify(body) });
window.addEventListener("unhandledrejection", (e) => report({ code: 1, lines: ["error: " + (e.reason?.stack ?? e.reason)] }));
try {
  const { runTests } = await import("/harness.mjs");
  const glue = await import("/pkg/${glueFile}");
  await glue.default();
  const lines = [];
  const code = await runTests(glue, ${JSON.stringify(filter)}, (line) => lines.push(line));
  await report({ code, lines });
} catch (e) {
  await report({ code: 1, lines: ["error: the tests could not run in Chromium: " + (e?.stack ?? e)] });
}
</script>`;

let finish;
const done = new Promise((resolve) => (finish = resolve));
const server = createServer(async (req, res) => {
  const url = new URL(req.url, "http://127.0.0.1");
  if (req.method === "POST" && url.pathname === "/done") {
    let body = "";
    for await (const chunk of req) body += chunk;
    res.end();
    finish(JSON.parse(body));
    return;
  }
  let file;
  if (url.pathname === "/") file = null;
  else if (url.pathname === "/harness.mjs") file = join(here, "harness.mjs");
  else if (url.pathname.startsWith("/pkg/")) file = join(pkgDir, normalize(decodeURIComponent(url.pathname.slice(5))).replace(/^(\.\.[/\\])+/, ""));
  else {
    res.writeHead(404).end();
    return;
  }
  try {
    const body = file === null ? page : await readFile(file);
    res.writeHead(200, { "content-type": TYPES[file === null ? ".html" : extname(file)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const profile = await mkdtemp(join(tmpdir(), "cargo-bridge-chromium-"));
const browser = spawn(chromium, [
  "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  `--user-data-dir=${profile}`, `http://127.0.0.1:${server.address().port}/`,
], { stdio: "ignore" });
const exited = new Promise((resolve) => browser.on("exit", (code) => resolve({ code: 1, lines: [`error: Chromium (${chromium}) exited (code ${code}) before the tests finished`] })));
browser.on("error", (e) => finish({ code: 1, lines: [`error: could not start Chromium (${chromium}): ${e.message}`] }));
const timer = setTimeout(() => finish({ code: 1, lines: [`error: the tests did not finish in Chromium within ${TIMEOUT_MS / 1000} s`] }), TIMEOUT_MS);
const result = await Promise.race([done, exited]);
clearTimeout(timer);
for (const line of result.lines) console.log(line);
browser.kill();
server.close();
await rm(profile, { recursive: true, force: true }).catch(() => {});
process.exitCode = result.code;
