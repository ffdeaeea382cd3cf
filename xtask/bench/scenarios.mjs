// The identity scenarios (the five of the reference design's benchmark, and the uiTree
// workload), each with its
// floor: the same loop making the same number of boundary crossings against the bare
// `floor` export (i32 in, i32 out, no wrapper).
//
// Every scenario is { iterations, crossings, setup(api), run(api, state, n) (with
// `async: true`, `run` and `floor` return promises, awaited by the runner),
// (`importFloor`: its floor makes bare wasm → JS import calls instead of `floor` calls)
// floor(api, state, n), teardown(api, state) }, optionally allocFloor(api, state, n) (the
// `alloc-floor` row: the same crossings doing the Rust work, without wrappers),
// jsOnly(small) (the `js-only` row: an `api` whose objects are plain JS, for the same
// setup, run and teardown) and
// counters(state) (totals the runner reports with every measure, e.g. memo hits). `run` must be callable in chunks (the
// memory measure samples the heap between chunks), so loop state lives in `state`.
// What each mode leaves behind (none-mode wrappers nobody released) is the GC's, as in
// the reference; only rustCreatesObject releases explicitly, in every mode alike.

/** uiTree: fan-outs below the root (5 levels, 101_111 nodes); `api.small`: 39 nodes. */
import { importLoop } from "./import_floor.mjs";
import { JsTree } from "./js_tree.mjs";

/** What Rust calls in the calling-JS scenarios (the peer imports it as a global). */
const bump = (x) => (x + 1) | 0;
/** callJsMethod's class (the bridge package imports the same body from its js/host.mjs). */
class BenchCounter {
  constructor() {
    this.n = 0;
  }
  add(k) {
    this.n = (this.n + k) | 0;
    return this.n;
  }
}
globalThis.benchHost = { bump, BenchCounter, applyLent: (f, x) => f(x) };
const bareImportLoop = importLoop(bump);

export const TREE_FANOUTS = [10, 10, 10, 100];
const SMALL_TREE_FANOUTS = [2, 2, 2, 3];

/**
 * One node of a render, UI-style: check the parent link, read the version, reuse the
 * memoized label if the node is unchanged (the memo is a WeakMap keyed by the node object,
 * so only identity can make it hit), else read the value and compute it; then the
 * children. Returns the view node, which holds its model node as a UI tree would.
 */
function renderNode(node, parent, st) {
  st.visits++;
  if (node.parent() == parent) st.parentSame++; // the root's: undefined (None) or a JS tree's null
  const version = node.version;
  const memo = st.memo.get(node);
  let label;
  if (memo !== undefined && memo.version === version) {
    st.hits++;
    label = memo.label;
  } else {
    label = `node ${node.value} v${version}`;
    st.memo.set(node, { version, label });
  }
  const kids = node.children();
  const children = new Array(kids.length);
  for (let i = 0; i < kids.length; i++) children[i] = renderNode(kids[i], node, st);
  return { node, label, children };
}

/** Every model node a view holds. */
function viewNodes(view, out = []) {
  out.push(view.node);
  for (const child of view.children) viewNodes(child, out);
  return out;
}

/** recordVec_100's js-only pool: `hits()` is a fresh array of fresh records, as the bridge's. */
class JsHitPool {
  constructor(n) {
    this.items = Array.from({ length: n }, (_, i) => ({ value: i }));
  }
  hits() {
    const items = this.items;
    const out = new Array(items.length);
    for (let i = 0; i < items.length; i++) out[i] = { item: items[i], x: i };
    return out;
  }
}

/** The floor of a loop making one crossing per iteration: `x = floor(x)`. */
function chainFloor(api, st, n) {
  const floor = api.floor;
  let x = st.x;
  for (let i = 0; i < n; i++) x = floor(x);
  st.x = x;
}

/** The floor of a loop making 100 crossings per iteration (the `_100` scenarios). */
function hundredFloor(api, st, n) {
  const floor = api.floor;
  let sink = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < 100; j++) sink += floor(j);
  }
  st.sink += sink;
}

/** The floor of a loop making two crossings per iteration (the Game of Life's tick and cells). */
function pairFloor(api, st, n) {
  const floor = api.floor;
  let sink = 0;
  for (let i = 0; i < n; i++) sink += floor(i) + floor(i);
  st.sink += sink;
}

