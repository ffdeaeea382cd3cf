//! Cargo's part of a build: the runtime copies bridge crates depend on
//! (`runtime_copy.rs`), `cargo build` for wasm32 (`cargo.rs`) and the check that every
//! import of the module it built has a provider (`import_check.rs`).

pub mod cargo;
pub mod import_check;
pub mod runtime_copy;
