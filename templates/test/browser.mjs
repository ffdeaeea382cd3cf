// `cargo bridge test --chromium`: node browser.mjs <chromium> <plan.json> (the plan: see
// node.mjs; its glue is a `--target web` build). Serves the plan's files, this folder's
// harness and a page that runs them on 127.0.0.1, opens the page in headless Chromium and
// prints what the page reports. No browser driver: the page posts each line of its output
// and then its exit code back to this server.
import { spawn } from "node:child_process";
import { readFile, writeFile, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { basename, dirname, extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const [chromium, planFile] = process.argv.slice(2);
const plan = JSON.parse(await readFile(planFile, "utf8"));
const here = fileURLToPath(new URL(".", import.meta.url));
const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };
// The page fetches the plan's files under /root<n>/, root n being the folder of one of them.
const roots = [];
const url = (file) => {
  if (file === null) return null;
  const dir = dirname(file);
  if (!roots.includes(dir)) roots.push(dir);
  return `/root${roots.indexOf(dir)}/${encodeURIComponent(basename(file))}`;
};
const pagePlan = {
  glue: url(plan.glue),
  wbg: plan.wbg && { glue: url(plan.wbg.glue), wasm: url(plan.wbg.wasm), skip: plan.wbg.skip },
  options: plan.options,
};
// The whole run may take a test timeout per test; the page reports every line, and this
// many ms without one (a synchronous test that never returns) ends it.
const SILENCE_MS = plan.options.timeoutMs + 30_000;

const page = `<!doctype html><meta charset="utf-8"><pre id="output"></pre><script type="module">
const plan = ${JSON.stringify(pagePlan)};
let sent = Promise.resolve();
const send = (path, body) => (sent = sent.then(() => fetch(path, { method: "POST", body: JSON.stringify(body) })));
const print = (line) => send("/line", line);
window.addEventListener("unhandledrejection", (e) => send("/done", { code: 1, lines: ["error: " + (e.reason?.stack ?? e.reason)] }));
try {
  const { captureConsole, instanceExports, runTests, watchInstances } = await import("/harness.mjs");
  captureConsole();
  watchInstances();
  const suite = { glue: null, wbg: null };
  if (plan.glue !== null) {
    suite.glue = await import(plan.glue);
    await suite.glue.default();
  }
  if (plan.wbg !== null) {
    if (plan.wbg.glue === null) {
      suite.wbg = { module: suite.glue, exports: instanceExports(), skip: plan.wbg.skip };
    } else {
      const module = await import(plan.wbg.glue);
      const exports = await module.default({ module_or_path: plan.wbg.wasm });
      suite.wbg = { module, exports, skip: plan.wbg.skip };
    }
  }
  const result = await runTests(suite, plan.options, print);
  await send("/done", { code: result.code, lines: [], result });
} catch (e) {
  await send("/done", { code: 1, lines: ["error: the tests could not run in Chromium: " + (e?.stack ?? e)] });
}
</script>`;

let finish;
const done = new Promise((settle) => (finish = settle));
const server = createServer(async (req, res) => {
  const url = new URL(req.url, "http://127.0.0.1");
  if (req.method === "POST" && (url.pathname === "/done" || url.pathname === "/line")) {
    let body = "";
    for await (const chunk of req) body += chunk;
    res.end();
    if (url.pathname === "/done") finish(JSON.parse(body));
    else {
      console.log(JSON.parse(body));
      watchdog.refresh();
    }
    return;
  }
  let file;
  if (url.pathname === "/") file = null;
  else if (url.pathname === "/harness.mjs") file = join(here, "harness.mjs");
  else {
    // Only files under the plan's folders: /root<n>/<path inside folder n>.
    const match = /^\/root(\d+)\/(.+)$/.exec(url.pathname);
    const root = match && roots[match[1]];
    if (root !== undefined && root !== null) {
      const path = resolve(root, decodeURIComponent(match[2]));
      if (path.startsWith(root + sep)) file = path;
    }
  }
  if (file === undefined) {
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
const watchdog = setTimeout(() => finish({ code: 1, lines: [`error: Chromium printed nothing for ${SILENCE_MS / 1000} s: a test that never returns (a synchronous loop?) stopped the page`] }), SILENCE_MS);
const result = await Promise.race([done, exited]);
clearTimeout(watchdog);
for (const line of result.lines) console.log(line);
browser.kill();
server.close();
await rm(profile, { recursive: true, force: true }).catch(() => {});
if (result.result) await writeFile(plan.results, JSON.stringify(result.result));
process.exitCode = result.code;
