// A module Web Worker importing the `web` package: it calls init() itself, so each worker
// has its own instance (cargo xtask test-workers; the ops: worker-ops.mjs, copied beside).
import init, * as m from "./pkg/identity.js";
import { workerOps } from "./worker-ops.mjs";

await init();
const handle = workerOps(m);
self.onmessage = (event) => self.postMessage(handle(event.data));
self.postMessage("ready");
