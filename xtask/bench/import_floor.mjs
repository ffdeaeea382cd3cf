// The floor of the calling-JS scenarios: a bare wasm → JS import call. A hand-assembled
// module (below, in WebAssembly text) imports one function and calls it in a loop, so
// each iteration is exactly one wasm → JS call with an i32 in and an i32 out, and no
// glue at all.
//
//   (module
//     (import "m" "f" (func $f (param i32) (result i32)))
//     (func (export "run") (param $n i32) (param $x i32) (result i32)
//       (block (loop
//         (br_if 1 (i32.eqz (local.get $n)))
//         (local.set $x (call $f (local.get $x)))
//         (local.set $n (i32.sub (local.get $n) (i32.const 1)))
//         (br 0)))
//       (local.get $x)))
const BYTES = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  // types: (i32) -> i32, (i32, i32) -> i32
  0x01, 0x0c, 0x02, 0x60, 0x01, 0x7f, 0x01, 0x7f, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f,
  // import "m" "f": type 0
  0x02, 0x07, 0x01, 0x01, 0x6d, 0x01, 0x66, 0x00, 0x00,
  // one function of type 1, exported as "run"
  0x03, 0x02, 0x01, 0x01,
  0x07, 0x07, 0x01, 0x03, 0x72, 0x75, 0x6e, 0x00, 0x01,
  // its body (30 bytes, no locals)
  0x0a, 0x20, 0x01, 0x1e, 0x00,
  0x02, 0x40, 0x03, 0x40,
  0x20, 0x00, 0x45, 0x0d, 0x01,
  0x20, 0x01, 0x10, 0x00, 0x21, 0x01,
  0x20, 0x00, 0x41, 0x01, 0x6b, 0x21, 0x00,
  0x0c, 0x00, 0x0b, 0x0b,
  0x20, 0x01, 0x0b,
]);

/** A loop calling `f` (i32 → i32) `n` times from wasm, threading `x` through. */
export function importLoop(f) {
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(BYTES), { m: { f } });
  return exports.run;
}
