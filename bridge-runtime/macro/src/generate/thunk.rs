//! The `extern "C"` export thunk of one function: wasm parameters in, Rust call, wasm
//! result out. Borrow guards live inside a closure so that every guard is dropped before
//! an error is thrown to JS or the result is lowered.
//!
//! Also a Rust closure's `#closure-call` thunk and `#closure-drop` export (closures returned
//! by exports or passed to JS functions), and for a returned iterator `iterator_exports`: the
//! thunk boxes the iterator itself while the guards live, and both exports are monomorphic in
//! its type, which a generic `fn` infers from the callee's signature (`F: FnOnce(A0, ..) ->
//! I`, or `-> Result<I, E>`, whose `Ok` is boxed with `Result::map`; an `impl Iterator` has no
//! name), so `next()` is a direct call into the iterator, no `call_indirect`.

use super::abi::{self, scalar};
use super::asyncs;
use super::callback;
use super::lift::{OnRefusal, borrow_prelude, kept_by_thunk, lift_param, lower_return, take_param};
use crate::model::thunk::{AsWritten, Callee, Receiver, ThunkSpec};
use crate::model::ty::{CallbackInfo, Form, JsCall, Lower, Pull};
use crate::model::ty::{ParamHow, ParamLift, RustClosure, ThunkParam};
use bridge_schema::lowering::TrappingBorrow;
use bridge_schema::{Scalar, Ty};
use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, format_ident, quote};

