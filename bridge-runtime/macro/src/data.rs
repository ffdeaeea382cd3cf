//! `#[bridge(record)]` on a struct and `#[bridge]` on an enum: plain data that crosses by
//! value. Both are encoded on the wire (`bridge_runtime::wire`) by the `WireOut`/`WireIn`
//! impls generated here, field by field in declaration order; a fieldless enum crosses
//! as its variant's index (a JS string in the glue).

use crate::attrs::{self, DataArgs};
use crate::class::doc_of;
use crate::record::{self, TypeRefs};
use crate::types::{self, Position};
use bridge_schema::{EnumDef, Field, Item, RecordDef, Variant};
use proc_macro2::TokenStream;
use quote::quote;
use syn::ext::IdentExt;
use syn::{Fields, Ident, Type};

/// `#[bridge(record)] struct`: the struct (its fields' bridge attributes taken off) plus
/// its trait impls and record.
pub fn expand_record(args: DataArgs, mut item: syn::ItemStruct) -> syn::Result<TokenStream> {
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
        Ok(record::emit(def, refs))
    })?;
    let wire = record_wire(&item.ident, &fields);
    Ok(expand_data(
        &item,
        &item.ident,
        &names,
        records,
        wire,
        false,
    ))
}

/// `#[bridge] enum`: the enum (its fields' bridge attributes taken off) plus its trait
/// impls and record.
pub fn expand_enum(args: DataArgs, mut item: syn::ItemEnum) -> syn::Result<TokenStream> {
    let mut taken = Vec::new();
    let variants = enum_variants(&mut item, &mut taken)?;
    let names = DataNames::of(&item.ident, args);
    let records = attrs::per_configuration(&attrs::configurations(&taken)?, |c| {
        let mut refs = TypeRefs::default();
        let mut schema_variants = Vec::new();
        for v in &variants {
            let variant = v.ident.unraw().to_string();
            let owner = format!("variant `{}::{variant}`", names.rust_name);
            let tagged = Some((names.rust_name.as_str(), variant.as_str()));
            let js_names = field_names(&v.fields, &taken, c, &owner, tagged)?;
            schema_variants.push(Variant {
                name: v.ident.unraw().to_string(),
                fields: schema_fields(&v.fields, &js_names, &mut refs)?,
            });
        }
        let def = Item::Enum(EnumDef {
            type_id: names.type_id.clone(),
            name: names.js_name.clone(),
            rust_name: names.rust_name.clone(),
            variants: schema_variants,
            doc: doc_of(&item.attrs),
        });
        Ok(record::emit(def, refs))
    })?;
    let fieldless = variants.iter().all(|v| v.fields.is_empty());
    let mut wire = enum_wire(&item.ident, &variants);
    if fieldless {
        wire.extend(fieldless_index(&item.ident, &variants));
    }
    Ok(expand_data(
        &item,
        &item.ident,
        &names,
        records,
        wire,
        fieldless,
    ))
}

/// The JS names of `fields` in configuration `c`: `js_name` or the default, each unique
/// (two Rust names can camelCase to one: `foo_bar`, `fooBar`) and usable as an own
/// property of a plain object; `kind` is the tag of an enum variant's object (`tagged`:
/// the enum and variant, for a variant with named fields).
fn field_names(
    fields: &[DataField],
    taken: &[attrs::BridgeAttr],
    c: &attrs::Configuration,
    owner: &str,
    tagged: Option<(&str, &str)>,
) -> syn::Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for f in fields {
        let rust = f.rust_name();
        let given = attrs::parse_field_args(
            c.indices
                .iter()
                .filter(|i| f.attrs.contains(i))
                .map(|&i| &taken[i].attr),
            &rust,
        )?;
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
        if js_name == "__proto__" {
            return at(format!(
                "field `{rust}` of {owner} cannot be `__proto__` in JS: a plain object's \
                 `__proto__` is its prototype, not a field; give it another JS name with \
                 #[bridge(js_name = \"...\")]"
            ));
        }
        if let Some(j) = out.iter().position(|n| *n == js_name) {
            return at(format!(
                "fields `{}` and `{rust}` of {owner} are both `{js_name}` in JS: give one of \
                 them another JS name with #[bridge(js_name = \"...\")]",
                fields[j].rust_name()
            ));
        }
        out.push(js_name);
    }
    Ok(out)
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

