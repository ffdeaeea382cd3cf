//! Fixtures shared by the glue's unit tests: one exported class and type shorthands.

use crate::postprocess::exports::{ClassExport, Exports};
use bridge_schema::Ty;

/// Exports with one class, `a::Node`, whose JS name is `String` (a name that must not be
/// confused with the built-in type).
pub fn exports() -> Exports {
    Exports {
        classes: vec![ClassExport {
            crate_name: "a".into(),
            type_id: "a::Node".into(),
            name: "String".into(),
            rust_name: "Node".into(),
            identity_mode: None,
            inspectable: false,
            doc: String::new(),
            members: Vec::new(),
        }],
        ..Exports::default()
    }
}

pub fn vec(t: Ty) -> Ty {
    Ty::Vec(Box::new(t))
}

pub fn opt(t: Ty) -> Ty {
    Ty::Option(Box::new(t))
}
