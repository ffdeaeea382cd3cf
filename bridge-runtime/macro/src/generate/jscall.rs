//! The Rust side of a call into JS, shared by `#[bridge] extern` imports and callback
//! parameters: statements lowering the arguments (`model::ty::Lower`), the raw import's
//! declaration and call, and the lift of its result (`model::ty::Lift`).
//!
//! Class handles go through `abi::lower_class`, so they reach JS through the class's
//! identity hook exactly like a returned class: `===` the wrapper JS holds, joining an
//! active pool.

use super::abi;
use crate::model::ty::{Carrier, Form, JsCall, Lift, Lower};
use bridge_schema::lowering::Scalar;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// What the generated code needs to declare and call one raw JS import.
pub struct Call {
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

/// The Rust value of a scalar the glue returned as `raw` (checked by the glue).
fn scalar_lift(s: Scalar, raw: TokenStream) -> TokenStream {
    abi::lift_scalar(s, raw, abi::OnBad::Panic)
}

/// The call `spec` with its Rust arguments named `names`.
pub fn build(spec: &JsCall, names: &[Ident]) -> Call {
    let mut call = Call {
        raw_params: Vec::new(),
        raw_ret: TokenStream::new(),
        lowering: Vec::new(),
        raw_args: Vec::new(),
        lift: TokenStream::new(),
        catch: spec.catch,
    };
    let wire = quote!(__bridge_wire);
    let mut uses_wire = false;
    for (name, arg) in names.iter().zip(&spec.args) {
        let into_js = match &arg.lower {
            Lower::Named(carrier) | Lower::OptNamed(carrier) => {
                quote! { <#carrier as ::bridge_runtime::IntoJs>::Abi }
            }
            _ => quote! {},
        };
        call.raw_params
            .extend(abi::params(name, &arg.ty, &arg.parts, &into_js));
        uses_wire |= call.lower(name, &arg.lower, &wire);
    }
    if uses_wire {
        call.lowering.insert(
            0,
            quote! { let mut #wire = ::bridge_runtime::wire::WireArgs::new(); },
        );
        call.lowering.push(quote! { #wire.finish(); });
    }
    let from_js = match &spec.ret {
        Lift::Named(carrier) | Lift::OptNamed(carrier) => {
            quote! { <#carrier as ::bridge_runtime::FromJs>::Abi }
        }
        _ => quote! {},
    };
    call.raw_ret = abi::result(&spec.ret_ty, spec.ret_part, &from_js);
    call.lift = lift(&spec.ret);
    call
}

/// The Rust result lifted from the raw result `__raw`, as `ret` says.
fn lift(ret: &Lift) -> TokenStream {
    let rt = quote!(::bridge_runtime::abi);
    match ret {
        Lift::Unit => quote! { let () = __raw; },
        Lift::Scalar(t) => scalar_lift(*t, quote!(__raw)),
        Lift::String => {
            quote! { { let () = __raw; unsafe { #rt::take_ret_string() }.unwrap_or_default() } }
        }
        Lift::JsValue => quote! { ::bridge_runtime::JsValue::from_abi(__raw) },
        Lift::JsPromise => {
            quote! { ::bridge_runtime::JsPromise::new(::bridge_runtime::JsValue::from_abi(__raw)) }
        }
        // SAFETY: the glue checked the value (a class: a live wrapper's address; a record
        // or enum with data: written on the wire at this offset).
        Lift::Named(carrier) => {
            quote! { unsafe { <#carrier as ::bridge_runtime::FromJs>::from_abi(__raw) } }
        }
        // A value JS wrote into the wire's in-buffer, at the offset it returned.
        // SAFETY: the glue wrote a value of this type at that offset.
        Lift::Wire(t) => quote! { unsafe { ::bridge_runtime::wire::take_at::<#t>(__raw) } },
        Lift::OptScalar(t) => {
            let conv = scalar_lift(*t, quote!(__raw));
            quote! { #rt::ret_is_some().then(|| #conv) }
        }
        Lift::OptString => quote! { { let () = __raw; unsafe { #rt::take_ret_string() } } },
        Lift::OptNamed(carrier) => quote! {
            #rt::ret_is_some()
                .then(|| unsafe { <#carrier as ::bridge_runtime::FromJs>::from_abi(__raw) })
        },
    }
}

/// The lowering of each kind of argument: statements into `lowering`, the values passed
/// into `raw_args`.
impl Call {
    /// The argument `name`, lowered as `lower` says; whether it went on the `wire`.
    fn lower(&mut self, name: &Ident, lower: &Lower, wire: &TokenStream) -> bool {
        match lower {
            Lower::Scalar(t) => {
                let abi = abi::wasm(*t);
                self.raw_args.push(quote! { #name as #abi });
            }
            Lower::Str => {
                self.raw_args.push(quote! { #name.as_ptr() as u32 });
                self.raw_args.push(quote! { #name.len() as u32 });
            }
            Lower::Named(_) => {
                self.lowering.push(quote! {
                    let #name = ::bridge_runtime::IntoJs::into_js_arg(#name, &mut #wire);
                });
                self.raw_args.push(quote! { #name });
                return true;
            }
            Lower::Wire => {
                self.lowering.push(quote! { let #name = #wire.put(#name); });
                self.raw_args.push(quote! { #name });
                return true;
            }
            Lower::JsValue => self.raw_args.push(quote! { #name.into_abi() }),
            Lower::JsValueRef => self.raw_args.push(quote! { #name.abi() }),
            Lower::OptScalar(t) => self.opt_scalar(name, *t),
            Lower::OptStr => self.opt_str(name),
            Lower::OptNamed(carrier) => {
                self.opt_named(name, carrier, wire);
                return true;
            }
            // Its `#closure-call`/`#closure-drop` exports are the caller's (`closures`).
            Lower::Closure(cb) => {
                let into = match cb.info.form {
                    Form::Once => quote! { into_abi_once },
                    _ => quote! { into_abi },
                };
                self.raw_args
                    .push(quote! { ::bridge_runtime::js::closure::#into(#name) });
            }
            Lower::OptClosure(cb) => self.opt_closure(name, cb.info.form),
            // The reference sits in a slot on this frame while the import runs.
            Lower::Lent(_) => {
                let slot = format_ident!("__bridge_lent_{}", name);
                self.lowering.push(quote! {
                    #[allow(unused_mut)]
                    let mut #slot = #name;
                });
                self.raw_args
                    .push(quote! { ::bridge_runtime::js::closure::lend(&mut #slot) });
            }
        }
        false
    }

    /// `Option` of the scalar `t`: a flag, then the value.
    fn opt_scalar(&mut self, name: &Ident, t: Scalar) {
        let some = format_ident!("{}_is_some", name);
        let abi = abi::wasm(t);
        self.lowering.push(quote! {
            let (#some, #name): (u32, #abi) = match #name {
                ::core::option::Option::Some(v) => (1, v as #abi),
                ::core::option::Option::None => (0, 0 as #abi),
            };
        });
        self.raw_args.push(quote! { #some });
        self.raw_args.push(quote! { #name });
    }

    /// `Option<&str>`/`Option<String>`: address 0 for `None`.
    fn opt_str(&mut self, name: &Ident) {
        let len = format_ident!("{}_len", name);
        self.lowering.push(quote! {
            let (#name, #len) = match &#name {
                ::core::option::Option::Some(s) => (s.as_ptr() as u32, s.len() as u32),
                ::core::option::Option::None => (0u32, 0u32),
            };
        });
        self.raw_args.push(quote! { #name });
        self.raw_args.push(quote! { #len });
    }

    /// `Option` of a user type (its `carrier`): a flag, then the value (on the `wire`).
    fn opt_named(&mut self, name: &Ident, carrier: &Carrier, wire: &TokenStream) {
        let some = format_ident!("{}_is_some", name);
        let abi = quote! { <#carrier as ::bridge_runtime::IntoJs>::Abi };
        self.lowering.push(quote! {
            let (#some, #name): (u32, #abi) = match #name {
                ::core::option::Option::Some(v) => {
                    (1, ::bridge_runtime::IntoJs::into_js_arg(v, &mut #wire))
                }
                ::core::option::Option::None => (0, ::core::default::Default::default()),
            };
        });
        self.raw_args.push(quote! { #some });
        self.raw_args.push(quote! { #name });
    }

    /// `Option` of a closure of `form` (owned or lent): 0 for `None`.
    fn opt_closure(&mut self, name: &Ident, form: Form) {
        let rt = quote! { ::bridge_runtime::js::closure };
        let slot = format_ident!("__bridge_lent_{}", name);
        self.lowering.push(match form {
            Form::Once => quote! {
                let #name: u32 = #name.map_or(0, #rt::into_abi_once);
            },
            Form::Boxed => quote! {
                let #name: u32 = #name.map_or(0, #rt::into_abi);
            },
            // The `Some`'s reference is the slot (an `Option<&T>` is a `&T`).
            Form::Ref | Form::Mut => quote! {
                #[allow(unused_mut)]
                let mut #slot = #name;
                let #name: u32 = match &mut #slot {
                    ::core::option::Option::Some(f) => #rt::lend(f),
                    ::core::option::Option::None => 0,
                };
            },
        });
        self.raw_args.push(quote! { #name });
    }
}

impl Call {
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
    /// evaluating to the Rust result; `items` are the items the call needs (the
    /// `#closure-call` and `#closure-drop` exports of each Rust closure it passes).
    pub fn invoke(
        &self,
        ident: &Ident,
        leading: &[TokenStream],
        items: &TokenStream,
    ) -> TokenStream {
        let lowering = &self.lowering;
        let args = leading.iter().chain(&self.raw_args);
        let lift = &self.lift;
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
