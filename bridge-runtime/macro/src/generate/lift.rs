//! How a thunk lifts each parameter from wasm values and lowers its result.
//!
//! Each parameter's wasm values and prelude, and the result's lowering; the wasm values'
//! declarations come from the lowering table through `abi.rs`. A tuple of scalars is lifted
//! and lowered through the flat area here, asking `lowering::flat_tuple`.

use super::abi;
use crate::model::ty::TyInfo;
use crate::model::ty::{Elem, OptLift, ParamLift, ResultLift, ResultValue};
use bridge_schema::lowering::Part;
use bridge_schema::{Scalar, Ty};
use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, format_ident, quote};

/// A parameter's wasm parameters, the prelude binding its Rust value, and the argument
/// expression passed to the callee.
pub struct Lifted {
    pub wasm_params: Vec<TokenStream>,
    pub prelude: TokenStream,
    pub arg: TokenStream,
}

/// Whether the thunk owns a parameter's value and the call only borrows it.
pub fn kept_by_thunk(info: &TyInfo) -> bool {
    match &info.ty {
        Ty::Str | Ty::JsValueRef => true,
        Ty::Vec(_) => info.slice,
        Ty::Option(inner) => **inner == Ty::Str,
        _ => false,
    }
}

/// Convert a wasm scalar to its Rust type (a `char` is checked and may fail with `?`).
fn from_abi(s: Scalar, value: TokenStream) -> TokenStream {
    abi::lift_scalar(s, value, abi::OnBad::Return)
}

/// What a refused borrow does (see `thunk::thunk`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum OnRefusal {
    /// Returns the error (`?`).
    Return,
    /// Traps: only where nothing is owned or borrowed yet.
    Trap,
    /// Traps, and refuses address 0 as a released receiver (the glue passes it
    /// unchecked: `ThunkSpec::refuses_released`).
    TrapReleased,
}

