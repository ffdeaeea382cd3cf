//! `#[bridge] extern "C" { ... }`: JS functions Rust calls. Each declared function becomes
//! a safe Rust function of the same name and visibility that lowers its arguments, calls a
//! raw wasm import (crate-unique name, `bridge_schema::import_symbol`) and lifts the
//! result; a record tells `cargo bridge` where the function lives in JS, so the glue
//! provides the import. Here: the arguments, the signature and their checks.
//!
//! - `#[bridge(js_namespace = "console", js_name = "log")] fn log(s: &str);`: a global,
//!   `globalThis.console.log`, looked up at each call.
//! - `#[bridge(module = "js/host.mjs")] extern "C" { fn host_add(a: u32, b: u32) -> u32; }`:
//!   an export of a JS module file of the crate (path relative to its `Cargo.toml`), which
//!   `cargo bridge` copies into the package. `js_name` may be any string (`"kebab-case"`);
//!   `js_namespace` there is a property path from the export
//!   (`js_namespace = "tools", js_name = "double"`: `tools.double` of the module).
//! - `-> Result<T, JsError>`: a JS exception becomes `Err`; otherwise it propagates to the
//!   JS caller of the outermost export.

use super::{attrs, jscall, record, types};
use crate::model::conditional::Configured;
use crate::model::imports::{ImportFn, Imports};
use crate::model::refs::TypeRefs;
use crate::model::ty::{TyInfo, plain};
use bridge_schema::{Import, ImportSource, Param, Ty};
use proc_macro2::TokenStream;
use quote::format_ident;
use syn::{FnArg, ForeignItem, LitStr, Pat, ReturnType};

#[derive(Default, Clone)]
struct ImportArgs {
    module: Option<LitStr>,
    js_namespace: Option<LitStr>,
    js_name: Option<LitStr>,
}

const VALID: &str = "valid arguments are `module = \"path/to/file.mjs\"` (on the block), \
`js_namespace = \"a.b\"` and `js_name = \"name\"`";

/// Parse one attribute's arguments into `args`. `given` lists the arguments this level
/// (the block, or one function's attributes) already set: a second one is an error
/// naming both (a function's own `js_namespace` overrides the block's).
fn parse_args(
    attr: TokenStream,
    args: &mut ImportArgs,
    on_block: bool,
    given: &mut Vec<(String, String)>,
) -> syn::Result<()> {
    let parser = syn::meta::parser(|meta| {
        let mut value = || -> syn::Result<LitStr> {
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
        };
        if meta.path.is_ident("module") {
            if !on_block {
                return Err(meta.error(format!(
                    "`module` goes on the `extern` block, not on one function; {VALID}"
                )));
            }
            args.module = Some(value()?);
        } else if meta.path.is_ident("js_namespace") {
            args.js_namespace = Some(value()?);
        } else if meta.path.is_ident("js_name") {
            args.js_name = Some(value()?);
        } else {
            return Err(meta.error(format!(
                "unknown #[bridge] argument on a JS import; {VALID}"
            )));
        }
        Ok(())
    });
    syn::parse::Parser::parse2(parser, attr)
}

pub fn imports(attr: TokenStream, block: syn::ItemForeignMod) -> syn::Result<Imports> {
    let mut block_args = ImportArgs::default();
    parse_args(attr, &mut block_args, true, &mut Vec::new())?;
    if let Some(module) = &block_args.module {
        check_module_file(module)?;
    }
    let mut fns = Vec::new();
    // Every function is checked, and all their errors reported together.
    let mut errors: Option<syn::Error> = None;
    for item in &block.items {
        let ForeignItem::Fn(f) = item else {
            return Err(syn::Error::new_spanned(
                item,
                "a #[bridge] extern block declares JS functions only (`fn name(args) -> R;`)",
            ));
        };
        match import_fn(f, &block_args) {
            Ok(f) => fns.push(f),
            Err(e) => match &mut errors {
                Some(all) => all.combine(e),
                None => errors = Some(e),
            },
        }
    }
    match errors {
        Some(e) => Err(e),
        None => Ok(Imports { fns }),
    }
}

/// The module file must exist when the crate compiles (the error names file and function
/// users see first); `cargo bridge` checks again when it copies it.
fn check_module_file(module: &LitStr) -> syn::Result<()> {
    let path = module.value();
    if path.starts_with('/') || path.contains("..") || path.contains('\\') {
        return Err(syn::Error::new(
            module.span(),
            format!(
                "JS module path \"{path}\" must be relative to the crate's Cargo.toml, inside the \
                 crate, with `/` separators (e.g. \"js/host.mjs\")"
            ),
        ));
    }
    if let Ok(dir) = std::env::var("CARGO_MANIFEST_DIR") {
        let file = std::path::Path::new(&dir).join(&path);
        if !file.is_file() {
            return Err(syn::Error::new(
                module.span(),
                format!(
                    "JS module \"{path}\" does not exist (looked for {}): create it, or fix the \
                     path (relative to the crate's Cargo.toml)",
                    file.display()
                ),
            ));
        }
    }
    Ok(())
}

