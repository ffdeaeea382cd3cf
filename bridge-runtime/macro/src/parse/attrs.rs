//! Parsing of `#[bridge(...)]` arguments on classes and members.
//!
//! Validates `identity_mode`; a second name or role argument is an error naming both. Takes
//! `#[bridge(..)]` helper attributes off members, imports and fields, also out of
//! `#[cfg_attr(p, ..)]` at any depth: the macro cannot evaluate `p`, so `configurations`
//! lists every combination of an item's predicates and `per_configuration` parses the item
//! once per combination (`model::conditional`).

use crate::model::conditional::{Cfg, Configured};
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, Lit};

const VALID_MODES: &str = "\"none\", \"pointer\", \"rust\" (or the legacy booleans: true = \"pointer\", false = \"none\")";

/// Arguments of `#[bridge(...)]` on a struct.
#[derive(Default)]
pub struct ClassArgs {
    pub identity_mode: Option<String>,
    /// The class's name in JS, if not its Rust name.
    pub js_name: Option<String>,
    name_arg: Option<NameArg>,
    /// `inspectable`: `toJSON()`, `toString()` and Node's inspect show its properties.
    pub inspectable: bool,
}

pub fn parse_class_args(attr: proc_macro2::TokenStream, class: &str) -> syn::Result<ClassArgs> {
    let mut args = ClassArgs::default();
    let parser = syn::meta::parser(|meta| {
        if meta.path.is_ident("identity_mode") {
            let value: Expr = meta.value()?.parse()?;
            let mode = identity_mode(&value, class)?;
            if let Some(first) = &args.identity_mode {
                return Err(meta.error(format!(
                    "two identity modes for class `{class}`: `identity_mode = \"{first}\"` and \
                     `identity_mode = \"{mode}\"`: give one"
                )));
            }
            args.identity_mode = Some(mode);
            Ok(())
        } else if meta.path.is_ident("js_name") {
            let value = js_name_value(&meta)?;
            set_name(&mut args.name_arg, &meta, "js_name", value.clone())?;
            args.js_name = Some(value);
            Ok(())
        } else if meta.path.is_ident("inspectable") {
            args.inspectable = true;
            Ok(())
        } else {
            Err(meta.error(format!(
                "unknown #[bridge] argument on class `{class}`: valid arguments are `identity_mode = \"none\" | \"pointer\" | \"rust\"`, `js_name = \"Name\"` and `inspectable`"
            )))
        }
    });
    syn::parse::Parser::parse2(parser, attr)?;
    Ok(args)
}

/// Arguments of `#[bridge(record, ...)]` on a struct and `#[bridge(...)]` on an enum.
#[derive(Default)]
pub struct DataArgs {
    /// The type's name in JS (its TypeScript type; a fieldless enum's exported object),
    /// if not its Rust name.
    pub js_name: Option<String>,
    /// `numeric` (enums): a fieldless enum crosses as its discriminants (JS numbers).
    pub numeric: bool,
    /// `untagged` (enums): an untagged union (`parse::variants::untagged`).
    pub untagged: bool,
    /// `fallback` (enums): an untagged union whose last tuple variant takes any value.
    pub fallback: bool,
}

/// `record` (a struct's first argument, already recognized by the caller),
/// `js_name = "Name"` and, on an enum, `numeric`, `untagged` and `fallback`.
pub fn parse_data_args(attr: proc_macro2::TokenStream, what: &str) -> syn::Result<DataArgs> {
    let mut args = DataArgs::default();
    let is_struct = what.starts_with("record");
    let mut name_arg = None;
    let parser = syn::meta::parser(|meta| {
        if is_struct && meta.path.is_ident("record") {
            Ok(())
        } else if meta.path.is_ident("js_name") {
            let value = js_name_value(&meta)?;
            set_name(&mut name_arg, &meta, "js_name", value.clone())?;
            args.js_name = Some(value);
            Ok(())
        } else if !is_struct && meta.path.is_ident("numeric") {
            args.numeric = true;
            Ok(())
        } else if !is_struct && meta.path.is_ident("untagged") {
            args.untagged = true;
            Ok(())
        } else if !is_struct && meta.path.is_ident("fallback") {
            args.fallback = true;
            Ok(())
        } else {
            let valid = if is_struct {
                "`record` and `js_name = \"Name\"`"
            } else {
                "`js_name = \"Name\"`, `numeric`, `untagged` and `fallback`"
            };
            Err(meta.error(format!(
                "unknown #[bridge] argument on {what}: valid arguments are {valid}"
            )))
        }
    });
    syn::parse::Parser::parse2(parser, attr)?;
    Ok(args)
}

