//! `#[bridge::test]`: a test `cargo bridge test` runs inside wasm, with the real glue.
//!
//! The function stays as written (`allow(dead_code)`: no package calls it; in a
//! `#[cfg(test)]` module, where tests belong, only test builds compile it). In a wasm test
//! build (`cfg(test)`, as `cargo bridge test` compiles the crate; or the `--cfg
//! bridge_test` it passes too, which older crates gated their tests on) it also gets a
//! `#[bridge]` export
//! `bridgeTest_<name>_<hash>(run: bool) -> Result<String, String>`: with `false` it returns
//! the test's path (`module::name`, as libtest prints it), with `true` it runs the test,
//! whose panic the glue turns into an `Error` with the panic message and whose `Err(e)`
//! (a test may return `Result<(), E: Debug>`, as with `#[test]`) into an `Error` with
//! libtest's `Error: {e:?}`. An `async fn` test is an async export (a Promise for both
//! answers; the runner awaits each). The hash (of the name's source location) keeps two
//! tests of one name in two modules apart.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

pub fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    if !attr.is_empty() {
        return Err(syn::Error::new_spanned(
            attr,
            "#[bridge::test] takes no arguments",
        ));
    }
    let func: syn::ItemFn = syn::parse2(item)?;
    let sig = &func.sig;
    let returns_result = check_signature(sig)?;
    let name = &sig.ident;
    let hash = fnv(&format!("{name} {:?}", name.span()));
    let export = format_ident!("__bridge_test_{name}_{hash:08x}");
    let js_name = format!("bridgeTest_{name}_{hash:08x}");
    let path = format!("::{name}");
    let (asyncness, dot_await) = match &sig.asyncness {
        Some(a) => (Some(a), Some(quote! { .await })),
        None => (None, None),
    };
    let run = run_call(name, returns_result, dot_await);
    Ok(quote! {
        #[allow(dead_code)]
        #func

        #[allow(unexpected_cfgs)]
        const _: () = {
            #[cfg(all(any(test, bridge_test), target_family = "wasm"))]
            #[::bridge_runtime::bridge(js_name = #js_name)]
            pub #asyncness fn #export(
                run: bool,
            ) -> ::core::result::Result<::std::string::String, ::std::string::String> {
                if run {
                    #run
                    ::core::result::Result::Ok(::std::string::String::new())
                } else {
                    ::core::result::Result::Ok(::std::string::String::from(::core::concat!(
                        ::core::module_path!(),
                        #path
                    )))
                }
            }
        };
    })
}

/// Whether a test's signature is one `#[bridge::test]` takes: no parameters or generics,
/// safe, returning `()` or `Result<(), E>` (`true`: the latter).
fn check_signature(sig: &syn::Signature) -> syn::Result<bool> {
    // Spanned at what is there: empty inputs have no span of their own.
    let extra: Option<&dyn quote::ToTokens> = if !sig.inputs.is_empty() {
        Some(&sig.inputs)
    } else if !sig.generics.params.is_empty() {
        Some(&sig.generics.params)
    } else {
        None
    };
    if let Some(extra) = extra {
        return Err(syn::Error::new_spanned(
            extra,
            "a #[bridge::test] function takes no parameters and no generics",
        ));
    }
    let returns_result = match &sig.output {
        syn::ReturnType::Default => false,
        syn::ReturnType::Type(_, ty) if is_unit_result(ty) => true,
        syn::ReturnType::Type(_, ty) => {
            return Err(syn::Error::new_spanned(
                ty,
                "a #[bridge::test] function returns `()` or `Result<(), E>` (E: Debug, as \
                 with #[test]): fail it with a panic (assert!, unwrap) or an `Err`",
            ));
        }
    };
    if let Some(unsafety) = &sig.unsafety {
        return Err(syn::Error::new_spanned(
            unsafety,
            "a #[bridge::test] function must be safe",
        ));
    }
    Ok(returns_result)
}

/// The test's call when run: its `Err(e)` returned as libtest prints it.
fn run_call(
    name: &syn::Ident,
    returns_result: bool,
    dot_await: Option<TokenStream>,
) -> TokenStream {
    if returns_result {
        quote! {
            match #name() #dot_await {
                ::core::result::Result::Ok(()) => {}
                ::core::result::Result::Err(e) => {
                    return ::core::result::Result::Err(::std::format!("Error: {e:?}"));
                }
            }
        }
    } else {
        quote! { #name() #dot_await; }
    }
}

/// `Result<(), ..>` (any path ending in `Result`, so aliases such as `anyhow::Result<()>`
/// pass; the `E: Debug` bound is checked where the test export formats it).
fn is_unit_result(ty: &syn::Type) -> bool {
    let syn::Type::Path(path) = ty else {
        return false;
    };
    let Some(last) = path.path.segments.last() else {
        return false;
    };
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return false;
    };
    last.ident == "Result"
        && matches!(args.args.first(),
            Some(syn::GenericArgument::Type(syn::Type::Tuple(t))) if t.elems.is_empty())
}

/// FNV-1a, 32 bits.
fn fnv(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5, |hash, b| {
        (hash ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}
