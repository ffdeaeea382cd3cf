//! Parsing of `#[bridge(...)]` arguments on classes and members.

use syn::spanned::Spanned;
use syn::{Expr, ExprLit, Lit};

const VALID_MODES: &str = "\"none\", \"pointer\", \"rust\" (or the legacy booleans: true = \"pointer\", false = \"none\")";

/// Arguments of `#[bridge(...)]` on a struct.
#[derive(Default)]
pub struct ClassArgs {
    pub identity_mode: Option<String>,
    /// The class's name in JS, if not its Rust name.
    pub js_name: Option<String>,
}

pub fn parse_class_args(attr: proc_macro2::TokenStream, class: &str) -> syn::Result<ClassArgs> {
    let mut args = ClassArgs::default();
    let parser = syn::meta::parser(|meta| {
        if meta.path.is_ident("identity_mode") {
            let value: Expr = meta.value()?.parse()?;
            args.identity_mode = Some(identity_mode(&value, class)?);
            Ok(())
        } else if meta.path.is_ident("js_name") {
            args.js_name = Some(js_name_value(&meta)?);
            Ok(())
        } else {
            Err(meta.error(format!(
                "unknown #[bridge] argument on class `{class}`: valid arguments are `identity_mode = \"none\" | \"pointer\" | \"rust\"` and `js_name = \"Name\"`"
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
}

/// `record` (a struct's first argument, already recognized by the caller) and
/// `js_name = "Name"`.
pub fn parse_data_args(attr: proc_macro2::TokenStream, what: &str) -> syn::Result<DataArgs> {
    let mut args = DataArgs::default();
    let is_struct = what.starts_with("record");
    let parser = syn::meta::parser(|meta| {
        if is_struct && meta.path.is_ident("record") {
            Ok(())
        } else if meta.path.is_ident("js_name") {
            args.js_name = Some(js_name_value(&meta)?);
            Ok(())
        } else {
            let valid = if is_struct {
                "`record` and `js_name = \"Name\"`"
            } else {
                "`js_name = \"Name\"`"
            };
            Err(meta.error(format!(
                "unknown #[bridge] argument on {what}: valid arguments are {valid}"
            )))
        }
    });
    syn::parse::Parser::parse2(parser, attr)?;
    Ok(args)
}

/// The value of `js_name = "..."` (or `getter = "..."`), checked to be a JS identifier.
fn js_name_value(meta: &syn::meta::ParseNestedMeta) -> syn::Result<String> {
    let name: syn::LitStr = meta.value()?.parse()?;
    crate::names::check_js_name(&name)?;
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
}

/// Take `#[bridge(...)]` helper attributes off a member and parse them.
pub fn take_member_args(attrs: &mut Vec<syn::Attribute>) -> syn::Result<MemberArgs> {
    let mut args = MemberArgs::default();
    let mut result = Ok(());
    attrs.retain(|attr| {
        if !attr.path().is_ident("bridge") {
            return true;
        }
        if let Err(e) = parse_member_attr(attr, &mut args) {
            result = Err(e);
        }
        false
    });
    result.map(|()| args)
}

fn parse_member_attr(attr: &syn::Attribute, args: &mut MemberArgs) -> syn::Result<()> {
    attr.parse_nested_meta(|meta| {
        let role = if meta.path.is_ident("constructor") {
            Some(MemberRole::Constructor)
        } else if meta.path.is_ident("getter") {
            Some(MemberRole::Getter)
        } else if meta.path.is_ident("setter") {
            Some(MemberRole::Setter)
        } else {
            None
        };
        if let Some(role) = role {
            args.role = role;
            if meta.input.peek(syn::Token![=]) {
                args.js_name = Some(js_name_value(&meta)?);
            }
            Ok(())
        } else if meta.path.is_ident("js_name") {
            args.js_name = Some(js_name_value(&meta)?);
            Ok(())
        } else if meta.path.is_ident("skip") {
            args.skip = true;
            Ok(())
        } else {
            Err(meta.error(
                "unknown #[bridge] argument on a member: valid arguments are `constructor`, \
                 `getter`, `getter = \"name\"`, `setter`, `setter = \"name\"`, \
                 `js_name = \"name\"`, `skip`",
            ))
        }
    })
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