/// The JS name a record's or variant's field gets from its `#[bridge(js_name = "...")]`s
/// (`None`: none given).
pub fn parse_field_args<'a>(
    attrs: impl IntoIterator<Item = &'a syn::Attribute>,
    field: &str,
) -> syn::Result<Option<String>> {
    let mut name_arg = None;
    for attr in attrs {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("js_name") {
                let value = js_name_value(&meta)?;
                set_name(&mut name_arg, &meta, "js_name", value)
            } else {
                Err(meta.error(format!(
                    "unknown #[bridge] argument on field `{field}`: the valid argument is \
                     `js_name = \"name\"`"
                )))
            }
        })?;
    }
    Ok(name_arg.map(|n: NameArg| n.value))
}

/// The `#[bridge(...)]` arguments of a `pub` field of a class (a JS property).
#[derive(Default)]
pub struct ClassFieldArgs {
    /// `skip`: the field stays Rust-only.
    pub skip: bool,
    /// `readonly`: a getter only.
    pub readonly: bool,
    pub js_name: Option<String>,
}

/// Parse the `#[bridge(...)]` attributes of field `field` of class `class` (in order).
pub fn parse_class_field_args(
    attrs: &[syn::Attribute],
    class: &str,
    field: &str,
) -> syn::Result<ClassFieldArgs> {
    let mut args = ClassFieldArgs::default();
    let mut name_arg = None;
    for attr in attrs {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("js_name") {
                let value = js_name_value(&meta)?;
                set_name(&mut name_arg, &meta, "js_name", value)
            } else if meta.path.is_ident("skip") {
                args.skip = true;
                Ok(())
            } else if meta.path.is_ident("readonly") {
                args.readonly = true;
                Ok(())
            } else {
                Err(meta.error(format!(
                    "unknown #[bridge] argument on field `{class}::{field}`: valid arguments \
                     are `js_name = \"name\"`, `readonly` and `skip`"
                )))
            }
        })?;
    }
    args.js_name = name_arg.map(|n: NameArg| n.value);
    Ok(args)
}

/// The value of `js_name = "..."` (or `getter = "..."`), checked to be a JS identifier.
fn js_name_value(meta: &syn::meta::ParseNestedMeta) -> syn::Result<String> {
    let name: syn::LitStr = meta.value()?.parse()?;
    super::names::check_js_name(&name)?;
    Ok(name.value())
}

fn identity_mode(value: &Expr, class: &str) -> syn::Result<String> {
    let bad = |shown: String| {
        syn::Error::new(
            value.span(),
            format!(
                "invalid `identity_mode` {shown} on class `{class}`: valid values are {VALID_MODES}"
            ),
        )
    };
    // A `$mode:literal` from a macro_rules! macro arrives wrapped in an invisible group.
    let mut value = value;
    while let Expr::Group(g) = value {
        value = &g.expr;
    }
    match value {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => {
            let mode = s.value();
            if bridge_schema::IDENTITY_MODES.contains(&mode.as_str()) {
                Ok(mode)
            } else {
                Err(bad(format!("value \"{mode}\"")))
            }
        }
        Expr::Lit(ExprLit {
            lit: Lit::Bool(b), ..
        }) => Ok(if b.value { "pointer" } else { "none" }.to_string()),
        other => Err(bad(format!(
            "value `{}`",
            quote::ToTokens::to_token_stream(other)
        ))),
    }
}

/// What a member of a `#[bridge] impl` is.
#[derive(Default, Clone, Copy, PartialEq, Eq)]
pub enum MemberRole {
    #[default]
    Plain,
    Constructor,
    Getter,
    Setter,
}

