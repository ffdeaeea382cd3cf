// async exports: what their signatures may be.
use bridge_runtime::{Handle, bridge};

#[bridge]
pub struct Doc {
    n: u32,
}

#[bridge]
impl Doc {
    pub async fn borrowed(&self) -> u32 {
        self.n
    }

    pub async fn lent(this: &Handle<Self>) -> u32 {
        this.borrow().n
    }

    #[bridge(getter)]
    pub async fn size(this: Handle<Self>) -> u32 {
        this.borrow().n
    }

    pub async fn fine(this: Handle<Self>, by: u32) -> u32 {
        this.borrow().n + by
    }
}

#[bridge]
pub async fn load(url: &str) -> String {
    url.to_string()
}

#[bridge]
pub async fn later() -> Box<dyn Fn(u32) -> u32> {
    Box::new(|x| x)
}

#[bridge]
extern "C" {
    // Any result a sync import may have (here `String`) converts after the await; one it
    // may not is refused as for a sync import.
    async fn fetch_text(url: &str) -> String;
    async fn fetch_str(url: &str) -> &'static str;
}

#[bridge]
extern "C" {
    pub type Loader;
    #[bridge(method)]
    async fn load(this: &Loader) -> bridge_runtime::JsValue;
}

// A JsPromise is the result of a JS function Rust calls, nowhere else.
#[bridge]
pub fn takes_promise(p: bridge_runtime::JsPromise) {
    drop(p);
}

#[bridge]
pub fn optional_promise(f: &dyn Fn() -> Option<bridge_runtime::JsPromise>) {
    drop(f);
}

#[bridge]
pub fn closure_returning_promise() -> Box<dyn Fn() -> bridge_runtime::JsPromise> {
    Box::new(|| bridge_runtime::JsPromise::new(bridge_runtime::JsValue::null()))
}

fn main() {}