/// `let [mut] binding = <borrow of the class object at addr>`: shared or exclusive; a
/// refusal returns the error or traps (`on_refusal`).
pub fn borrow_prelude(
    binding: &Ident,
    class: &impl ToTokens,
    addr: &Ident,
    site: &TokenStream,
    exclusive: bool,
    on_refusal: OnRefusal,
    guard: u32,
) -> TokenStream {
    let rt = quote!(::bridge_runtime::abi);
    let (mutability, borrow) = match (exclusive, on_refusal) {
        (false, OnRefusal::Return) => (quote!(), quote!(borrow_arg)),
        (false, OnRefusal::Trap) => (quote!(), quote!(borrow_first_arg)),
        (false, OnRefusal::TrapReleased) => (quote!(), quote!(borrow_receiver)),
        (true, OnRefusal::Return) => (quote!(mut), quote!(borrow_mut_arg)),
        (true, OnRefusal::Trap) => (quote!(mut), quote!(borrow_mut_first_arg)),
        (true, OnRefusal::TrapReleased) => (quote!(mut), quote!(borrow_mut_receiver)),
    };
    let refused = if on_refusal == OnRefusal::Return {
        quote!(?)
    } else {
        quote!()
    };
    if on_refusal == OnRefusal::TrapReleased {
        return quote! { let #mutability #binding = unsafe { #rt::#borrow::<#class, #guard>(#addr, #site) }#refused; };
    }
    // A parameter may be a wasm-bindgen struct: `ArgProbe` (bridge-runtime's abi.rs) picks.
    // The method spanned by the type: a type that is neither is pointed at.
    let method = proc_macro2::Ident::new(&borrow.to_string(), syn::spanned::Spanned::span(class));
    quote! {
        let #mutability #binding = unsafe {
            #[allow(unused_imports)]
            use ::bridge_runtime::js::WbgArgBorrow as _;
            (&&#rt::ArgProbe::<#class, #guard>::NEW).#method(#addr, #site)
        }#refused;
    }
}

/// `(&&ArgProbe::<class, guard>::NEW).<method>(addr, site)`, a `Result` of the borrow: the
/// probe picks a wasm-bindgen type's way or a bridge class's (`borrow_prelude`), its method
/// spanned by the type so that a type that is neither is pointed at.
fn probe_borrow(
    class: &impl ToTokens,
    addr: &Ident,
    site: &TokenStream,
    method: TokenStream,
    guard: u32,
) -> TokenStream {
    let method = proc_macro2::Ident::new(&method.to_string(), syn::spanned::Spanned::span(class));
    quote! {
        unsafe {
            #[allow(unused_imports)]
            use ::bridge_runtime::js::WbgArgBorrow as _;
            (&&::bridge_runtime::abi::ArgProbe::<#class, #guard>::NEW).#method(#addr, #site)
        }
    }
}

/// How the thunk lifts parameter `name` (its wasm values: `abi::params`) as `lift`.
pub fn lift_param(
    name: &Ident,
    info: &TyInfo,
    parts: &[Part],
    lift: ParamLift,
    site: &TokenStream,
    guard: u32,
) -> Lifted {
    let carrier = &info.carrier;
    let from_js = quote! { <#carrier as ::bridge_runtime::FromJs>::Abi };
    let step = step(name, info, lift, site, guard);
    Lifted {
        wasm_params: abi::params(name, &info.ty, parts, &from_js),
        prelude: step.prelude,
        arg: step.arg,
    }
}

/// A user type parameter taken by value (`TakeParam`): its wasm parameters, the prelude
/// beginning the take (a class: checked, refused with `?`), the statement finishing it
/// (a class: the value moves out of its box), and the argument.
pub struct Taken {
    pub wasm_params: Vec<TokenStream>,
    pub prelude: TokenStream,
    pub finish: TokenStream,
    pub arg: TokenStream,
}

pub fn take_param(name: &Ident, info: &TyInfo, parts: &[Part], site: &TokenStream) -> Taken {
    let carrier = &info.carrier;
    let take = quote! { <#carrier as ::bridge_runtime::abi::TakeParam> };
    let wasm_params = abi::params(name, &info.ty, parts, &quote! { #take::Abi });
    let rt = quote!(::bridge_runtime::abi);
    let (prelude, finish) = if matches!(info.ty, Ty::Option(_)) {
        let some = format_ident!("{}_is_some", name);
        (
            quote! { let #name = unsafe { #rt::begin_take_opt::<#carrier>(#some, #name, #site) }?; },
            quote! { let #name = #name.map(#take::finish); },
        )
    } else {
        (
            quote! { let #name = unsafe { #take::begin(#name, #site) }?; },
            quote! { let #name = #take::finish(#name); },
        )
    };
    Taken {
        wasm_params,
        prelude,
        finish,
        arg: quote! { #name },
    }
}

/// The prelude binding a parameter's Rust value, and the argument expression.
struct Step {
    prelude: TokenStream,
    arg: TokenStream,
}

fn step(name: &Ident, info: &TyInfo, lift: ParamLift, site: &TokenStream, guard: u32) -> Step {
    let len = format_ident!("{}_len", name);
    let cap = format_ident!("{}_cap", name);
    let class = &info.named;
    let carrier = &info.carrier;
    let rt = quote!(::bridge_runtime::abi);
    let prelude = match lift {
        // A tuple of scalars: in the flat area from the slot a tagged value names, or
        // (the glue ran out of slots) on the wire.
        ParamLift::Flat => quote! {
            let #name = match ::bridge_runtime::flat::param_slot(#name) {
                ::core::option::Option::Some(at) => ::bridge_runtime::flat::FlatTuple::get(at),
                ::core::option::Option::None => unsafe { ::bridge_runtime::wire::read_at(#name) }?,
            };
        },
        // JS wrote the value into the wire's in-buffer at offset `#name`.
        ParamLift::Wire => quote! {
            let #name = unsafe { ::bridge_runtime::wire::read_at(#name) }?;
        },
        ParamLift::Scalar(s) => {
            let conv = from_abi(s, quote!(#name));
            quote! { let #name = #conv; }
        }
        ParamLift::Str { borrowed } => {
            return Step {
                prelude: quote! { let #name = unsafe { #rt::lift_string(#name, #len, #cap) }; },
                arg: if borrowed {
                    quote! { &#name }
                } else {
                    quote! { #name }
                },
            };
        }
        ParamLift::ClassRef => {
            return Step {
                prelude: borrow_prelude(name, class, name, site, false, OnRefusal::Return, guard),
                arg: quote! { &*#name },
            };
        }
        ParamLift::ClassMut => {
            return Step {
                prelude: borrow_prelude(name, class, name, site, true, OnRefusal::Return, guard),
                arg: quote! { &mut *#name },
            };
        }
        ParamLift::Named => {
            quote! { let #name = unsafe { <#carrier as ::bridge_runtime::FromJs>::from_param(#name) }; }
        }
        ParamLift::Optional(opt) => return optional_step(name, opt, info, site, guard),
        ParamLift::JsValue => quote! { let #name = ::bridge_runtime::JsValue::from_abi(#name); },
        ParamLift::JsValueRef => {
            return Step {
                prelude: quote! { let #name = ::bridge_runtime::JsValue::from_abi(#name); },
                arg: quote! { &#name },
            };
        }
        ParamLift::Vec(elem) => return vec_step(name, elem, info),
        // A buffer JS allocated, copies back from and frees after the call.
        ParamLift::SliceMut(s) => {
            let rust = abi::rust(s);
            quote! { let #name = unsafe { #rt::lift_slice_mut::<#rust>(#name, #len) }; }
        }
    };
    Step {
        prelude,
        arg: quote! { #name },
    }
}

/// The step of an `Option` parameter: a flag (`_is_some`), then the value.
fn optional_step(
    name: &Ident,
    opt: OptLift,
    info: &TyInfo,
    site: &TokenStream,
    guard: u32,
) -> Step {
    let len = format_ident!("{}_len", name);
    let cap = format_ident!("{}_cap", name);
    let some = format_ident!("{}_is_some", name);
    let class = &info.named;
    let carrier = &info.carrier;
    let rt = quote!(::bridge_runtime::abi);
    match opt {
        OptLift::Scalar(s) => {
            let conv = from_abi(s, quote!(#name));
            Step {
                prelude: quote! { let #name = if #some != 0 { Some(#conv) } else { None }; },
                arg: quote! { #name },
            }
        }
        OptLift::Str { borrowed } => Step {
            prelude: quote! { let #name = unsafe { #rt::lift_opt_string(#name, #len, #cap) }; },
            arg: if borrowed {
                quote! { #name.as_deref() }
            } else {
                quote! { #name }
            },
        },
        // Like every optional user type: a flag, then the value, borrowed as `&T` is
        // (`ArgProbe`: a bridge class, a wasm-bindgen struct's lent pointer, or any other
        // wasm-bindgen type converted as by value and lent from the thunk).
        OptLift::ClassRef => {
            let borrow = probe_borrow(class, name, site, quote!(borrow_arg), guard);
            Step {
                prelude: quote! {
                    let #name = if #some == 0 { None } else { Some(#borrow?) };
                },
                arg: quote! { #name.as_deref() },
            }
        }
        OptLift::ClassMut => {
            let borrow = probe_borrow(class, name, site, quote!(borrow_mut_arg), guard);
            Step {
                prelude: quote! {
                    let mut #name = if #some == 0 { None } else { Some(#borrow?) };
                },
                arg: quote! { #name.as_deref_mut() },
            }
        }
        OptLift::Named => Step {
            prelude: quote! { let #name = unsafe { #rt::lift_opt_named::<#carrier>(#some, #name) }; },
            arg: quote! { #name },
        },
    }
}

/// The step of a `Vec` parameter (also a `&[T]` or `Box<[T]>`) of `elem`s, copied in.
fn vec_step(name: &Ident, elem: Elem, info: &TyInfo) -> Step {
    let len = format_ident!("{}_len", name);
    let carrier = &info.carrier;
    let rt = quote!(::bridge_runtime::abi);
    let prelude = match elem {
        Elem::Named => {
            quote! { let #name = unsafe { #rt::lift_named_vec::<#carrier>(#name, #len) }; }
        }
        Elem::Number(s) => {
            let rust = abi::rust(s);
            quote! { let #name = unsafe { #rt::lift_vec::<#rust>(#name, #len) }; }
        }
    };
    Step {
        prelude,
        arg: if info.slice {
            quote! { &#name }
        } else if info.boxed {
            quote! { #name.into_boxed_slice() }
        } else {
            quote! { #name }
        },
    }
}

/// The thunk's return signature and the statements lowering `__value` as `lift`.
pub fn lower_return(info: &TyInfo, lift: ResultLift) -> (TokenStream, TokenStream) {
    let carrier = &info.carrier;
    let into = quote! { <#carrier as ::bridge_runtime::IntoJs> };
    let sig = abi::result(&info.ty, lift.part, &quote! { #into::Abi });
    let value = lower(info, lift.value);
    let lower = if lift.into_vec {
        quote! { let __value = __value.into_vec(); #value }
    } else {
        value
    };
    (sig, lower)
}

/// The statements lowering `__value`, a value of `info` (a `Result`'s `Ok`).
fn lower(info: &TyInfo, value: ResultValue) -> TokenStream {
    let rt = quote!(::bridge_runtime::abi);
    let carrier = &info.carrier;
    let into = quote! { <#carrier as ::bridge_runtime::IntoJs> };
    match value {
        ResultValue::Flat => quote! { ::bridge_runtime::flat::FlatTuple::put(__value, 0) },
        ResultValue::Wire => quote! { ::bridge_runtime::wire::ret(__value) },
        ResultValue::View => quote! { #rt::ret_view(__value) },
        ResultValue::Unit => quote! { let () = __value; },
        ResultValue::Scalar(s) => {
            let abi = abi::wasm(s);
            quote! { __value as #abi }
        }
        ResultValue::String => quote! { #rt::ret_string(__value) },
        ResultValue::JsValue => quote! { __value.into_abi() },
        ResultValue::Closure { once: true } => {
            quote! { ::bridge_runtime::js::closure::into_abi_once(__value) }
        }
        ResultValue::Closure { once: false } => {
            quote! { ::bridge_runtime::js::closure::into_abi(__value) }
        }
        // The thunk boxed the iterator while the guards lived: this is its address.
        ResultValue::Iterator => quote! { __value },
        ResultValue::Named => quote! { #into::into_ret(__value) },
        ResultValue::OptScalar(s) => {
            let abi = abi::wasm(s);
            quote! { #rt::ret_option(__value) as #abi }
        }
        ResultValue::OptString => quote! { #rt::ret_opt_string(__value) },
        ResultValue::OptNamed => quote! { #rt::ret_opt_named::<#carrier>(__value) },
        ResultValue::Vec { named: true } => quote! { #rt::ret_named_vec::<#carrier>(__value) },
        ResultValue::Vec { named: false } => quote! { #rt::ret_vec(__value) },
    }
}
