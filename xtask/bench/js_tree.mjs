// The `uiTree` document as a plain JS object graph: `fixtures/bench/src/tree.rs` written in
// JS (same shape, node values, edits), for the `js-only` row. The same walk over it is what
// no bridge can beat: no boundary, no wrappers, only the workload's own JS and its garbage.

/** The next pseudo-random state (xorshift32, as `tree::xorshift` on u32). */
function xorshift(x) {
  x = (x ^ (x << 13)) >>> 0;
  x = (x ^ (x >>> 17)) >>> 0;
  return (x ^ (x << 5)) >>> 0;
}

/** Edits walk the node list with this stride (`tree::EDIT_STRIDE`). */
const EDIT_STRIDE = 7919;

class JsNode {
  #value;
  #version = 0;
  /** The edit batch that last changed it. */
  editedIn = 0;
  #parent;
  /** The child nodes, in order (the tree appends while it builds). */
  kids = [];

  constructor(value, parent) {
    this.#value = value;
    this.#parent = parent;
  }

  /** A new array each call, as a returned `Vec` is. */
  children() {
    return this.kids.slice();
  }

  parent() {
    return this.#parent;
  }

  get value() {
    return this.#value;
  }

  get version() {
    return this.#version;
  }

  /** One edit: value + 1, version + 1. */
  bump() {
    this.#value++;
    this.#version++;
  }
}

export class JsTree {
  /** Every node, breadth-first (the root first). */
  #nodes;
  #batch = 0;

  constructor(f1, f2, f3, f4) {
    const nodes = [new JsNode(0, null)];
    let from = 0;
    let to = 1;
    for (const fanout of [f1, f2, f3, f4]) {
      const next = nodes.length;
      for (let p = from; p < to; p++) {
        for (let k = 0; k < fanout; k++) {
          const child = new JsNode(nodes.length, nodes[p]);
          nodes[p].kids.push(child);
          nodes.push(child);
        }
      }
      from = next;
      to = nodes.length;
    }
    this.#nodes = nodes;
  }

  root() {
    return this.#nodes[0];
  }

  get size() {
    return this.#nodes.length;
  }

  /** Change `count` distinct nodes picked from `seed`; returns how many changed. */
  edit(seed, count) {
    this.#batch++;
    const nodes = this.#nodes;
    const n = nodes.length;
    const start = xorshift((seed | 1) >>> 0) % n;
    let changed = 0;
    for (let j = 0; j < Math.min(count, n); j++) {
      const node = nodes[(start + j * EDIT_STRIDE) % n];
      node.bump();
      if (node.editedIn !== this.#batch) {
        node.editedIn = this.#batch;
        changed++;
      }
    }
    return changed;
  }
}
