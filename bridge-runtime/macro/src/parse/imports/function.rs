//! One declared JS function: its signature checked, its parameters and result classified,
//! and its record; an `async fn` whose result is not a `JsValue` is two imports (the call,
//! and the `Settle` converting what its promise settles with).

use super::args::{ImportArgs, VALID, class_source, namespace_of, parse_args};
use super::members::{BlockType, Member, block_type, has_receiver, member_of, optional_block_ref};
use crate::model::conditional::Configured;
use crate::model::imports::{Bind, ImportFn, ImportSig, Settle};
use crate::model::refs::TypeRefs;
use crate::model::ty::{Arg, Lower, TyInfo, plain};
use crate::parse::{attrs, jscall, lifts, record, types};
use bridge_schema::lowering::Site;
use bridge_schema::{Import, ImportSource, JsMember, MemberForm, Param, Scalar, Ty};
use proc_macro2::{Ident, Span};
use quote::format_ident;
use syn::{FnArg, LitStr, Pat, ReturnType};

/// One declared JS function: its `#[bridge(..)]`s (also under `cfg_attr`) taken off,
/// per configuration of them.
pub(super) fn import_fn(
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
pub(super) fn import_fn_with(
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
pub(super) fn resolves_to_value(output: &ReturnType) -> bool {
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
pub(super) fn settled(
    f: &syn::ForeignItemFn,
    attrs: &[syn::Attribute],
    args: &ImportArgs,
    types: &[BlockType],
    rust_name: String,
) -> syn::Result<ImportFn> {
    let output = f.sig.output.clone();
    let mut import = declared(f, attrs, args, types, None, rust_name.clone(), true)?;
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
    let mut convert = own(Own::Settle(&output), args, member, rust_name)?;
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
pub(super) fn build(
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
    declared(f, attrs, args, types, member, rust_name, false)
}

/// The import of the declared `f`; with `returns_value`, returning the `JsValue` its JS
/// function returned (an async import's first half, see [`settled`]).
fn declared(
    f: &syn::ForeignItemFn,
    attrs: &[syn::Attribute],
    args: &ImportArgs,
    types: &[BlockType],
    member: Option<Member>,
    rust_name: String,
    returns_value: bool,
) -> syn::Result<ImportFn> {
    let sig = &f.sig;
    let mut refs = TypeRefs::default();
    let receiver = has_receiver(member.as_ref());
    let inputs = ImportParams::of(sig, types, receiver, &mut refs)?;
    let ret = if returns_value {
        (plain(Ty::JsValue), None, catches(&sig.output))
    } else {
        classify_result(&sig.output, &mut refs)?
    };
    let parts = Parts {
        sig: ImportSig::Declared {
            sig: sig.clone(),
            receiver,
            returns_value,
        },
        vis: f.vis.clone(),
        attrs: attrs.to_vec(),
        asynchronous: sig.asyncness.is_some(),
        inputs,
        ret,
        name_span: sig.ident.span(),
    };
    assemble(parts, args, member, rust_name, refs)
}

/// An import the expansion declares itself.
pub(super) enum Own<'a> {
    /// A JS static's read, of its type.
    Read(&'a syn::Type),
    /// A JS class's `value instanceof T`.
    InstanceOf,
    /// An async import's conversion of what its promise settled with to its declared
    /// result.
    Settle(&'a ReturnType),
}

/// The import of `what` (see [`Own`]), a member of `member`, imported as `rust_name`.
pub(super) fn own(
    what: Own,
    args: &ImportArgs,
    member: Member,
    rust_name: String,
) -> syn::Result<ImportFn> {
    let mut refs = TypeRefs::default();
    let (sig, value, ret) = match what {
        Own::Read(ty) => (
            ImportSig::Read(ty.clone()),
            None,
            classify_declared(ty, &mut refs)?,
        ),
        Own::InstanceOf => (
            ImportSig::InstanceOf,
            Some(Ty::JsValueRef),
            (plain(Ty::Scalar(Scalar::Bool)), None, false),
        ),
        Own::Settle(output) => (
            ImportSig::Settle(output.clone()),
            Some(Ty::JsValue),
            classify_result(output, &mut refs)?,
        ),
    };
    let parts = Parts {
        sig,
        vis: syn::Visibility::Inherited,
        attrs: Vec::new(),
        asynchronous: false,
        inputs: value
            .map(ImportParams::value)
            .transpose()?
            .unwrap_or_default(),
        ret,
        name_span: Span::call_site(),
    };
    assemble(parts, args, Some(member), rust_name, refs)
}

/// An import before its call is checked and its record made.
struct Parts<'a> {
    sig: ImportSig,
    vis: syn::Visibility,
    attrs: Vec<syn::Attribute>,
    asynchronous: bool,
    inputs: ImportParams<'a>,
    /// The result: classified, as written, and whether it catches (see [`classify_result`]).
    ret: (TyInfo, Option<&'a syn::Type>, bool),
    /// What a `js_name = ""` error points at without a `js_name`: the function's name.
    name_span: Span,
}

/// The import of `parts` (a member of a class when `member` says so), imported as
/// `rust_name`, its types' placeholders in `refs`.
fn assemble(
    parts: Parts,
    args: &ImportArgs,
    member: Option<Member>,
    rust_name: String,
    refs: TypeRefs,
) -> syn::Result<ImportFn> {
    let Parts { inputs, ret, .. } = parts;
    let (ret, ret_ty, catch) = ret;
    let what = format!("the JS import `{rust_name}`");
    let symbol = bridge_schema::import_symbol(&record::crate_name(), &rust_name);
    let typed: Vec<(&TyInfo, &syn::Type)> = inputs.infos.iter().map(|(i, t)| (i, *t)).collect();
    let mut call = jscall::check(&typed, &ret, ret_ty, catch, &what)?;
    call.args.extend(inputs.own);
    call.arg_names = inputs.params.iter().map(|p| p.name.clone()).collect();
    let (source, js_member) = source_of(parts.name_span, args, member.as_ref(), &rust_name)?;
    let record = record::section(
        bridge_schema::Item::Import(Import {
            rust_name,
            symbol: symbol.clone(),
            source,
            params: inputs.params,
            ret: ret.ty.clone(),
            catch,
            member: js_member,
        }),
        refs,
    );
    Ok(ImportFn {
        attrs: parts.attrs,
        vis: parts.vis,
        asynchronous: parts.asynchronous,
        catch,
        sig: parts.sig,
        binds: inputs.binds,
        args: inputs.users,
        settle: None,
        symbol,
        call,
        record,
        member_of: member.map(|m| m.of),
    })
}

/// Whether the declared result `output` is `Result<_, JsError>`.
fn catches(output: &ReturnType) -> bool {
    match output {
        ReturnType::Type(_, t) => jscall::result_of_js_error(t).is_some(),
        ReturnType::Default => false,
    }
}

/// The declared result `output`, classified: its type, as written (`None` for `()`; the
/// `T` of `Result<T, JsError>`), and whether it catches (`Result<_, JsError>`).
fn classify_result<'a>(
    output: &'a ReturnType,
    refs: &mut TypeRefs,
) -> syn::Result<(TyInfo, Option<&'a syn::Type>, bool)> {
    match output {
        ReturnType::Default => Ok((plain(Ty::Unit), None, false)),
        ReturnType::Type(_, t) => classify_declared(t, refs),
    }
}

/// The declared result type `t`, classified (see [`classify_result`]).
fn classify_declared<'a>(
    t: &'a syn::Type,
    refs: &mut TypeRefs,
) -> syn::Result<(TyInfo, Option<&'a syn::Type>, bool)> {
    Ok(match jscall::result_of_js_error(t) {
        Some(ok) => (types::classify_in(ok, None, refs)?, Some(ok), true),
        None => (types::classify_in(t, None, refs)?, Some(t), false),
    })
}

/// Where the function (named at `name_span`, imported as `rust_name`) lives in JS: its class's member,
/// or the function `js_name` (else its Rust name) under `js_namespace`.
fn source_of(
    name_span: Span,
    args: &ImportArgs,
    member: Option<&Member>,
    rust_name: &str,
) -> syn::Result<(ImportSource, Option<JsMember>)> {
    let js_name = args
        .js_name
        .as_ref()
        .map(LitStr::value)
        .unwrap_or_else(|| rust_name.to_string());
    let namespace = namespace_of(args)?;
    if js_name.is_empty() && member.is_none() {
        return Err(syn::Error::new(
            args.js_name.as_ref().map_or(name_span, LitStr::span),
            "js_name \"\" names no function: give the JS function's name",
        ));
    }
    Ok(match member {
        Some(m) => (
            m.source.clone(),
            Some(JsMember {
                form: m.form,
                key: m.key.clone(),
            }),
        ),
        None => (class_source(args, &js_name, &namespace), None),
    })
}

/// What no JS import may be: generic, variadic, or an `async` member of a class.
pub(super) fn check_signature(
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

/// An import's parameters, in order: their records, how each declared one is classified
/// (with the type it was written as), the expansion's own (see [`own`]), the names the safe
/// function takes them by and what the call passes for each.
#[derive(Default)]
pub(super) struct ImportParams<'a> {
    params: Vec<Param>,
    infos: Vec<(TyInfo, &'a syn::Type)>,
    own: Vec<Arg>,
    users: Vec<Ident>,
    binds: Vec<Bind>,
}

impl<'a> ImportParams<'a> {
    /// The parameters of `sig` (`receives`: the first is the member's `&self`).
    fn of(
        sig: &'a syn::Signature,
        types: &[BlockType],
        receives: bool,
        refs: &mut TypeRefs,
    ) -> syn::Result<Self> {
        let mut inputs = ImportParams::default();
        for (i, arg) in sig.inputs.iter().enumerate() {
            inputs.push(i, arg, types, i == 0 && receives, refs)?;
        }
        Ok(inputs)
    }

    /// The one parameter `value` of an import the expansion declares, a `JsValue` or
    /// `&JsValue` (`ty`), passed as it is.
    fn value(ty: Ty) -> syn::Result<Self> {
        let name = Ident::new("value", Span::call_site());
        let lower = match ty {
            Ty::JsValueRef => Lower::JsValueRef,
            _ => Lower::JsValue,
        };
        let parts = lifts::parts(&ty, Site::JsArg, None)?;
        Ok(ImportParams {
            params: vec![Param {
                name: name.to_string(),
                ty: ty.clone(),
            }],
            infos: Vec::new(),
            own: vec![Arg { ty, lower, parts }],
            users: vec![name.clone()],
            binds: vec![Bind::Value(name)],
        })
    }

    /// The parameter `arg`, the `index`th (`receiver`: it is the member's `&self`).
    fn push(
        &mut self,
        index: usize,
        arg: &'a FnArg,
        types: &[BlockType],
        receiver: bool,
        refs: &mut TypeRefs,
    ) -> syn::Result<()> {
        let FnArg::Typed(t) = arg else {
            return Err(syn::Error::new_spanned(arg, "JS imports take no `self`"));
        };
        let user = user_name(&t.pat, index)?;
        let js = user.to_string();
        let js = js.trim_start_matches("r#").trim_start_matches('_');
        // A `&T` of a JS class of the block is lent as its `&JsValue`; a method's first
        // parameter is its `&self`.
        let lent = block_type(&t.ty, types, true).is_some();
        // `Option<&T>` of the same: lent as that `&JsValue`, or `undefined` for `None`.
        let lent_option = !lent && optional_block_ref(&t.ty, types);
        self.binds.push(match (receiver, lent) {
            (true, _) => Bind::Receiver,
            (false, true) => Bind::Lent(user.clone()),
            (false, false) if lent_option => Bind::LentOrUndefined(user.clone()),
            (false, false) => Bind::Value(user.clone()),
        });
        let info = if lent || lent_option {
            plain(Ty::JsValueRef)
        } else {
            types::classify_in(&t.ty, None, refs)?
        };
        self.params.push(Param {
            name: attrs::camel_case(js),
            ty: info.ty.clone(),
        });
        self.users.push(user);
        self.infos.push((info, &*t.ty));
        Ok(())
    }
}

/// The safe function's name of the `index`th parameter, declared `pat`: the body works on
/// generated names (`x` beside `x_len` must not meet a generated `x_len`); each is bound
/// to the user's parameter first.
fn user_name(pat: &Pat, index: usize) -> syn::Result<Ident> {
    match pat {
        Pat::Ident(p) if p.subpat.is_none() => Ok(p.ident.clone()),
        Pat::Wild(_) => Ok(format_ident!("__arg{}", index)),
        other => Err(syn::Error::new_spanned(
            other,
            format!(
                "a JS import's parameter is a name or `_`, not the pattern `{}`: the \
                 value goes to JS whole, so there is nothing to destructure; name the \
                 parameter",
                quote::ToTokens::to_token_stream(other)
            ),
        )),
    }
}
