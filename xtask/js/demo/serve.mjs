// Serves the built outline demo (`cargo xtask demo`): `node serve.mjs WWW_DIR [PORT]`;
// prints the URL and serves until interrupted (Ctrl-C).
import { resolve } from "node:path";
import { serveStatic } from "../browser/serve.mjs";

const [dir, port] = process.argv.slice(2);
const server = await serveStatic(resolve(dir), () => false, Number(port ?? 0));
console.log(`demo: serving ${resolve(dir)} at ${server.origin}/ (Ctrl-C stops)`);
