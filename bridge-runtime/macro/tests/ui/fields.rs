// `pub` fields of a class are JS properties: their types must cross (or the field says
// #[bridge(skip)]), their arguments are skip, readonly and js_name.
use bridge_runtime::bridge;

#[bridge]
pub struct MapField {
    pub index: std::collections::HashMap<u32, u32>,
}

#[bridge]
pub struct RefField {
    pub name: &'static str,
}

#[bridge]
pub struct UnknownFieldArg {
    #[bridge(getter)]
    pub value: u32,
}

#[bridge]
pub struct PrivateField {
    #[bridge(readonly)]
    value: u32,
}

#[bridge]
pub struct SkipAndRename {
    #[bridge(skip, js_name = "v")]
    pub value: u32,
}

#[bridge]
pub struct ReservedField {
    pub release: u32,
}

#[bridge(record)]
pub struct Inner {
    pub x: u32,
}

#[bridge]
pub struct NotCloneField {
    pub inner: Inner,
}

#[bridge]
pub struct Part {
    value: u32,
}

#[bridge]
pub struct ClassByValue {
    pub part: Part,
}

fn main() {}