/// What a record's and an enum's expansions share: the item unchanged, its wire code, its
/// trait impls and its record(s) (one per configuration of its fields' attributes).
fn expand_data(
    item: &impl quote::ToTokens,
    ident: &Ident,
    names: &DataNames,
    records: TokenStream,
    wire: TokenStream,
    fieldless: bool,
) -> TokenStream {
    let traits = data_traits(ident, &names.type_id, fieldless);
    let anchor = bridge_schema::data_anchor_export(&names.type_id);
    quote! {
        #item
        #wire
        #traits
        const _: () = {
            #records

            // Keeps the record in the link when the type's crate exports nothing else.
            #[unsafe(export_name = #anchor)]
            extern "C" fn __bridge_anchor() {}
        };
    }
}

fn schema_fields(
    fields: &[DataField],
    js_names: &[String],
    refs: &mut TypeRefs,
) -> syn::Result<Vec<Field>> {
    fields
        .iter()
        .zip(js_names)
        .map(|(f, name)| {
            let info = types::classify(&f.ty, None, Position::Field, refs)?;
            Ok(Field {
                name: name.clone(),
                ty: info.ty,
            })
        })
        .collect()
}

/// `BridgeType`, `BridgeData` and the thunk conversions of a record or enum. Records and
/// enums with data travel on the wire (the wasm value is the in-buffer offset, or unused
/// for results); a fieldless enum travels as its variant index.
fn data_traits(ident: &Ident, type_id: &str, fieldless: bool) -> TokenStream {
    let rt = quote!(::bridge_runtime);
    let (into_abi, from_abi, js_arg) = if fieldless {
        (
            quote! { #ident::__bridge_index(self) },
            quote! { #ident::__bridge_from_index(abi) },
            quote! {},
        )
    } else {
        (
            quote! { #rt::wire::ret(self); 0 },
            // SAFETY: forwarded contract: JS wrote the value at offset `abi`.
            quote! { unsafe { #rt::wire::take_at(abi) } },
            quote! {
                #[inline]
                fn into_js_arg(self, args: &mut #rt::wire::WireArgs) -> u32 {
                    args.put(self)
                }
            },
        )
    };
    quote! {
        impl #rt::BridgeType for #ident {
            const TYPE_ID: &'static str = #type_id;
        }
        impl #rt::BridgeData for #ident {}
        impl #rt::IntoJs for #ident {
            type Abi = u32;
            #[inline]
            fn into_abi(self) -> u32 {
                #into_abi
            }
            #js_arg
            #[inline]
            fn ret_vec(v: ::std::vec::Vec<Self>) {
                #rt::wire::ret(v)
            }
        }
        impl #rt::FromJs for #ident {
            type Abi = u32;
            #[inline]
            unsafe fn from_abi(abi: u32) -> Self {
                #from_abi
            }
            #[inline]
            unsafe fn lift_vec(ptr: u32, _len: u32) -> ::std::vec::Vec<Self> {
                // SAFETY: forwarded contract: JS wrote the vector at offset `ptr`.
                unsafe { #rt::wire::take_at(ptr) }
            }
        }
    }
}

/// A fieldless enum's variant index both ways (JS checked the name before passing it).
fn fieldless_index(ident: &Ident, variants: &[DataVariant]) -> TokenStream {
    let name = ident.to_string();
    let count = variants.len();
    let (to, from): (Vec<_>, Vec<_>) = variants
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let i = i as u32;
            let v = &v.ident;
            (quote! { #ident::#v => #i, }, quote! { #i => #ident::#v, })
        })
        .unzip();
    quote! {
        impl #ident {
            #[doc(hidden)]
            #[inline]
            pub fn __bridge_index(self) -> u32 {
                match self {
                    #(#to)*
                }
            }
            #[doc(hidden)]
            #[inline]
            pub fn __bridge_from_index(index: u32) -> Self {
                match index {
                    #(#from)*
                    other => ::core::panic!(
                        "bridge: variant index {} of enum `{}` is out of range (it has {}); the \
                         glue and the wasm disagree: rebuild both with the same cargo-bridge",
                        other, #name, #count
                    ),
                }
            }
        }
    }
}

/// One field of a record or enum variant.
pub struct DataField {
    /// The Rust field name (`None` for the one field of a tuple variant).
    pub ident: Option<Ident>,
    /// Default name in JS: camelCase of the Rust name, `value` for a tuple variant's field.
    pub js_name: String,
    pub ty: Type,
    /// Its `#[bridge(..)]` attributes: indices into the item's list of them.
    pub attrs: Vec<usize>,
    /// Where its messages point.
    pub span: proc_macro2::Span,
}

impl DataField {
    /// The Rust name, for messages (`0` for a tuple variant's field).
    fn rust_name(&self) -> String {
        self.ident
            .as_ref()
            .map(|i| i.unraw().to_string())
            .unwrap_or_else(|| "0".to_string())
    }

    /// A field of `f`, its bridge attributes moved to `taken`.
    fn take(
        f: &mut syn::Field,
        js_name: String,
        taken: &mut Vec<attrs::BridgeAttr>,
    ) -> syn::Result<DataField> {
        let own = attrs::take_bridge_attrs(&mut f.attrs)?;
        let start = taken.len();
        taken.extend(own);
        Ok(DataField {
            span: f
                .ident
                .as_ref()
                .map(|i| i.span())
                .unwrap_or_else(|| syn::spanned::Spanned::span(&f.ty)),
            ident: f.ident.clone(),
            js_name,
            ty: f.ty.clone(),
            attrs: (start..taken.len()).collect(),
        })
    }
}

pub struct DataVariant {
    pub ident: Ident,
    pub fields: Vec<DataField>,
    /// `Named(String)`: one unnamed field, `value` in JS.
    pub tuple: bool,
}

/// The fields of a record struct (named fields only); their bridge attributes go to
/// `taken`.
pub fn record_fields(
    item: &mut syn::ItemStruct,
    taken: &mut Vec<attrs::BridgeAttr>,
) -> syn::Result<Vec<DataField>> {
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
                DataField::take(f, js_name, taken)
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
pub fn enum_variants(
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
                    fields.push(DataField::take(f, js_name, taken)?);
                }
                (fields, false)
            }
            Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => {
                let f = unnamed.unnamed.first_mut().expect("one field");
                (vec![DataField::take(f, "value".to_string(), taken)?], true)
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

/// `WireOut` and `WireIn` of a record: its fields in declaration order.
pub fn record_wire(ident: &Ident, fields: &[DataField]) -> TokenStream {
    let w = quote!(::bridge_runtime::wire);
    let names: Vec<&Ident> = fields
        .iter()
        .map(|f| f.ident.as_ref().expect("records have named fields"))
        .collect();
    quote! {
        impl #w::WireOut for #ident {
            #[inline]
            fn wire_write(self, w: &mut #w::WireBuf) {
                #( #w::WireOut::wire_write(self.#names, w); )*
            }
        }
        unsafe impl #w::WireIn for #ident {
            #[inline]
            unsafe fn wire_read(r: &mut #w::WireReader) -> ::bridge_runtime::abi::Result<Self> {
                ::core::result::Result::Ok(#ident {
                    // SAFETY: forwarded contract; struct literal fields evaluate in order.
                    #( #names: unsafe { #w::WireIn::wire_read(r) }?, )*
                })
            }
        }
    }
}

