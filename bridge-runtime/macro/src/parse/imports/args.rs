//! A JS import's `#[bridge(..)]` arguments (the block's, and each item's over them), and
//! where they say the JS value lives.

use crate::parse::attrs;
use bridge_schema::ImportSource;
use proc_macro2::{Ident, TokenStream};
use syn::LitStr;
use syn::meta::ParseNestedMeta;

#[derive(Default, Clone)]
pub(super) struct ImportArgs {
    pub(super) module: Option<LitStr>,
    pub(super) js_namespace: Option<LitStr>,
    pub(super) js_name: Option<LitStr>,
    /// Members of imported JS classes (functions only).
    pub(super) constructor: bool,
    pub(super) method: bool,
    /// `getter` / `getter = "name"`, `setter` / `setter = "name"`.
    pub(super) getter: Option<Option<LitStr>>,
    pub(super) setter: Option<Option<LitStr>>,
    pub(super) static_method_of: Option<Ident>,
    pub(super) js_class: Option<LitStr>,
    /// `structural`: on a `pub type`, no JS class is behind it (values are not checked);
    /// on a function, wasm-bindgen's spelling of what every member already is.
    pub(super) structural: bool,
    /// `typescript_type = "..."` on a `pub type`: its `.d.ts` type.
    pub(super) typescript_type: Option<LitStr>,
}

pub(super) const VALID: &str = "valid arguments are `module = \"path/to/file.mjs\"` (on the block), \
`js_namespace = \"a.b\"` and `js_name = \"name\"`; for members of a JS class of the block: \
`constructor`, `method`, `getter`, `setter = \"name\"`, `static_method_of = T`, \
`js_class = \"Name\"` and `structural`; for a JS class: `structural` and \
`typescript_type = \"..\"`";

/// Parse one attribute's arguments into `args`. `given` lists the arguments this level
/// (the block, or one function's attributes) already set: a second one is an error
/// naming both (a function's own `js_namespace` overrides the block's).
pub(super) fn parse_args(
    attr: TokenStream,
    args: &mut ImportArgs,
    on_block: bool,
    given: &mut Vec<(String, String)>,
) -> syn::Result<()> {
    let parser = syn::meta::parser(|meta| {
        if meta.path.is_ident("module") {
            if !on_block {
                return Err(meta.error(format!(
                    "`module` goes on the `extern` block, not on one function; {VALID}"
                )));
            }
            args.module = Some(value(&meta, given)?);
        } else if meta.path.is_ident("js_namespace") {
            args.js_namespace = Some(value(&meta, given)?);
        } else if meta.path.is_ident("js_name") {
            args.js_name = Some(value(&meta, given)?);
        } else if on_block || !item_arg(&meta, args, given)? {
            return Err(meta.error(format!(
                "unknown #[bridge] argument on a JS import; {VALID}"
            )));
        }
        Ok(())
    });
    syn::parse::Parser::parse2(parser, attr)
}

/// The string value of `meta`, recorded in `given` (a second one of its key is an error).
fn value(meta: &ParseNestedMeta, given: &mut Vec<(String, String)>) -> syn::Result<LitStr> {
    let lit: LitStr = meta.value()?.parse()?;
    let key = meta
        .path
        .get_ident()
        .map(|i| i.to_string())
        .unwrap_or_default();
    if let Some((_, first)) = given.iter().find(|(k, _)| *k == key) {
        return Err(meta.error(format!(
            "two `{key}`s for one JS import: `{key} = \"{first}\"` and `{key} = \"{}\"`: give one",
            lit.value()
        )));
    }
    given.push((key, lit.value()));
    Ok(lit)
}

