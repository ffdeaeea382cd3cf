//! The helpers of an `async fn` export (`model::thunk::AsyncHelpers`): the start helper its
//! start thunk calls (`bridge_runtime::abi::start_task` of the function's future), and the
//! finish helper its finish thunk calls (`finish_task`, the task's output).

use crate::model::thunk::AsyncHelpers;
use proc_macro2::{TokenStream, TokenTree};
use quote::{ToTokens, format_ident, quote};
use syn::{ReturnType, Type};

/// The start and finish helpers of `h`.
pub fn helpers(h: &AsyncHelpers) -> TokenStream {
    let AsyncHelpers {
        start,
        finish,
        callee,
        ..
    } = h;
    let fix = |t: &Type| without_self(t.to_token_stream(), h.self_ty.as_ref());
    let this_param = h.this.as_ref().map(|t| {
        let ty = fix(t);
        quote! { __this: &#ty, }
    });
    let this_arg = h
        .this
        .as_ref()
        .map(|_| quote! { ::core::clone::Clone::clone(__this), });
    let names: Vec<_> = (0..h.params.len())
        .map(|i| format_ident!("__a{}", i))
        .collect();
    let tys = h.params.iter().map(fix);
    let ret_ty = match &h.output {
        ReturnType::Default => quote! { () },
        ReturnType::Type(_, t) => fix(t),
    };
    quote! {
        #[allow(non_snake_case, clippy::all)]
        fn #start(#this_param #(#names: #tys),*) -> u32 {
            ::bridge_runtime::abi::start_task(#callee(#this_arg #(#names),*))
        }
        #[allow(non_snake_case, clippy::all)]
        fn #finish(task: u32) -> #ret_ty {
            ::bridge_runtime::abi::finish_task::<#ret_ty>(task)
        }
    }
}

/// `Self` spelled as the class (the helpers live outside the impl block).
fn without_self(tokens: TokenStream, self_ty: Option<&Type>) -> TokenStream {
    let Some(self_ty) = self_ty else {
        return tokens;
    };
    tokens
        .into_iter()
        .map(|t| match t {
            TokenTree::Ident(i) if i == "Self" => self_ty.to_token_stream(),
            TokenTree::Group(g) => {
                let mut out =
                    proc_macro2::Group::new(g.delimiter(), without_self(g.stream(), Some(self_ty)));
                out.set_span(g.span());
                TokenTree::Group(out).into_token_stream()
            }
            other => other.into_token_stream(),
        })
        .collect()
}
