// #[bridge(record)] structs and #[bridge] enums: arguments and shapes.
use bridge_runtime::bridge;

#[bridge(record, identity_mode = "none")]
pub struct RecordArg {
    pub value: u32,
}

#[bridge(record = 1)]
pub struct RecordValue {
    pub value: u32,
}

#[bridge(record)]
pub enum NotAnEnumArg {
    A,
}

#[bridge(record)]
pub struct Generic<T> {
    pub value: T,
}

#[bridge(record)]
pub struct Tuple(pub u32, pub u32);

#[bridge(record)]
pub struct Unit;

#[bridge]
pub enum GenericEnum<T> {
    A(T),
}

#[bridge]
pub enum Empty {}

#[bridge]
pub enum TwoUnnamed {
    Pair(u32, u32),
}

#[bridge(record)]
#[allow(non_snake_case)]
pub struct Clash {
    pub foo_bar: u32,
    pub fooBar: u32,
}

#[bridge]
#[allow(non_snake_case)]
pub enum VariantClash {
    Both { left_side: u32, leftSide: u32 },
}

#[bridge(record)]
pub struct Proto {
    #[bridge(js_name = "__proto__")]
    pub parent: u32,
}

#[bridge(record)]
pub struct UnknownFieldArg {
    #[bridge(skip)]
    pub hidden: u32,
}

#[bridge]
pub enum FieldKind {
    Item { kind: u32 },
}

#[bridge]
pub enum RenamedKind {
    Item {
        #[bridge(js_name = "kind")]
        sort: u32,
    },
}

#[bridge(record)]
pub struct BorrowedField {
    pub name: &'static str,
}

#[bridge(record)]
pub struct OptionalBorrow {
    pub name: Option<&'static str>,
}

#[bridge(record)]
pub struct UnitField {
    pub nothing: (),
}

fn main() {}
