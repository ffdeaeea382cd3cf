// Classes by value move out of JS only as an export's own parameter (`C`, `Option<C>`) or
// `self`: every other place a class by value could come from JS is refused, naming what
// to write.
use bridge_runtime::{Handle, bridge};

#[bridge]
pub struct Part {
    weight: u32,
}

#[bridge]
impl Part {
    /// A `Vec` of classes by value: take `Vec<Handle<Part>>`.
    pub fn all(parts: Vec<Part>) -> u32 {
        parts.len() as u32
    }

    /// A Rust closure's parameter.
    pub fn taker() -> Box<dyn Fn(Part) -> u32> {
        Box::new(|p| p.weight)
    }

    /// What to write instead.
    pub fn handles(parts: Vec<Handle<Part>>, part: Option<Handle<Part>>) -> u32 {
        parts.len() as u32 + u32::from(part.is_some())
    }
}

// A parse error replaces its impl block's expansion, so it has a block of its own.
#[bridge]
impl Part {
    pub async fn later(self) -> u32 {
        self.weight
    }
}

#[bridge]
extern "C" {
    /// A JS function's result.
    fn make_part() -> Part;
}

fn main() {}
