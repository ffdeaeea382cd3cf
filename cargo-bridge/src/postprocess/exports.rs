//! Decoding of the `__bridge_exports` custom section into the module's exports:
//! classes with their members, and free functions. Types are keyed by their type id
//! (`<crate>::<Name>`, see `bridge_schema::type_id`): impl blocks attach to their class
//! by it, and every type a signature names must resolve to a definition.
//!
//! `Exports::type_index`: every type id and its definition, one map (the glue's `TypeNames`
//! and the type-ref check look up through it). A parameter the macro wrote as `Ty::ByValue`
//! (any user type by value) becomes `Ty::Named` unless its id is a class's
//! (`resolve_by_value`), so only classes moving out of JS are `ByValue` after it. Generated
//! output is deterministic: classes sorted by name, functions by JS name, members in source
//! order within an impl block record, a class's impl records (one per impl block, plus one
//! per `#[cfg]` member) merged ordered by their members' Rust names, never by link order.

use anyhow::{Result, bail};
use bridge_schema::{
    EnumDef, Function, FunctionKind, Import, ImportSource, Item, JsTypeDef, Record, RecordDef, Ty,
};
use std::collections::HashMap;

#[derive(Debug, Clone)]
pub struct ClassExport {
    pub crate_name: String,
    /// See `bridge_schema::type_id`.
    pub type_id: String,
    /// Name in JS.
    pub name: String,
    /// Rust name, for messages.
    pub rust_name: String,
    /// From the class attribute, if any.
    pub identity_mode: Option<String>,
    /// `#[bridge(inspectable)]`.
    pub inspectable: bool,
    pub doc: String,
    pub members: Vec<Function>,
}

/// A JS function declared in an extern block of `crate_name`.
#[derive(Debug, Clone)]
pub struct ImportExport {
    pub crate_name: String,
    pub import: Import,
}

#[derive(Debug, Clone, Default)]
pub struct Exports {
    /// Sorted by name, so the glue does not depend on link order.
    pub classes: Vec<ClassExport>,
    /// `#[bridge(record)]` structs, sorted by name.
    pub records: Vec<DataExport<RecordDef>>,
    /// `#[bridge]` enums, sorted by name.
    pub enums: Vec<DataExport<EnumDef>>,
    pub functions: Vec<FunctionExport>,
    /// JS functions the module imports (`#[bridge] extern` blocks), sorted by symbol.
    pub imports: Vec<ImportExport>,
    /// Imported JS classes (`pub type T;` in `#[bridge] extern` blocks), sorted by type id.
    pub js_types: Vec<DataExport<JsTypeDef>>,
    /// Crates that contributed records.
    pub crates: Vec<String>,
}

/// A record or enum and the crate that exported it.
#[derive(Debug, Clone)]
pub struct DataExport<T> {
    pub crate_name: String,
    pub def: T,
}