/// One declared JS function: its `#[bridge(..)]`s (also under `cfg_attr`) taken off,
/// per configuration of them.
fn import_fn(f: &syn::ForeignItemFn, block_args: &ImportArgs) -> syn::Result<Configured<ImportFn>> {
    let mut attrs = f.attrs.clone();
    let taken = attrs::take_bridge_attrs(&mut attrs)?;
    let configurations = attrs::configurations(&taken)?;
    attrs::per_configuration(&configurations, |c| {
        let mut args = block_args.clone();
        args.js_name = None;
        let mut given = Vec::new();
        for a in &c.attrs {
            let syn::Meta::List(list) = &a.meta else {
                return Err(syn::Error::new_spanned(
                    a,
                    format!("expected #[bridge(...)]; {VALID}"),
                ));
            };
            parse_args(list.tokens.clone(), &mut args, false, &mut given)?;
        }
        import_fn_with(f, &attrs, &args)
    })
}

/// The safe function and record of `f` under `args` (with its other attributes
/// `attrs`).
fn import_fn_with(
    f: &syn::ForeignItemFn,
    attrs: &[syn::Attribute],
    args: &ImportArgs,
) -> syn::Result<ImportFn> {
    let sig = &f.sig;
    if !sig.generics.params.is_empty() || sig.asyncness.is_some() || sig.variadic.is_some() {
        return Err(syn::Error::new_spanned(
            sig,
            "JS imports cannot be generic, async or variadic",
        ));
    }
    let rust_name = sig.ident.to_string();
    let js_name = args
        .js_name
        .as_ref()
        .map(LitStr::value)
        .unwrap_or_else(|| rust_name.clone());
    let what = format!("the JS import `{rust_name}`");

    let mut refs = TypeRefs::default();
    let mut params = Vec::new();
    let mut infos: Vec<(TyInfo, &syn::Type)> = Vec::new();
    let mut users = Vec::new();
    for (i, arg) in sig.inputs.iter().enumerate() {
        let FnArg::Typed(t) = arg else {
            return Err(syn::Error::new_spanned(arg, "JS imports take no `self`"));
        };
        // The body works on generated names (`x` beside `x_len` must not meet a generated
        // `x_len`); each is bound to the user's parameter first.
        let user = match &*t.pat {
            Pat::Ident(p) if p.subpat.is_none() => p.ident.clone(),
            Pat::Wild(_) => format_ident!("__arg{}", i),
            other => {
                return Err(syn::Error::new_spanned(
                    other,
                    format!(
                        "a JS import's parameter is a name or `_`, not the pattern `{}`: the \
                         value goes to JS whole, so there is nothing to destructure; name the \
                         parameter",
                        quote::ToTokens::to_token_stream(other)
                    ),
                ));
            }
        };
        let js = user.to_string();
        let js = js.trim_start_matches("r#").trim_start_matches('_');
        let info = types::classify_in(&t.ty, None, &mut refs)?;
        params.push(Param {
            name: attrs::camel_case(js),
            ty: info.ty.clone(),
        });
        users.push(user);
        infos.push((info, &t.ty));
    }
    let (ret, ret_ty, catch) = match &sig.output {
        ReturnType::Default => (plain(Ty::Unit), None, false),
        ReturnType::Type(_, t) => match jscall::result_of_js_error(t) {
            Some(ok) => (types::classify_in(ok, None, &mut refs)?, Some(ok), true),
            None => (types::classify_in(t, None, &mut refs)?, Some(&**t), false),
        },
    };
    let symbol = bridge_schema::import_symbol(&record::crate_name(), &rust_name);
    let typed: Vec<(&TyInfo, &syn::Type)> = infos.iter().map(|(i, t)| (i, *t)).collect();
    let call = jscall::check(&typed, &ret, ret_ty, catch, &what)?;

    // Any names: the glue reads them as quoted keys where they are not identifiers
    // (`$module["kebab-case"]`, `globalThis["my lib"]`); only an empty one names nothing.
    let namespace = match &args.js_namespace {
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
    };
    if js_name.is_empty() {
        return Err(syn::Error::new(
            args.js_name
                .as_ref()
                .map_or_else(|| sig.ident.span(), LitStr::span),
            "js_name \"\" names no function: give the JS function's name",
        ));
    }
    let source = match &args.module {
        Some(m) => ImportSource::Module {
            path: m.value(),
            name: js_name,
            namespace,
        },
        None => ImportSource::Global {
            namespace,
            name: js_name,
        },
    };
    let record = record::section(
        bridge_schema::Item::Import(Import {
            rust_name,
            symbol: symbol.clone(),
            source,
            params,
            ret: ret.ty.clone(),
            catch,
        }),
        refs,
    );
    let mut rust_sig = sig.clone();
    for (pos, input) in rust_sig.inputs.iter_mut().enumerate() {
        // The body is generated, so `mut` and `ref` of the declaration have nothing to
        // act on (`ref` would even change the type the body lowers).
        if let FnArg::Typed(t) = input {
            match &mut *t.pat {
                Pat::Wild(_) => {
                    let ident = format_ident!("__arg{}", pos);
                    *t.pat = syn::parse_quote!(#ident);
                }
                Pat::Ident(p) => {
                    p.by_ref = None;
                    p.mutability = None;
                }
                _ => {}
            }
        }
    }
    Ok(ImportFn {
        attrs: attrs.to_vec(),
        vis: f.vis.clone(),
        sig: rust_sig,
        users,
        symbol,
        call,
        record,
    })
}
