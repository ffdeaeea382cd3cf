// The outline editor's page. Rust owns the tree (src/lib.rs); this file renders it.
//
// Each row is memoized by its node object: `rows.get(node)` finds the row built for that
// node before, and it is reused while the node's `version` and depth are unchanged. The
// lookup hits because `Node` is a `pointer`-mode class: `outline.roots()` and
// `node.children()` hand back the same wrapper for the same Rust node every time. Being a
// WeakMap, it never keeps a removed node's row (or wrapper, or Rust node) alive.
import init, { Node, Outline } from "./pkg/outline_demo.js";

await init();

const outline = new Outline();
/** node → { version, depth, row } */
const rows = new WeakMap();
const list = document.getElementById("rows");
const totals = { built: 0, reused: 0, renders: 0 };
let selected = null;

function buildRow(node, depth) {
  const row = document.createElement("li");
  row.className = "row fresh";
  row.dataset.id = String(node.id);
  row.style.paddingLeft = `${4 + depth * 22}px`;
  if (node.done) row.classList.add("done");

  const done = document.createElement("input");
  done.type = "checkbox";
  done.checked = node.done;
  done.title = "done";
  done.addEventListener("change", () => {
    node.toggle();
    render();
  });

  const text = document.createElement("span");
  text.className = "text";
  text.textContent = node.text;
  text.addEventListener("click", () => {
    selected = node;
    render();
  });
  text.addEventListener("dblclick", () => {
    const edited = prompt("Edit the item", node.text);
    if (edited !== null) {
      node.setText(edited);
      render();
    }
  });

  const count = document.createElement("span");
  count.className = "count";
  count.textContent = node.childCount ? `(${node.childCount})` : "";

  const add = document.createElement("button");
  add.className = "add-child";
  add.textContent = "+ child";
  add.addEventListener("click", () => {
    outline.addChild(node, `New item ${outline.size + 1}`);
    render();
  });

  const remove = document.createElement("button");
  remove.className = "remove";
  remove.textContent = "×";
  remove.title = "remove with its children";
  remove.addEventListener("click", () => {
    outline.remove(node);
    // The selected node may have been in the removed subtree.
    if (selected !== null && outline.path(selected) === "") selected = null;
    render();
  });

  row.append(done, text, count, add, remove);
  return row;
}

function render() {
  let built = 0;
  let reused = 0;
  const shown = [];
  const walk = (nodes, depth) => {
    for (const node of nodes) {
      let memo = rows.get(node);
      if (memo && memo.version === node.version && memo.depth === depth) {
        memo.row.classList.remove("fresh");
        reused += 1;
      } else {
        memo = { version: node.version, depth, row: buildRow(node, depth) };
        rows.set(node, memo);
        built += 1;
      }
      memo.row.classList.toggle("selected", node === selected);
      shown.push(memo.row);
      walk(node.children(), depth + 1);
    }
  };
  walk(outline.roots(), 0);
  list.replaceChildren(...shown);
  totals.built += built;
  totals.reused += reused;
  totals.renders += 1;
  set("stat-rows", shown.length);
  set("stat-built", `${built} (total ${totals.built})`);
  set("stat-reused", `${reused} (total ${totals.reused})`);
  set("stat-renders", totals.renders);
  set("stat-live", Node.live());
  inspect();
}

/** The inspector: the selected node, read from Rust now (not from the row). */
function inspect() {
  if (selected === null) {
    for (const id of ["path", "id", "version", "children", "same"]) set(`insp-${id}`, "");
    set("insp-text", "(click an item)");
    return;
  }
  set("insp-text", selected.text);
  set("insp-path", outline.path(selected));
  set("insp-id", selected.id);
  set("insp-version", selected.version);
  set("insp-children", selected.childCount);
  // Walk the tree from the top again: Rust hands back this very object.
  const again = find(outline.roots(), selected.id);
  set("insp-same", again === selected ? "yes (=== the node outline.roots() leads to now)" : "no");
}

function find(nodes, id) {
  for (const node of nodes) {
    if (node.id === id) return node;
    const below = find(node.children(), id);
    if (below) return below;
  }
  return null;
}

function set(id, value) {
  document.getElementById(id).textContent = String(value);
}

document.getElementById("add-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("new-text");
  const text = input.value.trim();
  if (text) {
    outline.addRoot(text);
    input.value = "";
    render();
  }
});

render();
// Removed nodes are dropped in Rust once the GC collects their wrappers (pointer mode):
// the count follows on its own.
setInterval(() => set("stat-live", Node.live()), 250);
// For the Chromium test (xtask/js/demo/drive.mjs): the page is ready.
window.__demoReady = true;
