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
use crate::model::imports::{ImportFn, Imports, JsStaticItem, JsType, Settle};
use crate::model::refs::TypeRefs;
use crate::model::ty::{TyInfo, plain};
use bridge_schema::{Import, ImportSource, JsMember, JsTypeDef, MemberForm, Param, Ty};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};
use syn::{FnArg, ForeignItem, LitStr, Pat, ReturnType};

#[derive(Default, Clone)]
struct ImportArgs {
    module: Option<LitStr>,
    js_namespace: Option<LitStr>,
    js_name: Option<LitStr>,
    /// Members of imported JS classes (functions only).
    constructor: bool,
    method: bool,
    /// `getter` / `getter = "name"`, `setter` / `setter = "name"`.
    getter: Option<Option<LitStr>>,
    setter: Option<Option<LitStr>>,
    static_method_of: Option<Ident>,
    js_class: Option<LitStr>,
    /// `structural`: on a `pub type`, no JS class is behind it (values are not checked);
    /// on a function, wasm-bindgen's spelling of what every member already is.
    structural: bool,
    /// `typescript_type = "..."` on a `pub type`: its `.d.ts` type.
    typescript_type: Option<LitStr>,
}

const VALID: &str = "valid arguments are `module = \"path/to/file.mjs\"` (on the block), \
`js_namespace = \"a.b\"` and `js_name = \"name\"`; for members of a JS class of the block: \
`constructor`, `method`, `getter`, `setter = \"name\"`, `static_method_of = T`, \
`js_class = \"Name\"` and `structural`; for a JS class: `structural` and \
`typescript_type = \"..\"`";

