// #[bridge] extern blocks of JS imports.
use bridge_runtime::bridge;

#[bridge]
pub struct Widget {
    value: u32,
}

#[bridge]
extern "C" {
    #[bridge(js_namespace = "Math", js_name = "max", js_name = "min")]
    fn two_names(a: f64, b: f64) -> f64;

    #[bridge(module = "js/host.mjs")]
    fn module_on_fn(a: u32) -> u32;

    #[bridge(namespace = "Math")]
    fn unknown_arg(a: f64) -> f64;

    #[bridge]
    fn bare_attribute(a: f64) -> f64;

    fn generic<T>(a: T);

    #[bridge(js_namespace = "Math")]
    fn destructured((a, b): (f64, f64)) -> f64;

    #[bridge(js_namespace = "console..x")]
    fn empty_part(s: &str);

    #[bridge(js_name = "")]
    fn empty_name(s: &str);

    fn takes_class(w: &Widget);

    // A Rust closure lent to JS whose parameter is a borrowed class (issue 45, item 9:
    // the message named only the other direction).
    fn visits(f: &mut dyn FnMut(&Widget));

    // An optional borrow (issue 45, item 9: the message spoke of records).
    fn maybe_widget(w: Option<&Widget>);

    // A `Closure` (issue 45, item 9: the message said "exported types are not generic").
    fn set_handler(c: &bridge_runtime::Closure<dyn Fn(u32)>);

    fn takes_once_ref(f: &dyn FnOnce(u32) -> u32);

    fn returns_str() -> &'static str;
}

#[bridge]
extern "C" {
    declare_more!();
}

#[bridge]
extern "C" {
    fn with_self(self);
}

#[bridge(module = "/abs/host.mjs")]
extern "C" {
    fn absolute();
}

#[bridge(module = "js/missing.mjs")]
extern "C" {
    fn missing();
}

fn main() {}
