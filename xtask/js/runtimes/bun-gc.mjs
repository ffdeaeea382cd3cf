// `bun test --preload` this: the fixtures' suites call `globalThis.gc()` (node --expose-gc,
// deno --v8-flags=--expose-gc); Bun's is `Bun.gc(true)` (synchronous, full).
globalThis.gc ??= () => Bun.gc(true);
