// Tuples, maps and sets that cannot cross, each with what to write instead.
use bridge_runtime::bridge;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

#[bridge]
pub fn nine(t: (u8, u8, u8, u8, u8, u8, u8, u8, u8)) -> u32 {
    t.0 as u32
}

#[bridge]
pub fn borrowed_element(t: (u32, &str)) -> u32 {
    t.0
}

#[bridge]
pub fn unit_element() -> (u32, ()) {
    (0, ())
}

#[bridge]
pub fn float_keys(m: HashMap<f64, u32>) -> u32 {
    m.len() as u32
}

#[bridge]
pub fn bool_set(s: BTreeSet<bool>) -> u32 {
    s.len() as u32
}

#[bridge]
pub fn borrowed_value(m: BTreeMap<String, &str>) -> u32 {
    m.len() as u32
}

#[bridge]
pub fn one_argument() -> BTreeMap<String> {
    todo!()
}

#[bridge]
pub fn lifetime_argument(s: HashSet<'static, u32>) -> u32 {
    s.len() as u32
}

#[bridge(record)]
#[derive(PartialEq, Eq, Hash)]
pub struct Key {
    pub id: u32,
}

#[bridge]
pub fn record_keys(m: HashMap<Key, u32>) -> u32 {
    m.len() as u32
}

fn main() {}
