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
    /// Items the call needs: the `#closure-call` and `#closure-drop` exports of each Rust
    /// closure passed as an argument.
    pub items: TokenStream,
}

/// The wasm type a scalar travels as.
fn scalar_abi(ty: &Ty) -> Option<TokenStream> {
    Some(match ty {
        Ty::Bool | Ty::U8 | Ty::U16 | Ty::U32 | Ty::Usize | Ty::Char => quote!(u32),
        Ty::I8 | Ty::I16 | Ty::I32 | Ty::Isize => quote!(i32),
        Ty::F32 => quote!(f32),
        Ty::F64 => quote!(f64),
        Ty::I64 => quote!(i64),
        Ty::U64 => quote!(u64),
        _ => return None,
    })
}

/// The Rust value of a scalar the glue returned as `raw` (checked by the glue).
fn scalar_lift(ty: &Ty, raw: TokenStream) -> TokenStream {
    let rust = match ty {
        Ty::Bool => return quote! { #raw != 0 },
        Ty::Char => return quote! { ::bridge_runtime::abi::checked_char(#raw) },
        Ty::I8 => quote!(i8),
        Ty::I16 => quote!(i16),
        Ty::I32 => quote!(i32),
        Ty::U8 => quote!(u8),
        Ty::U16 => quote!(u16),
        Ty::U32 => quote!(u32),
        Ty::F32 => quote!(f32),
        Ty::F64 => quote!(f64),
        Ty::I64 => quote!(i64),
        Ty::Usize => quote!(usize),
        Ty::Isize => quote!(isize),
        _ => quote!(u64),
    };
    quote! { #raw as #rust }
}

/// Whether a value of `ty` crosses encoded on the wire (as its offset there): every
/// vector, and options of anything but scalars, strings and user types. User types decide
/// themselves (`IntoJs::into_js_arg`, `FromJs::from_abi`: records and enums with data are
/// on the wire, classes and fieldless enums travel as their wasm value).
fn on_wire(ty: &Ty) -> bool {
    match ty {
        Ty::Vec(_) => true,
        Ty::Option(inner) => {
            !(scalar_abi(inner).is_some() || matches!(**inner, Ty::Str | Ty::String | Ty::Named(_)))
        }
        _ => false,
    }
}

/// `what` names the function for error messages (`import `log``); `symbol` is the raw
/// import's name, from which the exports of Rust closures passed as arguments are named
/// (`<symbol>#a<index>`, see `bridge_schema::callback_symbol`); `prefix` keeps the Rust
/// names of those exports apart from other calls' in the same scope.
pub fn build(
    params: &[(Ident, TyInfo, &syn::Type)],
    ret: &TyInfo,
    ret_ty: Option<&syn::Type>,
    catch: bool,
    what: &str,
    symbol: &str,
    prefix: &str,
) -> syn::Result<JsCall> {
    let rt = quote!(::bridge_runtime::abi);
    let mut call = JsCall {
        raw_params: Vec::new(),
        raw_ret: TokenStream::new(),
        lowering: Vec::new(),
        raw_args: Vec::new(),
        lift: TokenStream::new(),
        catch,
        items: TokenStream::new(),
    };
    let wire = quote!(__bridge_wire);
    let mut uses_wire = false;
    for (index, (name, info, ty)) in params.iter().enumerate() {
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
            // A user type: a class handle through its identity hook (like a returned
            // class), a fieldless enum as its index, a record or enum with data on the wire.
            Ty::Named(_) => {
                uses_wire = true;
                let carrier = &info.carrier;
                call.raw_params
                    .push(quote! { #name: <#carrier as ::bridge_runtime::IntoJs>::Abi });
                call.lowering.push(quote! {
                    let #name = ::bridge_runtime::IntoJs::into_js_arg(#name, &mut #wire);
                });
                call.raw_args.push(quote! { #name });
            }
            t if on_wire(t) => {
                uses_wire = true;
                call.raw_params.push(quote! { #name: u32 });
                call.lowering.push(quote! { let #name = #wire.put(#name); });
                call.raw_args.push(quote! { #name });
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
                    uses_wire = true;
                    let carrier = &info.carrier;
                    let abi = quote! { <#carrier as ::bridge_runtime::IntoJs>::Abi };
                    call.raw_params.push(quote! { #some: u32 });
                    call.raw_params.push(quote! { #name: #abi });
                    call.lowering.push(quote! {
                        let (#some, #name): (u32, #abi) = match #name {
                            ::core::option::Option::Some(v) => {
                                (1, ::bridge_runtime::IntoJs::into_js_arg(v, &mut #wire))
                            }
                            ::core::option::Option::None => (0, ::core::default::Default::default()),
                        };
                    });
                    call.raw_args.push(quote! { #some });
                    call.raw_args.push(quote! { #name });
                }
                _ => unreachable!("other options travel on the wire"),
            },
            Ty::Callback(_) => {
                let cb = info.callback.as_deref().expect("a callback type");
                if cb.form != crate::callback::Form::Boxed {
                    return bad(
                        "JS may keep a function it is given, so a Rust closure is passed owned: \
                         `Box<dyn Fn(A, ..) -> R>` or `Box<dyn FnMut(A, ..) -> R>`",
                    );
                }
                crate::callback::check_closure(info, ty)?;
                let base = bridge_schema::callback_symbol(symbol, &format!("a{index}"));
                let ident = format_ident!("{}_a{}", prefix, index);
                let label = format!("the closure passed as argument {index} to {what}");
                call.items
                    .extend(crate::callback::closure_exports(&base, &ident, cb, &label));
                call.raw_params.push(quote! { #name: u32 });
                call.raw_args
                    .push(quote! { ::bridge_runtime::js::closure::into_abi(#name) });
            }
            Ty::ClassRef(_) | Ty::ClassMut(_) => {
                return bad("pass a class as Handle<C> (JS may keep the object)");
            }
            _ => {
                return bad(
                    "JS functions take what exports return (numbers, bool, char, strings, \
                     records, enums, Vec, Option, Handle<C>, JsValue), &str, &[number], \
                     &JsValue and Box<dyn Fn> closures",
                );
            }
        }
    }
    if uses_wire {
        call.lowering.insert(
            0,
            quote! { let mut #wire = ::bridge_runtime::wire::WireArgs::new(); },
        );
        call.lowering.push(quote! { #wire.finish(); });
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
            (quote! { -> #abi }, scalar_lift(t, quote!(__raw)))
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
                // SAFETY: the glue checked the value (a class: a live wrapper's address; a
                // record or enum with data: written on the wire at this offset).
                quote! { unsafe { <#carrier as ::bridge_runtime::FromJs>::from_abi(__raw) } },
            )
        }
        // A value JS wrote into the wire's in-buffer, at the offset it returned.
        t if on_wire(t) && !info_is_slice(ret) => {
            let t = ret_ty.expect("a wire type is spelled");
            (
                quote! { -> u32 },
                // SAFETY: the glue wrote a value of this type at that offset.
                quote! { unsafe { ::bridge_runtime::wire::take_at::<#t>(__raw) } },
            )
        }
        Ty::Option(inner) => match &**inner {
            t if scalar_abi(t).is_some() => {
                let abi = scalar_abi(t).unwrap();
                let conv = scalar_lift(t, quote!(__raw));
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
            _ => return ret_bad("return an owned value (Option<String>, not Option<&str>)"),
        },
        Ty::Callback(_) => {
            return ret_bad(
                "a JS function returned to Rust is a JsValue (call it with JsValue::call)",
            );
        }
        _ => {
            return ret_bad(
                "JS functions return what exports take, owned (String, not &str; Handle<C>, \
                 not &C; Vec<T>, not &[T])",
            );
        }
    };
    call.raw_ret = raw_ret;
    call.lift = lift;
    Ok(call)
}

/// A `&[T]` (borrowed: never a result).
fn info_is_slice(info: &TyInfo) -> bool {
    info.slice
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
        let items = &self.items;
        if self.catch {
            quote! {
                #items
                #(#lowering)*
                ::bridge_runtime::js::clear_exception();
                // SAFETY: the glue implements the import with this signature.
                let __raw = unsafe { #ident(#(#args),*) };
                ::bridge_runtime::js::caught(move || { #lift })
            }
        } else {
            quote! {
                #items
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