/// A JS class the block declares (`pub type T;`).
struct BlockType {
    ident: Ident,
    /// The class's name in JS (`js_name`, else the Rust name).
    js_name: String,
    namespace: Vec<String>,
    /// `#[bridge(structural)]`: no JS class behind it (no constructor, no statics).
    structural: bool,
}

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
        } else if !on_block && meta.path.is_ident("constructor") {
            args.constructor = true;
        } else if !on_block && meta.path.is_ident("method") {
            args.method = true;
        } else if !on_block && meta.path.is_ident("getter") {
            args.getter = Some(if meta.input.peek(syn::Token![=]) {
                Some(value()?)
            } else {
                None
            });
        } else if !on_block && meta.path.is_ident("setter") {
            args.setter = Some(if meta.input.peek(syn::Token![=]) {
                Some(value()?)
            } else {
                None
            });
        } else if !on_block && meta.path.is_ident("static_method_of") {
            let ty: syn::Path = meta.value()?.parse()?;
            let Some(ident) = ty.get_ident() else {
                return Err(syn::Error::new_spanned(
                    ty,
                    "static_method_of names a JS class of this extern block (`static_method_of = Counter`)",
                ));
            };
            args.static_method_of = Some(ident.clone());
        } else if !on_block && meta.path.is_ident("js_class") {
            args.js_class = Some(value()?);
        } else if !on_block && meta.path.is_ident("structural") {
            args.structural = true;
        } else if !on_block && meta.path.is_ident("typescript_type") {
            args.typescript_type = Some(value()?);
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
            ForeignItem::Static(st) => match js_static(st, &block_args, &block_types) {
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

/// The `#[bridge(..)]` attributes of a block's type or static (taken out of `attrs`): the
/// block's arguments with the item's own `js_name`/`js_namespace` over them. `what` names the
/// item in the `cfg_attr` refusal; `only` is the refusal of the member options.
fn item_args(
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

/// `static NAME: T;` (with `js_name`, `js_namespace`): a value read once, on first use.
fn js_static(
    st: &syn::ForeignItemStatic,
    block_args: &ImportArgs,
    types: &[BlockType],
) -> syn::Result<JsStaticItem> {
    if let syn::StaticMutability::Mut(m) = &st.mutability {
        return Err(syn::Error::new_spanned(
            m,
            "a JS static is read once and never written: declare it `static`, not `static mut`",
        ));
    }
    let mut attrs = st.attrs.clone();
    let args = item_args(
        &mut attrs,
        block_args,
        "a JS static",
        "a JS static takes `js_name = \"name\"` and `js_namespace = \"a.b\"` only",
    )?;
    if args.structural || args.typescript_type.is_some() {
        return Err(syn::Error::new_spanned(
            &st.ident,
            "a JS static takes `js_name = \"name\"` and `js_namespace = \"a.b\"` only \
             (`structural` and `typescript_type` go on a `pub type`)",
        ));
    }
    let ident = st.ident.clone();
    let rust_name = ident.to_string();
    let js_name = args
        .js_name
        .as_ref()
        .map(LitStr::value)
        .unwrap_or_else(|| rust_name.clone());
    if js_name.is_empty() {
        return Err(syn::Error::new_spanned(
            &st.ident,
            "js_name \"\" names no value: give the JS property's name",
        ));
    }
    let namespace = namespace_of(&args)?;
    let ty = &st.ty;
    let read: syn::ForeignItemFn = syn::parse_quote! { fn __bridge_read() -> #ty; };
    let member = Member {
        of: ident.clone(),
        form: MemberForm::Value,
        key: js_name.clone(),
        source: class_source(&args, &js_name, &namespace),
    };
    let mut read = build(&read, &[], &args, types, Some(member), rust_name)
        .map_err(|e| syn::Error::new_spanned(ty, e.to_string()))?;
    read.member_of = None;
    Ok(JsStaticItem {
        attrs,
        vis: st.vis.clone(),
        ident,
        ty: (*st.ty).clone(),
        read,
    })
}

/// `pub type T;` (with `#[bridge(js_name = "Class")]`, `js_namespace`): the class, and
/// what the block's functions need to know of it.
fn js_type(t: &syn::ForeignItemType, block_args: &ImportArgs) -> syn::Result<(BlockType, JsType)> {
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
    let js_name = args
        .js_name
        .as_ref()
        .map(LitStr::value)
        .unwrap_or_else(|| rust_name.clone());
    if js_name.is_empty() {
        return Err(syn::Error::new_spanned(
            t,
            "js_name \"\" names no class: give the JS class's name",
        ));
    }
    let namespace = namespace_of(&args)?;
    let type_id = bridge_schema::type_id(&record::crate_name(), &rust_name);
    let source = class_source(&args, &js_name, &namespace);
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
    // `value instanceof T`, the check behind `TryFrom<JsValue>`: a structural type has
    // no class to check against.
    let instance_of = if args.structural {
        None
    } else {
        let check: syn::ForeignItemFn = syn::parse_quote! {
            fn __bridge_instance_of(value: &::bridge_runtime::JsValue) -> bool;
        };
        let member = Member {
            of: ident.clone(),
            form: MemberForm::InstanceOf,
            key: String::new(),
            source,
        };
        Some(build(
            &check,
            &[],
            &args,
            &[],
            Some(member),
            format!("{rust_name}::instanceof"),
        )?)
    };
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

/// Where a class named `js_name` under `namespace` lives: a global, or the block's module.
fn class_source(args: &ImportArgs, js_name: &str, namespace: &[String]) -> ImportSource {
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
fn namespace_of(args: &ImportArgs) -> syn::Result<Vec<String>> {
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

/// A function that is a member of a JS class of the block.
struct Member {
    of: Ident,
    form: MemberForm,
    key: String,
    /// The class.
    source: ImportSource,
}

/// The block type `ty` names (`T`, or with `by_ref`, `&T`).
fn block_type<'a>(ty: &syn::Type, types: &'a [BlockType], by_ref: bool) -> Option<&'a BlockType> {
    let ty = match (ty, by_ref) {
        (syn::Type::Reference(r), true) if r.mutability.is_none() => &*r.elem,
        (_, true) => return None,
        (t, false) => t,
    };
    let syn::Type::Path(p) = ty else { return None };
    let ident = p.path.get_ident()?;
    types.iter().find(|t| t.ident == *ident)
}

/// `Option<&T>` with `T` a `pub type` of the block.
fn optional_block_ref(ty: &syn::Type, types: &[BlockType]) -> bool {
    let syn::Type::Path(p) = ty else { return false };
    let Some(seg) = p.path.segments.last() else {
        return false;
    };
    if seg.ident != "Option" || p.qself.is_some() {
        return false;
    }
    let syn::PathArguments::AngleBracketed(args) = &seg.arguments else {
        return false;
    };
    match args.args.first() {
        Some(syn::GenericArgument::Type(inner)) if args.args.len() == 1 => {
            block_type(inner, types, true).is_some()
        }
        _ => false,
    }
}

/// What member of which class `f` is, from its arguments (`None`: a plain function).
fn member_of(
    f: &syn::ForeignItemFn,
    args: &ImportArgs,
    types: &[BlockType],
) -> syn::Result<Option<Member>> {
    let sig = &f.sig;
    let roles = [
        args.constructor,
        args.method,
        args.static_method_of.is_some(),
    ]
    .iter()
    .filter(|r| **r)
    .count();
    if roles > 1 {
        return Err(syn::Error::new_spanned(
            &sig.ident,
            "a JS class member is one of `constructor`, `method` and `static_method_of = T`: give one",
        ));
    }
    if roles == 0 {
        if args.getter.is_some() || args.setter.is_some() || args.js_class.is_some() {
            return Err(syn::Error::new_spanned(
                &sig.ident,
                "`getter`, `setter` and `js_class` go with `method` (`#[bridge(method, getter)]`)",
            ));
        }
        return Ok(None);
    }
    if args.getter.is_some() && args.setter.is_some() {
        return Err(syn::Error::new_spanned(
            &sig.ident,
            "a function is a getter or a setter, not both: declare two functions",
        ));
    }
    if !args.method && (args.getter.is_some() || args.setter.is_some()) {
        return Err(syn::Error::new_spanned(
            &sig.ident,
            "`getter` and `setter` go with `method` (`#[bridge(method, getter)]`): static \
             properties are read with a `static` of the block or a static method",
        ));
    }
    let rust = sig.ident.to_string();
    let rust = rust.trim_start_matches("r#");
    let class = if args.constructor {
        let ok = match &sig.output {
            ReturnType::Type(_, t) => Some(jscall::result_of_js_error(t).unwrap_or(t)),
            ReturnType::Default => None,
        };
        ok.and_then(|t| block_type(t, types, false)).ok_or_else(|| {
            syn::Error::new_spanned(
                &sig.ident,
                "a `constructor` returns the JS class it constructs, a `pub type` of this extern \
                 block (`fn new(..) -> Counter;`, or `-> Result<Counter, JsError>`)",
            )
        })?
    } else if args.method {
        let first = sig.inputs.first().and_then(|a| match a {
            FnArg::Typed(t) => block_type(&t.ty, types, true),
            FnArg::Receiver(_) => None,
        });
        first.ok_or_else(|| {
            syn::Error::new_spanned(
                &sig.ident,
                "a `method` takes the object first, as `this: &T` with `T` a `pub type` of this \
                 extern block (`fn add(this: &Counter, n: u32) -> u32;`)",
            )
        })?
    } else {
        let of = args.static_method_of.as_ref().expect("the third role");
        types.iter().find(|t| t.ident == *of).ok_or_else(|| {
            syn::Error::new_spanned(
                of,
                format!("static_method_of = {of}: `{of}` is not a `pub type` of this extern block"),
            )
        })?
    };
    if class.structural && !args.method {
        return Err(syn::Error::new_spanned(
            &sig.ident,
            format!(
                "`{}` is `structural`: no JS class is behind it, so it has no constructor and \
                 no static methods; declare them as plain JS functions (or remove \
                 `structural` if a class is there)",
                class.ident
            ),
        ));
    }
    let name_or = |given: Option<&LitStr>, default: &str| {
        given
            .map(LitStr::value)
            .or_else(|| args.js_name.as_ref().map(LitStr::value))
            .unwrap_or_else(|| default.to_string())
    };
    let (form, key) = if args.constructor {
        (MemberForm::Constructor, String::new())
    } else if let Some(g) = &args.getter {
        (MemberForm::Getter, name_or(g.as_ref(), rust))
    } else if let Some(g) = &args.setter {
        let default = rust.strip_prefix("set_").unwrap_or(rust);
        (MemberForm::Setter, name_or(g.as_ref(), default))
    } else if args.method {
        (MemberForm::Method, name_or(None, rust))
    } else {
        (MemberForm::Static, name_or(None, rust))
    };
    if form != MemberForm::Constructor && key.is_empty() {
        return Err(syn::Error::new_spanned(
            &sig.ident,
            "an empty JS name names no member: give the property's name",
        ));
    }
    let expected = match form {
        MemberForm::Getter => Some((1, "a getter takes only `this: &T` and returns the value")),
        MemberForm::Setter => Some((
            2,
            "a setter takes `this: &T` and the new value, and returns nothing",
        )),
        _ => None,
    };
    if let Some((n, why)) = expected {
        let returns = !matches!(sig.output, ReturnType::Default);
        if sig.inputs.len() != n
            || (form == MemberForm::Setter && returns)
            || (form == MemberForm::Getter && !returns)
        {
            return Err(syn::Error::new_spanned(&sig.ident, why));
        }
    }
    let js_class = args
        .js_class
        .as_ref()
        .map(LitStr::value)
        .unwrap_or_else(|| class.js_name.clone());
    Ok(Some(Member {
        of: class.ident.clone(),
        form,
        key,
        source: class_source(args, &js_class, &class.namespace),
    }))
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
fn import_fn(
    f: &syn::ForeignItemFn,
    block_args: &ImportArgs,
    types: &[BlockType],
) -> syn::Result<Configured<ImportFn>> {
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
        import_fn_with(f, &attrs, &args, types)
    })
}

/// The safe function and record of `f` under `args` (with its other attributes
/// `attrs`).
fn import_fn_with(
    f: &syn::ForeignItemFn,
    attrs: &[syn::Attribute],
    args: &ImportArgs,
    types: &[BlockType],
) -> syn::Result<ImportFn> {
    if let Some(ts) = &args.typescript_type {
        return Err(syn::Error::new_spanned(
            ts,
            "`typescript_type` goes on a `pub type` of the block (the `.d.ts` type of a JS \
             class without a JS class behind it), not on a function",
        ));
    }
    let member = member_of(f, args, types)?;
    let rust_name = match &member {
        Some(m) => format!("{}::{}", m.of, f.sig.ident),
        None => f.sig.ident.to_string(),
    };
    build(f, attrs, args, types, member, rust_name)
}

/// `-> JsValue` or `-> Result<JsValue, JsError>`.
fn resolves_to_value(output: &ReturnType) -> bool {
    match output {
        ReturnType::Type(_, t) => {
            let ok = jscall::result_of_js_error(t).unwrap_or(t);
            matches!(ok, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "JsValue" && s.arguments.is_none()))
        }
        ReturnType::Default => false,
    }
}

/// An async import `f` declared `-> T` (or `-> Result<T, JsError>`, or nothing) for a `T`
/// other than `JsValue`: the import returning the `JsValue` its JS function returned, and
/// the `Settle` import converting what that settles with to `T`.
fn settled(
    f: &syn::ForeignItemFn,
    attrs: &[syn::Attribute],
    args: &ImportArgs,
    types: &[BlockType],
    rust_name: String,
) -> syn::Result<ImportFn> {
    let output = f.sig.output.clone();
    let catch = match &output {
        ReturnType::Type(_, t) => jscall::result_of_js_error(t).is_some(),
        ReturnType::Default => false,
    };
    let mut call = f.clone();
    call.sig.output = if catch {
        syn::parse_quote! {
            -> ::core::result::Result<::bridge_runtime::JsValue, ::bridge_runtime::JsError>
        }
    } else {
        syn::parse_quote! { -> ::bridge_runtime::JsValue }
    };
    let mut import = build(&call, attrs, args, types, None, rust_name.clone())?;
    let convert: syn::ForeignItemFn = syn::parse_quote! {
        fn __bridge_settle(value: ::bridge_runtime::JsValue) #output;
    };
    let js_name = args
        .js_name
        .as_ref()
        .map(LitStr::value)
        .unwrap_or_else(|| rust_name.clone());
    let member = Member {
        of: f.sig.ident.clone(),
        form: MemberForm::Settled,
        key: String::new(),
        source: class_source(args, &js_name, &namespace_of(args)?),
    };
    let mut convert = build(&convert, &[], args, types, Some(member), rust_name)?;
    convert.member_of = None;
    convert.symbol = bridge_schema::settled_import_symbol(&import.symbol);
    if let bridge_schema::Item::Import(record) = &mut convert.record.record.item {
        record.symbol = convert.symbol.clone();
    }
    import.settle = Some(Box::new(Settle {
        import: convert,
        output,
    }));
    Ok(import)
}

/// The safe function and record of `f` (a member of a class when `member` says so),
/// imported as `rust_name`.
fn build(
    f: &syn::ForeignItemFn,
    attrs: &[syn::Attribute],
    args: &ImportArgs,
    types: &[BlockType],
    member: Option<Member>,
    rust_name: String,
) -> syn::Result<ImportFn> {
    let sig = &f.sig;
    check_signature(sig, member.as_ref(), &rust_name)?;
    // `async fn`: the call returns its promise (or any value) as a `JsValue`, which the
    // safe function's future awaits; a declared result other than `JsValue` is what a
    // second import converts the settled value to.
    if sig.asyncness.is_some() && !resolves_to_value(&sig.output) {
        return settled(f, attrs, args, types, rust_name);
    }
    let js_name = args
        .js_name
        .as_ref()
        .map(LitStr::value)
        .unwrap_or_else(|| rust_name.clone());
    let what = format!("the JS import `{rust_name}`");

    let mut refs = TypeRefs::default();
    let js_value: syn::Type = syn::parse_quote!(&::bridge_runtime::JsValue);
    let receives = has_receiver(member.as_ref());
    let mut inputs = ImportParams::default();
    for (i, arg) in sig.inputs.iter().enumerate() {
        inputs.push(i, arg, types, i == 0 && receives, &js_value, &mut refs)?;
    }
    let ImportParams {
        params,
        infos,
        users,
        binds,
    } = inputs;
    let (ret, ret_ty, catch) = match &sig.output {
        ReturnType::Default => (plain(Ty::Unit), None, false),
        ReturnType::Type(_, t) => match jscall::result_of_js_error(t) {
            Some(ok) => (types::classify_in(ok, None, &mut refs)?, Some(ok), true),
            None => (types::classify_in(t, None, &mut refs)?, Some(&**t), false),
        },
    };
    let symbol = bridge_schema::import_symbol(&record::crate_name(), &rust_name);
    let typed: Vec<(&TyInfo, &syn::Type)> = infos.iter().map(|(i, t)| (i, *t)).collect();
    let mut call = jscall::check(&typed, &ret, ret_ty, catch, &what)?;
    call.arg_names = params.iter().map(|p| p.name.clone()).collect();

    let namespace = namespace_of(args)?;
    if js_name.is_empty() && member.is_none() {
        return Err(syn::Error::new(
            args.js_name
                .as_ref()
                .map_or_else(|| sig.ident.span(), LitStr::span),
            "js_name \"\" names no function: give the JS function's name",
        ));
    }
    let (source, js_member) = match member.as_ref() {
        Some(m) => (
            m.source.clone(),
            Some(JsMember {
                form: m.form,
                key: m.key.clone(),
            }),
        ),
        None => (class_source(args, &js_name, &namespace), None),
    };
    let record = record::section(
        bridge_schema::Item::Import(Import {
            rust_name,
            symbol: symbol.clone(),
            source,
            params,
            ret: ret.ty.clone(),
            catch,
            member: js_member,
        }),
        refs,
    );
    let mut rust_sig = safe_signature(sig, receives);
    Ok(ImportFn {
        attrs: attrs.to_vec(),
        vis: f.vis.clone(),
        asynchronous: rust_sig.asyncness.take().is_some(),
        catch,
        sig: rust_sig,
        binds,
        args: users,
        settle: None,
        symbol,
        call,
        record,
        member_of: member.map(|m| m.of),
    })
}

/// What no JS import may be: generic, variadic, or an `async` member of a class.
fn check_signature(
    sig: &syn::Signature,
    member: Option<&Member>,
    rust_name: &str,
) -> syn::Result<()> {
    if !sig.generics.params.is_empty() || sig.variadic.is_some() {
        return Err(syn::Error::new_spanned(
            sig,
            "JS imports cannot be generic or variadic",
        ));
    }
    if sig.asyncness.is_some() && member.is_some() {
        return Err(syn::Error::new_spanned(
            sig.asyncness,
            format!(
                "the async JS import `{rust_name}` is a member of a JS class: async members \
                 are not supported yet; declare it as a free `async fn` of the block taking \
                 the object as its first parameter (`this: &T`)"
            ),
        ));
    }
    Ok(())
}

/// Whether `member`'s first parameter is its `&self` (a method, getter or setter).
fn has_receiver(member: Option<&Member>) -> bool {
    matches!(
        member.map(|m| m.form),
        Some(MemberForm::Method | MemberForm::Getter | MemberForm::Setter)
    )
}

/// An import's parameters, in order: their records, how each is classified (with the
/// type it was classified as), the user's names and what the call passes for each.
#[derive(Default)]
struct ImportParams<'a> {
    params: Vec<Param>,
    infos: Vec<(TyInfo, &'a syn::Type)>,
    users: Vec<Ident>,
    binds: Vec<TokenStream>,
}

impl<'a> ImportParams<'a> {
    /// The parameter `arg`, the `index`th (`receiver`: it is the member's `&self`);
    /// `js_value` is `&JsValue`, the type a lent JS class value is classified as.
    fn push(
        &mut self,
        index: usize,
        arg: &'a FnArg,
        types: &[BlockType],
        receiver: bool,
        js_value: &'a syn::Type,
        refs: &mut TypeRefs,
    ) -> syn::Result<()> {
        let FnArg::Typed(t) = arg else {
            return Err(syn::Error::new_spanned(arg, "JS imports take no `self`"));
        };
        // The body works on generated names (`x` beside `x_len` must not meet a generated
        // `x_len`); each is bound to the user's parameter first.
        let user = match &*t.pat {
            Pat::Ident(p) if p.subpat.is_none() => p.ident.clone(),
            Pat::Wild(_) => format_ident!("__arg{}", index),
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
        // A `&T` of a JS class of the block is lent as its `&JsValue`; a method's first
        // parameter is its `&self`.
        let lent = block_type(&t.ty, types, true).is_some();
        // `Option<&T>` of the same: lent as that `&JsValue`, or `undefined` for `None`.
        let lent_option = !lent && optional_block_ref(&t.ty, types);
        self.binds.push(match (receiver, lent) {
            (true, _) => {
                quote! { ::core::convert::AsRef::<::bridge_runtime::JsValue>::as_ref(self) }
            }
            (false, true) => {
                quote! { ::core::convert::AsRef::<::bridge_runtime::JsValue>::as_ref(#user) }
            }
            (false, false) if lent_option => {
                quote! { ::bridge_runtime::JsValue::lent_or_undefined(#user) }
            }
            (false, false) => quote! { #user },
        });
        let classified = if lent || lent_option {
            js_value
        } else {
            &*t.ty
        };
        let info = types::classify_in(classified, None, refs)?;
        self.params.push(Param {
            name: attrs::camel_case(js),
            ty: info.ty.clone(),
        });
        self.users.push(user);
        self.infos.push((info, classified));
        Ok(())
    }
}

/// The safe function's signature: the declared one without the `mut` and `ref` of its
/// parameters, `_` named, and `&self` first when it has a receiver.
fn safe_signature(sig: &syn::Signature, receiver: bool) -> syn::Signature {
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
    if receiver && let Some(first) = rust_sig.inputs.first_mut() {
        *first = syn::parse_quote!(&self);
    }
    rust_sig
}
