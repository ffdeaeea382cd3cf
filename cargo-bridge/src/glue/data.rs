//! Records and enums in the glue: the TypeScript declarations of every record (an
//! interface) and enum (a string-literal union or a discriminated union), and the frozen
//! objects fieldless enums export (`Color.Red === "Red"`, `Mode.ReadOnly === "read-only"`,
//! numeric: `Cell.Alive === 1`).

use super::ts;
use super::type_names::TypeNames;
use super::untagged;
use crate::postprocess::exports::Exports;
use bridge_schema::Field;
use serde::Serialize;

#[derive(Serialize)]
pub struct RecordView {
    pub name: String,
    /// The `.d.ts` declares it as itself (else as `<name>$type`, exported as an alias).
    pub ts_plain: bool,
    pub doc: Vec<String>,
    pub fields: Vec<FieldTs>,
}

#[derive(Serialize)]
pub struct EnumView {
    pub name: String,
    /// The `.d.ts` declares it as itself (else as `<name>$type`, exported as an alias).
    pub ts_plain: bool,
    pub doc: Vec<String>,
    /// Crosses as the variant's string or number; else as `{ kind, ...fields }`.
    pub fieldless: bool,
    /// An untagged union (`glue/untagged.rs`): `.d.ts` `"a" | "b" | string | Foo`.
    pub untagged: bool,
    /// What a fieldless enum's value must be, for messages (`one of "a", "b" (a Mode)`);
    /// raw text (templates escape it).
    pub expected: String,
    /// A `#[bridge(numeric)]` enum: as wasm-bindgen has them, its object also maps each
    /// number back to the variant's name (`Level[2] === "High"`), and the `.d.ts` declares
    /// an `enum`.
    pub numeric: bool,
    pub variants: Vec<VariantTs>,
}

#[derive(Serialize)]
pub struct VariantTs {
    pub name: String,
    pub fields: Vec<FieldTs>,
    /// A fieldless enum's variant as a JS (and TypeScript) literal: a quoted, escaped
    /// string (its `js_name`, else its name) or, numeric, its discriminant.
    pub value: String,
}

#[derive(Serialize)]
pub struct FieldTs {
    pub name: String,
    pub ts: String,
    /// An `Option`: JS may leave the property out (`name?: T | null | undefined`).
    pub optional: bool,
}

fn doc_lines(doc: &str) -> Vec<String> {
    doc.lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

fn fields(fields: &[Field], names: &TypeNames) -> Vec<FieldTs> {
    fields
        .iter()
        .map(|f| FieldTs {
            name: f.name.clone(),
            ts: ts::wire(&f.ty, names),
            optional: matches!(f.ty, bridge_schema::Ty::Option(_)),
        })
        .collect()
}

pub fn records(exports: &Exports, names: &TypeNames) -> Vec<RecordView> {
    exports
        .records
        .iter()
        .map(|r| RecordView {
            name: r.def.name.clone(),
            ts_plain: ts::plain(&r.def.name),
            doc: doc_lines(&r.def.doc),
            fields: fields(&r.def.fields, names),
        })
        .collect()
}

pub fn enums(exports: &Exports, names: &TypeNames) -> Vec<EnumView> {
    exports
        .enums
        .iter()
        .map(|e| {
            let values: Vec<String> = e.def.variants.iter().map(untagged::literal).collect();
            EnumView {
                name: e.def.name.clone(),
                ts_plain: ts::plain(&e.def.name),
                doc: doc_lines(&e.def.doc),
                fieldless: e.def.is_fieldless(),
                untagged: e.def.untagged,
                numeric: e.def.is_fieldless()
                    && e.def.variants.iter().all(|v| v.discriminant.is_some()),
                expected: format!(
                    "one of {} ({} {})",
                    values.join(", "),
                    bridge_schema::js::article(&e.def.name),
                    e.def.name
                ),
                variants: e
                    .def
                    .variants
                    .iter()
                    .zip(values)
                    .map(|(v, value)| VariantTs {
                        name: v.name.clone(),
                        fields: fields(&v.fields, names),
                        value,
                    })
                    .collect(),
            }
        })
        .collect()
}
