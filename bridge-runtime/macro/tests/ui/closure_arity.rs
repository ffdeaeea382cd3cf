// A `Closure` of seven arguments (issue 45, item 9: the trait-bound error never said the
// limit of six).
use bridge_runtime::{Closure, JsValue};

pub fn seven() -> JsValue {
    let c: Closure<dyn Fn(u32, u32, u32, u32, u32, u32, u32) -> u32> =
        Closure::new(|a, b, c, d, e, f, g| a + b + c + d + e + f + g);
    c.to_js()
}

fn main() {}
