//! `#[bridge]` on an impl block (constructors, methods, statics, getters, setters) and on
//! free functions: validates signatures, builds a thunk spec and a schema function per
//! export.

use super::attrs::{self, MemberRole};
use super::position::Position;
use super::record::{self, doc_of};
use super::types::{is_handle, names_self};
use super::{asyncs, callback_names, lifts, names, slices, types};
use crate::model::functions::{Export, FreeFunction, ImplBlock, Member, OwnExport};
use crate::model::refs::TypeRefs;
use crate::model::thunk::{AsWritten, Callee, Receiver, ThunkSpec};
use crate::model::ty::{ResultLift, ThunkParam};
use crate::model::ty::{TyInfo, plain};
use bridge_schema::{Function, FunctionKind, Param, Ty};
use proc_macro2::{Ident, TokenStream};
use quote::format_ident;
use syn::ext::IdentExt;
use syn::{FnArg, Pat, ReturnType, Signature, Type};

pub fn impl_block(attr: TokenStream, mut item: syn::ItemImpl) -> syn::Result<ImplBlock> {
    let (class, self_ty) = impl_class(attr, &item)?;
    let mut refs = TypeRefs::default();
    let class_id = refs.placeholder(&self_ty);
    let mut functions = Vec::new();
    let mut members = Vec::new();
    let mut has_constructor = false;
    // Every member is checked, and all their errors reported together.
    let mut errors: Option<syn::Error> = None;
    for impl_item in &mut item.items {
        let syn::ImplItem::Fn(f) = impl_item else {
            continue;
        };
        let exported = attrs::take_bridge_attrs(&mut f.attrs).and_then(|taken| {
            let member = MemberFn {
                class: &class,
                self_ty: &self_ty,
                f,
            };
            member.in_block(&taken, &mut refs, &mut has_constructor)
        });
        match exported {
            Ok(Some((function, member))) => {
                functions.extend(function);
                members.push(member);
            }
            Ok(None) => {}
            Err(e) => match &mut errors {
                Some(all) => all.combine(e),
                None => errors = Some(e),
            },
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
    Ok(ImplBlock {
        item,
        members,
        record,
    })
}

/// The class a `#[bridge] impl` block is of: its name and its type, once the block is
/// known to be an inherent, non-generic impl of a path type with no arguments.
fn impl_class(attr: TokenStream, item: &syn::ItemImpl) -> syn::Result<(String, Type)> {
    if !attr.is_empty() {
        return Err(syn::Error::new_spanned(
            attr,
            "#[bridge] on an impl block takes no arguments (put identity_mode on the struct)",
        ));
    }
    if item.trait_.is_some() || !item.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &item.self_ty,
            "#[bridge] goes on an inherent, non-generic impl block of an exported class",
        ));
    }
    let self_ty = (*item.self_ty).clone();
    let class = match &self_ty {
        Type::Path(p) => p
            .path
            .segments
            .last()
            .expect("a segment")
            .ident
            .unraw()
            .to_string(),
        other => {
            return Err(syn::Error::new_spanned(
                other,
                "#[bridge] impl of a non-path type",
            ));
        }
    };
    Ok((class, self_ty))
}

/// A member of a `#[bridge] impl`, its bridge attributes taken off.
struct MemberFn<'a> {
    pub class: &'a str,
    pub self_ty: &'a Type,
    pub f: &'a syn::ImplItemFn,
}

