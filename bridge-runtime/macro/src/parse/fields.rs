//! The `pub` fields of a `#[bridge]` class (named, or a tuple struct's as `obj[0]`): a JS
//! property each, read by a getter (the field cloned: `Copy` types by value, `Handle<C>`
//! keeping identity) and written by a setter unless `#[bridge(readonly)]`. The macro writes
//! both as hidden members of an impl block of their own, so they are checked, borrowed and
//! exported as a `#[bridge(getter)]`/`#[bridge(setter)]` written by hand would be; their
//! records say they are a field's (`Function::field`), for the CLI's name clash message.

use super::attrs::{self, MemberArgs, MemberRole};
use super::functions::MemberFn;
use super::names;
use super::record;
use crate::model::conditional::Configured;
use crate::model::functions::{ImplBlock, Member};
use crate::model::refs::TypeRefs;
use bridge_schema::FunctionKind;
use quote::{format_ident, quote_spanned};
use syn::ext::IdentExt;
use syn::spanned::Spanned;

/// The accessors of `item`'s `pub` fields (their bridge attributes taken off the struct),
/// or `None` when the class has no field JS sees.
pub fn fields(class: &str, item: &mut syn::ItemStruct) -> syn::Result<Option<ImplBlock>> {
    let ident = &item.ident;
    let self_ty: syn::Type = syn::parse_quote!(#ident);
    // A tuple struct's fields are `obj[0]`, `obj[1]`, … (as in wasm-bindgen).
    let all: Vec<(syn::Member, &mut syn::Field)> = match &mut item.fields {
        syn::Fields::Named(named) => named
            .named
            .iter_mut()
            .map(|f| {
                (
                    syn::Member::Named(f.ident.clone().expect("a named field")),
                    f,
                )
            })
            .collect(),
        syn::Fields::Unnamed(unnamed) => unnamed
            .unnamed
            .iter_mut()
            .enumerate()
            .map(|(i, f)| (syn::Member::Unnamed(i.into()), f))
            .collect(),
        syn::Fields::Unit => return Ok(None),
    };
    let mut fields = Vec::new();
    let mut errors: Option<syn::Error> = None;
    for (member, field) in all {
        match field_of(class, member, field) {
            Ok(Some(f)) => fields.push(f),
            Ok(None) => {}
            Err(e) => combine(&mut errors, e),
        }
    }
    if let Some(errors) = errors {
        return Err(errors);
    }
    if fields.is_empty() {
        return Ok(None);
    }
    let accessors = fields.iter().flat_map(|f| f.accessors());
    let block: syn::ItemImpl = syn::parse_quote! {
        #[automatically_derived]
        impl #self_ty {
            #(#accessors)*
        }
    };
    let mut refs = TypeRefs::default();
    let class_id = refs.placeholder(&self_ty);
    let mut functions = Vec::new();
    let mut members = Vec::new();
    for (field, (getter, setter)) in fields.iter().zip(accessor_pairs(&block)) {
        let member = |f| MemberFn {
            class,
            self_ty: &self_ty,
            f,
            field: Some(&field.rust_name),
        };
        let (getter, setter) = (member(getter), member(setter));
        let exported = (|| -> syn::Result<()> {
            match &field.args {
                Configured::One(None) => {}
                Configured::One(Some(args)) => {
                    let mut export = |role, m: &MemberFn| -> syn::Result<()> {
                        let args = MemberArgs::accessor(
                            role,
                            args.js_name.clone(),
                            args.as_written.clone(),
                        );
                        if field.cfgs.is_empty() {
                            let (function, thunk) = m.function(&args, &mut refs)?;
                            functions.push(function);
                            members.push(Member::InBlock(thunk));
                        } else {
                            members.push(Member::Own(m.own(&args)?));
                        }
                        Ok(())
                    };
                    export(MemberRole::Getter, &getter)?;
                    if !args.readonly {
                        export(MemberRole::Setter, &setter)?;
                    }
                }
                Configured::PerCfg(per) => {
                    for (role, m) in [(MemberRole::Getter, &getter), (MemberRole::Setter, &setter)]
                    {
                        let configured = per
                            .iter()
                            .map(|(cfg, args)| {
                                let export = args.as_ref().map_err(Clone::clone).and_then(|a| {
                                    let Some(a) = a else { return Ok(None) };
                                    if role == MemberRole::Setter && a.readonly {
                                        return Ok(None);
                                    }
                                    m.own(&MemberArgs::accessor(
                                        role,
                                        a.js_name.clone(),
                                        a.as_written.clone(),
                                    ))
                                    .map(Some)
                                    .map_err(|e| field.explained(e))
                                });
                                (cfg.clone(), export)
                            })
                            .collect();
                        members.push(Member::Configured(Configured::PerCfg(configured)));
                    }
                }
            }
            Ok(())
        })();
        if let Err(e) = exported {
            combine(&mut errors, field.explained(e));
        }
    }
    if let Some(errors) = errors {
        return Err(errors);
    }
    let record = record::section(
        bridge_schema::Item::Impl(bridge_schema::Impl {
            class: class_id,
            members: functions,
        }),
        refs,
    );
    Ok(Some(ImplBlock {
        item: block,
        members,
        record,
    }))
}

/// What a field's `#[bridge(..)]`s say, per configuration: `None` when it is skipped.
type FieldArgs = Option<Exported>;

struct Exported {
    js_name: String,
    /// The Rust name, where a crate keeping Rust names has it instead (no `js_name`).
    as_written: Option<String>,
    readonly: bool,
}

