// A user's app importing a --target bundler package whose crate uses both #[bridge] and
// wasm-bindgen (fixtures/wasm-bindgen); Vite bundles it, its _bg.js and snippets;
// cargo xtask test-packages runs the bundle in headless Chromium.
import { Ledger, Point, createElement, greet, newUuid, startCount, throughWasmBindgen } from "wbg-interop";

const ledger = new Ledger();
const entry = ledger.add("bundled");
const object = {};
window.__bridgeResult = {
  started: startCount(),
  greet: greet("vite"),
  uuid: /^[0-9a-f-]{36}$/.test(newUuid()) && entry.id !== newUuid(),
  label: entry.label,
  same: throughWasmBindgen(object) === object,
  norm: new Point(3, 4).norm(),
  tag: createElement("section")?.tagName ?? null,
};
ledger.release();
