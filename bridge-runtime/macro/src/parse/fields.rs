//! The `pub` fields of a `#[bridge]` class (named, or a tuple struct's as `obj[0]`): a JS
//! property each, read by a getter (the field cloned: `Copy` types by value, `Handle<C>`
//! keeping identity) and written by a setter unless `#[bridge(readonly)]`. Parse makes
//! their exports as those of a `#[bridge(getter)]`/`#[bridge(setter)]` written by hand
//! (`functions::member_export`: checked, borrowed, exported alike); generate writes both
//! as hidden members of an impl block of their own (`model::class::FieldAccessors`). Their
//! records say they are a field's (`Function::field`), for the CLI's name clash message.

use super::attrs::{self, MemberArgs, MemberRole};
use super::functions::{self, MemberParts};
use super::position::Position;
use super::record::{self, doc_of};
use super::{lifts, names, types};
use crate::model::class::{Accessors, FieldAccessors};
use crate::model::conditional::{Cfg, Configured};
use crate::model::functions::{Member, OwnExport};
use crate::model::refs::TypeRefs;
use crate::model::thunk::{Receiver, ThunkSpec};
use crate::model::ty::ResultLift;
use crate::model::ty::plain;
use bridge_schema::{Function, FunctionKind, Param, Ty};
use proc_macro2::Ident;
use quote::format_ident;
use syn::ext::IdentExt;
use syn::spanned::Spanned;

/// The accessors of `item`'s `pub` fields (their bridge attributes taken off the struct),
/// or `None` when the class has no field JS sees.
pub fn fields(class: &str, item: &mut syn::ItemStruct) -> syn::Result<Option<FieldAccessors>> {
    let self_ty = syn::Type::Path(syn::TypePath {
        qself: None,
        path: item.ident.clone().into(),
    });
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
    let mut parts = BlockParts::default();
    let class_id = parts.refs.placeholder(&self_ty);
    for field in &fields {
        let accessor = |role| Accessor {
            class,
            self_ty: &self_ty,
            field,
            role,
        };
        let (getter, setter) = (accessor(MemberRole::Getter), accessor(MemberRole::Setter));
        if let Err(e) = field.exports(&getter, &setter, &mut parts) {
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
    Ok(Some(FieldAccessors {
        self_ty,
        accessors: fields.iter().map(Field::accessors).collect(),
        members: parts.members,
        record,
    }))
}

/// One accessor of a field, as the class member it is exported as.
struct Accessor<'a> {
    class: &'a str,
    self_ty: &'a syn::Type,
    field: &'a Field,
    /// Getter or setter.
    role: MemberRole,
}

impl Accessor<'_> {
    /// Its schema function (its types' placeholders from `refs`) and thunk under `args`:
    /// the getter takes `&self` and returns the field's type, the setter takes `&mut self`
    /// and the value (as a `#[bridge(getter)]`/`#[bridge(setter)]` written so would).
    fn function(
        &self,
        args: &MemberArgs,
        refs: &mut TypeRefs,
    ) -> syn::Result<(Function, ThunkSpec)> {
        let f = self.field;
        let (ident, receiver, typed, doc) = if self.role == MemberRole::Setter {
            let info = types::classify(&f.ty, Some(self.self_ty), Position::Param, refs)?;
            let mut ty = functions::param_ty(&info);
            unnamed_callback(&mut ty);
            let param = Param {
                name: "value".to_string(),
                ty,
            };
            let value = lifts::thunk_param("value".to_string(), info, &f.ty)?;
            let params = (vec![param], vec![value]);
            (
                &f.setter,
                Receiver::Mut,
                (params.0, params.1, plain(Ty::Unit), ResultLift::unit()),
                String::new(),
            )
        } else {
            let mut ret = types::classify(&f.ty, Some(self.self_ty), Position::Return, refs)?;
            match &mut ret.ty {
                Ty::Result(ok, _) => unnamed_callback(ok),
                other => unnamed_callback(other),
            }
            let lower = lifts::result(&ret, Some(&f.ty))?;
            (
                &f.getter,
                Receiver::Ref,
                (Vec::new(), Vec::new(), ret, lower),
                doc_of(&f.docs),
            )
        };
        let parts = MemberParts {
            ident,
            receiver,
            typed,
            doc,
            async_sig: None,
        };
        let (mut function, thunk) =
            functions::member_export(self.class, self.self_ty, parts, args)?;
        function.rust_name = f.rust_name.clone();
        function.field = true;
        Ok((function, thunk))
    }

    /// Its thunk with a record of its own, under the field's `#[cfg]`s.
    fn own(&self, args: &MemberArgs) -> syn::Result<OwnExport> {
        functions::own_export(self.self_ty, self.field.cfgs.clone(), |refs| {
            self.function(args, refs)
        })
    }
}

/// A JS function type in an accessor has no parameter names: the accessors' bodies call
/// no callback and return no closure literal.
fn unnamed_callback(ty: &mut Ty) {
    if let Ty::Callback(cb) = ty {
        cb.names = Vec::new();
    }
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
    /// The names of its getter and setter.
    getter: Ident,
    setter: Ident,
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
        getter: format_ident!("__bridge_get_{}", rust_name),
        setter: format_ident!("__bridge_set_{}", rust_name),
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
        getter: &Accessor,
        setter: &Accessor,
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
        m: &Accessor,
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
        m: &Accessor,
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

    /// What generate writes for the field: its getter and setter.
    fn accessors(&self) -> Accessors {
        Accessors {
            field: self.ident.clone(),
            ty: self.ty.clone(),
            getter: self.getter.clone(),
            setter: self.setter.clone(),
            cfgs: self.cfgs.clone(),
            docs: self.docs.clone(),
        }
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

fn combine(all: &mut Option<syn::Error>, e: syn::Error) {
    match all {
        Some(all) => all.combine(e),
        None => *all = Some(e),
    }
}
