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
//!
//! `args.rs` reads the `#[bridge(..)]` arguments, `members.rs` the classes of the block and
//! which member a function is, `function.rs` one function, `classes.rs` and `statics.rs`
//! the block's `pub type`s and `static`s.

mod args;
mod classes;
mod function;
mod members;
mod statics;

use crate::model::imports::Imports;
use args::{ImportArgs, parse_args};
use classes::js_type;
use function::import_fn;
use proc_macro2::TokenStream;
use statics::js_static;
use syn::{ForeignItem, LitStr};

pub fn imports(attr: TokenStream, block: syn::ItemForeignMod) -> syn::Result<Imports> {
    let mut block_args = ImportArgs::default();
    parse_args(attr, &mut block_args, true, &mut Vec::new())?;
    if let Some(module) = &block_args.module {
        check_module_file(module)?;
    }
    let mut fns = Vec::new();
    let mut types = Vec::new();
    let mut statics = Vec::new();
    let mut block_types = Vec::new();
    // Every item is checked, and all their errors reported together.
    let mut errors: Option<syn::Error> = None;
    let mut note = |e: syn::Error| match &mut errors {
        Some(all) => all.combine(e),
        None => errors = Some(e),
    };
    for item in &block.items {
        if let ForeignItem::Type(t) = item {
            match js_type(t, &block_args) {
                Ok((def, ty)) => {
                    block_types.push(def);
                    types.push(ty);
                }
                Err(e) => note(e),
            }
        }
    }
    for item in &block.items {
        match item {
            ForeignItem::Type(_) => {}
            ForeignItem::Fn(f) => match import_fn(f, &block_args, &block_types) {
                Ok(f) => fns.push(f),
                Err(e) => note(e),
            },
            ForeignItem::Static(st) => match js_static(st, &block_args) {
                Ok(st) => statics.push(st),
                Err(e) => note(e),
            },
            _ => note(syn::Error::new_spanned(
                item,
                "a #[bridge] extern block declares JS functions (`fn name(args) -> R;`), JS \
                 classes (`pub type Name;`) and JS values (`static NAME: T;`) only",
            )),
        }
    }
    match errors {
        Some(e) => Err(e),
        None => Ok(Imports {
            fns,
            types,
            statics,
        }),
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