#[derive(Default)]
pub struct MemberArgs {
    pub role: MemberRole,
    /// Explicit JS name (property name for getters and setters).
    pub js_name: Option<String>,
    /// `#[bridge(skip)]`: keep the method Rust-only.
    pub skip: bool,
    /// `js_name = "b"` as given, for the message of a second one.
    name_arg: Option<NameArg>,
    /// `getter = "a"` / `setter = "a"` as given: the property's name, over `js_name` (as in
    /// wasm-bindgen, where `js_name` then names nothing JS sees).
    role_name_arg: Option<NameArg>,
    /// The role's argument as written (`getter`), for the message of a second role.
    role_written: Option<String>,
    /// A class field's accessor: its name as written in Rust, where a crate keeping Rust
    /// names has it instead of `js_name` (see `bridge_schema::Function::as_written`).
    pub as_written: Option<String>,
    /// `#[bridge(this)]` (wasm-bindgen's): a free function's first parameter is JS `this`.
    pub this: Option<proc_macro2::Span>,
}

impl MemberArgs {
    /// The arguments of a getter or setter the macro writes itself (a class field's).
    pub fn accessor(role: MemberRole, js_name: String, as_written: Option<String>) -> MemberArgs {
        MemberArgs {
            role,
            js_name: Some(js_name),
            as_written,
            ..MemberArgs::default()
        }
    }
}

/// Parse the `#[bridge(...)]` attributes of a member (in order).
pub fn parse_member_args(attrs: &[syn::Attribute]) -> syn::Result<MemberArgs> {
    let mut args = MemberArgs::default();
    for attr in attrs {
        parse_member_attr(attr, &mut args)?;
    }
    Ok(args)
}

/// A JS name argument of a member, and how it was written (for messages).
struct NameArg {
    value: String,
    written: String,
}

fn parse_member_attr(attr: &syn::Attribute, args: &mut MemberArgs) -> syn::Result<()> {
    attr.parse_nested_meta(|meta| {
        let key = meta
            .path
            .get_ident()
            .map(|i| i.to_string())
            .unwrap_or_default();
        let role = match key.as_str() {
            "constructor" => Some(MemberRole::Constructor),
            "getter" => Some(MemberRole::Getter),
            "setter" => Some(MemberRole::Setter),
            _ => None,
        };
        if let Some(role) = role {
            if let Some(first) = &args.role_written
                && *first != key
            {
                return Err(meta.error(format!(
                    "a member is one of constructor, getter and setter, but this one is \
                     marked both `{first}` and `{key}`: keep one (a getter and a setter of \
                     one property are two methods)"
                )));
            }
            args.role = role;
            args.role_written = Some(key.clone());
            if meta.input.peek(syn::Token![=]) {
                let value = js_name_value(&meta)?;
                set_name(&mut args.role_name_arg, &meta, &key, value)?;
            }
            Ok(())
        } else if key == "js_name" {
            let value = js_name_value(&meta)?;
            set_name(&mut args.name_arg, &meta, &key, value)?;
            Ok(())
        } else if key == "skip" {
            args.skip = true;
            Ok(())
        } else if key == "this" {
            set_this(&mut args.this, &meta)
        } else {
            Err(meta.error(
                "unknown #[bridge] argument on a member: valid arguments are `constructor`, \
                 `getter`, `getter = \"name\"`, `setter`, `setter = \"name\"`, \
                 `js_name = \"name\"`, `skip`, and on a free function `this`",
            ))
        }
    })?;
    args.js_name = args
        .role_name_arg
        .as_ref()
        .or(args.name_arg.as_ref())
        .map(|n| n.value.clone());
    Ok(())
}

/// Record `this`; a second one is an error (it says nothing more and may be a typo).
fn set_this(
    slot: &mut Option<proc_macro2::Span>,
    meta: &syn::meta::ParseNestedMeta,
) -> syn::Result<()> {
    if slot.is_some() {
        return Err(meta.error("`this` is given twice: write it once"));
    }
    *slot = Some(meta.path.span());
    Ok(())
}