/// `WireOut` and `WireIn` of an enum: the variant's index as a `u32`, then its fields.
pub fn enum_wire(ident: &Ident, variants: &[DataVariant]) -> TokenStream {
    let w = quote!(::bridge_runtime::wire);
    let name = ident.to_string();
    let mut write_arms = Vec::new();
    let mut read_arms = Vec::new();
    for (index, v) in variants.iter().enumerate() {
        let index = index as u32;
        let vident = &v.ident;
        let binds: Vec<Ident> = (0..v.fields.len())
            .map(|i| quote::format_ident!("__f{i}"))
            .collect();
        let (pattern, build) = if v.tuple {
            (quote! { (#(#binds),*) }, quote! { (#(#binds),*) })
        } else if v.fields.is_empty() {
            (quote! {}, quote! {})
        } else {
            let names: Vec<&Ident> = v.fields.iter().filter_map(|f| f.ident.as_ref()).collect();
            (
                quote! { { #(#names: #binds),* } },
                quote! { { #(#names: #binds),* } },
            )
        };
        write_arms.push(quote! {
            #ident::#vident #pattern => {
                w.put(#index.to_le_bytes());
                #( #w::WireOut::wire_write(#binds, w); )*
            }
        });
        read_arms.push(quote! {
            #index => {
                // SAFETY: forwarded contract; fields are read in declaration order.
                #( let #binds = unsafe { #w::WireIn::wire_read(r) }?; )*
                ::core::result::Result::Ok(#ident::#vident #build)
            }
        });
    }
    let count = variants.len();
    quote! {
        impl #w::WireOut for #ident {
            #[inline]
            fn wire_write(self, w: &mut #w::WireBuf) {
                match self {
                    #(#write_arms)*
                }
            }
        }
        unsafe impl #w::WireIn for #ident {
            #[inline]
            unsafe fn wire_read(r: &mut #w::WireReader) -> ::bridge_runtime::abi::Result<Self> {
                match u32::from_le_bytes(r.take()?) {
                    #(#read_arms)*
                    other => ::core::result::Result::Err(
                        ::bridge_runtime::wire::bad_variant(#name, other, #count),
                    ),
                }
            }
        }
    }
}
