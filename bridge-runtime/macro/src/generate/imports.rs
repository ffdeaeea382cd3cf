//! `#[bridge] extern "C" { ... }`: each declared JS function becomes a safe Rust function
//! of the same name and visibility that lowers its arguments, calls the raw wasm import
//! and lifts the result, and its record tells `cargo bridge` where the function lives in
//! JS.

use super::{jscall, record, thunk};
use crate::model::conditional::Configured;
use crate::model::imports::{ImportFn, Imports};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

pub fn imports(imports: &Imports) -> TokenStream {
    let mut out = TokenStream::new();
    for f in &imports.fns {
        out.extend(match f {
            Configured::One(f) => import_fn(f, None),
            // Each configuration under its own `cfg` (an error: under it, in a `const _`).
            Configured::PerCfg(all) => {
                let mut out = TokenStream::new();
                for (cfg, f) in all {
                    out.extend(match f {
                        Ok(f) => import_fn(f, Some(cfg)),
                        Err(e) => {
                            let errors = e.to_compile_error();
                            quote! { #[cfg(#cfg)] const _: () = { #errors }; }
                        }
                    });
                }
                out
            }
        });
    }
    out
}

/// The safe function and record of `f`, under `#[cfg(cfg)]` if given.
fn import_fn(f: &ImportFn, cfg: Option<&TokenStream>) -> TokenStream {
    let cfg = cfg.map(|c| quote! { #[cfg(#c)] });
    let names: Vec<Ident> = (0..f.users.len())
        .map(|i| format_ident!("__bridge_arg{}", i))
        .collect();
    let users = &f.users;
    let call = jscall::build(&f.call, &names);
    let raw = format_ident!("__bridge_import");
    let declare = call.declare(&raw, bridge_schema::JS_IMPORT_MODULE, &f.symbol, &[]);
    let items = thunk::closures(&f.call, &f.symbol, "__bridge_closure");
    let invoke = call.invoke(&raw, &[], &items);
    let record = record::emit(&f.record);
    let attrs = &f.attrs;
    let vis = &f.vis;
    let sig = &f.sig;
    quote! {
        #(#attrs)*
        #cfg
        #[allow(clippy::let_unit_value, clippy::unused_unit)]
        #vis #sig {
            #(let #names = #users;)*
            #declare
            #invoke
        }
        #cfg
        const _: () = {
            #record
        };
    }
}
