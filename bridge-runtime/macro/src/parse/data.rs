//! `#[bridge(record)]` on a struct and `#[bridge]` on an enum: shape checks, the fields'
//! JS names (`js_name`, unique, not `kind` in a variant, not `__proto__`) and types; the
//! variants' JS values are `variants.rs`'.

use super::attrs::{self, DataArgs};
use super::position::Position;
use super::record::{self, doc_of};
use super::types;
use super::variants;
use crate::model::data::{Data, DataField, DataVariant, FieldIdent, Flat, Shape};
use crate::model::refs::TypeRefs;
use bridge_schema::{EnumDef, Field, Item, RecordDef, Variant};
use syn::ext::IdentExt;
use syn::{Fields, Ident};

/// `#[bridge(record)] struct`: the struct (its fields' bridge attributes taken off), its
/// fields and its record(s).
pub fn record(args: DataArgs, mut item: syn::ItemStruct) -> syn::Result<Data> {
    let mut taken = Vec::new();
    let fields = record_fields(&mut item, &mut taken)?;
    let names = DataNames::of(&item.ident, args);
    let owner = format!("record `{}`", names.rust_name);
    let records = attrs::per_configuration(&attrs::configurations(&taken)?, |c| {
        let js_names = field_names(&fields, &taken, c, &owner, None)?;
        let mut refs = TypeRefs::default();
        let def = Item::Record(RecordDef {
            type_id: names.type_id.clone(),
            name: names.js_name.clone(),
            rust_name: names.rust_name.clone(),
            fields: schema_fields(&fields, &js_names, &mut refs)?,
            doc: doc_of(&item.attrs),
        });
        Ok(record::section(def, refs))
    })?;
    let flat = flat(&fields);
    Ok(Data {
        type_id: names.type_id,
        records,
        shape: Shape::Record(item, fields, flat),
    })
}

/// Whether the record's fields are all scalars, as the glue finds them in its schema
/// record (types classify the same in every configuration; they were checked above).
fn flat(fields: &[DataField<Ident>]) -> Flat {
    let tys: Option<Vec<bridge_schema::Ty>> = fields
        .iter()
        .map(|f| {
            types::classify(&f.ty, None, Position::Field, &mut TypeRefs::default())
                .ok()
                .map(|info| info.ty)
        })
        .collect();
    match tys.and_then(|tys| bridge_schema::lowering::flat_record(&tys)) {
        Some(_) => Flat::Yes,
        None => Flat::No,
    }
}

/// `#[bridge] enum`: the enum (its fields' bridge attributes taken off), its variants and
/// its record(s).
pub fn enumeration(args: DataArgs, mut item: syn::ItemEnum) -> syn::Result<Data> {
    let mut taken = Vec::new();
    let untagged = variants::untagged(&item, args.numeric, args.untagged, args.fallback)?;
    let values = variants::values(&mut item, args.numeric, untagged)?;
    let fallback = untagged && args.fallback;
    let repr = args
        .numeric
        .then(|| variants::view_repr(&item.attrs))
        .flatten();
    let variants = enum_variants(&mut item, &mut taken)?;
    let names = DataNames::of(&item.ident, args);
    let records = attrs::per_configuration(&attrs::configurations(&taken)?, |c| {
        let mut refs = TypeRefs::default();
        let mut schema_variants = Vec::new();
        for (v, value) in variants.iter().zip(&values) {
            let variant = v.ident.unraw().to_string();
            let owner = format!("variant `{}::{variant}`", names.rust_name);
            let tagged = Some((names.rust_name.as_str(), variant.as_str()));
            let js_names = field_names(&v.fields, &taken, c, &owner, tagged)?;
            let fields = schema_fields(&v.fields, &js_names, &mut refs)?;
            if untagged && let [f] = &fields[..] {
                check_untagged_value(f, &v.fields[0], &names.rust_name, &variant)?;
            }
            schema_variants.push(Variant {
                name: v.ident.unraw().to_string(),
                fields,
                js_name: value.js_name.clone(),
                discriminant: value.discriminant,
            });
        }
        let def = Item::Enum(EnumDef {
            type_id: names.type_id.clone(),
            name: names.js_name.clone(),
            rust_name: names.rust_name.clone(),
            variants: schema_variants,
            doc: doc_of(&item.attrs),
            repr: repr.clone(),
            untagged,
            fallback,
        });
        Ok(record::section(def, refs))
    })?;
    Ok(Data {
        type_id: names.type_id,
        records,
        shape: Shape::Enum(item, variants, repr.is_some()),
    })
}

