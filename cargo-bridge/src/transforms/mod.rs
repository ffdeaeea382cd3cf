//! Post-processing passes over the linked wasm module, one per file, in pipeline order.

pub mod exports_section;
pub mod identity;
pub mod inline_identity;
pub mod pool_dispatch;
