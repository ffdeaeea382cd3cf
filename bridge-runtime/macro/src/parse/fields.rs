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
use crate::model::conditional::{Cfg, Configured};
use crate::model::functions::{ImplBlock, Member, OwnExport};
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
    let Some(all) = members_of(&mut item.fields) else {
        return Ok(None);
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
    let mut parts = BlockParts::default();
    let class_id = parts.refs.placeholder(&self_ty);
    for (field, (getter, setter)) in fields.iter().zip(accessor_pairs(&block)) {
        let member = |f| MemberFn {
            class,
            self_ty: &self_ty,
            f,
            field: Some(&field.rust_name),
        };
        if let Err(e) = field.exports(&member(getter), &member(setter), &mut parts) {
            combine(&mut errors, field.explained(e));
        }
    }
    if let Some(errors) = errors {
        return Err(errors);
    }
    let record = record::section(
        bridge_schema::Item::Impl(bridge_schema::Impl {
            class: class_id,
            members: parts.functions,
        }),
        parts.refs,
    );
    Ok(Some(ImplBlock {
        item: block,
        members: parts.members,
        record,
    }))
}

/// A struct's fields, each with how it is reached (its name, or its index in a tuple
/// struct: `obj[0]`, `obj[1]`, … in JS, as in wasm-bindgen); `None` for a unit struct.
fn members_of(fields: &mut syn::Fields) -> Option<Vec<(syn::Member, &mut syn::Field)>> {
    Some(match fields {
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
        syn::Fields::Unit => return None,
    })
}

/// What the accessors' impl block gathers: the record's type references and functions
/// (of the accessors under no `#[cfg]`), and every exported accessor.
#[derive(Default)]
struct BlockParts {
    refs: TypeRefs,
    functions: Vec<bridge_schema::Function>,
    members: Vec<Member>,
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
        field_args(class, &rust_name, &ident, c)
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

/// What field `ident` (`rust_name`) of `class` is in configuration `c`: its JS name and
/// whether it is read-only, or `None` when `skip` keeps it Rust-only.
fn field_args(
    class: &str,
    rust_name: &str,
    ident: &syn::Member,
    c: &attrs::Configuration,
) -> syn::Result<FieldArgs> {
    let args = attrs::parse_class_field_args(&c.attrs, class, rust_name)?;
    if args.skip {
        if args.readonly || args.js_name.is_some() {
            return Err(syn::Error::new_spanned(
                ident,
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
        None => (attrs::camel_case(rust_name) != rust_name).then(|| rust_name.to_string()),
    };
    let js_name = args.js_name.unwrap_or_else(|| attrs::camel_case(rust_name));
    // A tuple field's index is a property name JS writes as `obj[0]`.
    let tuple = matches!(ident, syn::Member::Unnamed(_));
    if !(tuple && js_name == rust_name) {
        names::check_member_name(
            ident.span(),
            class,
            rust_name,
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
}

impl Field {
    /// The field's getter and setter (unless read-only), exported in each configuration
    /// JS sees the field in, into `parts`.
    fn exports(
        &self,
        getter: &MemberFn,
        setter: &MemberFn,
        parts: &mut BlockParts,
    ) -> syn::Result<()> {
        match &self.args {
            Configured::One(None) => {}
            Configured::One(Some(args)) => {
                self.export(MemberRole::Getter, getter, args, parts)?;
                if !args.readonly {
                    self.export(MemberRole::Setter, setter, args, parts)?;
                }
            }
            Configured::PerCfg(per) => {
                for (role, m) in [(MemberRole::Getter, getter), (MemberRole::Setter, setter)] {
                    let configured = self.per_configuration(role, m, per);
                    parts.members.push(Member::Configured(configured));
                }
            }
        }
        Ok(())
    }

    /// Accessor `m` in `role` under the field's one configuration `args`: in the block's
    /// record, or with a record of its own under the field's `#[cfg]`s.
    fn export(
        &self,
        role: MemberRole,
        m: &MemberFn,
        args: &Exported,
        parts: &mut BlockParts,
    ) -> syn::Result<()> {
        let args = MemberArgs::accessor(role, args.js_name.clone(), args.as_written.clone());
        if self.cfgs.is_empty() {
            let (function, thunk) = m.function(&args, &mut parts.refs)?;
            parts.functions.push(function);
            parts.members.push(Member::InBlock(thunk));
        } else {
            parts.members.push(Member::Own(m.own(&args)?));
        }
        Ok(())
    }

    /// Accessor `m` in `role` per configuration of `#[cfg_attr(p, bridge(..))]`s, each
    /// with a record of its own (none where the field is skipped, or read-only for a setter).
    fn per_configuration(
        &self,
        role: MemberRole,
        m: &MemberFn,
        per: &[(Cfg, syn::Result<FieldArgs>)],
    ) -> Configured<Option<OwnExport>> {
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
                    .map_err(|e| self.explained(e))
                });
                (cfg.clone(), export)
            })
            .collect();
        Configured::PerCfg(configured)
    }

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