impl MemberFn<'_> {
    /// The member's part of its impl block under its bridge attributes `taken`: its
    /// function for the block's record (if it has no record of its own) and its exports;
    /// `None` if it stays Rust-only.
    fn in_block(
        &self,
        taken: &[attrs::BridgeAttr],
        refs: &mut TypeRefs,
        has_constructor: &mut bool,
    ) -> syn::Result<Option<(Option<Function>, Member)>> {
        let configurations = attrs::configurations(taken)?;
        if let [only] = &configurations[..]
            && only.cfg.is_none()
        {
            let args = attrs::parse_member_args(&only.attrs)?;
            if !self.exported(&args, Some(has_constructor))? {
                return Ok(None);
            }
            // A member under #[cfg(...)] exists only when its configuration holds: its
            // thunk and its record (a record of its own: the CLI merges a class's
            // impls) carry the same attributes.
            if self.cfgs().is_empty() {
                let (function, thunk) = self.function(&args, refs)?;
                return Ok(Some((Some(function), Member::InBlock(thunk))));
            }
            return Ok(Some((None, Member::Own(self.own(&args)?))));
        }
        // `#[cfg_attr(p, bridge(..))]`: one export per configuration, each with a
        // record of its own (a second constructor is then the CLI's to find).
        let configured = attrs::per_configuration(&configurations, |c| {
            let args = attrs::parse_member_args(&c.attrs)?;
            if !self.exported(&args, None)? {
                return Ok(None);
            }
            self.own(&args).map(Some)
        })?;
        Ok(Some((None, Member::Configured(configured))))
    }

    /// Whether the member is exported under `args` (not if it stays Rust-only).
    /// `has_constructor` finds a second constructor.
    fn exported(
        &self,
        args: &attrs::MemberArgs,
        has_constructor: Option<&mut bool>,
    ) -> syn::Result<bool> {
        let (class, f) = (self.class, self.f);
        if let Some(span) = args.this {
            return Err(syn::Error::new(
                span,
                format!(
                    "#[bridge(this)] is for free functions; `{class}::{}` is a member, whose JS \
                     `this` is its receiver: take `&self` (or `this: &Handle<Self>`), or make \
                     it a free function",
                    f.sig.ident
                ),
            ));
        }
        if args.skip && (args.role != MemberRole::Plain || args.js_name.is_some()) {
            return Err(syn::Error::new_spanned(
                &f.sig.ident,
                format!(
                    "`{class}::{}` has #[bridge(skip)], which keeps it Rust-only, and also says \
                     how to export it (constructor, getter, setter or js_name): remove `skip` to \
                     export it, or the other arguments to keep it Rust-only",
                    f.sig.ident
                ),
            ));
        }
        let exported = matches!(f.vis, syn::Visibility::Public(_)) && !args.skip;
        if !exported {
            if args.role != MemberRole::Plain || args.js_name.is_some() {
                return Err(syn::Error::new_spanned(
                    &f.sig.ident,
                    format!(
                        "`{class}::{}` has #[bridge(...)] but is not `pub`: make it `pub` to export it",
                        f.sig.ident
                    ),
                ));
            }
            return Ok(false);
        }
        if args.role == MemberRole::Constructor
            && let Some(has_constructor) = has_constructor
        {
            if *has_constructor {
                return Err(syn::Error::new_spanned(
                    &f.sig.ident,
                    format!(
                        "class `{class}` has two #[bridge(constructor)]s; JS classes have one constructor: make the other a static"
                    ),
                ));
            }
            *has_constructor = true;
        }
        Ok(true)
    }

    /// The member's `#[cfg(..)]` attributes.
    fn cfgs(&self) -> Vec<syn::Attribute> {
        self.f
            .attrs
            .iter()
            .filter(|a| a.path().is_ident("cfg"))
            .cloned()
            .collect()
    }

    /// Its schema function (its types' placeholders from `refs`) and thunk.
    fn function(
        &self,
        args: &attrs::MemberArgs,
        refs: &mut TypeRefs,
    ) -> syn::Result<(Function, ThunkSpec)> {
        let f = self.f;
        member(
            self.class,
            self.self_ty,
            &f.sig,
            &f.block,
            args,
            doc_of(&f.attrs),
            refs,
        )
    }

    /// Its thunk with a record of its own, under its `#[cfg]`s.
    fn own(&self, args: &attrs::MemberArgs) -> syn::Result<OwnExport> {
        own_export(self.self_ty, self.cfgs(), |refs| self.function(args, refs))
    }
}

