//! What a build is asked for, read and checked before anything is built: the workspace
//! and its crates (`workspace.rs`), each crate's `[package.metadata.bridge]` and wasm-pack's
//! table (`identity.rs`, `js_names.rs`, `packaging.rs`), each class's identity mode
//! (`modes.rs`) and the command line's build flags (`flags.rs`).

pub mod flags;
pub mod identity;
pub mod js_names;
pub mod modes;
pub mod packaging;
pub mod workspace;