/** The teardown of the Game of Life scenarios: the universe `setup` made. */
function freeLife(api, st) {
  api.life.free(st.life);
}

/**
 * JS passes the same object to Rust again and again; `consume(C, obj)` is the call (it
 * returns an i32). The floor makes the same number of bare calls.
 */
function consumeScenario(consume) {
  return {
    iterations: 1_000_000,
    crossings: 1,
    setup: (api) => ({ obj: new api.C(7), sink: 0 }),
    run(api, st, n) {
      const C = api.C;
      const obj = st.obj;
      let sink = 0;
      for (let i = 0; i < n; i++) sink += consume(C, obj);
      st.sink += sink;
    },
    floor(api, st, n) {
      const floor = api.floor;
      let sink = 0;
      for (let i = 0; i < n; i++) sink += floor(7);
      st.sink += sink;
    },
    teardown: (api, st) => api.release(st.obj),
  };
}

// The Game of Life's frame, as the Rust and WebAssembly book's JS draws it (`drawCells`),
// without a canvas, so that Node and Chromium run the same code: every cell is read through
// the view at the book's `getIndex(row, col)` and its colour (the book's `#FFFFFF` dead,
// `#000000` alive) written into an RGBA `Uint8ClampedArray` the size of an `ImageData` of
// the grid, one pixel per cell (what `putImageData` would then show). The book's `drawGrid`
// (constant lines, no cell read) is left out.
function drawCells(cells, width, height, pixels) {
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const idx = row * width + col;
      const colour = cells[idx] === 0 ? 0xff : 0x00;
      const p = idx * 4;
      pixels[p] = colour;
      pixels[p + 1] = colour;
      pixels[p + 2] = colour;
      pixels[p + 3] = 0xff;
    }
  }
}

/**
 * One frame of the book's render loop per iteration: `tick()` in Rust, then `cells()` (a
 * `&[u8]` view; the peer: `new Uint8Array(memory.buffer, life.cells(), n)`) drawn by
 * `drawCells`. Both packages run this code; only `api.life`'s calls differ.
 */
function lifeScenario(side, iterations) {
  return {
    iterations,
    crossings: 2,
    setup(api) {
      const n = api.small ? 32 : side;
      return { life: api.life.make(n, n), side: n, pixels: new Uint8ClampedArray(n * n * 4), sink: 0 };
    },
    run(api, st, n) {
      const { tick, cells } = api.life;
      const { life, side, pixels } = st;
      for (let i = 0; i < n; i++) {
        tick(life);
        drawCells(cells(life), side, side, pixels);
      }
      st.sink += pixels[2 * side * side];
    },
    floor: pairFloor,
    teardown: freeLife,
  };
}