/// A member's thunk with a record of its own (of `self_ty`'s impl), under `cfgs`; `make`
/// makes its function and thunk with the record's type references.
pub(super) fn own_export(
    self_ty: &Type,
    cfgs: Vec<syn::Attribute>,
    make: impl FnOnce(&mut TypeRefs) -> syn::Result<(Function, ThunkSpec)>,
) -> syn::Result<OwnExport> {
    let mut own_refs = TypeRefs::default();
    let own_class_id = own_refs.placeholder(self_ty);
    let (function, thunk) = make(&mut own_refs)?;
    let record = record::section(
        bridge_schema::Item::Impl(bridge_schema::Impl {
            class: own_class_id,
            members: vec![function],
        }),
        own_refs,
    );
    Ok(OwnExport {
        cfgs,
        export: Export { thunk, record },
    })
}

pub fn free_fn(attr: TokenStream, mut item: syn::ItemFn) -> syn::Result<FreeFunction> {
    // The attribute's own arguments, then any further `#[bridge(..)]`s (also under
    // `cfg_attr`) on the function.
    let mut taken = vec![attrs::BridgeAttr::own(attr)];
    taken.extend(attrs::take_bridge_attrs(&mut item.attrs)?);
    let configurations = attrs::configurations(&taken)?;
    let exports = attrs::per_configuration(&configurations, |c| {
        free_fn_export(&item, &attrs::parse_member_args(&c.attrs)?)
    })?;
    Ok(FreeFunction { item, exports })
}

/// The thunk and record of free function `item` under `args` (`None`: kept Rust-only).
fn free_fn_export(item: &syn::ItemFn, args: &attrs::MemberArgs) -> syn::Result<Option<Export>> {
    if !free_fn_exported(item, args)? {
        return Ok(None);
    }
    check_plain_signature(&item.sig)?;
    check_js_this(&item.sig, args)?;
    let rust_name = item.sig.ident.unraw().to_string();
    let js_name = args
        .js_name
        .clone()
        .unwrap_or_else(|| attrs::camel_case(&rust_name));
    let as_written = (args.js_name.is_none() && js_name != rust_name).then(|| rust_name.clone());
    let mut refs = TypeRefs::default();
    let (params, infos, ret, lower) = typed_signature(&item.sig, &item.block, None, 0, &mut refs)?;
    let symbol = bridge_schema::function_symbol(&record::crate_name(), &rust_name);
    let mut thunk = ThunkSpec {
        symbol: symbol.clone(),
        ident: format_ident!("__bridge_export"),
        callee: Callee::Named(item.sig.ident.clone()),
        class: None,
        member: js_name.clone(),
        as_written: as_written_of(&as_written),
        receiver: Receiver::None,
        params: infos,
        moves: true,
        ret: ret.clone(),
        lower,
        asynchronous: None,
        refuses_released: false,
    };
    let is_async = item.sig.asyncness.is_some();
    if is_async {
        thunk = asyncs::start_thunk(thunk, &item.sig, None);
    }
    let function = Function {
        kind: FunctionKind::Free,
        js_name,
        rust_name,
        symbol,
        receiver: bridge_schema::Receiver::None,
        params,
        ret: ret.ty,
        doc: doc_of(&item.attrs),
        field: false,
        is_async,
        refuses_released: false,
        as_written,
        js_this: args.this.is_some(),
    };
    let record = record::section(bridge_schema::Item::Function(function), refs);
    Ok(Some(Export { thunk, record }))
}

