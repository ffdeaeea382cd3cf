//! `#[bridge]` on a struct: a class.

use super::refs::RecordSection;

pub struct Class {
    /// The struct, emitted unchanged.
    pub item: syn::ItemStruct,
    /// The class's name in JS (`BridgeClass::NAME`).
    pub js_name: String,
    pub type_id: String,
    pub record: RecordSection,
}
