//! The Rust side of a call into JS, shared by `#[bridge] extern` imports and callback
//! parameters: arguments are lowered to wasm values (the glue lifts them, the way it lifts
//! an export's result), the raw import is called, and its result is lifted (the glue
//! lowers it, the way it lowers an export's parameter).
//!
//! Class handles go through `abi::lower_class`, so they reach JS through the class's
//! identity hook exactly like a returned class: `===` the wrapper JS holds, joining an
//! active pool.

use crate::types::TyInfo;
use bridge_schema::Ty;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// What the generated code needs to declare and call one raw JS import.
pub struct JsCall {
    /// Parameters of the raw import, after any leading ones the caller adds.
    pub raw_params: Vec<TokenStream>,
    /// `-> T` of the raw import, or nothing.
    pub raw_ret: TokenStream,
    /// Statements lowering the Rust arguments (named as in `params`).
    pub lowering: Vec<TokenStream>,
    pub raw_args: Vec<TokenStream>,
    /// The Rust result, from the raw result `__raw`.
    pub lift: TokenStream,
    pub catch: bool,
}

/// The wasm type a scalar travels as.
fn scalar_abi(ty: &Ty) -> Option<TokenStream> {
    Some(match ty {
        Ty::Bool | Ty::U8 | Ty::U16 | Ty::U32 => quote!(u32),
        Ty::I8 | Ty::I16 | Ty::I32 => quote!(i32),
        Ty::F32 => quote!(f32),
        Ty::F64 => quote!(f64),
        Ty::I64 => quote!(i64),
        Ty::U64 => quote!(u64),
        _ => return None,
    })
}

fn scalar_rust(ty: &Ty) -> TokenStream {
    match ty {
        Ty::Bool => quote!(bool),
        Ty::I8 => quote!(i8),
        Ty::I16 => quote!(i16),
        Ty::I32 => quote!(i32),
        Ty::U8 => quote!(u8),
        Ty::U16 => quote!(u16),
        Ty::U32 => quote!(u32),
        Ty::F32 => quote!(f32),
        Ty::F64 => quote!(f64),
        Ty::I64 => quote!(i64),
        _ => quote!(u64),
    }
}

