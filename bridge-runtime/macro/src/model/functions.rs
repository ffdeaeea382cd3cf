//! `#[bridge]` on an impl block and on a free function: their exports.

use super::conditional::Configured;
use super::refs::RecordSection;
use super::thunk::ThunkSpec;

/// An impl block: the block (its members' bridge attributes taken off), each exported
/// member, and the block's record (of the members in `Member::InBlock`).
pub struct ImplBlock {
    pub item: syn::ItemImpl,
    pub members: Vec<Member>,
    pub record: RecordSection,
}

pub enum Member {
    /// A member whose function is in the block's record.
    InBlock(ThunkSpec),
    /// A member under `#[cfg(..)]`: its thunk and a record of its own carry the same
    /// attributes (the CLI merges a class's impls).
    Own(OwnExport),
    /// A member with `#[cfg_attr(p, bridge(..))]`s: an export (or none, if Rust-only) per
    /// configuration, each with a record of its own.
    Configured(Configured<Option<OwnExport>>),
}

/// A thunk with a record of its own, under `cfgs` (the member's `#[cfg]`s, or none).
pub struct OwnExport {
    pub cfgs: Vec<syn::Attribute>,
    pub export: Export,
}

/// A thunk and its record.
pub struct Export {
    pub thunk: ThunkSpec,
    pub record: RecordSection,
}

/// A free function: the function (its bridge attributes taken off) and its export per
/// configuration (`None`: kept Rust-only there).
pub struct FreeFunction {
    pub item: syn::ItemFn,
    pub exports: Configured<Option<Export>>,
}
