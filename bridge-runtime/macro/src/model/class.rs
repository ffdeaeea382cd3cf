//! `#[bridge]` on a struct: a class.

use super::functions::ImplBlock;
use super::refs::RecordSection;

pub struct Class {
    /// The struct, its fields' bridge attributes taken off.
    pub item: syn::ItemStruct,
    /// The class's name in JS (`BridgeClass::NAME`).
    pub js_name: String,
    pub type_id: String,
    pub record: RecordSection,
    /// The getters and setters of its `pub` fields (`None`: JS sees no field).
    pub fields: Option<ImplBlock>,
}