export const SCENARIOS = {
  // Rust returns an object, JS passes it back: obj = C.roundtrip(obj).
  passBothWaysRoundtrip: {
    iterations: 1_000_000,
    crossings: 1,
    setup: (api) => ({ obj: new api.C(1) }),
    run(api, st, n) {
      const C = api.C;
      let obj = st.obj;
      for (let i = 0; i < n; i++) obj = C.roundtrip(obj);
      st.obj = obj;
    },
    floor: chainFloor,
    teardown: (api, st) => api.release(st.obj),
  },

  // Rust returns the same 100 objects as a fresh Vec, again and again. The app keeps the
  // last collection it got (as it would keep `building.floors`), so a weak cache stays
  // warm across runs too.
  getPoolRepeated_100: {
    iterations: 10_000,
    crossings: 100,
    setup(api) {
      const pool = new api.Pool(100);
      return { pool, items: pool.all(), sink: 0 }; // warms the cache
    },
    run(api, st, n) {
      const pool = st.pool;
      let items = st.items;
      let sink = 0;
      for (let i = 0; i < n; i++) {
        items = pool.all();
        sink += items.length;
      }
      st.items = items;
      st.sink += sink;
    },
    floor: hundredFloor,
    teardown(api, st) {
      for (const item of st.items) api.release(item);
      api.release(st.pool);
    },
  },

  // Issue 23: the same 100 objects pulled one per next() through a Rust iterator
  // (`pool.cycle()`, endless), 100 per iteration, so its per-crossing cost stands beside
  // getPoolRepeated_100's `Vec<Handle<C>>` (wasm-bindgen: a cursor struct's next()
  // wrapped in a JS iterator). Each run chunk is one for-of; break frees the iterator.
  iterate: {
    iterations: 10_000,
    crossings: 100,
    setup(api) {
      const pool = new api.Pool(100);
      return { pool, items: pool.all(), sink: 0 }; // warms the cache
    },
    run(api, st, n) {
      const total = n * 100;
      let k = 0;
      let sink = 0;
      if (total > 0) {
        for (const item of api.cycle(st.pool)) {
          if (item != null) sink++;
          if (++k === total) break;
        }
      }
      st.sink += sink;
    },
    floor: hundredFloor,
    teardown(api, st) {
      for (const item of st.items) api.release(item);
      api.release(st.pool);
    },
  },

  // Create, roundtrip, release. `releaseSent(sent, got)` releases the object created:
  // `sent.release()` here; wasm-bindgen's by-value roundtrip consumed `sent`, so its user
  // frees `got`. A none-mode `got` (a second wrapper) is left to the GC, as in the reference.
  churnObjects: {
    iterations: 100_000,
    crossings: 3,
    setup: () => ({ seq: 0 }),
    run(api, st, n) {
      const C = api.C;
      const releaseSent = api.releaseSent;
      let seq = st.seq;
      for (let i = 0; i < n; i++) {
        const obj = new C(seq++);
        releaseSent(obj, C.roundtrip(obj));
      }
      st.seq = seq;
    },
    floor(api, st, n) {
      const floor = api.floor;
      let x = st.x;
      for (let i = 0; i < n; i++) x = floor(floor(floor(x)));
      st.x = x;
    },
    teardown() {},
  },

  // JS passes the same object to Rust, which only reads it.
  rustConsumesSameObject: consumeScenario((C, obj) => C.consume(obj)),

  // A fresh object per call, released right away (in every mode, like for like).
  rustCreatesObject: {
    iterations: 1_000_000,
    crossings: 2,
    setup: () => ({ seq: 0 }),
    run(api, st, n) {
      const C = api.C;
      const release = api.release;
      let seq = st.seq;
      for (let i = 0; i < n; i++) release(C.make(seq++));
      st.seq = seq;
    },
    floor(api, st, n) {
      const floor = api.floor;
      let x = st.x;
      for (let i = 0; i < n; i++) x = floor(floor(x));
      st.x = x;
    },
    // The allocation floor: the same box made and freed, as an address, no wrapper.
    allocFloor(api, st, n) {
      const make = api.rawMake;
      const free = api.rawFree;
      let seq = st.seq;
      for (let i = 0; i < n; i++) free(make(seq++));
      st.seq = seq;
    },
    teardown() {},
  },

  // Issue 8: a `{x, y}` record in and out (wasm-bindgen: serde-wasm-bindgen).
  // Issue 23: the Game of Life pattern of the Rust and WebAssembly book, 1024×1024 cells:
  // each iteration one `tick()` in Rust, then JS reads every cell through a view of wasm
  // memory (`cells()`: a `&[u8]` view; wasm-bindgen: `new Uint8Array(memory.buffer,
  // life.cells(), n)`).
  viewRead: {
    iterations: 20,
    crossings: 2,
    setup: (api) => {
      const side = api.small ? 64 : 1024;
      return { life: api.life.make(side, side), sink: 0 };
    },
    run(api, st, n) {
      const { tick, cells } = api.life;
      let sink = 0;
      for (let i = 0; i < n; i++) {
        tick(st.life);
        const view = cells(st.life);
        for (let j = 0; j < view.length; j++) sink += view[j];
      }
      st.sink += sink;
    },
    floor: pairFloor,
    teardown: freeLife,
  },

  // Issue 23's workload: the Game of Life loop of the Rust and WebAssembly book, one frame
  // per iteration, at 256×256 and at 1024×1024 cells (see lifeScenario).
  lifeRender_256: lifeScenario(256, 100),
  lifeRender_1024: lifeScenario(1024, 10),

  // Issue 23: a 1,024-element `&mut [f64]` Rust fills, written back into the caller's
  // Float64Array (wasm-bindgen: the same signature).
  mutSlice: {
    iterations: 100_000,
    crossings: 1,
    setup: () => ({ buf: new Float64Array(1024), x: 0, sink: 0 }),
    run(api, st, n) {
      const fill = api.fillF64;
      const buf = st.buf;
      for (let i = 0; i < n; i++) fill(buf, i);
      st.sink += buf[1023];
    },
    floor: chainFloor,
    teardown() {},
  },

  // Issue 23: a `(u32, f64)` tuple returned as a JS array (wasm-bindgen has no tuples:
  // serde-wasm-bindgen), both elements read.
  tupleReturn: {
    iterations: 1_000_000,
    crossings: 1,
    setup: () => ({ sink: 0 }),
    run(api, st, n) {
      const tupleReturn = api.tupleReturn;
      let sink = 0;
      for (let i = 0; i < n; i++) {
        const t = tupleReturn(i);
        sink += t[0] + t[1];
      }
      st.sink += sink;
    },
    floor: chainFloor,
    teardown() {},
  },

  // Issue 23: a `HashMap<String, u32>` of 100 entries returned as a JS Map (wasm-bindgen:
  // serde-wasm-bindgen, whose default for maps is a Map), one entry read.
  mapReturn: {
    iterations: 20_000,
    crossings: 1,
    setup: () => ({ sink: 0 }),
    run(api, st, n) {
      const mapReturn = api.mapReturn;
      let sink = 0;
      for (let i = 0; i < n; i++) sink += mapReturn().get("key7");
      st.sink += sink;
    },
    floor: chainFloor,
    teardown() {},
  },

  recordRoundtrip: {
    iterations: 1_000_000,
    crossings: 1,
    // The same loop with movePoint written in JS: what building the result record costs
    // with no crossing at all (issue 24: the bound of the flat path).
    jsOnly: () => ({ movePoint: (p) => ({ x: p.x + 1, y: p.y }) }),
    setup: () => ({ p: { x: 0, y: 1 } }),
    run(api, st, n) {
      const movePoint = api.movePoint;
      let p = st.p;
      for (let i = 0; i < n; i++) p = movePoint(p);
      st.p = p;
    },
    floor: chainFloor,
    teardown() {},
  },

  // Issue 8: rustConsumesSameObject's call returning `Result::Ok(i32)` instead of `i32`.
  resultOkConsume: consumeScenario((C, obj) => C.consumeOk(obj)),

  // Issue 8: 100 records `{ item, x }` whose `item` is one of the same 100 objects each
  // time (identity hits in the caching modes); JS reads both fields of each.
  recordVec_100: {
    iterations: 10_000,
    crossings: 100,
    // The same loop over a JS pool whose hits() builds the 100 records `{ item, x }` of
    // its 100 items (x as Rust gives it): the allocation no bridge avoids (issue 24).
    jsOnly: () => ({ Pool: JsHitPool, hit: { item: (h) => h.item, done() {}, teardown() {} }, release() {} }),
    setup: (api) => ({ pool: new api.Pool(100), last: [], sink: 0 }),
    run(api, st, n) {
      const pool = st.pool;
      const { item, done } = api.hit;
      let sink = 0;
      let hits = st.last;
      for (let i = 0; i < n; i++) {
        hits = pool.hits();
        for (let j = 0; j < hits.length; j++) {
          const h = hits[j];
          const it = item(h);
          sink += h.x + (it == null ? 1 : 0);
          done(h, it);
        }
      }
      st.last = hits;
      st.sink += sink;
    },
    floor: hundredFloor,
    teardown(api, st) {
      api.hit.teardown(st.last);
      api.release(st.pool);
    },
  },

  // The real workload: a Rust-owned document tree JS renders like UI code. Each iteration:
  // a batch of edits in Rust (1% of the nodes, distinct), then a full re-render (walk from
  // `tree.root()`, see renderNode). Setup makes the first, cold render (not counted).
  // Counters: visits, memo hits, nodes changed by the edits, parent() === the walking parent.
  uiTree: {
    iterations: 1,
    crossings: 303_333,
    // The same walk over the same tree as plain JS objects: the bound of every mode.
    jsOnly: (small) => ({ Tree: JsTree, small, release() {} }),
    setup(api) {
      const tree = new api.Tree(...(api.small ? SMALL_TREE_FANOUTS : TREE_FANOUTS));
      const st = { tree, size: tree.size, memo: new WeakMap(), view: null, seed: 1 };
      Object.assign(st, { renders: 0, visits: 0, hits: 0, changed: 0, parentSame: 0 });
      st.view = renderNode(tree.root(), null, st);
      Object.assign(st, { visits: 0, hits: 0, parentSame: 0 });
      return st;
    },
    run(api, st, n) {
      const batch = Math.max(1, Math.floor(st.size / 100));
      for (let i = 0; i < n; i++) {
        st.changed += st.tree.edit(st.seed++, batch);
        st.view = renderNode(st.tree.root(), null, st);
        st.renders++;
      }
    },
    // Per render: children(), parent() and the version getter per node.
    floor(api, st, n) {
      const floor = api.floor;
      let x = st.x;
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < 303_333; j++) x = floor(x);
      }
      st.x = x;
    },
    counters: (st) => ({
      renders: st.renders,
      visits: st.visits,
      hits: st.hits,
      changed: st.changed,
      parentSame: st.parentSame,
    }),
    teardown(api, st) {
      for (const node of viewNodes(st.view)) api.release(node);
      api.release(st.tree);
    },
  },

  // Calling JS from Rust (issue 9). Rust calls a JS import `(i32) -> i32` in a loop, one
  // export call per chunk; the floor is the same loop making bare wasm → JS import calls.
  callImport: {
    iterations: 1_000_000,
    crossings: 1,
    importFloor: true,
    setup: () => ({ x: 0 }),
    run(api, st, n) {
      st.x = api.probes.callImportN(n, st.x);
    },
    floor(api, st, n) {
      st.x = bareImportLoop(n, st.x);
    },
    teardown() {},
  },

  // A method call on an imported JS class (issue 21): Rust calls `counter.add(1)` `n`
  // times per export call (the peer: a wasm-bindgen imported type's method).
  callJsMethod: {
    iterations: 1_000_000,
    crossings: 1,
    importFloor: true,
    setup: (api) => ({ x: 0, counter: api.probes.makeBenchCounter() }),
    run(api, st, n) {
      st.x = api.probes.callMethodN(n, st.counter);
    },
    floor(api, st, n) {
      st.x = bareImportLoop(n, st.x);
    },
    teardown() {},
  },

  // Rust calls the JS function passed for the call (`&dyn Fn(i32) -> i32`; the peer:
  // `&js_sys::Function`), `n` times per export call.
  callCallback: {
    iterations: 1_000_000,
    crossings: 1,
    importFloor: true,
    setup: () => ({ x: 0, f: (x) => (x + 1) | 0 }),
    run(api, st, n) {
      st.x = api.probes.callCallbackN(n, st.x, st.f);
    },
    floor(api, st, n) {
      st.x = bareImportLoop(n, st.x);
    },
    teardown() {},
  },

  // Rust lends a closure to a JS import that calls it once (`&dyn Fn(i32) -> i32`; the
  // peer: a `Closure` made per call and passed as `&Closure`), `n` times per export call.
  lentClosure: {
    iterations: 1_000_000,
    crossings: 2,
    importFloor: true,
    setup: () => ({ x: 0 }),
    run(api, st, n) {
      st.x = api.probes.lendClosureN(n, st.x);
    },
    // Two crossings a call (the import, and JS calling the lent closure back): twice
    // the bare import calls.
    floor(api, st, n) {
      st.x = bareImportLoop(2 * n, st.x);
    },
    teardown() {},
  },

  // Async (issue 22; `async: true`: `run` and `floor` return promises the runner awaits).
  // JS awaits a Rust `async fn` that returns at once (`asyncNow(x)`, i32 in and out; the
  // peer: a wasm-bindgen async export, wasm-bindgen-futures), one call and one await per
  // iteration. The floor awaits the bare `floor` export's number: the same await, no task.
  asyncReturn: {
    iterations: 100_000,
    crossings: 1,
    async: true,
    setup: () => ({ x: 0 }),
    async run(api, st, n) {
      const f = api.probes.asyncNow;
      let x = st.x;
      for (let i = 0; i < n; i++) x = await f(x);
      st.x = x;
    },
    async floor(api, st, n) {
      const floor = api.floor;
      let x = st.x;
      for (let i = 0; i < n; i++) x = await floor(x);
      st.x = x;
    },
    teardown() {},
  },

  // Rust awaits an already-resolved JS Promise `n` times in one task (`JsPromise`; the
  // peer: `JsFuture`), one export call per run. Each await is two crossings (Rust
  // subscribes through an import, the settlement calls into wasm); the floor awaits the
  // same promise in JS and makes two bare `floor` calls.
  awaitJs: {
    iterations: 100_000,
    crossings: 2,
    async: true,
    setup: () => ({ resolved: Promise.resolve(1), n: 0 }),
    async run(api, st, n) {
      st.n += await api.probes.awaitResolvedN(st.resolved, n);
    },
    async floor(api, st, n) {
      const floor = api.floor;
      const resolved = Promise.resolve(1);
      let x = st.x;
      for (let i = 0; i < n; i++) x = floor(floor(x + (await resolved) - 1));
      st.x = x;
    },
    teardown() {},
  },

  // A JS object into Rust and back (`JsValue` in, `JsValue` out).
  jsValueRoundtrip: {
    iterations: 1_000_000,
    crossings: 1,
    setup: () => ({ value: { any: "object" } }),
    run(api, st, n) {
      const roundtrip = api.probes.roundtripValue;
      let value = st.value;
      for (let i = 0; i < n; i++) value = roundtrip(value);
      st.value = value;
    },
    floor: chainFloor,
    teardown() {},
  },

  // JS calls a Rust closure an export returned (`Box<dyn Fn(i32) -> i32>`; the peer: a
  // `Closure<dyn Fn(i32) -> i32>` handed to JS), threading `x` through.
  callClosure: {
    iterations: 1_000_000,
    crossings: 1,
    setup: (api) => ({ f: api.probes.makeBump(), x: 0 }),
    run(api, st, n) {
      const f = st.f;
      let x = st.x;
      for (let i = 0; i < n; i++) x = f(x);
      st.x = x;
    },
    floor: chainFloor,
    teardown: (api, st) => api.releaseClosure(st.f),
  },

  // JS reads a `pub` field of a Rust object (`obj.value`, an i32; the peer: the getter
  // wasm-bindgen generates for a `pub` field), one read per iteration.
  fieldRead: {
    iterations: 1_000_000,
    crossings: 1,
    setup: (api) => ({ obj: api.probes.makeFieldsObject(1), x: 0 }),
    run(api, st, n) {
      const obj = st.obj;
      let x = st.x;
      for (let i = 0; i < n; i++) x = (x + obj.value) | 0;
      st.x = x;
    },
    floor: chainFloor,
    teardown: (api, st) => api.release(st.obj),
  },
};