/// Record a name argument; a second one (even the same name twice) is an error naming
/// both, since which of them wins would be a guess.
fn set_name(
    slot: &mut Option<NameArg>,
    meta: &syn::meta::ParseNestedMeta,
    key: &str,
    value: String,
) -> syn::Result<()> {
    let written = format!("{key} = \"{value}\"");
    if let Some(first) = slot {
        return Err(meta.error(format!(
            "two JS names for one item: `{}` and `{written}`: give one of them",
            first.written
        )));
    }
    *slot = Some(NameArg { value, written });
    Ok(())
}

/// One `#[bridge(...)]` helper attribute, and the `cfg` predicate under which it applies
/// (`#[cfg_attr(p, bridge(...))]`, nested ones joined with `all`).
pub struct BridgeAttr {
    pub cond: Option<Cfg>,
    pub attr: syn::Attribute,
}

impl BridgeAttr {
    /// The `#[bridge(args)]` attribute's own arguments, as the unconditional helper
    /// attribute they mean (so they are read as any other `#[bridge(..)]` is): the user's
    /// tokens in the `syn` value of `#[bridge(args)]`, spanned as `parse_quote!` would.
    pub fn own(args: proc_macro2::TokenStream) -> BridgeAttr {
        let call_site = proc_macro2::Span::call_site();
        BridgeAttr {
            cond: None,
            attr: syn::Attribute {
                pound_token: Default::default(),
                style: syn::AttrStyle::Outer,
                bracket_token: Default::default(),
                meta: syn::Meta::List(syn::MetaList {
                    path: syn::Ident::new("bridge", call_site).into(),
                    delimiter: syn::MacroDelimiter::Paren(Default::default()),
                    tokens: args,
                }),
            },
        }
    }
}

/// Take every `#[bridge(...)]` off `attrs`, also those inside `#[cfg_attr(..)]` at any
/// depth (the macro cannot evaluate a predicate, so it keeps it: see [`configurations`]);
/// what else a `cfg_attr` holds stays on the item.
pub fn take_bridge_attrs(attrs: &mut Vec<syn::Attribute>) -> syn::Result<Vec<BridgeAttr>> {
    let mut taken = Vec::new();
    let mut kept = Vec::new();
    for attr in std::mem::take(attrs) {
        if attr.path().is_ident("bridge") {
            taken.push(BridgeAttr { cond: None, attr });
        } else if attr.path().is_ident("cfg_attr") {
            let mut rest = Vec::new();
            split_cfg_attr(&attr, &attr.meta, &[], &mut taken, &mut rest)?;
            kept.extend(rest);
        } else {
            kept.push(attr);
        }
    }
    *attrs = kept;
    Ok(taken)
}

