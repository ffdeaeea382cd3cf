//! The `extern "C"` export thunk of one function: wasm parameters in, Rust call, wasm
//! result out. Borrow guards live inside a closure so that every guard is dropped before
//! an error is thrown to JS or the result is lowered.

use crate::types::TyInfo;
use bridge_schema::Ty;
use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, format_ident, quote};

/// How the thunk reaches the object a method is called on.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Receiver {
    None,
    /// `&self`
    Ref,
    /// `&mut self`
    Mut,
    /// `this: &Handle<Self>`
    Handle,
}

pub struct ThunkSpec<'a> {
    /// The wasm export name (see `bridge_schema::member_symbol`).
    pub symbol: String,
    /// The thunk's Rust name, unique in its `const _` block.
    pub ident: Ident,
    /// `Counter::inc` or `add`: the path to call.
    pub callee: TokenStream,
    /// The class (for receivers and error messages); `None` for free functions.
    pub class: Option<&'a syn::Type>,
    pub member: String,
    pub receiver: Receiver,
    /// JS name and type of each parameter.
    pub params: Vec<(String, TyInfo)>,
    pub ret: TyInfo,
}

pub fn generate(spec: &ThunkSpec) -> TokenStream {
    let mut wasm_params = Vec::new();
    let mut preludes = Vec::new();
    let mut args = Vec::new();
    let class_name = match spec.class {
        Some(ty) => quote! { <#ty as ::bridge_runtime::BridgeClass>::NAME },
        None => quote! { "" },
    };
    let member = &spec.member;
    let site = |param: &str| {
        quote! { &::bridge_runtime::abi::ArgSite { class: #class_name, member: #member, param: #param } }
    };

    // Preludes run in two groups: first the lifts of owned values (infallible), then the
    // steps that can refuse (borrows, wire reads, chars), so an early `?` return drops
    // everything the call already owns (a String argument is not leaked by a refused
    // borrow). A thunk that owns nothing may trap on a refused *first* borrow instead
    // (`borrow_first_arg`): its hot path then calls nothing, and V8 gives a call-free wasm
    // function no stack check. A trap runs no destructors, hence "owns nothing".
    let owns_nothing = !matches!(spec.receiver, Receiver::Handle)
        && spec.params.iter().all(|(_, info)| {
            info.callback.is_none()
                && (scalar(&info.ty).is_some()
                    || matches!(info.ty, Ty::ClassRef(_) | Ty::ClassMut(_)))
        });
    let mut owned = Vec::new();
    let mut checks = Vec::new();
    // Owned values the call only borrows (`&str`, `&[T]`, `&JsValue`, `this: &Handle<Self>`):
    // moved into new bindings after the checks, so they drop before the borrow guards (a
    // `Handle`'s `Drop` may free an object and run user code, which may panic or throw: the
    // glue then ends this call's borrows, which must still be live). A refusal returns
    // before the moves, when no user code has run and JS still holds every object.
    let mut kept = Vec::new();
    // Borrow guards are numbered in the order they are taken (receiver, then parameters),
    // the order of the glue's list of what to end (`FnView::borrows`).
    let mut guards: u32 = 0;
    // A borrow guard is live from here on: a later refusal must return, not trap.
    let mut borrowed_before = matches!(spec.receiver, Receiver::Ref | Receiver::Mut);
    let rt = quote! { ::bridge_runtime::abi };

    if let Some(class_ty) = &spec.class {
        let addr = format_ident!("__self_addr");
        let site = site("self");
        match spec.receiver {
            Receiver::None => {}
            Receiver::Ref | Receiver::Mut => {
                let exclusive = spec.receiver == Receiver::Mut;
                let binding = format_ident!("__self");
                wasm_params.push(quote! { #addr: u32 });
                checks.push(borrow_prelude(
                    &binding,
                    class_ty,
                    &addr,
                    &site,
                    exclusive,
                    owns_nothing,
                    guards,
                ));
                guards += 1;
                args.push(if exclusive {
                    quote! { &mut *#binding }
                } else {
                    quote! { &*#binding }
                });
            }
            Receiver::Handle => {
                wasm_params.push(quote! { #addr: u32 });
                owned.push(quote! {
                    let __self = unsafe { #rt::handle_arg::<#class_ty>(#addr) };
                });
                kept.push(format_ident!("__self"));
                args.push(quote! { &__self });
            }
        }
    }

    // Generated names, never the user's: a parameter may be a raw identifier (`r#type`),
    // and `x` beside `x_len` must not collide with a generated `x_len`.
    for (index, (js_name, info)) in spec.params.iter().enumerate() {
        let name = format_ident!("__bridge_arg{}", index);
        if let Some(cb) = &info.callback {
            let symbol = bridge_schema::callback_symbol(&spec.symbol, js_name);
            let (prelude, arg) = crate::callback::lift_param(&name, cb, &symbol);
            wasm_params.push(quote! { #name: u32 });
            owned.push(prelude);
            args.push(arg);
            continue;
        }
        let mut p = lift_param(&name, info, &site(js_name), guards);
        let is_borrow = matches!(info.ty, Ty::ClassRef(_) | Ty::ClassMut(_));
        if owns_nothing && is_borrow && !borrowed_before {
            let exclusive = matches!(info.ty, Ty::ClassMut(_));
            p.prelude = borrow_prelude(
                &name,
                &info.named,
                &name,
                &site(js_name),
                exclusive,
                true,
                guards,
            );
        }
        borrowed_before |= is_borrow;
        if is_borrow || matches!(&info.ty, Ty::Option(inner) if matches!(**inner, Ty::ClassRef(_)))
        {
            guards += 1;
        }
        if kept_by_thunk(info) {
            kept.push(name.clone());
        }
        let can_refuse = scalar(&info.ty).is_some()
            || info.ty.travels_on_wire()
            || is_borrow
            || matches!(&info.ty, Ty::Option(inner) if matches!(**inner, Ty::ClassRef(_)) || scalar(inner).is_some());
        wasm_params.extend(p.wasm_params);
        if can_refuse {
            checks.push(p.prelude);
        } else {
            owned.push(p.prelude);
        }
        args.push(p.arg);
    }
    preludes.extend(owned);
    preludes.extend(checks);
    preludes.extend(kept.iter().map(|name| quote! { let #name = #name; }));

    let (ret_sig, lower) = lower_return(&spec.ret);
    let symbol = &spec.symbol;
    let ident = &spec.ident;
    let callee = &spec.callee;
    let call = quote! { #callee(#(#args),*) };
    // `Err(e)` becomes the error thrown after the closure: every guard is dropped first,
    // so an `Err` leaves nothing borrowed or half-done, and the hot `Ok` path holds no
    // guard across a call (the error is built after the closure). A record or enum `e` is
    // also encoded as the error's `data` (`ErrProbe` picks the way at compile time). An
    // error type that borrows (from `&self`, say) cannot leave the closure: it is turned
    // into the error inside, before the guards drop. After the closure, it is built by
    // `throw_after_guards`, which tells the glue that no guard is live: a `Display` (or
    // `Drop`) that panics or throws must not end the borrows again (they may be an outer
    // call's by then).
    // Spanned at the error type: an unfit one (not `Display`, not `JsValue`) gets
    // `ExportError`'s message pointing at it.
    let to_error = |err: &syn::Type| {
        let span = syn::spanned::Spanned::span(err);
        let into_error = quote::quote_spanned! {span=>
            ::bridge_runtime::abi::ErrProbe::<#err>(e).into_error()
        };
        quote! {{
            #[allow(unused_imports)]
            use ::bridge_runtime::abi::ErrDisplayOnly as _;
            #into_error
        }}
    };
    let (value, after) = match &spec.ret.error {
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
    };
    let closure = match &spec.ret.callback {
        Some(cb) => crate::callback::closure_exports(
            symbol,
            ident,
            cb,
            &format!("the closure returned by {symbol}"),
        ),
        None => quote! {},
    };
    quote! {
        #closure
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

struct Lifted {
    wasm_params: Vec<TokenStream>,
    prelude: TokenStream,
    arg: TokenStream,
}

/// Whether the thunk owns a parameter's value and the call only borrows it.
fn kept_by_thunk(info: &TyInfo) -> bool {
    match &info.ty {
        Ty::Str | Ty::JsValueRef => true,
        Ty::Vec(_) => info.slice,
        Ty::Option(inner) => **inner == Ty::Str,
        _ => false,
    }
}

/// The wasm type a scalar travels as, and its Rust type.
fn scalar(ty: &Ty) -> Option<(TokenStream, TokenStream)> {
    Some(match ty {
        Ty::Bool => (quote!(u32), quote!(bool)),
        Ty::I8 => (quote!(i32), quote!(i8)),
        Ty::I16 => (quote!(i32), quote!(i16)),
        Ty::I32 => (quote!(i32), quote!(i32)),
        Ty::U8 => (quote!(u32), quote!(u8)),
        Ty::U16 => (quote!(u32), quote!(u16)),
        Ty::U32 => (quote!(u32), quote!(u32)),
        Ty::F32 => (quote!(f32), quote!(f32)),
        Ty::F64 => (quote!(f64), quote!(f64)),
        Ty::I64 => (quote!(i64), quote!(i64)),
        Ty::U64 => (quote!(u64), quote!(u64)),
        Ty::Usize => (quote!(u32), quote!(usize)),
        Ty::Isize => (quote!(i32), quote!(isize)),
        Ty::Char => (quote!(u32), quote!(char)),
        _ => return None,
    })
}

/// Convert a wasm scalar to its Rust type (`bool` from 0/1, narrowing casts wrap; a
/// `char` is checked and may fail with `?`).
fn from_abi(ty: &Ty, value: TokenStream) -> TokenStream {
    match ty {
        Ty::Bool => quote! { (#value != 0) },
        Ty::Char => quote! { ::bridge_runtime::abi::lift_char(#value)? },
        _ => {
            let (_, rust) = scalar(ty).expect("scalar");
            quote! { (#value as #rust) }
        }
    }
}

/// `let [mut] binding = <borrow of the class object at addr>`: shared or exclusive; a
/// refusal traps (`trap`: only where nothing is owned or borrowed yet, see `generate`) or
/// returns the error.
fn borrow_prelude(
    binding: &Ident,
    class: &impl ToTokens,
    addr: &Ident,
    site: &TokenStream,
    exclusive: bool,
    trap: bool,
    guard: u32,
) -> TokenStream {
    let rt = quote!(::bridge_runtime::abi);
    let (mutability, borrow) = match (exclusive, trap) {
        (false, false) => (quote!(), quote!(borrow_arg)),
        (false, true) => (quote!(), quote!(borrow_first_arg)),
        (true, false) => (quote!(mut), quote!(borrow_mut_arg)),
        (true, true) => (quote!(mut), quote!(borrow_mut_first_arg)),
    };
    let refused = if trap { quote!() } else { quote!(?) };
    quote! { let #mutability #binding = unsafe { #rt::#borrow::<#class, #guard>(#addr, #site) }#refused; }
}

fn lift_param(name: &Ident, info: &TyInfo, site: &TokenStream, guard: u32) -> Lifted {
    let len = format_ident!("{}_len", name);
    let cap = format_ident!("{}_cap", name);
    let some = format_ident!("{}_is_some", name);
    let class = &info.named;
    let carrier = &info.carrier;
    let rt = quote!(::bridge_runtime::abi);
    match &info.ty {
        // JS wrote the value into the wire's in-buffer at offset `#name`.
        t if t.travels_on_wire() => Lifted {
            wasm_params: vec![quote! { #name: u32 }],
            prelude: quote! {
                let #name = unsafe { ::bridge_runtime::wire::read_at(#name) }?;
            },
            arg: quote! { #name },
        },
        t if scalar(t).is_some() => {
            let (abi, _) = scalar(t).unwrap();
            let conv = from_abi(t, quote!(#name));
            Lifted {
                wasm_params: vec![quote! { #name: #abi }],
                prelude: quote! { let #name = #conv; },
                arg: quote! { #name },
            }
        }
        Ty::String | Ty::Str => Lifted {
            wasm_params: vec![
                quote! { #name: u32 },
                quote! { #len: u32 },
                quote! { #cap: u32 },
            ],
            prelude: quote! { let #name = unsafe { #rt::lift_string(#name, #len, #cap) }; },
            arg: if info.ty == Ty::Str {
                quote! { &#name }
            } else {
                quote! { #name }
            },
        },
        Ty::ClassRef(_) => Lifted {
            wasm_params: vec![quote! { #name: u32 }],
            prelude: borrow_prelude(name, class, name, site, false, false, guard),
            arg: quote! { &*#name },
        },
        Ty::ClassMut(_) => Lifted {
            wasm_params: vec![quote! { #name: u32 }],
            prelude: borrow_prelude(name, class, name, site, true, false, guard),
            arg: quote! { &mut *#name },
        },
        Ty::Named(_) => Lifted {
            wasm_params: vec![quote! { #name: <#carrier as ::bridge_runtime::FromJs>::Abi }],
            prelude: quote! { let #name = unsafe { <#carrier as ::bridge_runtime::FromJs>::from_abi(#name) }; },
            arg: quote! { #name },
        },
        Ty::Option(inner) => match &**inner {
            t if scalar(t).is_some() => {
                let (abi, _) = scalar(t).unwrap();
                let conv = from_abi(t, quote!(#name));
                Lifted {
                    wasm_params: vec![quote! { #some: u32 }, quote! { #name: #abi }],
                    prelude: quote! { let #name = if #some != 0 { Some(#conv) } else { None }; },
                    arg: quote! { #name },
                }
            }
            Ty::String | Ty::Str => Lifted {
                wasm_params: vec![
                    quote! { #name: u32 },
                    quote! { #len: u32 },
                    quote! { #cap: u32 },
                ],
                prelude: quote! { let #name = unsafe { #rt::lift_opt_string(#name, #len, #cap) }; },
                arg: if **inner == Ty::Str {
                    quote! { #name.as_deref() }
                } else {
                    quote! { #name }
                },
            },
            // Like every optional user type: a flag, then the value.
            Ty::ClassRef(_) => Lifted {
                wasm_params: vec![quote! { #some: u32 }, quote! { #name: u32 }],
                prelude: quote! {
                    let #name = if #some == 0 {
                        None
                    } else {
                        Some(unsafe { #rt::borrow_arg::<#class, #guard>(#name, #site) }?)
                    };
                },
                arg: quote! { #name.as_deref() },
            },
            Ty::Named(_) => Lifted {
                wasm_params: vec![
                    quote! { #some: u32 },
                    quote! { #name: <#carrier as ::bridge_runtime::FromJs>::Abi },
                ],
                prelude: quote! { let #name = unsafe { #rt::lift_opt_named::<#carrier>(#some, #name) }; },
                arg: quote! { #name },
            },
            other => unreachable!("Option<{other:?}> was rejected by classify"),
        },
        Ty::JsValue => Lifted {
            wasm_params: vec![quote! { #name: u32 }],
            prelude: quote! { let #name = ::bridge_runtime::JsValue::from_abi(#name); },
            arg: quote! { #name },
        },
        Ty::JsValueRef => Lifted {
            wasm_params: vec![quote! { #name: u32 }],
            prelude: quote! { let #name = ::bridge_runtime::JsValue::from_abi(#name); },
            arg: quote! { &#name },
        },
        Ty::Vec(inner) => {
            let prelude = if matches!(**inner, Ty::Named(_)) {
                quote! { let #name = unsafe { #rt::lift_named_vec::<#carrier>(#name, #len) }; }
            } else {
                let (_, rust) = scalar(inner).expect("Vec of numbers");
                quote! { let #name = unsafe { #rt::lift_vec::<#rust>(#name, #len) }; }
            };
            Lifted {
                wasm_params: vec![quote! { #name: u32 }, quote! { #len: u32 }],
                prelude,
                arg: if info.slice {
                    quote! { &#name }
                } else {
                    quote! { #name }
                },
            }
        }
        other => unreachable!("parameter type {other:?} was rejected by classify"),
    }
}

/// The thunk's return signature and the statements lowering `__value`.
fn lower_return(info: &TyInfo) -> (TokenStream, TokenStream) {
    let rt = quote!(::bridge_runtime::abi);
    let carrier = &info.carrier;
    let into = quote! { <#carrier as ::bridge_runtime::IntoJs> };
    match &info.ty {
        Ty::Result(ok, _) => lower_return(&TyInfo {
            ty: (**ok).clone(),
            ..info.clone()
        }),
        t if t.travels_on_wire() => (quote! {}, quote! { ::bridge_runtime::wire::ret(__value) }),
        Ty::Unit => (quote! {}, quote! { let () = __value; }),
        t if scalar(t).is_some() => {
            let (abi, _) = scalar(t).unwrap();
            (quote! { -> #abi }, quote! { __value as #abi })
        }
        Ty::String => (quote! {}, quote! { #rt::ret_string(__value) }),
        Ty::JsValue => (quote! { -> u32 }, quote! { __value.into_abi() }),
        Ty::Callback(_) => (
            quote! { -> u32 },
            quote! { ::bridge_runtime::js::closure::into_abi(__value) },
        ),
        Ty::Named(_) => (
            quote! { -> #into::Abi },
            quote! { #into::into_abi(__value) },
        ),
        Ty::Option(inner) => match &**inner {
            t if scalar(t).is_some() => {
                let (abi, _) = scalar(t).unwrap();
                (
                    quote! { -> #abi },
                    quote! { #rt::ret_option(__value) as #abi },
                )
            }
            Ty::String => (quote! {}, quote! { #rt::ret_opt_string(__value) }),
            Ty::Named(_) => (
                quote! { -> #into::Abi },
                quote! { #rt::ret_opt_named::<#carrier>(__value) },
            ),
            other => unreachable!("Option<{other:?}> was rejected by classify"),
        },
        Ty::Vec(inner) => {
            if matches!(**inner, Ty::Named(_)) {
                (
                    quote! {},
                    quote! { #rt::ret_named_vec::<#carrier>(__value) },
                )
            } else {
                (quote! {}, quote! { #rt::ret_vec(__value) })
            }
        }
        other => unreachable!("return type {other:?} was rejected by classify"),
    }
}