/// A value JS can tell from the untagged union's other variants: not an `Option`
/// (`undefined` is no value of a union: the `Option` goes outside, `Option<Enum>`).
fn check_untagged_value(f: &Field, data: &DataField, name: &str, variant: &str) -> syn::Result<()> {
    if matches!(f.ty, bridge_schema::Ty::Option(_) | bridge_schema::Ty::Unit) {
        return Err(syn::Error::new(
            data.span,
            format!(
                "`{name}::{variant}` holds an `Option`, but enum `{name}` is an untagged union: \
                 JS tells its variants apart by the value, and `undefined` is none of them; \
                 take `Option<{name}>` where it is used, or add a unit variant (`None = \"none\"`)"
            ),
        ));
    }
    Ok(())
}

/// The JS names of `fields` in configuration `c`: `js_name` or the default, each unique
/// (two Rust names can camelCase to one: `foo_bar`, `fooBar`) and usable as an own
/// property of a plain object; `kind` is the tag of an enum variant's object (`tagged`:
/// the enum and variant, for a variant with named fields).
fn field_names<N: FieldIdent>(
    fields: &[DataField<N>],
    taken: &[attrs::BridgeAttr],
    c: &attrs::Configuration,
    owner: &str,
    tagged: Option<(&str, &str)>,
) -> syn::Result<Vec<FieldName>> {
    let mut out: Vec<FieldName> = Vec::new();
    for f in fields {
        let rust = rust_name(f);
        let given = attrs::parse_field_args(
            c.indices
                .iter()
                .filter(|i| f.attrs.contains(i))
                .map(|&i| &taken[i].attr),
            &rust,
        )?;
        // A crate keeping Rust names (wasm-bindgen's convention) has the field's as written.
        let as_written = match (&given, f.ident.rust()) {
            (None, Some(_)) => Some(rust.clone()).filter(|w| *w != f.js_name),
            _ => None,
        };
        let js_name = given.unwrap_or_else(|| f.js_name.clone());
        let at = |msg: String| Err(syn::Error::new(f.span, msg));
        if let Some((enum_name, variant)) = tagged
            && js_name == "kind"
        {
            let field = if rust == "kind" {
                "a field `kind`".to_string()
            } else {
                format!("a field `{rust}` named `kind` in JS")
            };
            return at(format!(
                "`{enum_name}::{variant}` has {field}, but `kind` is the tag of a JS enum object \
                 (`{{ kind: \"{variant}\", ... }}`): rename the field (or give it another JS \
                 name with #[bridge(js_name = \"...\")])"
            ));
        }
        if js_name == "__proto__" || as_written.as_deref() == Some("__proto__") {
            return at(format!(
                "field `{rust}` of {owner} cannot be `__proto__` in JS: a plain object's \
                 `__proto__` is its prototype, not a field; give it another JS name with \
                 #[bridge(js_name = \"...\")]"
            ));
        }
        if let Some(j) = out.iter().position(|n| n.js_name == js_name) {
            return at(format!(
                "fields `{}` and `{rust}` of {owner} are both `{js_name}` in JS: give one of \
                 them another JS name with #[bridge(js_name = \"...\")]",
                rust_name(&fields[j])
            ));
        }
        out.push(FieldName {
            js_name,
            as_written,
        });
    }
    Ok(out)
}

/// A field's JS name, and its Rust name where a crate keeping Rust names has that instead.
struct FieldName {
    js_name: String,
    as_written: Option<String>,
}

/// The names of a record or enum: Rust name (without `r#`), JS name (`js_name`, else the
/// Rust name) and type id.
struct DataNames {
    rust_name: String,
    js_name: String,
    type_id: String,
}

impl DataNames {
    fn of(ident: &Ident, args: DataArgs) -> DataNames {
        let rust_name = ident.unraw().to_string();
        DataNames {
            js_name: args.js_name.unwrap_or_else(|| rust_name.clone()),
            type_id: bridge_schema::type_id(&record::crate_name(), &rust_name),
            rust_name,
        }
    }
}

