// Two module Web Workers, each with its own instance of the `web` package, and the page's
// own: each has its own identity table (cargo xtask test-workers prints the result).
import init, * as m from "./pkg/identity.js";

function start() {
  const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  let reply = null;
  worker.onmessage = (event) => reply?.(event.data);
  worker.onerror = (event) => {
    window.__bridgeResult = { error: event.message };
  };
  const next = () => new Promise((ok) => (reply = ok));
  return {
    ready: next(),
    ask(message) {
      const answer = next();
      worker.postMessage(message);
      return answer;
    },
  };
}

await init();
const [a, b] = [start(), start()];
const ready = [await a.ready, await b.ready];
const steps = [
  await a.ask({ op: "make", n: 3 }),
  await b.ask({ op: "make", n: 5 }),
  await a.ask({ op: "release" }),
  await b.ask({ op: "make", n: 2 }),
];
window.__bridgeResult = { ready, steps, page: m.__bridgeStats().StrongNode.rustTable };
