//! Expansions made once per configuration of an item's `#[cfg_attr(p, bridge(..))]`s:
//! the macro cannot evaluate `p`, so it expands every combination under its `cfg`.

use proc_macro2::TokenStream;

pub enum Configured<T> {
    /// No conditional bridge attributes: one expansion.
    One(T),
    /// One expansion per combination of predicates, under its `cfg` predicate. A failed
    /// one is kept as the error the parse found: it becomes compile errors under that
    /// `cfg`, so it fails only where that configuration holds.
    PerCfg(Vec<(TokenStream, Result<T, syn::Error>)>),
}
