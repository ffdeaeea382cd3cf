//! wasm-bindgen in a bridge crate: found in the dependency graph (`detect.rs`), its CLI
//! of the same version found or installed (`cli.rs`) and run over the module first
//! (`run.rs`), its half then joined to the bridge glue (`merge.rs`, `js_exports.rs`). See
//! ARCHITECTURE.md, "Living with wasm-bindgen", and docs/wasm-bindgen.md.

pub mod cli;
pub mod detect;
mod js_exports;
pub mod merge;
pub mod run;
