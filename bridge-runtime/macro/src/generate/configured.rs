//! An expansion made per configuration: each under its `cfg`, and a failed one as its
//! compile errors under its `cfg`.

use crate::model::conditional::{Cfg, Configured};
use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

/// `all(..)`, `not(..)` and the user's predicates.
impl ToTokens for Cfg {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.extend(match self {
            Cfg::All(all) => quote! { all(#(#all),*) },
            Cfg::Not(cfg) => quote! { not(#cfg) },
            Cfg::Pred(pred) => pred.to_token_stream(),
        });
    }
}

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
