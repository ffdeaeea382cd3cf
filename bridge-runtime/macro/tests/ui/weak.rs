// A `WeakHandle<C>` stays in Rust: JS holds objects through strong references only, so
// returning or taking one is refused with what to write instead.
use bridge_runtime::{WeakHandle, bridge};

#[bridge]
pub struct Node {
    parent: Option<WeakHandle<Node>>,
}

#[bridge]
impl Node {
    pub fn parent_link(&self) -> WeakHandle<Node> {
        self.parent.clone().unwrap()
    }
    pub fn adopt(&mut self, parent: WeakHandle<Node>) {
        self.parent = Some(parent);
    }
    pub fn maybe_parent(&self) -> Option<WeakHandle<Node>> {
        self.parent.clone()
    }
}

#[bridge]
pub fn weak_of(node: bridge_runtime::Handle<Node>) -> WeakHandle<Node> {
    bridge_runtime::Handle::downgrade(&node)
}

fn main() {}