// Scenarios only the alongside package runs (the bench fixture joined with wasm-bindgen
// code, issue 20; `ALONGSIDE_SCENARIOS` in xtask/bench/src/scenarios.rs), in `rust` mode.
export const ALONGSIDE_SCENARIOS = {
  // One JsValue conversion each way per iteration, n round trips in one call: per
  // conversion, half an iteration; compared with a jsValueRoundtrip crossing.
  jsValueConversion: {
    iterations: 1_000_000,
    crossings: 1,
    setup: () => ({ value: { any: "object" } }),
    run(api, st, n) {
      st.value = api.probes.convertRoundTrips(st.value, n);
    },
    floor: chainFloor,
    teardown() {},
  },
  // Issue 45: a #[wasm_bindgen] struct (made in JS, consumed by the call) and enum passed to
  // a #[bridge] export, and the same call to the same #[wasm_bindgen] export.
  mixedSignatureBridge: mixedSignature("mixedBridge"),
  mixedSignatureWasmBindgen: mixedSignature("mixedWasmBindgen"),
};

function mixedSignature(name) {
  return {
    iterations: 1_000_000,
    crossings: 1,
    setup: () => ({ x: 0 }),
    run(api, st, n) {
      const m = api.probes;
      const call = m[name];
      const { WbgPoint, WbgAxis } = m;
      let x = st.x;
      for (let i = 0; i < n; i++) x = (x + call(new WbgPoint(i, 1), WbgAxis.Y)) | 0;
      st.x = x;
    },
    floor: chainFloor,
    teardown() {},
  };
}
