// A `Result` error type JS cannot be given: the runtime trait's message (at the type, with
// what JS gets instead), and none of the misleading ones a bare bound would print
// (`ErrProbe`, E0599, E0308).
use bridge_runtime::bridge;

pub struct Opaque;

#[bridge]
pub fn opaque_error() -> Result<u32, Opaque> {
    Err(Opaque)
}

fn main() {}