/// `meta` is `cfg_attr(pred, a, b, ..)` under the predicates `outer`: its `bridge(..)`s
/// go to `taken`, the rest back into `cfg_attr`s in `rest`.
fn split_cfg_attr(
    attr: &syn::Attribute,
    meta: &syn::Meta,
    outer: &[syn::Meta],
    taken: &mut Vec<BridgeAttr>,
    rest: &mut Vec<syn::Attribute>,
) -> syn::Result<()> {
    use syn::punctuated::Punctuated;
    let syn::Meta::List(list) = meta else {
        return Err(syn::Error::new_spanned(
            meta,
            "expected `cfg_attr(predicate, attributes..)`",
        ));
    };
    let (pred, metas) = list.parse_args_with(|input: syn::parse::ParseStream| {
        let pred: syn::Meta = input.parse()?;
        input.parse::<syn::Token![,]>()?;
        let metas = Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated(input)?;
        Ok((pred, metas))
    })?;
    let mut preds = outer.to_vec();
    preds.push(pred);
    let cond = Cfg::All(
        preds
            .iter()
            .map(|p| Cfg::Pred(Box::new(p.clone())))
            .collect(),
    );
    let mut others = Vec::new();
    for m in metas {
        if m.path().is_ident("bridge") {
            taken.push(BridgeAttr {
                cond: Some(cond.clone()),
                attr: syn::Attribute {
                    pound_token: attr.pound_token,
                    style: attr.style,
                    bracket_token: attr.bracket_token,
                    meta: m,
                },
            });
        } else if m.path().is_ident("cfg_attr") {
            split_cfg_attr(attr, &m, &preds, taken, rest)?;
        } else {
            others.push(m);
        }
    }
    if !others.is_empty() {
        // The item keeps them under the same predicates (the user's tokens, re-joined).
        // The one token-writing site left here, on purpose: it rewrites the user's own
        // attribute the item is re-emitted with, not code of the expansion (as
        // `iterators::replace_self` rewrites the user's type).
        rest.push(syn::parse_quote!(#[cfg_attr(all(#(#preds),*), #(#others),*)]));
    }
    Ok(())
}

/// One configuration of an item's conditional bridge attributes: the `cfg` predicate
/// that selects it (`None`: the item has none) and the attributes that apply in it.
pub struct Configuration {
    pub cfg: Option<Cfg>,
    pub attrs: Vec<syn::Attribute>,
    /// Where each of `attrs` is in the list given to [`configurations`].
    pub indices: Vec<usize>,
}

/// The most conditional bridge attributes one item may have (each doubles the
/// configurations the macro expands).
const MAX_CONDITIONAL: usize = 4;

/// Every combination of `taken`'s conditions holding or not, each with the attributes
/// that apply in it: the expansion is made once per combination, under its `cfg`.
pub fn configurations(taken: &[BridgeAttr]) -> syn::Result<Vec<Configuration>> {
    let conditional: Vec<&BridgeAttr> = taken.iter().filter(|a| a.cond.is_some()).collect();
    if conditional.len() > MAX_CONDITIONAL {
        return Err(syn::Error::new_spanned(
            &conditional[MAX_CONDITIONAL].attr,
            format!(
                "more than {MAX_CONDITIONAL} `#[cfg_attr(.., bridge(..))]` on one item: join \
                 them into fewer (`cfg_attr(p, bridge(a, b))`)"
            ),
        ));
    }
    if conditional.is_empty() {
        return Ok(vec![Configuration {
            cfg: None,
            attrs: taken.iter().map(|a| a.attr.clone()).collect(),
            indices: (0..taken.len()).collect(),
        }]);
    }
    let mut out = Vec::new();
    for mask in 0..(1u32 << conditional.len()) {
        let mut preds = Vec::new();
        let mut attrs = Vec::new();
        let mut indices = Vec::new();
        let mut index = 0;
        for (i, a) in taken.iter().enumerate() {
            match &a.cond {
                None => {
                    attrs.push(a.attr.clone());
                    indices.push(i);
                }
                Some(cond) => {
                    if mask & (1 << index) != 0 {
                        preds.push(cond.clone());
                        attrs.push(a.attr.clone());
                        indices.push(i);
                    } else {
                        preds.push(Cfg::Not(Box::new(cond.clone())));
                    }
                    index += 1;
                }
            }
        }
        out.push(Configuration {
            cfg: Some(Cfg::All(preds)),
            attrs,
            indices,
        });
    }
    Ok(out)
}

/// An expansion made per configuration. Without conditional attributes, its error is the
/// item's; with them, each configuration's error is kept for its `cfg` (it fails only
/// where that configuration holds).
pub fn per_configuration<T>(
    configurations: &[Configuration],
    mut expand: impl FnMut(&Configuration) -> syn::Result<T>,
) -> syn::Result<Configured<T>> {
    if let [only] = configurations
        && only.cfg.is_none()
    {
        return expand(only).map(Configured::One);
    }
    Ok(Configured::PerCfg(
        configurations
            .iter()
            .map(|c| {
                let cfg = c
                    .cfg
                    .clone()
                    .expect("conditional configurations have a cfg");
                (cfg, expand(c))
            })
            .collect(),
    ))
}

/// `snake_case` to `camelCase`.
pub fn camel_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for (i, c) in name.trim_start_matches("r#").chars().enumerate() {
        if c == '_' && i > 0 {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}