/// `what` names the function for error messages (`import `log``).
pub fn build(
    params: &[(Ident, TyInfo, &syn::Type)],
    ret: &TyInfo,
    ret_ty: Option<&syn::Type>,
    catch: bool,
    what: &str,
) -> syn::Result<JsCall> {
    let rt = quote!(::bridge_runtime::abi);
    let mut call = JsCall {
        raw_params: Vec::new(),
        raw_ret: TokenStream::new(),
        lowering: Vec::new(),
        raw_args: Vec::new(),
        lift: TokenStream::new(),
        catch,
    };
    for (name, info, ty) in params {
        let len = format_ident!("{}_len", name);
        let some = format_ident!("{}_is_some", name);
        let bad = |why: &str| {
            Err(crate::types::unsupported(
                ty,
                &format!("{what} cannot take it: {why}"),
            ))
        };
        match &info.ty {
            t if scalar_abi(t).is_some() => {
                let abi = scalar_abi(t).unwrap();
                call.raw_params.push(quote! { #name: #abi });
                call.raw_args.push(quote! { #name as #abi });
            }
            Ty::Str | Ty::String => {
                call.raw_params.push(quote! { #name: u32 });
                call.raw_params.push(quote! { #len: u32 });
                call.raw_args.push(quote! { #name.as_ptr() as u32 });
                call.raw_args.push(quote! { #name.len() as u32 });
            }
            // A user type (a class handle: through its identity hook, like a returned class).
            Ty::Named(_) => {
                let carrier = &info.carrier;
                call.raw_params
                    .push(quote! { #name: <#carrier as ::bridge_runtime::IntoJs>::Abi });
                call.raw_args
                    .push(quote! { ::bridge_runtime::IntoJs::into_abi(#name) });
            }
            Ty::JsValue => {
                call.raw_params.push(quote! { #name: u32 });
                call.raw_args.push(quote! { #name.into_abi() });
            }
            Ty::JsValueRef => {
                call.raw_params.push(quote! { #name: u32 });
                call.raw_args.push(quote! { #name.abi() });
            }
            Ty::Option(inner) => match &**inner {
                t if scalar_abi(t).is_some() => {
                    let abi = scalar_abi(t).unwrap();
                    call.raw_params.push(quote! { #some: u32 });
                    call.raw_params.push(quote! { #name: #abi });
                    call.lowering.push(quote! {
                        let (#some, #name): (u32, #abi) = match #name {
                            ::core::option::Option::Some(v) => (1, v as #abi),
                            ::core::option::Option::None => (0, 0 as #abi),
                        };
                    });
                    call.raw_args.push(quote! { #some });
                    call.raw_args.push(quote! { #name });
                }
                Ty::Str | Ty::String => {
                    call.raw_params.push(quote! { #name: u32 });
                    call.raw_params.push(quote! { #len: u32 });
                    call.lowering.push(quote! {
                        let (#name, #len) = match &#name {
                            ::core::option::Option::Some(s) => (s.as_ptr() as u32, s.len() as u32),
                            ::core::option::Option::None => (0u32, 0u32),
                        };
                    });
                    call.raw_args.push(quote! { #name });
                    call.raw_args.push(quote! { #len });
                }
                Ty::Named(_) => {
                    let carrier = &info.carrier;
                    let abi = quote! { <#carrier as ::bridge_runtime::IntoJs>::Abi };
                    call.raw_params.push(quote! { #some: u32 });
                    call.raw_params.push(quote! { #name: #abi });
                    call.lowering.push(quote! {
                        let (#some, #name): (u32, #abi) = match #name {
                            ::core::option::Option::Some(v) => (1, ::bridge_runtime::IntoJs::into_abi(v)),
                            ::core::option::Option::None => (0, ::core::default::Default::default()),
                        };
                    });
                    call.raw_args.push(quote! { #some });
                    call.raw_args.push(quote! { #name });
                }
                _ => return bad("take Option of a number, bool, string or Handle<C>"),
            },
            Ty::ClassRef(_) | Ty::ClassMut(_) => {
                return bad("pass a class as Handle<C> (JS may keep the object)");
            }
            _ => {
                return bad(
                    "JS functions take numbers, bool, strings, Option of those, Handle<C>, \
                     JsValue and &JsValue",
                );
            }
        }
    }
    let ret_bad = |why: &str| match ret_ty {
        Some(t) => Err(crate::types::unsupported(
            t,
            &format!("{what} cannot return it: {why}"),
        )),
        None => unreachable!("() is always supported"),
    };
    let (raw_ret, lift) = match &ret.ty {
        Ty::Unit => (quote! {}, quote! { let () = __raw; }),
        t if scalar_abi(t).is_some() => {
            let abi = scalar_abi(t).unwrap();
            let rust = scalar_rust(t);
            let conv = if *t == Ty::Bool {
                quote! { __raw != 0 }
            } else {
                quote! { __raw as #rust }
            };
            (quote! { -> #abi }, conv)
        }
        Ty::String => (
            quote! {},
            quote! { { let () = __raw; unsafe { #rt::take_ret_string() }.unwrap_or_default() } },
        ),
        Ty::JsValue => (
            quote! { -> u32 },
            quote! { ::bridge_runtime::JsValue::from_abi(__raw) },
        ),
        Ty::Named(_) => {
            let carrier = &ret.carrier;
            (
                quote! { -> <#carrier as ::bridge_runtime::FromJs>::Abi },
                // SAFETY: the glue checked the value (for a class: a live wrapper's address).
                quote! { unsafe { <#carrier as ::bridge_runtime::FromJs>::from_abi(__raw) } },
            )
        }
        Ty::Option(inner) => match &**inner {
            t if scalar_abi(t).is_some() => {
                let abi = scalar_abi(t).unwrap();
                let rust = scalar_rust(t);
                let conv = if **inner == Ty::Bool {
                    quote! { __raw != 0 }
                } else {
                    quote! { __raw as #rust }
                };
                (
                    quote! { -> #abi },
                    quote! { #rt::ret_is_some().then(|| #conv) },
                )
            }
            Ty::String => (
                quote! {},
                quote! { { let () = __raw; unsafe { #rt::take_ret_string() } } },
            ),
            Ty::Named(_) => {
                let carrier = &ret.carrier;
                (
                    quote! { -> <#carrier as ::bridge_runtime::FromJs>::Abi },
                    quote! {
                        #rt::ret_is_some()
                            .then(|| unsafe { <#carrier as ::bridge_runtime::FromJs>::from_abi(__raw) })
                    },
                )
            }
            _ => return ret_bad("return Option of a number, bool, String or Handle<C>"),
        },
        _ => {
            return ret_bad(
                "JS functions return numbers, bool, String, Option of those, Handle<C> and \
                 JsValue",
            );
        }
    };
    call.raw_ret = raw_ret;
    call.lift = lift;
    Ok(call)
}

impl JsCall {
    /// Declaration of the raw import `ident` (`module`/`symbol`), with `leading` parameters
    /// first. On the host it is a stub that panics: there is no JS to call.
    pub fn declare(
        &self,
        ident: &Ident,
        module: &str,
        symbol: &str,
        leading: &[TokenStream],
    ) -> TokenStream {
        let params = leading.iter().chain(&self.raw_params);
        let params2 = params.clone();
        let ret = &self.raw_ret;
        let message = format!(
            "the JS function `{symbol}` can only be called from wasm built by cargo bridge"
        );
        quote! {
            #[cfg(target_arch = "wasm32")]
            #[link(wasm_import_module = #module)]
            unsafe extern "C" {
                #[link_name = #symbol]
                fn #ident(#(#params),*) #ret;
            }
            #[cfg(not(target_arch = "wasm32"))]
            #[allow(unused_variables, clippy::all)]
            unsafe fn #ident(#(#params2),*) #ret {
                ::core::panic!(#message)
            }
        }
    }

    /// Statements calling the raw import `ident` (with `leading` arguments first) and
    /// evaluating to the Rust result.
    pub fn invoke(&self, ident: &Ident, leading: &[TokenStream]) -> TokenStream {
        let lowering = &self.lowering;
        let args = leading.iter().chain(&self.raw_args);
        let lift = &self.lift;
        if self.catch {
            quote! {
                #(#lowering)*
                ::bridge_runtime::js::clear_exception();
                // SAFETY: the glue implements the import with this signature.
                let __raw = unsafe { #ident(#(#args),*) };
                ::bridge_runtime::js::caught(move || { #lift })
            }
        } else {
            quote! {
                #(#lowering)*
                // SAFETY: the glue implements the import with this signature.
                let __raw = unsafe { #ident(#(#args),*) };
                #lift
            }
        }
    }
}

/// `Result<T, JsError>`: the `T`, if `ty` is that.
pub fn result_of_js_error(ty: &syn::Type) -> Option<&syn::Type> {
    let syn::Type::Path(p) = ty else { return None };
    let seg = p.path.segments.last()?;
    if seg.ident != "Result" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
        return None;
    };
    let mut args = a.args.iter();
    let (Some(syn::GenericArgument::Type(ok)), Some(syn::GenericArgument::Type(err)), None) =
        (args.next(), args.next(), args.next())
    else {
        return None;
    };
    matches!(err, syn::Type::Path(e) if e.path.segments.last().is_some_and(|s| s.ident == "JsError"))
        .then_some(ok)
}