/// The thunk of `spec` (after the exports of the closure it returns, if it does).
pub fn thunk(spec: &ThunkSpec) -> TokenStream {
    let (wasm_params, preludes, args) = Preludes::of(spec).into_parts();
    let (ret_sig, lower) = lower_return(&spec.ret, spec.lower);
    let symbol = &spec.symbol;
    let ident = &spec.ident;
    let (value, after) = result(spec, call(spec, &args));
    let closure = returned_closure(spec, args.len());
    let asynchronous = spec.asynchronous.as_ref().map(|a| {
        let items = asyncs::helpers(&a.helpers);
        let finish = thunk(&a.finish);
        quote! { #items #finish }
    });
    quote! {
        #closure
        #asynchronous
        #[unsafe(export_name = #symbol)]
        #[allow(non_snake_case, unused_mut, clippy::all)]
        unsafe extern "C" fn #ident(#(#wasm_params),*) #ret_sig {
            let __result = (|| {
                #(#preludes)*
                ::core::result::Result::Ok::<_, ::bridge_runtime::abi::BridgeError>(#value)
            })();
            let __value = ::bridge_runtime::abi::or_throw(__result);
            #after
            #lower
        }
    }
}

/// Where a refused argument `param` of `spec` was (`ArgSite`), for its error message.
fn arg_site(spec: &ThunkSpec, param: &str) -> TokenStream {
    let class_name = match &spec.class {
        Some(ty) => quote! { <#ty as ::bridge_runtime::BridgeClass>::NAME },
        None => quote! { "" },
    };
    let member = MessageName::of(spec);
    let site = quote! { &::bridge_runtime::abi::ArgSite { class: #class_name, member: #member, param: #param } };
    match spec.as_written {
        // A name chosen by `option_env!`: evaluated at compile time, still a `&'static`.
        Some(_) => quote! { const { #site } },
        None => site,
    }
}

/// A member's name (or a text naming it) in a message a thunk builds: as JS names it,
/// which a crate keeping Rust names (`AsWritten`) chooses at compile time.
#[derive(Clone)]
struct MessageName {
    js: String,
    as_written: Option<AsWritten>,
}

impl MessageName {
    fn of(spec: &ThunkSpec) -> Self {
        MessageName {
            js: spec.member.clone(),
            as_written: spec.as_written.clone(),
        }
    }

    /// The text `f` makes of the name, in both spellings.
    fn map(&self, f: impl Fn(&str) -> String) -> Self {
        MessageName {
            js: f(&self.js),
            as_written: self.as_written.as_ref().map(|w| AsWritten {
                member: f(&w.member),
                variable: w.variable.clone(),
            }),
        }
    }
}

/// A `&'static str` expression: the literal, or the `option_env!` choice of the two.
impl ToTokens for MessageName {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let js = &self.js;
        tokens.extend(match &self.as_written {
            None => quote! { #js },
            Some(AsWritten { member, variable }) => quote! {
                match ::core::option_env!(#variable) {
                    ::core::option::Option::Some(_) => #member,
                    ::core::option::Option::None => #js,
                }
            },
        });
    }
}

/// The thunk's wasm parameters, the steps that lift them into the call's arguments
/// (by group, see [`Preludes::into_parts`]), and the arguments.
///
/// Preludes run in two groups: first the lifts of owned values (infallible), then the
/// steps that can refuse (borrows, wire reads, chars), so an early `?` return drops
/// everything the call already owns (a String argument is not leaked by a refused
/// borrow). A thunk that owns nothing traps on a refused *first* borrow instead
/// (`borrow_first_arg`), where `ThunkSpec::trapping_borrow` says, the rule the glue's
/// refusal sites follow too: its hot path then calls nothing, and V8 gives a call-free
/// wasm function no stack check. A trap runs no destructors, hence "owns nothing".
#[derive(Default)]
struct Preludes {
    wasm_params: Vec<TokenStream>,
    args: Vec<TokenStream>,
    owned: Vec<TokenStream>,
    checks: Vec<TokenStream>,
    /// Objects taken by value (`self`, a user type parameter): each take begins after every
    /// other check (`TakeParam::begin`: a class is checked and marked, nothing moves), and
    /// all finish after the last began, so a refusal anywhere leaves every object in JS.
    takes: Vec<TokenStream>,
    finishes: Vec<TokenStream>,
    /// Owned values the call only borrows (`&str`, `&[T]`, `&JsValue`, `this: &Handle<Self>`):
    /// moved into new bindings after the checks, so they drop before the borrow guards (a
    /// `Handle`'s `Drop` may free an object and run user code, which may panic or throw: the
    /// glue then ends this call's borrows, which must still be live). A refusal returns
    /// before the moves, when no user code has run and JS still holds every object.
    kept: Vec<Ident>,
    /// Borrow guards are numbered in the order they are taken (receiver, then parameters),
    /// the order of the glue's list of what to end (`FnView::borrows`).
    guards: u32,
    /// The borrow a refusal of which traps (`ThunkSpec::trapping_borrow`); every other
    /// refusal returns.
    trapping: Option<TrappingBorrow>,
}

impl Preludes {
    /// The receiver's and the parameters' steps of `spec`.
    fn of(spec: &ThunkSpec) -> Self {
        let mut preludes = Preludes {
            trapping: spec.trapping_borrow(),
            ..Preludes::default()
        };
        if let Some(class_ty) = &spec.class {
            preludes.receiver(spec, class_ty);
        }
        // Generated names, never the user's: a parameter may be a raw identifier (`r#type`),
        // and `x` beside `x_len` must not collide with a generated `x_len`.
        for (index, param) in spec.params.iter().enumerate() {
            let name = format_ident!("__bridge_arg{}", index);
            preludes.param(spec, &name, index, param);
        }
        preludes
    }

    /// `self`, of the class `class_ty`, as `spec` takes it.
    fn receiver(&mut self, spec: &ThunkSpec, class_ty: &syn::Type) {
        let addr = format_ident!("__self_addr");
        let site = arg_site(spec, "self");
        let rt = quote! { ::bridge_runtime::abi };
        match spec.receiver {
            Receiver::None => {}
            Receiver::Ref | Receiver::Mut => {
                let exclusive = spec.receiver == Receiver::Mut;
                let binding = format_ident!("__self");
                self.wasm_params.push(quote! { #addr: u32 });
                let on_refusal = match (spec.refuses_released, self.trapping) {
                    (true, _) => OnRefusal::TrapReleased,
                    (false, Some(TrappingBorrow::Receiver)) => OnRefusal::Trap,
                    (false, _) => OnRefusal::Return,
                };
                self.checks.push(borrow_prelude(
                    &binding,
                    class_ty,
                    &addr,
                    &site,
                    exclusive,
                    on_refusal,
                    self.guards,
                ));
                self.guards += 1;
                self.args.push(if exclusive {
                    quote! { &mut *#binding }
                } else {
                    quote! { &*#binding }
                });
            }
            Receiver::Handle => {
                self.wasm_params.push(quote! { #addr: u32 });
                self.owned.push(quote! {
                    let __self = unsafe { #rt::handle_arg::<#class_ty>(#addr) };
                });
                self.kept.push(format_ident!("__self"));
                self.args.push(quote! { &__self });
            }
            Receiver::Value => {
                self.wasm_params.push(quote! { #addr: u32 });
                self.takes.push(quote! {
                    let __self = unsafe { #rt::begin_take::<#class_ty>(#addr, #site) }?;
                });
                self.finishes
                    .push(quote! { let __self = #rt::Taking::finish(__self); });
                self.args.push(quote! { __self });
            }
        }
    }

    /// The parameter `param` of `spec` (the `index`th), bound as `name`.
    fn param(&mut self, spec: &ThunkSpec, name: &Ident, index: usize, param: &ThunkParam) {
        let (js_name, info) = (param.js_name.as_str(), &param.info);
        let lift = match &param.how {
            ParamHow::Function(cb) => return self.callback_param(spec, name, param, cb),
            ParamHow::Lift(lift) => *lift,
        };
        let by_value = match &info.ty {
            Ty::Named(_) => true,
            Ty::Option(inner) => matches!(**inner, Ty::Named(_)),
            _ => false,
        };
        if spec.moves && by_value && !info.handle {
            let take = take_param(name, info, &param.parts, &arg_site(spec, js_name));
            self.wasm_params.extend(take.wasm_params);
            self.takes.push(take.prelude);
            self.finishes.push(take.finish);
            self.args.push(take.arg);
            return;
        }
        self.lifted_param(spec, name, index, param, lift);
    }

    /// A parameter lifted from its wasm values (checked first when its lift can refuse
    /// it), a class borrowed under a guard; the `index`th.
    fn lifted_param(
        &mut self,
        spec: &ThunkSpec,
        name: &Ident,
        index: usize,
        param: &ThunkParam,
        lift: ParamLift,
    ) {
        let info = &param.info;
        let site = arg_site(spec, &param.js_name);
        let mut p = lift_param(name, info, &param.parts, lift, &site, self.guards);
        let is_borrow = matches!(info.ty, Ty::ClassRef(_) | Ty::ClassMut(_));
        if self.trapping == Some(TrappingBorrow::Param(index)) {
            let exclusive = matches!(info.ty, Ty::ClassMut(_));
            p.prelude = borrow_prelude(
                name,
                &info.named,
                name,
                &site,
                exclusive,
                OnRefusal::Trap,
                self.guards,
            );
        }
        let optional_borrow = matches!(&info.ty, Ty::Option(inner)
            if matches!(**inner, Ty::ClassRef(_) | Ty::ClassMut(_)));
        if is_borrow || optional_borrow {
            self.guards += 1;
        }
        if kept_by_thunk(info) {
            self.kept.push(name.clone());
        }
        let can_refuse = scalar(&info.ty).is_some()
            || info.ty.travels_on_wire()
            || is_borrow
            || optional_borrow
            || matches!(&info.ty, Ty::Option(inner) if scalar(inner).is_some());
        self.wasm_params.extend(p.wasm_params);
        if can_refuse {
            self.checks.push(p.prelude);
        } else {
            self.owned.push(p.prelude);
        }
        self.args.push(p.arg);
    }

    /// A JS function parameter, `cb` its calls (closures JS calls back through).
    fn callback_param(
        &mut self,
        spec: &ThunkSpec,
        name: &Ident,
        param: &ThunkParam,
        cb: &CallbackInfo,
    ) {
        let info = &param.info;
        let symbol = bridge_schema::callback_symbol(&spec.symbol, &param.js_name);
        let items = closures(&cb.call, &symbol, &name.to_string());
        let optional = matches!(info.ty, Ty::Option(_));
        let (prelude, arg) = callback::lift_param(name, cb, &symbol, &items, optional);
        self.wasm_params
            .extend(abi::params(name, &info.ty, &param.parts, &quote! {}));
        self.owned.push(prelude);
        self.args.push(arg);
    }

    /// The wasm parameters, the preludes in the order they run (owned lifts, checks,
    /// takes begun, takes finished, kept values moved), and the call's arguments.
    fn into_parts(self) -> (Vec<TokenStream>, Vec<TokenStream>, Vec<TokenStream>) {
        let mut preludes = self.owned;
        preludes.extend(self.checks);
        preludes.extend(self.takes);
        preludes.extend(self.finishes);
        preludes.extend(self.kept.iter().map(|name| quote! { let #name = #name; }));
        (self.wasm_params, preludes, self.args)
    }
}

/// A callee as the path generated code calls.
impl ToTokens for Callee {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Callee::Named(name) => name.to_tokens(tokens),
            Callee::Member(class, name) => tokens.extend(quote! { <#class>::#name }),
        }
    }
}

/// The call of `spec`'s callee with `args`, as it leaves the guards' closure.
fn call(spec: &ThunkSpec, args: &[TokenStream]) -> TokenStream {
    let callee = &spec.callee;
    match &spec.ret.ty {
        // A view leaves the closure as its address and length: the slice borrows a guard.
        Ty::View(inner) => match scalar(inner) {
            Some((_, rust)) => {
                quote! { ::bridge_runtime::abi::view_parts::<#rust>(#callee(#(#args),*)) }
            }
            // A user type: a numeric enum of an 8- to 32-bit `#[repr]` (`ViewElem`).
            None => quote! { ::bridge_runtime::abi::enum_view_parts(#callee(#(#args),*)) },
        },
        // An iterator is boxed (in its own type, see `iterator_exports`) while the guards
        // live: an `impl Iterator + 'static` still names the lifetimes of the call's
        // borrows (Rust 2024 captures them), so only its address may leave the closure.
        Ty::Iterator(_) => {
            quote! { ::bridge_runtime::js::iterator::into_abi(#callee(#(#args),*)) }
        }
        // `Ok`'s iterator likewise; an `Err` is thrown below, as any `Result`'s.
        Ty::Result(ok, _) if matches!(**ok, Ty::Iterator(_)) => quote! {
            ::core::result::Result::map(
                #callee(#(#args),*),
                ::bridge_runtime::js::iterator::into_abi,
            )
        },
        _ => quote! { #callee(#(#args),*) },
    }
}

/// The value the guards' closure returns (`call`, or its `Ok`) and the steps after it.
///
/// `Err(e)` becomes the error thrown after the closure: every guard is dropped first,
/// so an `Err` leaves nothing borrowed or half-done, and the hot `Ok` path holds no
/// guard across a call (the error is built after the closure). A record or enum `e` is
/// also encoded as the error's `data` (`ErrProbe` picks the way at compile time). An
/// error type that borrows (from `&self`, say) cannot leave the closure: it is turned
/// into the error inside, before the guards drop. After the closure, it is built by
/// `throw_after_guards`, which tells the glue that no guard is live: a `Display` (or
/// `Drop`) that panics or throws must not end the borrows again (they may be an outer
/// call's by then).
fn result(spec: &ThunkSpec, call: TokenStream) -> (TokenStream, TokenStream) {
    match &spec.ret.error {
        Some(err) if borrows(err) => {
            let to_error = to_error(err);
            (
                quote! {
                    match #call {
                        ::core::result::Result::Ok(v) => v,
                        ::core::result::Result::Err(e) => {
                            return ::core::result::Result::Err(#to_error);
                        }
                    }
                },
                quote! {},
            )
        }
        Some(err) => {
            let to_error = to_error(err);
            (
                call,
                quote! {
                    let __value = match __value {
                        ::core::result::Result::Ok(v) => v,
                        ::core::result::Result::Err(e) => {
                            ::bridge_runtime::abi::throw_after_guards(move || #to_error)
                        }
                    };
                },
            )
        }
        None => (call, quote! {}),
    }
}

/// The error thrown for `e: err`.
///
/// One reference per level of `ErrProbe`'s dispatch (`bridge_runtime::result`): a
/// `Display` record or enum, `Display`, `Into<JsValue>`, `Into<wasm_bindgen::JsValue>`,
/// unfit. Spanned at the error type: an unfit one gets `ExportError`'s message there.
fn to_error(err: &syn::Type) -> TokenStream {
    let span = syn::spanned::Spanned::span(err);
    let into_error = quote::quote_spanned! {span=>
        (&&&&&::bridge_runtime::abi::ErrProbe::<#err>::new(e)).make_error()
    };
    quote! {{
        #[allow(unused_imports)]
        use ::bridge_runtime::abi::{
            ErrData as _, ErrMessage as _, ErrUnfit as _, ErrValue as _, ErrWbgValue as _,
        };
        #into_error
    }}
}

/// The exports of the closure or iterator `spec` returns, if it does (`arity`: the
/// callee's argument count, the receiver included).
fn returned_closure(spec: &ThunkSpec, arity: usize) -> TokenStream {
    let Some(closure) = &spec.ret.closure else {
        return quote! {};
    };
    let cb = &closure.info;
    let what = match cb.pull {
        Some(_) => "iterator",
        None => "closure",
    };
    // As the glue names it (`makeAdder`, `Class.method`).
    let label = MessageName::of(spec).map(|member| match &spec.class {
        Some(class) => format!(
            "the {what} returned by {}.{member}",
            quote!(#class).to_string().replace(' ', "")
        ),
        None => format!("the {what} returned by {member}"),
    });
    match &cb.pull {
        Some(pull) => iterator_exports(spec, closure, pull, &label, arity),
        None => closure_exports(&spec.symbol, &spec.ident, closure, &label),
    }
}

/// Whether a type may borrow: a lifetime other than `'static` or a reference without one.
fn borrows(ty: &syn::Type) -> bool {
    use proc_macro2::TokenTree;
    fn scan(tokens: TokenStream) -> bool {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        tokens.iter().enumerate().any(|(i, t)| match t {
            // `&` without a `'static` after it.
            TokenTree::Punct(p) if p.as_char() == '&' => {
                !matches!(tokens.get(i + 1), Some(TokenTree::Punct(q)) if q.as_char() == '\'')
            }
            // A lifetime other than `'static`.
            TokenTree::Punct(p) if p.as_char() == '\'' => {
                !matches!(tokens.get(i + 1), Some(TokenTree::Ident(id)) if id == "static")
            }
            TokenTree::Group(g) => scan(g.stream()),
            _ => false,
        })
    }
    scan(quote! { #ty })
}

/// The extra exports of an export `symbol` returning a Rust closure: `#closure-call`
/// (the closure's address, then its parameters, lifted like an export's; its result
/// lowered like an export's) and `#closure-drop`.
/// `label` names the closure in error messages.
fn closure_exports(
    symbol: &str,
    ident: &Ident,
    closure: &RustClosure,
    label: &MessageName,
) -> TokenStream {
    let info = &closure.info;
    let helper = format_ident!("{}_closure_invoke", ident);
    let arg_names = callback::arg_names(info);
    let arg_tys = info.params.iter().map(|(_, t)| t);
    let ret = match &info.ret_ty {
        Some(t) => quote! { -> #t },
        None => quote! {},
    };
    let mut params = vec![ThunkParam::scalar("closure", Scalar::U32)];
    params.extend(closure.params.iter().cloned());
    let call = call_thunk(symbol, ident, &helper, closure, label, params);
    let (body, free) = closure_call(info, &arg_names, label);
    // Lent (`Form::Ref`/`Form::Mut`): only callable while the import runs; nothing to free.
    let drop = free.map(|free| {
        let drop_symbol = bridge_schema::closure_drop_export(symbol);
        let drop_ident = format_ident!("{}_closure_drop", ident);
        quote! {
            #[unsafe(export_name = #drop_symbol)]
            #[allow(non_snake_case, clippy::all)]
            unsafe extern "C" fn #drop_ident(addr: u32) {
                // SAFETY: as above; the glue frees each closure once.
                unsafe { #free(addr) }
            }
        }
    });
    quote! {
        #[allow(non_snake_case, clippy::all)]
        fn #helper(__closure: u32, #(#arg_names: #arg_tys),*) #ret { #body }
        #call
        #drop
    }
}

/// How the invoke helper of a returned closure of `info.form` reaches and calls it, and
/// the function that frees it (`None`: a lent closure, which JS never frees).
fn closure_call(
    info: &CallbackInfo,
    arg_names: &[Ident],
    label: &MessageName,
) -> (TokenStream, Option<TokenStream>) {
    let dyn_ty = &info.dyn_ty;
    let rt = quote! { ::bridge_runtime::js::closure };
    match info.form {
        Form::Boxed => (
            quote! {
                // SAFETY: the glue passes the address `into_abi` gave for this export's
                // closure type, while it is live, and never while the closure runs.
                let __f = unsafe { #rt::get::<#dyn_ty>(__closure) };
                __f(#(#arg_names),*)
            },
            Some(quote! { #rt::free::<#dyn_ty> }),
        ),
        Form::Once => {
            let twice = label
                .map(|label| format!("{label} was already called: a `FnOnce` closure runs once"));
            (
                quote! {
                    // SAFETY: as for `get`, from `into_abi_once`.
                    match unsafe { #rt::take_once::<#dyn_ty>(__closure) } {
                        ::core::option::Option::Some(__f) => __f(#(#arg_names),*),
                        // A call that took it threw before the glue saw it return.
                        ::core::option::Option::None => ::bridge_runtime::abi::throw(
                            ::bridge_runtime::abi::BridgeError::new(
                                ::std::string::String::from(#twice),
                            ),
                        ),
                    }
                },
                Some(quote! { #rt::free_once::<#dyn_ty> }),
            )
        }
        Form::Ref | Form::Mut => {
            let get = match info.form {
                Form::Ref => quote! { get_lent },
                _ => quote! { get_lent_mut },
            };
            let body = quote! {
                // SAFETY: the glue passes the slot address `lend` gave, only until the
                // import it was lent to returns, and never while the closure runs.
                let __f = unsafe { #rt::#get::<#dyn_ty>(__closure) };
                __f(#(#arg_names),*)
            };
            (body, None)
        }
    }
}

/// The exports of an iterator the export `spec` returns (as the closure `info` its
/// `next()` calls, `Box<dyn FnMut() -> Option<T>>`, is classified; one call returns
/// `pull`): `#closure-call` pulls one item, `#closure-drop` frees it, both monomorphic in
/// the iterator's type, so a pull is a direct call. The type is inferred from the callee
/// (called with `arity` arguments, the receiver included) by a generic `fn`: an
/// `impl Iterator` has no name to write.
fn iterator_exports(
    spec: &ThunkSpec,
    closure: &RustClosure,
    pull: &Pull,
    label: &MessageName,
    arity: usize,
) -> TokenStream {
    let info = &closure.info;
    let (symbol, ident, callee) = (&spec.symbol, &spec.ident, &spec.callee);
    // The callee returns `Result<iterator, E>` (its `Ok` the type is inferred through).
    let fallible = matches!(spec.ret.ty, Ty::Result(..));
    let rt = quote! { ::bridge_runtime::js::iterator };
    let of = format_ident!("{}_iter_type", ident);
    let helper = format_ident!("{}_closure_invoke", ident);
    let item = &pull.item;
    let span = syn::spanned::Spanned::span(item);
    let ret = match &pull.error {
        Some(err) => quote::quote_spanned! {span=>
            ::core::result::Result<::core::option::Option<#item>, #err>
        },
        None => quote::quote_spanned! {span=> ::core::option::Option<#item> },
    };
    let arg_tys: Vec<Ident> = (0..arity).map(|i| format_ident!("__A{}", i)).collect();
    let params = vec![ThunkParam::scalar("closure", Scalar::U32)];
    let call = call_thunk(symbol, ident, &helper, closure, label, params);
    // Items `Result<T, E>`: the pull returns `Result<Option<T>, E>`, its `Err` thrown.
    let transpose = match info.ret.ty {
        Ty::Result(..) => quote! { ::core::option::Option::transpose(__item) },
        _ => quote! { __item },
    };
    let drop_symbol = bridge_schema::closure_drop_export(symbol);
    let drop_ident = format_ident!("{}_closure_drop", ident);
    let (returns, err) = if fallible {
        (quote! { ::core::result::Result<__I, __E> }, quote! { __E, })
    } else {
        (quote! { __I }, quote! {})
    };
    quote! {
        // The type of the iterators `callee` returns (its arguments' types inferred too).
        #[allow(non_snake_case, clippy::all)]
        fn #of<__F, __I, #err #(#arg_tys),*>(_: &__F) -> #rt::IterType<__I>
        where
            __F: ::core::ops::FnOnce(#(#arg_tys),*) -> #returns,
        {
            #rt::IterType::inferred()
        }
        #[allow(non_snake_case, clippy::all)]
        fn #helper(__closure: u32) -> #ret {
            // SAFETY: the glue passes the address `into_abi` gave for this export's
            // iterator, while it is live, and never while a pull runs.
            let __item = unsafe { #rt::next(#of(&#callee), __closure) };
            #transpose
        }
        #call
        #[unsafe(export_name = #drop_symbol)]
        #[allow(non_snake_case, clippy::all)]
        unsafe extern "C" fn #drop_ident(addr: u32) {
            // SAFETY: as above; the glue frees each iterator once.
            unsafe { #rt::free(#of(&#callee), addr) }
        }
    }
}

/// The `#closure-call` export of `symbol`'s closure or iterator: a thunk calling
/// `helper` with the closure's address and `params` (after it), its result the closure's.
fn call_thunk(
    symbol: &str,
    ident: &Ident,
    helper: &Ident,
    closure: &RustClosure,
    label: &MessageName,
    params: Vec<ThunkParam>,
) -> TokenStream {
    thunk(&ThunkSpec {
        symbol: bridge_schema::closure_call_export(symbol),
        ident: format_ident!("{}_closure_call", ident),
        callee: Callee::Named(helper.clone()),
        class: None,
        member: label.js.clone(),
        as_written: label.as_written.clone(),
        receiver: Receiver::None,
        params,
        moves: false,
        ret: closure.info.ret.clone(),
        lower: closure.lower,
        asynchronous: None,
        refuses_released: false,
    })
}

/// The exports of the Rust closures the JS call `call` passes (argument `i`'s
/// `<symbol>#a<i>#closure-call`, see `bridge_schema::callback_symbol`); `prefix` keeps the
/// Rust names of those exports apart from other calls' in the same scope.
pub fn closures(call: &JsCall, symbol: &str, prefix: &str) -> TokenStream {
    let mut items = TokenStream::new();
    for (index, arg) in call.args.iter().enumerate() {
        if let Lower::Closure(cb) | Lower::Lent(cb) | Lower::OptClosure(cb) = &arg.lower {
            let base = bridge_schema::callback_symbol(symbol, &format!("a{index}"));
            let ident = format_ident!("{}_a{}", prefix, index);
            let name = call.arg_names.get(index).map(String::as_str);
            let hold = match cb.info.form {
                Form::Ref | Form::Mut => bridge_schema::Hold::Lent,
                Form::Once => bridge_schema::Hold::Once,
                Form::Boxed => bridge_schema::Hold::Owned,
            };
            let label = bridge_schema::closure_arg_label(index, name, &call.what, hold);
            let label = MessageName {
                js: label,
                as_written: None,
            };
            items.extend(closure_exports(&base, &ident, cb, &label));
        }
    }
    items
}