/// Whether free function `item` is exported under `args` (not if `skip` keeps it
/// Rust-only), or why `args` cannot apply to it.
fn free_fn_exported(item: &syn::ItemFn, args: &attrs::MemberArgs) -> syn::Result<bool> {
    if args.skip {
        if args.role != MemberRole::Plain || args.js_name.is_some() || args.this.is_some() {
            return Err(syn::Error::new_spanned(
                &item.sig.ident,
                format!(
                    "`{}` has #[bridge(skip)], which keeps it Rust-only, and also says how to \
                     export it (js_name, this): remove `skip` to export it, or the other arguments to \
                     keep it Rust-only",
                    item.sig.ident
                ),
            ));
        }
        return Ok(false);
    }
    if args.role != MemberRole::Plain {
        return Err(syn::Error::new_spanned(
            &item.sig.ident,
            "constructor/getter/setter only apply to members of a #[bridge] impl block",
        ));
    }
    if !matches!(item.vis, syn::Visibility::Public(_)) {
        return Err(syn::Error::new_spanned(
            &item.sig.ident,
            format!(
                "`{}` has #[bridge] but is not `pub`: only `pub` functions are exported (as in a \
                 #[bridge] impl block): make it `pub`",
                item.sig.ident
            ),
        ));
    }
    Ok(true)
}

/// `#[bridge(this)]` (wasm-bindgen's): the first parameter receives JS `this`, so there
/// must be one. Its type is any a parameter may have: the glue converts `this` as it
/// converts an argument of that type.
fn check_js_this(sig: &Signature, args: &attrs::MemberArgs) -> syn::Result<()> {
    match args.this {
        Some(span) if sig.inputs.is_empty() => Err(syn::Error::new(
            span,
            format!(
                "`{}` has #[bridge(this)] but no parameter to receive JS `this`: add a first \
                 parameter for it (`this: JsValue`, `this: Element` of an imported type, \
                 `this: &MyClass` of a #[bridge] class, `this: Option<Element>` where a call \
                 may have none)",
                sig.ident
            ),
        )),
        _ => Ok(()),
    }
}

fn member(
    class: &str,
    self_ty: &Type,
    sig: &Signature,
    body: &syn::Block,
    args: &attrs::MemberArgs,
    doc: String,
    refs: &mut TypeRefs,
) -> syn::Result<(Function, ThunkSpec)> {
    check_plain_signature(sig)?;
    let is_async = sig.asyncness.is_some();
    let receiver = if is_async {
        asyncs::receiver(sig, self_ty, class, args.role)?
    } else {
        receiver_of(sig, self_ty)?
    };
    let skip = usize::from(receiver != Receiver::None);
    let typed = typed_signature(sig, body, Some(self_ty), skip, refs)?;
    let parts = MemberParts {
        ident: &sig.ident,
        receiver,
        typed,
        doc,
        async_sig: is_async.then_some(sig),
    };
    member_export(class, self_ty, parts, args)
}

/// What a class member's export is made of besides its arguments.
pub(super) struct MemberParts<'a> {
    /// The function's name.
    pub ident: &'a Ident,
    pub receiver: Receiver,
    pub typed: TypedSignature,
    pub doc: String,
    /// An `async fn`'s signature, which its start thunk is made from.
    pub async_sig: Option<&'a Signature>,
}

/// The record's function and the thunk of class member `m` of `class` under `args`.
pub(super) fn member_export(
    class: &str,
    self_ty: &Type,
    m: MemberParts,
    args: &attrs::MemberArgs,
) -> syn::Result<(Function, ThunkSpec)> {
    let MemberParts {
        ident,
        receiver,
        typed: (params, infos, ret, lower),
        doc,
        async_sig,
    } = m;
    let rust_name = ident.unraw().to_string();
    let is_async = async_sig.is_some();
    let kind = member_kind(args.role, receiver, &params, &ret, self_ty)
        .map_err(|rule| syn::Error::new_spanned(ident, rule(class, &rust_name)))?;
    let (js_name, as_written) = member_names(args, kind, &rust_name);
    let is_static = receiver == Receiver::None;
    names::check_member_name(ident.span(), class, &rust_name, kind, is_static, &js_name)?;
    let type_id = bridge_schema::type_id(&record::crate_name(), class);
    let symbol = bridge_schema::member_symbol(&type_id, &rust_name);
    let refuses_released =
        matches!(receiver, Receiver::Ref | Receiver::Mut) && infos.is_empty() && !is_async;
    let function = Function {
        kind,
        js_name,
        rust_name,
        symbol,
        receiver: receiver.schema(),
        params,
        ret: ret.ty.clone(),
        doc,
        field: false,
        is_async,
        refuses_released,
        as_written,
        js_this: false,
    };
    let thunk = member_thunk(
        self_ty,
        ident,
        async_sig,
        &function,
        receiver,
        infos,
        (ret, lower),
    );
    Ok((function, thunk))
}

