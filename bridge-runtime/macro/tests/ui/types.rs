// Types that cannot cross, each with what to write instead.
#![allow(unused_imports)]
use bridge_runtime::{Handle, JsValue, bridge};

#[bridge]
pub struct Widget {
    value: u32,
}

#[bridge]
pub fn static_param(s: &'static str) -> u32 {
    s.len() as u32
}

#[bridge]
pub fn nested_result() -> Result<Result<u32, String>, String> {
    Ok(Ok(0))
}

mod fallible {
    pub type Result<T> = std::result::Result<T, String>;
}

#[bridge]
pub fn hidden_error() -> fallible::Result<u32> {
    Ok(0)
}

#[bridge]
pub fn string_slice(s: &[String]) -> u32 {
    s.len() as u32
}

#[bridge]
pub fn mut_slice(s: &mut [String]) -> u32 {
    s.len() as u32
}

#[bridge]
pub fn mut_slice_return() -> &'static mut [u8] {
    &mut []
}

#[bridge]
pub fn view_of_strs() -> &'static [&'static str] {
    &[]
}

#[bridge]
pub fn view_of_argument(bytes: &[u8]) -> &[u8] {
    bytes
}

#[bridge]
pub fn result_of_view() -> Result<&'static [u8], String> {
    Ok(&[])
}

#[bridge]
pub fn optional_box(b: Option<Box<[u8]>>) -> u32 {
    b.map_or(0, |b| b.len() as u32)
}

#[bridge]
pub fn boxed_borrows(b: Box<[&'static str]>) -> u32 {
    b.len() as u32
}

#[bridge]
pub fn optional_slice(b: Option<&[u8]>) -> u32 {
    b.map_or(0, |b| b.len() as u32)
}

#[bridge]
pub fn nested_option(o: Option<Option<u32>>) -> u32 {
    o.flatten().unwrap_or(0)
}

#[bridge]
pub fn unit_option(u: Option<()>) -> bool {
    u.is_some()
}

#[bridge]
pub fn optional_value_ref(v: Option<&JsValue>) -> bool {
    v.is_some()
}

#[bridge]
pub fn vec_of_str(v: Vec<&str>) -> u32 {
    v.len() as u32
}

#[bridge]
pub fn text_ref(s: &String) -> u32 {
    s.len() as u32
}

#[bridge]
pub fn vec_ref(v: &Vec<u32>) -> u32 {
    v.len() as u32
}

#[bridge]
pub fn option_ref(o: &Option<u32>) -> u32 {
    o.unwrap_or(0)
}

#[bridge]
pub fn box_ref(b: &Box<u32>) -> u32 {
    **b
}

#[bridge]
pub fn handle_ref(h: &Handle<Widget>) -> u32 {
    h.borrow().value
}

#[bridge]
pub fn generic_type(w: Wrapper<u32>) -> u32 {
    w.0
}

pub struct Wrapper<T>(T);

#[bridge]
pub fn self_outside(s: Self) {}

#[bridge]
pub fn two_args(v: Vec<u32, u32>) {}

#[bridge]
pub fn pointer(p: *const u8) {}

#[bridge]
pub fn borrowed_slice_return<'a>(_: &'a str) -> &'a [u8] {
    &[]
}

#[bridge]
pub fn borrowed_str_return() -> &'static str {
    ""
}

#[bridge]
pub fn borrowed_class_return(w: &Widget) -> &Widget {
    w
}

#[bridge]
pub fn borrowed_value_return(v: &JsValue) -> &JsValue {
    v
}

#[bridge]
pub fn optional_borrow_return() -> Option<&'static str> {
    None
}

#[bridge]
pub fn unit_param(u: ()) {}

fn main() {}
