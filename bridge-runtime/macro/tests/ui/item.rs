// Where #[bridge] goes, and names it cannot give a type.
use bridge_runtime::bridge;

#[bridge]
pub const LIMIT: u32 = 3;

#[bridge]
pub struct Option {
    value: u32,
}

#[bridge(record)]
pub struct String {
    pub value: u32,
}

#[bridge]
pub enum Handle {
    A,
}

fn main() {}
