//! Records and enums in the glue: the TypeScript declarations of every record (an
//! interface) and enum (a string-literal union or a discriminated union), and the frozen
//! objects fieldless enums export (`Color.Red === "Red"`).

use super::ts;
use super::type_names::TypeNames;
use crate::exports::Exports;
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
    /// Crosses as the variant name (a string); else as `{ kind, ...fields }`.
    pub fieldless: bool,
    pub variants: Vec<VariantTs>,
}

#[derive(Serialize)]
pub struct VariantTs {
    pub name: String,
    pub fields: Vec<FieldTs>,
}

#[derive(Serialize)]
pub struct FieldTs {
    pub name: String,
    pub ts: String,
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
        .map(|e| EnumView {
            name: e.def.name.clone(),
            ts_plain: ts::plain(&e.def.name),
            doc: doc_lines(&e.def.doc),
            fieldless: e.def.is_fieldless(),
            variants: e
                .def
                .variants
                .iter()
                .map(|v| VariantTs {
                    name: v.name.clone(),
                    fields: fields(&v.fields, names),
                })
                .collect(),
        })
        .collect()
}