/// The export thunk of class member `function` (its record) of `self_ty`.
fn member_thunk(
    self_ty: &Type,
    ident: &Ident,
    async_sig: Option<&Signature>,
    function: &Function,
    receiver: Receiver,
    params: Vec<ThunkParam>,
    (ret, lower): (TyInfo, ResultLift),
) -> ThunkSpec {
    let thunk = ThunkSpec {
        symbol: function.symbol.clone(),
        ident: format_ident!("__bridge_export_{}", function.rust_name),
        callee: Callee::Member(Box::new(self_ty.clone()), ident.clone()),
        class: Some(self_ty.clone()),
        member: function.js_name.clone(),
        as_written: as_written_of(&function.as_written),
        receiver,
        params,
        moves: true,
        ret,
        lower,
        asynchronous: None,
        refuses_released: function.refuses_released,
    };
    match async_sig {
        Some(sig) => asyncs::start_thunk(thunk, sig, Some(self_ty)),
        None => thunk,
    }
}

/// A signature's parameters (for the record and the thunk) and result.
pub(super) type TypedSignature = (Vec<Param>, Vec<ThunkParam>, TyInfo, ResultLift);

/// A signature's parameters and result, checked as an export's, the first `skip` inputs
/// (the receiver) left out.
fn typed_signature(
    sig: &Signature,
    body: &syn::Block,
    self_ty: Option<&Type>,
    skip: usize,
    refs: &mut TypeRefs,
) -> syn::Result<TypedSignature> {
    asyncs::check_params(sig, skip)?;
    let (mut params, infos) = params_of(sig, self_ty, skip, refs)?;
    let (mut ret, lower) = return_of(sig, self_ty, refs)?;
    slices::check_view_source(sig)?;
    asyncs::check_return(sig, &ret)?;
    name_callbacks(sig, body, skip, &mut params, &mut ret);
    Ok((params, infos, ret, lower))
}

/// The rule a member breaks, as its message given the class and the member's Rust name.
type Rule = fn(&str, &str) -> String;

/// What kind of class member `role` makes of a function with this receiver, parameters
/// and result, or the rule the signature breaks for that role.
fn member_kind(
    role: MemberRole,
    receiver: Receiver,
    params: &[Param],
    ret: &TyInfo,
    self_ty: &Type,
) -> Result<FunctionKind, Rule> {
    Ok(match role {
        MemberRole::Constructor => {
            if receiver != Receiver::None || !returns_self(ret, self_ty) {
                return Err(|class, rust_name| {
                    format!(
                        "#[bridge(constructor)] `{class}::{rust_name}` must take no `self` and return `{class}`, `Self` or `Handle<Self>` (or a `Result` of one)"
                    )
                });
            }
            FunctionKind::Constructor
        }
        MemberRole::Getter => {
            if !params.is_empty() || ret.ty == Ty::Unit {
                return Err(|class, rust_name| {
                    format!(
                        "#[bridge(getter)] `{class}::{rust_name}` must take `&self` (or `&mut self`) only, or nothing (a static getter), and return a value"
                    )
                });
            }
            FunctionKind::Getter
        }
        MemberRole::Setter => {
            // `Result<(), E>`: an `Err` throws from the assignment.
            let nothing = match &ret.ty {
                Ty::Unit => true,
                Ty::Result(ok, _) => **ok == Ty::Unit,
                _ => false,
            };
            if params.len() != 1 || !nothing {
                return Err(|class, rust_name| {
                    format!(
                        "#[bridge(setter)] `{class}::{rust_name}` must take `&mut self` (or `&self`) and one value, or only the value (a static setter), and return nothing (or `Result<(), E>`, whose `Err` throws)"
                    )
                });
            }
            FunctionKind::Setter
        }
        MemberRole::Plain if receiver == Receiver::None => FunctionKind::Static,
        MemberRole::Plain => FunctionKind::Method,
    })
}

