// Tuples that cannot cross, each with what to write instead.
use bridge_runtime::bridge;

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

fn main() {}