/// A `pub` field JS sees (in at least one configuration).
struct Field {
    /// Its name, or its index in a tuple struct.
    ident: syn::Member,
    rust_name: String,
    class: String,
    ty: syn::Type,
    /// Its `#[cfg]`s and docs, put on its accessors.
    cfgs: Vec<syn::Attribute>,
    docs: Vec<syn::Attribute>,
    args: Configured<FieldArgs>,
}

fn field_of(class: &str, ident: syn::Member, field: &mut syn::Field) -> syn::Result<Option<Field>> {
    let rust_name = match &ident {
        syn::Member::Named(name) => name.unraw().to_string(),
        syn::Member::Unnamed(index) => index.index.to_string(),
    };
    let tuple = matches!(ident, syn::Member::Unnamed(_));
    let taken = attrs::take_bridge_attrs(&mut field.attrs)?;
    if !matches!(field.vis, syn::Visibility::Public(_)) {
        if let Some(first) = taken.first() {
            return Err(syn::Error::new_spanned(
                &first.attr,
                format!(
                    "field `{class}::{rust_name}` has #[bridge(...)] but is not `pub`: only \
                     `pub` fields are JS properties; make it `pub`, or remove the attribute"
                ),
            ));
        }
        return Ok(None);
    }
    let configurations = attrs::configurations(&taken)?;
    let args = attrs::per_configuration(&configurations, |c| {
        let args = attrs::parse_class_field_args(&c.attrs, class, &rust_name)?;
        if args.skip {
            if args.readonly || args.js_name.is_some() {
                return Err(syn::Error::new_spanned(
                    &ident,
                    format!(
                        "field `{class}::{rust_name}` has #[bridge(skip)], which keeps it \
                         Rust-only, and also says how JS sees it (readonly or js_name): remove \
                         `skip` to make it a JS property, or the other arguments"
                    ),
                ));
            }
            return Ok(None);
        }
        let as_written = match &args.js_name {
            Some(_) => None,
            None => (attrs::camel_case(&rust_name) != rust_name).then(|| rust_name.clone()),
        };
        let js_name = args
            .js_name
            .unwrap_or_else(|| attrs::camel_case(&rust_name));
        // A tuple field's index is a property name JS writes as `obj[0]`.
        if !(tuple && js_name == rust_name) {
            names::check_member_name(
                ident.span(),
                class,
                &rust_name,
                FunctionKind::Getter,
                false,
                &js_name,
            )?;
        }
        Ok(Some(Exported {
            js_name,
            as_written,
            readonly: args.readonly,
        }))
    })?;
    if let Configured::One(None) = args {
        return Ok(None);
    }
    let of = |name: &str| {
        field
            .attrs
            .iter()
            .filter(|a| a.path().is_ident(name))
            .cloned()
            .collect::<Vec<_>>()
    };
    Ok(Some(Field {
        ident,
        rust_name,
        class: class.to_string(),
        ty: field.ty.clone(),
        cfgs: of("cfg"),
        docs: of("doc"),
        args,
    }))
}

impl Field {
    /// The getter and the setter, hidden members of the class (the setter's thunk is
    /// only made when the field is not `readonly`).
    fn accessors(&self) -> [syn::ImplItemFn; 2] {
        let (field, ty, cfgs, docs) = (&self.ident, &self.ty, &self.cfgs, &self.docs);
        let get = format_ident!("__bridge_get_{}", self.rust_name);
        let set = format_ident!("__bridge_set_{}", self.rust_name);
        // A type that is not `Clone` is reported at the field's type.
        let read = quote_spanned!(ty.span()=> ::bridge_runtime::abi::read_field(&self.#field));
        [
            syn::parse_quote! {
                #(#docs)*
                #(#cfgs)*
                #[doc(hidden)]
                #[inline(always)]
                #[allow(dead_code)]
                pub fn #get(&self) -> #ty {
                    #read
                }
            },
            syn::parse_quote! {
                #(#cfgs)*
                #[doc(hidden)]
                #[inline(always)]
                #[allow(dead_code)]
                pub fn #set(&mut self, value: #ty) {
                    self.#field = value;
                }
            },
        ]
    }

    /// `e` (a type of the field that cannot cross, ...) with what the field has to do
    /// with it: `pub` makes it a property, `skip` keeps it Rust-only.
    fn explained(&self, e: syn::Error) -> syn::Error {
        let mut out: Option<syn::Error> = None;
        for part in e {
            let explained = syn::Error::new(
                part.span(),
                format!(
                    "`pub` field `{}::{}` is a JS property unless it has #[bridge(skip)] (or is \
                     not `pub`): {part}",
                    self.class, self.rust_name
                ),
            );
            combine(&mut out, explained);
        }
        out.expect("an error has a message")
    }
}

/// The accessor pairs of `block`, in field order.
fn accessor_pairs(block: &syn::ItemImpl) -> Vec<(&syn::ImplItemFn, &syn::ImplItemFn)> {
    let fns: Vec<&syn::ImplItemFn> = block
        .items
        .iter()
        .filter_map(|i| match i {
            syn::ImplItem::Fn(f) => Some(f),
            _ => None,
        })
        .collect();
    fns.chunks(2).map(|p| (p[0], p[1])).collect()
}

fn combine(all: &mut Option<syn::Error>, e: syn::Error) {
    match all {
        Some(all) => all.combine(e),
        None => *all = Some(e),
    }
}