/// A member's JS name, and wasm-bindgen's name for it when that differs (as written, a
/// setter's without `set_`).
fn member_names(
    args: &attrs::MemberArgs,
    kind: FunctionKind,
    rust_name: &str,
) -> (String, Option<String>) {
    let unset = rust_name.strip_prefix("set_").unwrap_or(rust_name);
    let js_name = match (&args.js_name, kind) {
        (Some(n), _) => n.clone(),
        (None, FunctionKind::Constructor) => "constructor".to_string(),
        (None, FunctionKind::Setter) => attrs::camel_case(unset),
        (None, _) => attrs::camel_case(rust_name),
    };
    let as_written = match (&args.js_name, kind) {
        (Some(_), _) => args.as_written.clone(),
        (None, FunctionKind::Constructor) => None,
        (None, FunctionKind::Setter) => Some(unset.to_string()),
        (None, _) => Some(rust_name.to_string()),
    }
    .filter(|w| *w != js_name);
    (js_name, as_written)
}

/// The thunk's [`AsWritten`] of a member or function whose record has `as_written`.
fn as_written_of(as_written: &Option<String>) -> Option<AsWritten> {
    as_written.as_ref().map(|member| AsWritten {
        member: member.clone(),
        variable: bridge_schema::as_written_variable(&record::crate_name()),
    })
}

fn check_plain_signature(sig: &Signature) -> syn::Result<()> {
    // Lifetime parameters are fine: the thunk's arguments live for the whole call.
    if let Some(param) = sig
        .generics
        .params
        .iter()
        .find(|p| !matches!(p, syn::GenericParam::Lifetime(_)))
    {
        return Err(syn::Error::new_spanned(
            param,
            "exported functions cannot have type or const parameters: JS calls one concrete \
             function; export a non-generic wrapper per type",
        ));
    }
    if let Some(unsafety) = &sig.unsafety {
        return Err(syn::Error::new_spanned(
            unsafety,
            format!(
                "`{}` is an `unsafe fn`: JS cannot uphold its safety contract, so #[bridge] does \
                 not export it; export a safe function that checks the contract and calls it \
                 (or keep it Rust-only with #[bridge(skip)])",
                sig.ident
            ),
        ));
    }
    Ok(())
}

/// `&self`, `&mut self`, or a first parameter `this: &Handle<Self>`.
fn receiver_of(sig: &Signature, self_ty: &Type) -> syn::Result<Receiver> {
    match sig.inputs.first() {
        Some(FnArg::Receiver(r)) if r.colon_token.is_some() => {
            // `self: &Self` / `self: &mut Self` are `&self` / `&mut self` spelled out.
            match &*r.ty {
                Type::Reference(reference) if types::is_self(&reference.elem) => {
                    Ok(if reference.mutability.is_some() {
                        Receiver::Mut
                    } else {
                        Receiver::Ref
                    })
                }
                other if types::is_self(other) => Ok(Receiver::Value),
                other => Err(syn::Error::new_spanned(
                    other,
                    format!(
                        "exported methods take `&self`, `&mut self` or `self` (or \
                         `this: &Handle<Self>`), not `self: {}`",
                        quote::ToTokens::to_token_stream(other)
                    ),
                )),
            }
        }
        Some(FnArg::Receiver(r)) => {
            if r.reference.is_none() {
                return Ok(Receiver::Value);
            }
            Ok(if r.mutability.is_some() {
                Receiver::Mut
            } else {
                Receiver::Ref
            })
        }
        Some(FnArg::Typed(t)) if is_handle_this(&t.ty, self_ty) => Ok(Receiver::Handle),
        _ => Ok(Receiver::None),
    }
}

