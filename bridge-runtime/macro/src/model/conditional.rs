//! Expansions made once per configuration of an item's `#[cfg_attr(p, bridge(..))]`s:
//! the macro cannot evaluate `p`, so it expands every combination under its `cfg`.

/// A `cfg` predicate an expansion is made under, as data: the user's predicates, joined
/// (generate writes it).
#[derive(Clone)]
pub enum Cfg {
    /// `all(a, b, ..)`.
    All(Vec<Cfg>),
    /// `not(p)`.
    Not(Box<Cfg>),
    /// A predicate as the user wrote it (`feature = "x"`).
    Pred(Box<syn::Meta>),
}

pub enum Configured<T> {
    /// No conditional bridge attributes: one expansion.
    One(T),
    /// One expansion per combination of predicates, under its `cfg` predicate. A failed
    /// one is kept as the error the parse found: it becomes compile errors under that
    /// `cfg`, so it fails only where that configuration holds.
    PerCfg(Vec<(Cfg, Result<T, syn::Error>)>),
}