/// What a type id names.
#[derive(Debug, Clone, Copy)]
pub enum TypeDef<'a> {
    Class(&'a ClassExport),
    Record(&'a RecordDef),
    Enum(&'a EnumDef),
    /// An imported JS class: crosses as a `JsValue` checked with `instanceof`.
    JsType(&'a JsTypeDef),
}

impl TypeDef<'_> {
    /// The name JS sees.
    pub fn js_name(&self) -> &str {
        match self {
            TypeDef::Class(c) => &c.name,
            TypeDef::Record(r) => &r.name,
            TypeDef::Enum(e) => &e.name,
            TypeDef::JsType(t) => match &t.source {
                ImportSource::Global { name, .. } | ImportSource::Module { name, .. } => name,
            },
        }
    }
}

/// The glue's identifier for the helpers of an imported JS class (`<ident>$addr`, ...):
/// its type id made an identifier (the JS class name may be any string, and may be
/// another type's name too).
pub fn js_type_ident(type_id: &str) -> String {
    let id: String = type_id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    format!("$jsType${id}")
}

/// A free function and the crate that exported it.
#[derive(Debug, Clone)]
pub struct FunctionExport {
    pub crate_name: String,
    pub function: Function,
}

impl Exports {
    /// The class with type id `type_id`.
    #[cfg(test)]
    pub fn class(&self, type_id: &str) -> Option<&ClassExport> {
        self.classes.iter().find(|c| c.type_id == type_id)
    }

    /// Every type id with its definition (the first one: class, record, enum, JS type; an
    /// index, as the glue looks up every type a signature names: a scan per lookup made it
    /// quadratic in the number of classes).
    pub fn type_index(&self) -> HashMap<&str, TypeDef<'_>> {
        let mut index = HashMap::new();
        let classes = self.classes.iter().map(|c| (&c.type_id, TypeDef::Class(c)));
        let records = self
            .records
            .iter()
            .map(|r| (&r.def.type_id, TypeDef::Record(&r.def)));
        let enums = self
            .enums
            .iter()
            .map(|e| (&e.def.type_id, TypeDef::Enum(&e.def)));
        let js_types = self
            .js_types
            .iter()
            .map(|t| (&t.def.type_id, TypeDef::JsType(&t.def)));
        let defs = classes.chain(records).chain(enums).chain(js_types);
        for (id, def) in defs {
            index.entry(id.as_str()).or_insert(def);
        }
        index
    }
}

/// Read the records of `section` (the custom section's bytes); `wasm` names the file.
pub fn decode(section: &[u8], wasm: &str) -> Result<Exports> {
    let records =
        bridge_schema::decode_section(section).map_err(|e| anyhow::anyhow!("{wasm}: {e}"))?;
    from_records(records, wasm)
}

fn from_records(records: Vec<Record>, wasm: &str) -> Result<Exports> {
    let mut collected = Collected::default();
    for record in records {
        collected.add(record, wasm)?;
    }
    let Collected {
        mut exports,
        impls,
        class_at,
    } = collected;
    merge_impls(&mut exports, impls, &class_at, wasm)?;
    check_unique_type_ids(&exports, wasm)?;
    add_wasm_bindgen_types(&mut exports);
    add_renamed_js_value(&mut exports);
    check_type_refs(&exports, wasm)?;
    resolve_by_value(&mut exports);
    resolve_enum_views(&mut exports, wasm)?;
    check_one_constructor(&exports, wasm)?;
    sort_exports(&mut exports);
    Ok(exports)
}

/// The section's records as read, before a class's impl records are merged into it.
#[derive(Default)]
struct Collected {
    exports: Exports,
    impls: Vec<bridge_schema::Impl>,
    /// Where each class is in `exports.classes`, by type id (a scan per record or impl
    /// block was quadratic in the number of classes).
    class_at: HashMap<String, usize>,
}

impl Collected {
    fn add(&mut self, record: Record, wasm: &str) -> Result<()> {
        let exports = &mut self.exports;
        if !exports.crates.contains(&record.crate_name) {
            exports.crates.push(record.crate_name.clone());
        }
        let crate_name = record.crate_name;
        match record.item {
            Item::Class(c) => self.add_class(crate_name, c, wasm)?,
            Item::Impl(i) => self.impls.push(i),
            Item::Record(def) => exports.records.push(DataExport { crate_name, def }),
            Item::Enum(def) => exports.enums.push(DataExport { crate_name, def }),
            Item::JsType(def) => {
                if !exports.js_types.iter().any(|t| t.def == def) {
                    exports.js_types.push(DataExport { crate_name, def });
                }
            }
            Item::Function(function) => exports.functions.push(FunctionExport {
                crate_name,
                function,
            }),
            Item::Import(import) => add_import(exports, crate_name, import, wasm)?,
        }
        Ok(())
    }

    fn add_class(&mut self, crate_name: String, c: bridge_schema::Class, wasm: &str) -> Result<()> {
        let exports = &mut self.exports;
        if let Some(&other) = self.class_at.get(&c.type_id) {
            let other = &exports.classes[other];
            bail!(
                "{wasm}: crate `{}` exports two #[bridge] structs named `{}` (type id \
                 `{}`); types are told apart by crate and name: rename one of them",
                other.crate_name,
                c.rust_name,
                c.type_id
            );
        }
        self.class_at
            .insert(c.type_id.clone(), exports.classes.len());
        exports.classes.push(ClassExport {
            crate_name,
            type_id: c.type_id,
            name: c.name,
            rust_name: c.rust_name,
            identity_mode: c.identity_mode,
            inspectable: c.inspectable,
            doc: c.doc,
            members: Vec::new(),
        });
        Ok(())
    }
}

/// A JS import once: the same import again (another codegen unit's copy) is dropped, a
/// different one under the same symbol is an error.
fn add_import(exports: &mut Exports, crate_name: String, import: Import, wasm: &str) -> Result<()> {
    if let Some(other) = exports
        .imports
        .iter()
        .find(|o| o.import.symbol == import.symbol)
    {
        if other.import == import {
            return Ok(());
        }
        bail!(
            "{wasm}: crate `{}` declares the JS import `{}` twice with different \
             signatures or sources; JS imports need unique Rust names per crate: \
             rename one of them",
            crate_name,
            import.rust_name
        );
    }
    exports.imports.push(ImportExport { crate_name, import });
    Ok(())
}

/// Attach each impl record's members to its class.
fn merge_impls(
    exports: &mut Exports,
    mut impls: Vec<bridge_schema::Impl>,
    class_at: &HashMap<String, usize>,
    wasm: &str,
) -> Result<()> {
    // Records sit in the section in link order, which changes with unrelated edits: merge
    // a class's impl records (further impl blocks, #[cfg] members) in an order of their
    // own, by their members' Rust names, so the glue and the name checks are deterministic.
    impls.sort_by(|a: &bridge_schema::Impl, b: &bridge_schema::Impl| {
        let names = |i: &bridge_schema::Impl| {
            i.members
                .iter()
                .map(|m| m.rust_name.clone())
                .collect::<Vec<_>>()
        };
        (&a.class, names(a)).cmp(&(&b.class, names(b)))
    });
    for i in impls {
        let Some(&at) = class_at.get(&i.class) else {
            bail!(
                "{wasm}: a #[bridge] impl block exports members of `{}`, but `{}` is not a \
                 #[bridge] struct: add #[bridge] to the struct",
                i.class,
                i.class
            );
        };
        exports.classes[at].members.extend(i.members);
    }
    Ok(())
}

/// A class has at most one constructor across its impl blocks.
fn check_one_constructor(exports: &Exports, wasm: &str) -> Result<()> {
    for class in &exports.classes {
        let ctors = class
            .members
            .iter()
            .filter(|m| m.kind == FunctionKind::Constructor)
            .count();
        if ctors > 1 {
            bail!(
                "{wasm}: class `{}` has {ctors} #[bridge(constructor)]s across impl blocks; keep one",
                class.name
            );
        }
    }
    Ok(())
}

/// Output order independent of link order: every list by name (then type id or symbol).
fn sort_exports(exports: &mut Exports) {
    exports
        .classes
        .sort_by(|a, b| (&a.name, &a.type_id).cmp(&(&b.name, &b.type_id)));
    exports
        .records
        .sort_by(|a, b| (&a.def.name, &a.def.type_id).cmp(&(&b.def.name, &b.def.type_id)));
    exports
        .enums
        .sort_by(|a, b| (&a.def.name, &a.def.type_id).cmp(&(&b.def.name, &b.def.type_id)));
    exports.functions.sort_by(|a, b| {
        (&a.function.js_name, &a.function.symbol).cmp(&(&b.function.js_name, &b.function.symbol))
    });
    exports
        .imports
        .sort_by(|a, b| a.import.symbol.cmp(&b.import.symbol));
    exports
        .js_types
        .sort_by(|a, b| a.def.type_id.cmp(&b.def.type_id));
    exports.crates.sort();
}

/// The macro writes every user type a parameter takes by value as `Ty::ByValue` (it
/// cannot tell classes from records and enums); only a class's is moved out of JS, so the
/// others become the `Ty::Named` the rest of `cargo bridge` knows.
fn resolve_by_value(exports: &mut Exports) {
    let classes: Vec<String> = exports.classes.iter().map(|c| c.type_id.clone()).collect();
    let members = exports
        .classes
        .iter_mut()
        .flat_map(|c| c.members.iter_mut());
    let functions = exports.functions.iter_mut().map(|f| &mut f.function);
    for f in members.chain(functions) {
        for p in &mut f.params {
            let ty = match &mut p.ty {
                Ty::Option(inner) => &mut **inner,
                other => other,
            };
            if let Ty::ByValue(id) = ty
                && !classes.contains(id)
            {
                *ty = Ty::Named(id.clone());
            }
        }
    }
}

/// A returned `&[E]` view of a numeric enum is, in JS, the typed array of its `#[repr]`
/// (`Uint8Array` of the discriminants for `#[repr(u8)]`): the rest of `cargo bridge` sees
/// a view of that number.
fn resolve_enum_views(exports: &mut Exports, wasm: &str) -> Result<()> {
    let reprs: HashMap<String, (String, Option<Ty>)> = exports
        .enums
        .iter()
        .map(|e| {
            let repr = e.def.repr.clone().filter(|_| e.def.is_numeric());
            (e.def.type_id.clone(), (e.def.rust_name.clone(), repr))
        })
        .collect();
    let members = exports
        .classes
        .iter_mut()
        .flat_map(|c| c.members.iter_mut());
    let functions = exports.functions.iter_mut().map(|f| &mut f.function);
    for f in members.chain(functions) {
        let Ty::View(elem) = &mut f.ret else { continue };
        let Ty::Named(id) = &**elem else { continue };
        match reprs.get(id) {
            Some((_, Some(repr))) => **elem = repr.clone(),
            other => bail!(
                "{wasm}: `{}` returns a `&[{}]` view, but only a #[bridge(numeric)] enum with                  #[repr(u8)], #[repr(u16)] or #[repr(u32)] (or i8, i16, i32) can be the                  element of one; rebuild with matching bridge-runtime and cargo-bridge versions",
                f.rust_name,
                other.map_or(id.as_str(), |(name, _)| name.as_str()),
            ),
        }
    }
    Ok(())
}

/// A record or enum shares no type id with another type (a class's duplicate is caught
/// where classes are collected).
fn check_unique_type_ids(exports: &Exports, wasm: &str) -> Result<()> {
    let mut ids: Vec<(&str, &str)> = exports
        .classes
        .iter()
        .map(|c| (c.type_id.as_str(), c.crate_name.as_str()))
        .collect();
    let data = exports
        .records
        .iter()
        .map(|r| (r.def.type_id.as_str(), r.crate_name.as_str()))
        .chain(
            exports
                .enums
                .iter()
                .map(|e| (e.def.type_id.as_str(), e.crate_name.as_str())),
        )
        .chain(
            exports
                .js_types
                .iter()
                .map(|t| (t.def.type_id.as_str(), t.crate_name.as_str())),
        );
    for (id, krate) in data {
        if ids.iter().any(|(seen, _)| *seen == id) {
            bail!(
                "{wasm}: crate `{krate}` exports two #[bridge] types with the type id `{id}`; \
                 types are told apart by crate and name: rename one of them"
            );
        }
        ids.push((id, krate));
    }
    Ok(())
}

/// Every type a signature or a record/enum field names has a definition in the module.
/// Every type a signature, record field or variant field names: what names it (for
/// messages), its crate, the type.
fn type_refs(exports: &Exports) -> Vec<(String, &String, &Ty)> {
    let mut refs = Vec::new();
    for r in &exports.records {
        for f in &r.def.fields {
            let what = format!("field `{}.{}`", r.def.rust_name, f.name);
            refs.push((what, &r.crate_name, &f.ty));
        }
    }
    for e in &exports.enums {
        for v in &e.def.variants {
            for f in &v.fields {
                let what = format!("field `{}::{}.{}`", e.def.rust_name, v.name, f.name);
                refs.push((what, &e.crate_name, &f.ty));
            }
        }
    }
    let members = exports.classes.iter().flat_map(|c| {
        c.members.iter().map(move |m| {
            (
                format!("`{}::{}`", c.rust_name, m.rust_name),
                &c.crate_name,
                (&m.params, &m.ret),
            )
        })
    });
    let functions = exports.functions.iter().map(|f| {
        (
            format!("`{}`", f.function.rust_name),
            &f.crate_name,
            (&f.function.params, &f.function.ret),
        )
    });
    let imports = exports.imports.iter().map(|i| {
        (
            format!("the JS import `{}`", i.import.rust_name),
            &i.crate_name,
            (&i.import.params, &i.import.ret),
        )
    });
    for (what, crate_name, (params, ret)) in members.chain(functions).chain(imports) {
        for ty in params.iter().map(|p| &p.ty).chain([ret]) {
            refs.push((what.clone(), crate_name, ty));
        }
    }
    refs
}

/// wasm-bindgen types in signatures (`#wasm-bindgen:<type as written>`, see
/// `bridge_runtime`'s `js/wbg_types.rs`) cross as imported JS classes do, as JS values:
/// each becomes a JS type of the module (which `TypeNames` types by wasm-bindgen's name).
fn add_wasm_bindgen_types(exports: &mut Exports) {
    let mut found: Vec<(String, String)> = Vec::new();
    for (_, crate_name, ty) in type_refs(exports) {
        for id in ty.type_ids().into_iter().chain(ty.error_type_id()) {
            if bridge_schema::wasm_bindgen_type(id).is_some() && !found.iter().any(|(f, _)| f == id)
            {
                found.push((id.to_string(), crate_name.clone()));
            }
        }
    }
    for (type_id, crate_name) in found {
        let written = bridge_schema::wasm_bindgen_type(&type_id)
            .map(|t| t.written.to_string())
            .unwrap_or_default();
        let name = wasm_bindgen_name(&written);
        exports.js_types.push(DataExport {
            crate_name,
            def: JsTypeDef {
                type_id,
                rust_name: written,
                source: ImportSource::Global {
                    namespace: Vec::new(),
                    name,
                },
                structural: false,
                typescript_type: None,
            },
        });
    }
}

/// `JsValue` under another name (`bridge_runtime`'s `js/renamed.rs`): a JS type of the
/// module with no class behind it (structural), typed `any`, as `JsValue` is.
fn add_renamed_js_value(exports: &mut Exports) {
    let id = bridge_schema::JS_VALUE_TYPE_ID;
    let Some(crate_name) = type_refs(exports)
        .into_iter()
        .find(|(_, _, ty)| ty.type_ids().contains(&id))
        .map(|(_, crate_name, _)| crate_name.clone())
    else {
        return;
    };
    exports.js_types.push(DataExport {
        crate_name,
        def: JsTypeDef {
            type_id: id.to_string(),
            rust_name: "JsValue".into(),
            source: ImportSource::Global {
                namespace: Vec::new(),
                name: "JsValue".into(),
            },
            structural: true,
            typescript_type: Some("any".into()),
        },
    });
}

/// The name of a wasm-bindgen type as written (`web_sys::HtmlElement`, `Level<'a>`): its
/// last path segment without generics (`HtmlElement`, `Level`).
pub fn wasm_bindgen_name(written: &str) -> String {
    let path = written.split('<').next().unwrap_or(written);
    path.rsplit("::").next().unwrap_or(path).to_string()
}

fn check_type_refs(exports: &Exports, wasm: &str) -> Result<()> {
    let index = exports.type_index();
    for (what, crate_name, ty) in type_refs(exports) {
        check_type_ref(&index, wasm, &what, crate_name, ty)?;
    }
    Ok(())
}

fn check_type_ref(
    index: &HashMap<&str, TypeDef>,
    wasm: &str,
    what: &str,
    crate_name: &str,
    ty: &Ty,
) -> Result<()> {
    for type_id in ty.type_ids().into_iter().chain(ty.error_type_id()) {
        if !index.contains_key(type_id) {
            bail!(
                "{wasm}: {what} of crate `{crate_name}` uses the type `{type_id}`, which no \
                 #[bridge] item in the module defines; rebuild with matching bridge-runtime \
                 and cargo-bridge versions"
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bridge_schema::{Class, Impl, Receiver, Ty};

    fn class(crate_name: &str, name: &str) -> Record {
        Record {
            crate_name: crate_name.into(),
            item: Item::Class(Class {
                type_id: bridge_schema::type_id(crate_name, name),
                name: name.into(),
                rust_name: name.into(),
                identity_mode: None,
                inspectable: false,
                doc: String::new(),
            }),
        }
    }

    fn method(name: &str) -> Function {
        Function {
            is_async: false,
            refuses_released: false,
            as_written: None,
            js_this: false,
            kind: FunctionKind::Method,
            js_name: name.into(),
            rust_name: name.into(),
            symbol: format!("bridge_X_{name}"),
            receiver: Receiver::Shared,
            params: vec![],
            ret: Ty::Unit,
            doc: String::new(),
            field: false,
        }
    }

    #[test]
    fn impls_attach_to_classes_in_any_order_and_classes_sort() {
        let records = vec![
            Record {
                crate_name: "a".into(),
                item: Item::Impl(Impl {
                    class: "a::Zed".into(),
                    members: vec![method("m")],
                }),
            },
            class("a", "Zed"),
            class("a", "Alpha"),
        ];
        let e = from_records(records, "x.wasm").unwrap();
        assert_eq!(e.classes[0].name, "Alpha");
        assert_eq!(e.classes[1].members.len(), 1);
    }

    #[test]
    fn same_named_classes_of_two_crates_stay_apart() {
        let mut records = vec![class("a", "C"), class("b", "C")];
        for (krate, member) in [("a", "onlyA"), ("b", "onlyB")] {
            records.push(Record {
                crate_name: krate.into(),
                item: Item::Impl(Impl {
                    class: bridge_schema::type_id(krate, "C"),
                    members: vec![method(member)],
                }),
            });
        }
        let e = from_records(records, "x.wasm").unwrap();
        assert_eq!(e.classes.len(), 2);
        assert_eq!(e.class("a::C").unwrap().members[0].rust_name, "onlyA");
        assert_eq!(e.class("b::C").unwrap().members[0].rust_name, "onlyB");
    }

    #[test]
    fn unresolved_type_ids_are_an_error() {
        let mut f = method("m");
        f.ret = Ty::Named("other::Ghost".into());
        let records = vec![
            class("a", "C"),
            Record {
                crate_name: "a".into(),
                item: Item::Impl(Impl {
                    class: "a::C".into(),
                    members: vec![f],
                }),
            },
        ];
        let err = from_records(records, "x.wasm").unwrap_err().to_string();
        assert!(
            err.contains("`C::m` of crate `a` uses the type `other::Ghost`"),
            "{err}"
        );
    }

    #[test]
    fn impl_without_struct_is_an_error() {
        let records = vec![Record {
            crate_name: "a".into(),
            item: Item::Impl(Impl {
                class: "a::Ghost".into(),
                members: vec![],
            }),
        }];
        let err = from_records(records, "x.wasm").unwrap_err().to_string();
        assert!(
            err.contains("`a::Ghost` is not a #[bridge] struct"),
            "{err}"
        );
    }
}
