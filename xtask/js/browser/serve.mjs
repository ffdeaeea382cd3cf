// A static file server on 127.0.0.1 (an ephemeral port) for the browser checks: serves
// `root` read-only; `route(path, url, res, req)` may answer a request first (return true).
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".css": "text/css",
};

export function send(res, body, ext) {
  res.writeHead(200, { "content-type": MIME[ext] ?? "application/octet-stream", "cache-control": "no-store" });
  res.end(body);
}

/** Start serving (on `port`, else an ephemeral one); resolves to `{ origin, close() }`. */
export function serveStatic(root, route = () => false, port = 0) {
  root = resolve(root);
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    const path = decodeURIComponent(url.pathname);
    if (await route(path, url, res, req)) return;
    const file = resolve(join(root, path.endsWith("/") ? `${path}index.html` : path));
    if (!file.startsWith(root + sep)) {
      res.writeHead(403);
      return res.end();
    }
    try {
      send(res, await readFile(file), extname(file));
    } catch {
      res.writeHead(404);
      res.end(`not found: ${path}`);
    }
  });
  return new Promise((ok) =>
    server.listen(port, "127.0.0.1", () =>
      ok({ origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }),
    ),
  );
}
