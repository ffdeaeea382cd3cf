//! `#[bridge::test]`: a test `cargo bridge test` runs inside wasm, with the real glue.
//!
//! The function stays as written (always compiled, so it is type-checked by every build;
//! `allow(dead_code)` as no package calls it). Under `--cfg bridge_test`, which only
//! `cargo bridge test` passes, it also gets a `#[bridge]` export
//! `bridgeTest_<name>_<hash>(run: bool) -> String`: with `false` it returns the test's path
//! (`module::name`, as libtest prints it), with `true` it runs the test, whose panic the
//! glue turns into an `Error` with the panic message. The hash (of the name's source
//! location) keeps two tests of one name in two modules apart.

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
    if let Some(asyncness) = &sig.asyncness {
        return Err(syn::Error::new_spanned(
            asyncness,
            "async #[bridge::test] functions are not supported yet (bridge crates have no \
             async exports yet): write a plain `fn`",
        ));
    }
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
    if let syn::ReturnType::Type(_, ty) = &sig.output {
        return Err(syn::Error::new_spanned(
            ty,
            "a #[bridge::test] function returns nothing: fail it with a panic (assert!, unwrap)",
        ));
    }
    if let Some(unsafety) = &sig.unsafety {
        return Err(syn::Error::new_spanned(
            unsafety,
            "a #[bridge::test] function must be safe",
        ));
    }
    let name = &sig.ident;
    let hash = fnv(&format!("{name} {:?}", name.span()));
    let export = format_ident!("__bridge_test_{name}_{hash:08x}");
    let js_name = format!("bridgeTest_{name}_{hash:08x}");
    let path = format!("::{name}");
    Ok(quote! {
        #[allow(dead_code)]
        #func

        #[allow(unexpected_cfgs)]
        const _: () = {
            #[cfg(bridge_test)]
            #[::bridge_runtime::bridge(js_name = #js_name)]
            pub fn #export(run: bool) -> ::std::string::String {
                if run {
                    #name();
                    ::std::string::String::new()
                } else {
                    ::std::string::String::from(::core::concat!(::core::module_path!(), #path))
                }
            }
        };
    })
}

/// FNV-1a, 32 bits.
fn fnv(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5, |hash, b| {
        (hash ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}
