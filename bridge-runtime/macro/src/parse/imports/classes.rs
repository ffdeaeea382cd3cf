//! `pub type T;`: an imported JS class, its record and its `instanceof` import.

use super::args::{ImportArgs, class_source, item_args, namespace_of};
use super::function::{Own, own};
use super::members::{BlockType, Member};
use crate::model::imports::{ImportFn, JsType};
use crate::model::refs::TypeRefs;
use crate::parse::record;
use bridge_schema::{ImportSource, JsTypeDef, MemberForm};
use proc_macro2::Ident;
use syn::LitStr;

/// `pub type T;` (with `#[bridge(js_name = "Class")]`, `js_namespace`): the class, and
/// what the block's functions need to know of it.
pub(super) fn js_type(
    t: &syn::ForeignItemType,
    block_args: &ImportArgs,
) -> syn::Result<(BlockType, JsType)> {
    if !t.generics.params.is_empty() || t.generics.where_clause.is_some() {
        return Err(syn::Error::new_spanned(
            &t.generics,
            "an imported JS class cannot be generic: declare one `pub type` per class",
        ));
    }
    let mut attrs = t.attrs.clone();
    let args = item_args(
        &mut attrs,
        block_args,
        "an imported JS class",
        "an imported JS class takes `js_name = \"Class\"`, `js_namespace = \"a.b\"`, \
         `structural` and `typescript_type = \"..\"` only; `constructor`, `method`, `getter`, \
         `setter`, `static_method_of` and `js_class` go on its functions",
    )?;
    let ident = t.ident.clone();
    let rust_name = ident.to_string();
    let js_name = class_name(t, &args, &rust_name)?;
    let namespace = namespace_of(&args)?;
    let type_id = bridge_schema::type_id(&record::crate_name(), &rust_name);
    let source = class_source(&args, &js_name, &namespace);
    let typescript_type = typescript_type(&args)?;
    let record = record::section(
        bridge_schema::Item::JsType(JsTypeDef {
            type_id: type_id.clone(),
            rust_name: rust_name.clone(),
            source: source.clone(),
            structural: args.structural,
            typescript_type,
        }),
        TypeRefs::default(),
    );
    let instance_of = instance_of(&ident, &args, source, &rust_name)?;
    let def = BlockType {
        ident: ident.clone(),
        js_name: js_name.clone(),
        namespace,
        structural: args.structural,
    };
    Ok((
        def,
        JsType {
            attrs,
            vis: t.vis.clone(),
            ident,
            type_id,
            js_name,
            record,
            instance_of,
        },
    ))
}

/// The JS name of the class `t` (its Rust name `rust_name` unless `js_name` says).
fn class_name(t: &syn::ForeignItemType, args: &ImportArgs, rust_name: &str) -> syn::Result<String> {
    let js_name = args
        .js_name
        .as_ref()
        .map(LitStr::value)
        .unwrap_or_else(|| rust_name.to_string());
    if js_name.is_empty() {
        return Err(syn::Error::new_spanned(
            t,
            "js_name \"\" names no class: give the JS class's name",
        ));
    }
    Ok(js_name)
}

/// The `typescript_type` of `args`: only on a `structural` type, and not empty.
fn typescript_type(args: &ImportArgs) -> syn::Result<Option<String>> {
    let typescript_type = args.typescript_type.as_ref().map(LitStr::value);
    if let (Some(lit), false) = (&args.typescript_type, args.structural) {
        return Err(syn::Error::new_spanned(
            lit,
            "`typescript_type` is the `.d.ts` type of a `structural` JS type (no JS class \
             behind it): add `structural`, or remove it (a class's `.d.ts` type is the class)",
        ));
    }
    if typescript_type
        .as_deref()
        .is_some_and(|t| t.trim().is_empty())
    {
        return Err(syn::Error::new_spanned(
            &args.typescript_type,
            "typescript_type \"\" names no type: give a TypeScript type (`\"{ x: number }\"`)",
        ));
    }
    Ok(typescript_type)
}

/// `value instanceof T` for the class `ident` at `source`, the check behind
/// `TryFrom<JsValue>`: a structural type has no class to check against.
fn instance_of(
    ident: &Ident,
    args: &ImportArgs,
    source: ImportSource,
    rust_name: &str,
) -> syn::Result<Option<ImportFn>> {
    if args.structural {
        return Ok(None);
    }
    let member = Member {
        of: ident.clone(),
        form: MemberForm::InstanceOf,
        key: String::new(),
        source,
    };
    own(
        Own::InstanceOf,
        args,
        member,
        format!("{rust_name}::instanceof"),
    )
    .map(Some)
}
