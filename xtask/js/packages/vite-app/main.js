// A user's app importing a --target bundler package by name; Vite bundles it (and its
// .wasm), cargo xtask test-packages runs the bundle in headless Chromium (test-bundlers
// bundles it with webpack, esbuild and Rollup too).
import { Counter, Pool, shout } from "kitchen-sink";

const c = new Counter(41, "vite");
const pool = new Pool(2);
window.__bridgeResult = {
  count: c.add(1),
  name: c.name,
  shout: shout("hi"),
  items: pool.all().length,
};
