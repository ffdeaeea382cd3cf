// A CommonJS program requiring a `--target nodejs-cjs` package by name, for Node before
// 20.19 (no require() of ES modules; cargo xtask test-runtimes runs it on Node 18):
// classes, identity in the three modes, pools, records and errors.
const m = require("identity");

const modes = {};
for (const [mode, Store] of [["none", m.PlainStore], ["pointer", m.WeakStore], ["rust", m.StrongStore]]) {
  const store = new Store(3);
  modes[mode] = { same: store.get(1) === store.get(1), id: store.get(1).id };
}
const store = new m.StrongStore(2);
const pooled = m.withPool(() => store.all().length);
const afterPool = m.__bridgeStats().StrongNode.rustTable;
const node = store.get(0);
const pair = m.StrongStore.echoPair({ tag: 7, node, label: "x", other: null });
node.release();
let error = null;
try {
  node.id;
} catch (e) {
  error = e instanceof Error && e.message.includes("StrongNode");
}
console.log(JSON.stringify({ modes, pooled, afterPool, pair: [pair.tag, pair.node === node, pair.label], error }));
