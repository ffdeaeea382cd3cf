//! An expansion made per configuration: each under its `cfg`, and a failed one as its
//! compile errors under its `cfg`.

use crate::model::conditional::Configured;
use proc_macro2::TokenStream;
use quote::quote;

pub fn configured<T>(c: &Configured<T>, mut expand: impl FnMut(&T) -> TokenStream) -> TokenStream {
    match c {
        Configured::One(only) => expand(only),
        Configured::PerCfg(all) => {
            let mut out = TokenStream::new();
            for (cfg, body) in all {
                let body = match body {
                    Ok(t) => expand(t),
                    Err(e) => e.to_compile_error(),
                };
                out.extend(quote! {
                    #[cfg(#cfg)]
                    const _: () = {
                        #body
                    };
                });
            }
            out
        }
    }
}
