//! Type id → JS name: the records name user types by type id; the glue by JS name.

use crate::postprocess::exports::{Exports, TypeDef};
use bridge_schema::lowering;
use bridge_schema::{Field, ImportSource, Ty};
use std::collections::HashMap;

/// Type id → JS name of every user type in the module.
pub struct TypeNames<'a> {
    exports: &'a Exports,
    /// `Exports::type_index`: every signature's types are looked up here.
    defs: HashMap<&'a str, TypeDef<'a>>,
}

impl<'a> TypeNames<'a> {
    pub fn new(exports: &'a Exports) -> Self {
        TypeNames {
            exports,
            defs: exports.type_index(),
        }
    }

    /// The class, record or enum `type_id` names.
    pub fn def(&self, type_id: &str) -> TypeDef<'a> {
        // `exports::decode` checked that every type id resolves.
        *self
            .defs
            .get(type_id)
            .unwrap_or_else(|| panic!("type id `{type_id}` was resolved by exports::decode"))
    }

    pub fn js_name(&self, type_id: &str) -> String {
        self.def(type_id).js_name().to_string()
    }

    /// A record or enum (crosses by value), not a class.
    pub fn is_data(&self, type_id: &str) -> bool {
        matches!(self.def(type_id), TypeDef::Record(_) | TypeDef::Enum(_))
    }

    /// The flat layout of `ty`, a record of scalars (`lowering::flat_record` of its
    /// fields) or a tuple of scalars (`lowering::flat_tuple`): its fields (a tuple's
    /// elements, named by their index) and the wasm value of each one's slot. The macro
    /// asks the same of the same types.
    pub fn flat(&self, ty: &Ty) -> Option<(Vec<Field>, Vec<lowering::Abi>)> {
        match ty {
            Ty::Named(id) => match self.def(id) {
                TypeDef::Record(r) => lowering::flat_record(r.fields.iter().map(|f| &f.ty))
                    .map(|abis| (r.fields.clone(), abis)),
                _ => None,
            },
            Ty::Tuple(elems) => lowering::flat_tuple(ty).map(|abis| {
                let fields = elems
                    .iter()
                    .enumerate()
                    .map(|(i, ty)| Field {
                        name: i.to_string(),
                        ty: ty.clone(),
                        as_written: None,
                    })
                    .collect();
                (fields, abis)
            }),
            _ => None,
        }
    }

    /// An imported JS class (crosses as a `JsValue` checked with `instanceof`).
    pub fn is_js_type(&self, type_id: &str) -> bool {
        matches!(self.def(type_id), TypeDef::JsType(_))
    }

    /// The glue's name for a class kind's helpers (`<name>$addr`, `$lift`, `$peek`): the
    /// JS name of an exported class, an identifier of its own for an imported JS class.
    pub fn glue_name(&self, type_id: &str) -> String {
        match self.def(type_id) {
            TypeDef::JsType(t) => crate::postprocess::exports::js_type_ident(&t.type_id),
            other => other.js_name().to_string(),
        }
    }

    /// A fieldless enum (crosses as its variant index, a string in JS).
    pub fn is_fieldless_enum(&self, type_id: &str) -> bool {
        matches!(self.def(type_id), TypeDef::Enum(e) if e.is_fieldless())
    }

    /// The `.d.ts` spelling of the imported JS class `type_id`: the global's path
    /// (`Date`, `WebAssembly.Memory`), or the binding the `.d.ts` imports a module's
    /// class as ([`TypeNames::js_type_binding`]; `InstanceType<typeof b.path>` under a
    /// `js_namespace`).
    pub fn js_type_ts(&self, type_id: &str) -> String {
        let TypeDef::JsType(t) = self.def(type_id) else {
            unreachable!("`{type_id}` is an imported JS class")
        };
        if t.structural {
            // No class to name: its `typescript_type`, else wasm-bindgen's `any`.
            return t.typescript_type.clone().unwrap_or_else(|| "any".into());
        }
        match &t.source {
            // A wasm-bindgen type: its TypeScript as wasm-bindgen writes it.
            ImportSource::Global { name, .. }
                if bridge_schema::wasm_bindgen_type(type_id).is_some() =>
            {
                name.clone()
            }
            ImportSource::Global { namespace, name } => {
                let parts: Vec<&String> = namespace.iter().chain([name]).collect();
                if parts
                    .iter()
                    .all(|p| bridge_schema::js::identifier_problem(p).is_none())
                {
                    parts
                        .iter()
                        .map(|p| p.as_str())
                        .collect::<Vec<_>>()
                        .join(".")
                } else {
                    // A class reached by a key that is not an identifier has no type name.
                    "object".into()
                }
            }
            ImportSource::Module {
                namespace, name, ..
            } => {
                let binding = self.js_type_binding(type_id);
                if namespace.is_empty() {
                    binding
                } else {
                    let rest: Vec<String> = namespace
                        .iter()
                        .skip(1)
                        .chain([name])
                        .map(|k| {
                            if bridge_schema::js::identifier_problem(k).is_none() {
                                format!(".{k}")
                            } else {
                                format!("[{}]", serde_json::to_string(k).expect("a string"))
                            }
                        })
                        .collect();
                    format!("InstanceType<typeof {binding}{}>", rest.concat())
                }
            }
        }
    }

    /// The name the `.d.ts` imports a module class's export as: the export's own name
    /// when it is an identifier no other type of the package has, else the glue name.
    pub fn js_type_binding(&self, type_id: &str) -> String {
        let TypeDef::JsType(t) = self.def(type_id) else {
            unreachable!("`{type_id}` is an imported JS class")
        };
        let ImportSource::Module {
            namespace, name, ..
        } = &t.source
        else {
            return crate::postprocess::exports::js_type_ident(type_id);
        };
        let export = namespace.first().unwrap_or(name);
        let exports = self.exports;
        let taken = exports.classes.iter().any(|c| &c.name == export)
            || exports.records.iter().any(|r| &r.def.name == export)
            || exports.enums.iter().any(|e| &e.def.name == export)
            || exports.js_types.iter().any(|o| {
                o.def.type_id != t.type_id
                    && match &o.def.source {
                        ImportSource::Module {
                            namespace, name, ..
                        } => namespace.first().unwrap_or(name) == export,
                        ImportSource::Global { .. } => false,
                    }
            });
        if bridge_schema::js::identifier_problem(export).is_none()
            && super::ts_names::plain(export)
            && !taken
        {
            export.clone()
        } else {
            crate::postprocess::exports::js_type_ident(type_id)
        }
    }
}