fn is_handle_this(ty: &Type, self_ty: &Type) -> bool {
    let Type::Reference(r) = ty else { return false };
    if r.mutability.is_some() {
        return false;
    }
    types::classify(
        &r.elem,
        Some(self_ty),
        Position::Return,
        &mut TypeRefs::default(),
    )
    .map(|info| is_handle(&info) && names_self(&info, self_ty))
    .unwrap_or(false)
}

/// `Self`, `Handle<Self>` or the class by name: what a constructor returns.
fn returns_self(ret: &TyInfo, self_ty: &Type) -> bool {
    let made = match &ret.ty {
        Ty::Result(ok, _) => &**ok,
        other => other,
    };
    matches!(made, Ty::Named(_)) && names_self(ret, self_ty)
}

/// Give the callbacks of a signature the parameter names the body shows: a callback
/// parameter's from its first call, a returned closure's from the closure literal.
fn name_callbacks(
    sig: &Signature,
    body: &syn::Block,
    skip: usize,
    params: &mut [Param],
    ret: &mut TyInfo,
) {
    let typed = sig.inputs.iter().skip(skip).filter_map(|a| match a {
        FnArg::Typed(t) => Some(t),
        FnArg::Receiver(_) => None,
    });
    for (t, param) in typed.zip(params.iter_mut()) {
        if let (Pat::Ident(pat), Ty::Callback(cb)) = (&*t.pat, &mut param.ty) {
            cb.names = callback_names::call_argument_names(body, &pat.ident, cb.params.len());
        }
    }
    let returned = match &mut ret.ty {
        Ty::Result(ok, _) => &mut **ok,
        other => other,
    };
    if let Ty::Callback(cb) = returned {
        cb.names = callback_names::returned_closure_names(body, cb.params.len());
    }
}

type ParamList = (Vec<Param>, Vec<ThunkParam>);

fn params_of(
    sig: &Signature,
    self_ty: Option<&Type>,
    skip: usize,
    refs: &mut TypeRefs,
) -> syn::Result<ParamList> {
    let mut params = Vec::new();
    let mut infos = Vec::new();
    for (index, arg) in sig.inputs.iter().skip(skip).enumerate() {
        let FnArg::Typed(t) = arg else { continue };
        let info = types::classify(&t.ty, self_ty, Position::Param, refs)?;
        // The thunk passes the value to the user's function, whose pattern (`mut x`, `_`,
        // `Point { x, y }`) binds it; JS knows the parameter by its name, else by its place.
        let name = match &*t.pat {
            Pat::Ident(pat) => pat.ident.unraw().to_string(),
            _ => String::new(),
        };
        let name = match attrs::camel_case(name.trim_start_matches('_')) {
            n if n.is_empty() => format!("arg{index}"),
            n => n,
        };
        params.push(Param {
            name: name.clone(),
            ty: param_ty(&info),
        });
        infos.push(lifts::thunk_param(name, info, &t.ty)?);
    }
    Ok((params, infos))
}

/// A parameter's schema type: a user type by value may be a class moving out of JS (the
/// CLI reads a record's or enum's as `Named`).
pub(super) fn param_ty(info: &TyInfo) -> Ty {
    match &info.ty {
        Ty::Named(id) if !info.handle => Ty::ByValue(id.clone()),
        Ty::Option(inner) if !info.handle => Ty::Option(Box::new(match &**inner {
            Ty::Named(id) => Ty::ByValue(id.clone()),
            other => other.clone(),
        })),
        other => other.clone(),
    }
}

/// A signature's result, and how its thunk lowers it.
fn return_of(
    sig: &Signature,
    self_ty: Option<&Type>,
    refs: &mut TypeRefs,
) -> syn::Result<(TyInfo, ResultLift)> {
    match &sig.output {
        ReturnType::Default => Ok((plain(Ty::Unit), ResultLift::unit())),
        ReturnType::Type(_, ty) => {
            let info = types::classify(ty, self_ty, Position::Return, refs)?;
            let lower = lifts::result(&info, Some(ty))?;
            Ok((info, lower))
        }
    }
}
