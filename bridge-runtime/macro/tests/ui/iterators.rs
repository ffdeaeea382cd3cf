// Iterators returned to JS: `impl Iterator<Item = T> + 'static` or
// `Box<dyn Iterator<Item = T>>`, of items JS can take one at a time.
#![allow(unused_imports)]
use bridge_runtime::{Handle, JsValue, bridge};

#[bridge]
pub fn borrowing(text: &str) -> impl Iterator<Item = u32> {
    vec![text.len() as u32].into_iter()
}

#[bridge]
pub fn boxed_borrowing<'a>(text: &'a str) -> Box<dyn Iterator<Item = u32> + 'a> {
    Box::new(vec![text.len() as u32].into_iter())
}

#[bridge]
pub fn no_item() -> impl Iterator + 'static {
    vec![1u32].into_iter()
}

#[bridge]
pub fn double_ended() -> impl DoubleEndedIterator<Item = u32> + 'static {
    vec![1u32].into_iter()
}

#[bridge]
pub fn exact() -> impl Iterator<Item = u32> + ExactSizeIterator + 'static {
    vec![1u32].into_iter()
}

#[bridge]
pub fn taken(it: Box<dyn Iterator<Item = u32>>) -> u32 {
    it.sum()
}

#[bridge]
pub fn options() -> impl Iterator<Item = Option<u32>> + 'static {
    vec![Some(1u32)].into_iter()
}

#[bridge]
pub fn values() -> impl Iterator<Item = JsValue> + 'static {
    Vec::<JsValue>::new().into_iter()
}

#[bridge]
pub fn units() -> impl Iterator<Item = ()> + 'static {
    vec![()].into_iter()
}

// Items `Result<u32, String>` cross (an `Err` throws from next()); these do not.
#[bridge]
pub fn result_options() -> impl Iterator<Item = Result<Option<u32>, String>> + 'static {
    vec![Ok(Some(1u32))].into_iter()
}

#[bridge]
pub fn result_results() -> impl Iterator<Item = Result<Result<u32, String>, String>> + 'static {
    vec![Ok(Ok(1u32))].into_iter()
}

#[bridge]
pub fn views() -> impl Iterator<Item = &'static [u8]> + 'static {
    vec![&[1u8][..]].into_iter()
}

#[bridge]
pub fn boxed_slices() -> impl Iterator<Item = Box<[u32]>> + 'static {
    vec![vec![1u32].into_boxed_slice()].into_iter()
}

#[bridge]
pub fn strs() -> impl Iterator<Item = &'static str> + 'static {
    vec!["a"].into_iter()
}

// A `Result` of an iterator crosses (fixtures/iterators compose.rs); these do not.
#[bridge]
pub fn fallible_borrowing(text: &str) -> Result<impl Iterator<Item = u32>, String> {
    Ok(vec![text.len() as u32].into_iter())
}

#[bridge]
pub fn fallible_options() -> Result<impl Iterator<Item = Option<u32>> + 'static, String> {
    Ok(vec![Some(1u32)].into_iter())
}

#[bridge]
pub fn maybe() -> Option<impl Iterator<Item = u32> + 'static> {
    Some(vec![1u32].into_iter())
}

#[bridge]
pub fn nested() -> Vec<Box<dyn Iterator<Item = u32>>> {
    Vec::new()
}

#[bridge]
pub async fn later_fallible() -> Result<Box<dyn Iterator<Item = u32>>, String> {
    Ok(Box::new(vec![1u32].into_iter()))
}

#[bridge]
pub async fn later() -> Box<dyn Iterator<Item = u32>> {
    Box::new(vec![1u32].into_iter())
}

fn main() {}
