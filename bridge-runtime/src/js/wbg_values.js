// wasm-bindgen's half of the JsValue conversions (bridge-runtime feature `wasm-bindgen`).
// wasm-bindgen copies this file into each package's snippets/, so its state is per
// package; cargo bridge's glue connects it to its value table once the module is
// instantiated (`$wbgConnect` in templates/wasm_bindgen.js.j2).
let $table = null;
export function __bridgeConnect(table) {
  $table = table;
}
// bridge_runtime::JsValue -> wasm_bindgen::JsValue: takes the bridge table entry.
export function __bridgeToWasmBindgen(idx) {
  return $table.take(idx);
}
// wasm_bindgen::JsValue -> bridge_runtime::JsValue: a new bridge table entry.
export function __bridgeFromWasmBindgen(value) {
  return $table.add(value);
}
// A bridge class handle -> wasm_bindgen::JsValue: Rust lowered it (`abi`) as any class
// return; the class's lift gives its wrapper (the one JS holds, in rust/pointer mode).
export function __bridgeClassToWasmBindgen(typeId, abi) {
  return $table.lift(typeId, abi);
}
