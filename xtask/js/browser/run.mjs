// Runs the fixtures' node:test suites in headless Chromium: `cargo xtask test-browser`
// writes a config (see xtask/src/browser.rs) and runs `node run.mjs CONFIG`.
//
// A static server on 127.0.0.1 (an ephemeral port, stopped at the end) serves the
// repository read-only. Each suite runs in a fresh page whose import map sends
// `node:test`, `node:assert/strict` and `node:fs` (readFileSync only) to the shims beside this file and every fixture's
// `pkg/<lib>.js` to a wrapper that re-exports its `--target web` build once `init()` has
// resolved (as the nodejs glue is ready on import). So the suites' own bodies run unchanged. Suites that import other Node built-ins (node:fs,
// node:child_process, ...) are Node-only and listed as skipped.
//
// Output: one `ok`/`not ok` line per test, then node:test's closing counts.
import { readFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { dirname, extname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./chromium.mjs";
import { send, serveStatic } from "./serve.mjs";

const here = dirname(fileURLToPath(import.meta.url));
// Node built-ins the page has shims for: every export, or only the names listed.
const BROWSER_SAFE = { "node:test": null, "node:assert/strict": null, "node:fs": ["readFileSync"] };
const SUITE_TIMEOUT_MS = 120_000;
const SHIMS = ["node-test.mjs", "assert.mjs", "fs.mjs"];

const config = JSON.parse(readFileSync(process.argv[2], "utf8"));
const root = resolve(config.root);

/** Static imports of a module: `{ spec, names }`, names null unless `import { a, b } from`. */
function importsOf(source) {
  const found = [];
  const pattern = /(?:^|[;\s])(?:import|export)\s([^"'`;]*?)from\s*["']([^"']+)["']|(?:^|[;\s])import\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/gm;
  for (const m of source.matchAll(pattern)) {
    const clause = m[1]?.trim();
    const named = clause && /^\{([^}]*)\}$/.exec(clause);
    const names = named ? named[1].split(",").map((n) => n.trim().split(/\s+as\s+/)[0]).filter(Boolean) : null;
    found.push({ spec: m[2] ?? m[3] ?? m[4], names });
  }
  return found;
}

/** Whether the page's shim covers this import of a Node built-in. */
function shimmed({ spec, names }) {
  if (!(spec in BROWSER_SAFE)) return false;
  const allowed = BROWSER_SAFE[spec];
  return allowed === null || (names !== null && names.every((n) => allowed.includes(n)));
}

/** The Node built-ins a suite needs beyond node:test and node:assert/strict, following relative imports. */
function nodeOnlyImports(file, seen = new Set()) {
  if (seen.has(file)) return [];
  seen.add(file);
  const needs = [];
  for (const imported of importsOf(readFileSync(file, "utf8"))) {
    const spec = imported.spec;
    if (spec.startsWith("node:") && !shimmed(imported)) needs.push(spec);
    else if (spec.startsWith(".") && !spec.includes("/pkg/")) needs.push(...nodeOnlyImports(resolve(dirname(file), spec), seen));
  }
  return needs;
}

const urlOf = (file) => `/${relative(root, file).split(sep).join("/")}`;

function page() {
  const imports = {
    "node:test": "/__bridge/node-test.mjs",
    "node:assert/strict": "/__bridge/assert.mjs",
    "node:fs": "/__bridge/fs.mjs",
  };
  config.packages.forEach((p, i) => {
    imports[urlOf(p.glue)] = `/__bridge/pkg/${i}.js`;
    // JS snippets the glue imports come from the web build too (the same instances).
    imports[`${urlOf(dirname(p.glue))}/snippets/`] = `${urlOf(dirname(p.web))}/snippets/`;
  });
  return `<!doctype html>
<meta charset="utf-8">
<title>cargo-bridge browser tests</title>
<script type="importmap">${JSON.stringify({ imports })}</script>
<script type="module">
  const { runRegistered } = await import("/__bridge/node-test.mjs");
  const suite = new URL(location.href).searchParams.get("suite");
  window.__bridgeResults = [];
  window.__bridgeDone = (async () => {
    await import(suite);
    await runRegistered((result) => window.__bridgeResults.push(result));
  })();
</script>
`;
}

function serve() {
  const html = page();
  const glues = config.packages.map((p) => urlOf(p.glue));
  const wrap = (res, index, search) => {
    // The suites import pkg/<lib>.js and expect it ready (the nodejs target): this
    // stands in for it, re-exporting the --target web build after awaiting its init(),
    // so a failing instantiation fails the import as in Node. A query (a suite's fresh
    // instance, `pkg/x.js?instance=2`) carries over to the web build.
    const web = JSON.stringify(urlOf(config.packages[index].web) + search);
    send(res, `import init from ${web};\nexport * from ${web};\nawait init();\n`, ".js");
    return true;
  };
  return serveStatic(root, async (path, url, res, req) => {
    if (path === "/__bridge/index.html") {
      send(res, html, ".html");
      return true;
    }
    const wrapper = /^\/__bridge\/pkg\/(\d+)\.js$/.exec(path);
    if (wrapper && config.packages[Number(wrapper[1])]) return wrap(res, Number(wrapper[1]), "");
    // Import maps match URLs without a query only; a glue URL with one arrives here. (A
    // suite reading the glue as text, not importing it, gets the web build's file below.)
    const importing = req.headers["sec-fetch-dest"] === "script";
    if (importing && glues.includes(path)) return wrap(res, glues.indexOf(path), url.search);
    // Other files of a pkg/ (the .d.ts a suite reads) come from the web build.
    const index = config.packages.findIndex((p) => path.startsWith(`${urlOf(dirname(p.glue))}/`));
    if (index >= 0) {
      const rest = path.slice(urlOf(dirname(config.packages[index].glue)).length + 1);
      if (rest.split("/").includes("..")) {
        res.writeHead(403);
        res.end();
        return true;
      }
      try {
        send(res, await readFile(join(dirname(config.packages[index].web), rest)), extname(rest));
      } catch {
        res.writeHead(404);
        res.end();
      }
      return true;
    }
    const shim = path.slice("/__bridge/".length);
    if (path.startsWith("/__bridge/") && SHIMS.includes(shim)) {
      send(res, await readFile(join(here, shim)), ".mjs");
      return true;
    }
    return false;
  });
}

const started = performance.now();
const server = await serve();
const origin = server.origin;
const browser = await launch(config.chromium);

const counts = { tests: 0, pass: 0, fail: 0, skipped: 0, todo: 0, suites: 0 };
let n = 0;
const line = (text) => process.stdout.write(`${text}\n`);
try {
  for (const suite of config.suites) {
    const label = relative(root, suite);
    const nodeOnly = nodeOnlyImports(suite);
    if (nodeOnly.length > 0) {
      line(`# ${label}: Node-only (imports ${[...new Set(nodeOnly)].join(", ")}), not run in the browser`);
      continue;
    }
    counts.suites++;
    const context = await browser.newContext();
    const tab = await context.newPage();
    const errors = [];
    tab.on("pageerror", (error) => errors.push(error.stack ?? String(error)));
    tab.on("console", (msg) => {
      if (msg.type() === "error" || msg.type() === "warning") errors.push(`console.${msg.type()}: ${msg.text()}`);
      else line(`# ${label}: ${msg.text()}`);
    });
    let results = [];
    try {
      await tab.goto(`${origin}/__bridge/index.html?suite=${encodeURIComponent(urlOf(suite))}`);
      await tab.waitForFunction(() => window.__bridgeDone !== undefined, null, { timeout: 30_000 });
      await tab.evaluate(
        (ms) => Promise.race([window.__bridgeDone, new Promise((_, no) => setTimeout(() => no(new Error(`suite timed out after ${ms} ms`)), ms))]),
        SUITE_TIMEOUT_MS,
      );
      results = await tab.evaluate(() => window.__bridgeResults);
    } catch (error) {
      results = (await tab.evaluate(() => window.__bridgeResults ?? []).catch(() => []));
      results.push({ name: "(loading or running the suite)", ok: false, error: [error.message, ...errors].join("\n") });
    }
    if (results.length === 0) results.push({ name: "(suite)", ok: false, error: "the suite registered no tests" });
    for (const r of results) {
      counts.tests++;
      n++;
      if (r.skipped || r.todo) {
        counts[r.skipped ? "skipped" : "todo"]++;
        line(`ok ${n} - ${label} > ${r.name} # ${r.skipped ? "SKIP" : "TODO"}`);
      } else if (r.ok) {
        counts.pass++;
        line(`ok ${n} - ${label} > ${r.name}`);
      } else {
        counts.fail++;
        line(`not ok ${n} - ${label} > ${r.name}`);
        for (const l of String(r.error).split("\n")) line(`  ${l}`);
      }
    }
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}

line(`1..${n}`);
line(`# tests ${counts.tests}`);
line(`# suites ${counts.suites}`);
line(`# pass ${counts.pass}`);
line(`# fail ${counts.fail}`);
line(`# cancelled 0`);
line(`# skipped ${counts.skipped}`);
line(`# todo ${counts.todo}`);
line(`# duration_ms ${Math.round(performance.now() - started)}`);
process.exitCode = counts.fail > 0 || counts.tests === 0 ? 1 : 0;
