// JS functions passed to exports, and Rust closures handed to JS.
#![allow(unused_imports)]
use bridge_runtime::{JsError, bridge};

#[bridge]
pub struct Widget {
    value: u32,
}

#[bridge]
pub fn two_bounds(f: &(dyn Fn(u32) + Clone)) {}

#[bridge]
pub fn borrowed_once(f: &dyn FnOnce(u32)) {}

#[bridge]
pub fn borrowed_once_mut(f: &mut dyn FnOnce(u32)) {}

#[bridge]
pub fn not_fn(f: &dyn Send) {}

#[bridge]
pub fn shared_fn_mut(f: &dyn FnMut(u32)) {}

#[bridge]
pub fn no_parens(f: &dyn Fn) {}

#[bridge]
pub fn takes_class(f: &dyn Fn(&Widget)) {}

#[bridge]
pub fn takes_unit(f: &dyn Fn(())) {}

#[bridge]
pub fn takes_borrowed_once(f: &dyn Fn(&dyn FnOnce(u32))) {}

#[bridge]
pub fn takes_catching_closure(f: &dyn Fn(Box<dyn Fn(u32) -> Result<u32, JsError>>)) {}

#[bridge]
pub fn returns_str(f: &dyn Fn() -> &str) {}

#[bridge]
pub fn returns_optional_str(f: &dyn Fn() -> Option<&str>) {}

#[bridge]
pub fn returns_function(f: &dyn Fn() -> Box<dyn Fn()>) {}

#[bridge]
pub fn borrowed_closure() -> &'static dyn Fn(u32) -> u32 {
    &|x| x
}

#[bridge]
pub fn catching_closure() -> Box<dyn Fn(u32) -> Result<u32, JsError>> {
    Box::new(|x| Ok(x))
}

#[bridge]
pub fn closure_taking_function() -> Box<dyn Fn(Box<dyn Fn()>)> {
    Box::new(|_| {})
}

#[bridge]
pub fn closure_returning_reference() -> Box<dyn Fn(u32) -> &'static str> {
    Box::new(|_| "")
}

#[bridge]
pub fn optional_closure() -> Option<Box<dyn Fn(u32) -> u32>> {
    None
}

fn main() {}
