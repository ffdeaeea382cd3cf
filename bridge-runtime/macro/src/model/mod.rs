//! What one `#[bridge]` expansion is, as data: the parse layer builds it (every check
//! done, every error found), the generate layer turns it into tokens. Nothing here
//! parses, checks or emits, and no module here names `parse` or `generate`.

pub mod class;
pub mod conditional;
pub mod data;
pub mod functions;
pub mod imports;
pub mod refs;
pub mod thunk;
pub mod ty;

/// One `#[bridge]` item.
// One per expansion, moved once: the size of its largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum Item {
    Class(class::Class),
    Impl(functions::ImplBlock),
    Function(functions::FreeFunction),
    Data(data::Data),
    Imports(imports::Imports),
}