/// The arguments of an item of the block (a member of a JS class, a `pub type`) into
/// `args`; `false` when `meta` is none of them.
fn item_arg(
    meta: &ParseNestedMeta,
    args: &mut ImportArgs,
    given: &mut Vec<(String, String)>,
) -> syn::Result<bool> {
    // `getter` / `getter = "name"`.
    let optional_name = |given: &mut Vec<(String, String)>| {
        syn::Result::Ok(if meta.input.peek(syn::Token![=]) {
            Some(value(meta, given)?)
        } else {
            None
        })
    };
    if meta.path.is_ident("constructor") {
        args.constructor = true;
    } else if meta.path.is_ident("method") {
        args.method = true;
    } else if meta.path.is_ident("getter") {
        args.getter = Some(optional_name(given)?);
    } else if meta.path.is_ident("setter") {
        args.setter = Some(optional_name(given)?);
    } else if meta.path.is_ident("static_method_of") {
        let ty: syn::Path = meta.value()?.parse()?;
        let Some(ident) = ty.get_ident() else {
            return Err(syn::Error::new_spanned(
                ty,
                "static_method_of names a JS class of this extern block (`static_method_of = Counter`)",
            ));
        };
        args.static_method_of = Some(ident.clone());
    } else if meta.path.is_ident("js_class") {
        args.js_class = Some(value(meta, given)?);
    } else if meta.path.is_ident("structural") {
        args.structural = true;
    } else if meta.path.is_ident("typescript_type") {
        args.typescript_type = Some(value(meta, given)?);
    } else {
        return Ok(false);
    }
    Ok(true)
}

/// The `#[bridge(..)]` attributes of a block's type or static (taken out of `attrs`): the
/// block's arguments with the item's own `js_name`/`js_namespace` over them. `what` names the
/// item in the `cfg_attr` refusal; `only` is the refusal of the member options.
pub(super) fn item_args(
    attrs: &mut Vec<syn::Attribute>,
    block_args: &ImportArgs,
    what: &str,
    only: &str,
) -> syn::Result<ImportArgs> {
    let taken = attrs::take_bridge_attrs(attrs)?;
    let mut args = block_args.clone();
    args.js_name = None;
    let mut given = Vec::new();
    for a in &taken {
        if a.cond.is_some() {
            return Err(syn::Error::new_spanned(
                &a.attr,
                format!(
                    "`#[cfg_attr(.., bridge(..))]` is not supported on {what}: put the `cfg` \
                     on the whole extern block"
                ),
            ));
        }
        let syn::Meta::List(list) = &a.attr.meta else {
            return Err(syn::Error::new_spanned(
                &a.attr,
                format!("expected #[bridge(...)]; {VALID}"),
            ));
        };
        parse_args(list.tokens.clone(), &mut args, false, &mut given)?;
        if args.constructor
            || args.method
            || args.getter.is_some()
            || args.setter.is_some()
            || args.static_method_of.is_some()
            || args.js_class.is_some()
        {
            return Err(syn::Error::new_spanned(&a.attr, only.to_string()));
        }
    }
    Ok(args)
}

/// Where a class named `js_name` under `namespace` lives: a global, or the block's module.
pub(super) fn class_source(args: &ImportArgs, js_name: &str, namespace: &[String]) -> ImportSource {
    match &args.module {
        Some(m) => ImportSource::Module {
            path: m.value(),
            name: js_name.to_string(),
            namespace: namespace.to_vec(),
        },
        None => ImportSource::Global {
            namespace: namespace.to_vec(),
            name: js_name.to_string(),
        },
    }
}

/// The `js_namespace` of `args`, split (an empty part is an error).
pub(super) fn namespace_of(args: &ImportArgs) -> syn::Result<Vec<String>> {
    // Any names: the glue reads them as quoted keys where they are not identifiers
    // (`$module["kebab-case"]`, `globalThis["my lib"]`); only an empty one names nothing.
    Ok(match &args.js_namespace {
        Some(lit) => {
            let value = lit.value();
            let parts: Vec<String> = value.split('.').map(str::to_string).collect();
            if parts.iter().any(String::is_empty) {
                return Err(syn::Error::new(
                    lit.span(),
                    format!(
                        "js_namespace \"{value}\" has an empty part: it is a dot-separated path \
                         of property names (\"console\", \"window.app\"); for a property whose \
                         name holds a `.`, bind its object with another import"
                    ),
                ));
            }
            parts
        }
        None => Vec::new(),
    })
}
