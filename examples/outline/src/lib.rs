//! An outline editor's document, owned by Rust and edited from a web page
//! (`examples/outline/www/`). The page renders one row per node and memoizes each row in a
//! `WeakMap` keyed by the node object: that only works because a `pointer`-mode class
//! reaches JS as the same wrapper every time (`outline.roots()[0] === outline.roots()[0]`),
//! so a re-render after an edit rebuilds the rows of the nodes whose `version` changed and
//! reuses every other row. With `none`, each crossing would make a fresh wrapper, and every
//! lookup would miss.
//!
//! `pointer` rather than `rust`: the page keeps no list of nodes to `release()`, and a
//! removed node's wrapper, its memo entry and its Rust node go away once nothing uses them.

use bridge_runtime::{Handle, bridge};
use std::cell::Cell;

thread_local! {
    static LIVE: Cell<u32> = const { Cell::new(0) };
}

/// One line of the outline, with its children.
#[bridge(identity_mode = "pointer")]
pub struct Node {
    id: u32,
    text: String,
    done: bool,
    version: u32,
    children: Vec<Handle<Node>>,
}

impl Node {
    fn make(id: u32, text: &str) -> Handle<Node> {
        LIVE.with(|live| live.set(live.get() + 1));
        Handle::new(Node {
            id,
            text: text.to_string(),
            done: false,
            version: 0,
            children: Vec::new(),
        })
    }

    fn changed(&mut self) {
        self.version += 1;
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        LIVE.with(|live| live.set(live.get() - 1));
    }
}

#[bridge]
impl Node {
    #[bridge(getter)]
    pub fn id(&self) -> u32 {
        self.id
    }

    #[bridge(getter)]
    pub fn text(&self) -> String {
        self.text.clone()
    }

    #[bridge(getter)]
    pub fn done(&self) -> bool {
        self.done
    }

    /// Bumped by every change the node's own row shows (text, done, child count).
    #[bridge(getter)]
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The child nodes, in order (the same objects JS saw before).
    pub fn children(&self) -> Vec<Handle<Node>> {
        self.children.clone()
    }

    #[bridge(getter)]
    pub fn child_count(&self) -> u32 {
        self.children.len() as u32
    }

    pub fn set_text(&mut self, text: &str) {
        if self.text != text {
            self.text = text.to_string();
            self.changed();
        }
    }

    pub fn toggle(&mut self) {
        self.done = !self.done;
        self.changed();
    }

    /// Nodes alive in Rust (made and not yet dropped), for the page's status line.
    pub fn live() -> u32 {
        LIVE.with(Cell::get)
    }
}

/// The document: the top-level nodes, and what adds and removes nodes.
#[bridge(identity_mode = "pointer")]
pub struct Outline {
    roots: Vec<Handle<Node>>,
    next_id: u32,
}

#[bridge]
impl Outline {
    /// An outline with a few sample items.
    #[bridge(constructor)]
    pub fn new() -> Outline {
        let mut outline = Outline {
            roots: Vec::new(),
            next_id: 1,
        };
        let groceries = outline.add_root("Groceries");
        outline.add_child(groceries.clone(), "Apples");
        outline.add_child(groceries, "Bread");
        let trip = outline.add_root("Plan the trip");
        let tickets = outline.add_child(trip.clone(), "Book tickets");
        outline.add_child(tickets, "Compare trains and flights");
        outline.add_child(trip, "Pack");
        outline.add_root("Call the plumber");
        outline
    }

    pub fn roots(&self) -> Vec<Handle<Node>> {
        self.roots.clone()
    }

    pub fn add_root(&mut self, text: &str) -> Handle<Node> {
        let node = self.make(text);
        self.roots.push(node.clone());
        node
    }

    /// A new last child of `parent` (whose row then shows one more child).
    pub fn add_child(&mut self, parent: Handle<Node>, text: &str) -> Handle<Node> {
        let node = self.make(text);
        let mut parent = parent.borrow_mut();
        parent.children.push(node.clone());
        parent.changed();
        node
    }

    /// Take `node` (and its subtree) out of the outline; false if it is not in it.
    pub fn remove(&mut self, node: Handle<Node>) -> bool {
        if let Some(at) = self.roots.iter().position(|n| Handle::ptr_eq(n, &node)) {
            self.roots.remove(at);
            return true;
        }
        let mut stack = self.roots.clone();
        while let Some(parent) = stack.pop() {
            let mut p = parent.borrow_mut();
            if let Some(at) = p.children.iter().position(|n| Handle::ptr_eq(n, &node)) {
                p.children.remove(at);
                p.changed();
                return true;
            }
            stack.extend(p.children.iter().cloned());
        }
        false
    }

    /// The texts from the top of the outline down to `node`, joined by " › " (empty if
    /// `node` is not in the outline).
    pub fn path(&self, node: Handle<Node>) -> String {
        fn walk(nodes: &[Handle<Node>], node: &Handle<Node>, path: &mut Vec<String>) -> bool {
            for n in nodes {
                let n_ref = n.borrow();
                path.push(n_ref.text.clone());
                if Handle::ptr_eq(n, node) || walk(&n_ref.children, node, path) {
                    return true;
                }
                path.pop();
            }
            false
        }
        let mut path = Vec::new();
        walk(&self.roots, &node, &mut path);
        path.join(" › ")
    }

    /// Nodes in the outline.
    #[bridge(getter)]
    pub fn size(&self) -> u32 {
        fn count(nodes: &[Handle<Node>]) -> u32 {
            nodes.iter().map(|n| 1 + count(&n.borrow().children)).sum()
        }
        count(&self.roots)
    }
}

impl Outline {
    fn make(&mut self, text: &str) -> Handle<Node> {
        let id = self.next_id;
        self.next_id += 1;
        Node::make(id, text)
    }
}

impl Default for Outline {
    fn default() -> Self {
        Outline::new()
    }
}