fn schema_fields<N>(
    fields: &[DataField<N>],
    js_names: &[FieldName],
    refs: &mut TypeRefs,
) -> syn::Result<Vec<Field>> {
    fields
        .iter()
        .zip(js_names)
        .map(|(f, name)| {
            let info = types::classify(&f.ty, None, Position::Field, refs)?;
            Ok(Field {
                name: name.js_name.clone(),
                ty: info.ty,
                as_written: name.as_written.clone(),
            })
        })
        .collect()
}

/// A field's Rust name, for messages (`0` for a tuple variant's field).
fn rust_name<N: FieldIdent>(f: &DataField<N>) -> String {
    f.ident
        .rust()
        .map(|i| i.unraw().to_string())
        .unwrap_or_else(|| "0".to_string())
}

/// A field of `f` (Rust name `ident`), its bridge attributes moved to `taken`.
fn take_field<N>(
    f: &mut syn::Field,
    ident: N,
    js_name: String,
    taken: &mut Vec<attrs::BridgeAttr>,
) -> syn::Result<DataField<N>> {
    let own = attrs::take_bridge_attrs(&mut f.attrs)?;
    let start = taken.len();
    taken.extend(own);
    Ok(DataField {
        span: f
            .ident
            .as_ref()
            .map(|i| i.span())
            .unwrap_or_else(|| syn::spanned::Spanned::span(&f.ty)),
        ident,
        js_name,
        ty: f.ty.clone(),
        attrs: (start..taken.len()).collect(),
    })
}

/// The fields of a record struct (named fields only); their bridge attributes go to
/// `taken`.
fn record_fields(
    item: &mut syn::ItemStruct,
    taken: &mut Vec<attrs::BridgeAttr>,
) -> syn::Result<Vec<DataField<Ident>>> {
    let name = item.ident.clone();
    if !item.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &item.generics,
            format!("#[bridge(record)] `{name}` cannot be generic: export a concrete type"),
        ));
    }
    match &mut item.fields {
        Fields::Named(named) => named
            .named
            .iter_mut()
            .map(|f| {
                let ident = f.ident.clone().expect("named fields have names");
                let js_name = attrs::camel_case(ident.to_string().trim_start_matches("r#"));
                take_field(f, ident, js_name, taken)
            })
            .collect(),
        Fields::Unnamed(_) => Err(syn::Error::new_spanned(
            &item.fields,
            format!(
                "#[bridge(record)] `{name}` is a tuple struct: records cross as JS objects, \
                 so give the fields names (`struct {name} {{ x: f64, y: f64 }}`)"
            ),
        )),
        Fields::Unit => Err(syn::Error::new_spanned(
            &name,
            format!("#[bridge(record)] `{name}` has no fields: give it named fields"),
        )),
    }
}

/// The variants of a bridge enum; their fields' bridge attributes go to `taken`.
fn enum_variants(
    item: &mut syn::ItemEnum,
    taken: &mut Vec<attrs::BridgeAttr>,
) -> syn::Result<Vec<DataVariant>> {
    let name = item.ident.clone();
    if !item.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &item.generics,
            format!("#[bridge] enum `{name}` cannot be generic: export a concrete type"),
        ));
    }
    if item.variants.is_empty() {
        return Err(syn::Error::new_spanned(
            &name,
            format!("#[bridge] enum `{name}` has no variants: no value of it can cross"),
        ));
    }
    let mut out = Vec::new();
    for v in &mut item.variants {
        let vname = v.ident.clone();
        let (fields, tuple) = match &mut v.fields {
            Fields::Unit => (Vec::new(), false),
            Fields::Named(named) => {
                let mut fields = Vec::new();
                for f in &mut named.named {
                    let ident = f.ident.clone().expect("named fields have names");
                    let js_name = attrs::camel_case(ident.to_string().trim_start_matches("r#"));
                    fields.push(take_field(f, Some(ident), js_name, taken)?);
                }
                (fields, false)
            }
            Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => {
                let f = unnamed.unnamed.first_mut().expect("one field");
                (vec![take_field(f, None, "value".to_string(), taken)?], true)
            }
            Fields::Unnamed(unnamed) => {
                return Err(syn::Error::new_spanned(
                    &*unnamed,
                    format!(
                        "`{name}::{vname}` has {} unnamed fields: a tuple variant crosses as \
                         `{{ kind, value }}` and can hold one field; name the fields \
                         (`{vname} {{ a: .., b: .. }}`) to send several",
                        unnamed.unnamed.len()
                    ),
                ));
            }
        };
        out.push(DataVariant {
            ident: vname,
            fields,
            tuple,
        });
    }
    Ok(out)
}
