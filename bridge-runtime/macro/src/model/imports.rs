//! `#[bridge] extern "C" { ... }`: JS functions Rust calls.

use super::conditional::Configured;
use super::refs::RecordSection;
use super::ty::JsCall;
use proc_macro2::Ident;

pub struct Imports {
    /// Each declared function, per configuration of its `#[cfg_attr(p, bridge(..))]`s.
    pub fns: Vec<Configured<ImportFn>>,
}

/// One declared JS function: a safe Rust function calling the raw import `symbol`.
pub struct ImportFn {
    /// Its attributes other than `#[bridge(..)]`.
    pub attrs: Vec<syn::Attribute>,
    pub vis: syn::Visibility,
    /// The declared signature, patterns made plain names (`_` → `__arg<i>`, no `mut`/`ref`).
    pub sig: syn::Signature,
    /// The user's name of each parameter, bound to the generated one the body uses.
    pub users: Vec<Ident>,
    pub symbol: String,
    pub call: JsCall,
    pub record: RecordSection,
}
