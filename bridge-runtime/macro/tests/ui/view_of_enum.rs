// A returned `&[E]` view of an enum JS cannot read as a typed array (not numeric, or
// numeric without an 8- to 32-bit #[repr]): the runtime trait's message at the type.
use bridge_runtime::bridge;

#[bridge]
#[derive(Clone, Copy)]
pub enum Named {
    A,
    B,
}

#[bridge(numeric)]
#[derive(Clone, Copy)]
pub enum NoRepr {
    A = 1,
    B = 2,
}

static NAMED: [Named; 2] = [Named::A, Named::B];
static NO_REPR: [NoRepr; 2] = [NoRepr::A, NoRepr::B];

#[bridge]
pub fn named() -> &'static [Named] {
    &NAMED
}

#[bridge]
pub fn no_repr() -> &'static [NoRepr] {
    &NO_REPR
}

fn main() {}
