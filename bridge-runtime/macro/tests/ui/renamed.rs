// bridge_runtime's types under other names (a `use .. as` rename, a type alias). An owned
// `JsValue` may be renamed (it crosses through the traits every user type implements:
// fixtures/js-interop/src/renamed.rs); `&JsValue`, `Handle<C>` and an import's `JsError`
// are known by their names, and a rename of them is refused naming the fix.
use bridge_runtime::JsValue as BJsValue;
use bridge_runtime::bridge;

#[bridge]
pub struct Node {
    pub id: u32,
}

type NodeHandle = bridge_runtime::Handle<Node>;
type ImportError = bridge_runtime::JsError;

// Fine: an owned JsValue renamed.
#[bridge]
pub fn owned(v: BJsValue) -> BJsValue {
    v
}

#[bridge]
pub fn borrowed(v: &BJsValue) -> u32 {
    let _ = v;
    0
}

#[bridge]
pub fn aliased_handle(h: NodeHandle) -> u32 {
    h.borrow().id
}

#[bridge]
extern "C" {
    fn parse_number(text: &str) -> Result<u32, ImportError>;
}

fn main() {}
