//! `#[bridge]`: exports classes, their members and free functions to JS.
//!
//! Each expansion emits the item unchanged (minus helper attributes), `extern "C"` export
//! thunks that convert between the wasm ABI and Rust types (see `bridge_runtime::abi`),
//! and a record describing the exports in the `__bridge_exports` custom section.

mod attrs;
mod callback;
mod class;
mod data;
mod functions;
mod imports;
mod jscall;
mod names;
mod record;
mod thunk;
mod types;

use proc_macro::TokenStream;

/// `#[bridge(record)]` or `#[bridge(record, ...)]`: the struct is plain data, not a class.
fn is_record(attr: &proc_macro2::TokenStream) -> bool {
    use proc_macro2::TokenTree;
    let mut tokens = attr.clone().into_iter();
    matches!(tokens.next(), Some(TokenTree::Ident(i)) if i == "record")
        && match tokens.next() {
            None => true,
            Some(TokenTree::Punct(p)) => p.as_char() == ',',
            Some(_) => false,
        }
}

/// What a `#[bridge]` struct is, for messages.
fn kind_of(attr: &proc_macro2::TokenStream) -> &'static str {
    if is_record(attr) { "record" } else { "class" }
}

#[proc_macro_attribute]
pub fn bridge(attr: TokenStream, item: TokenStream) -> TokenStream {
    let attr = proc_macro2::TokenStream::from(attr);
    let expanded = match syn::parse::<syn::Item>(item) {
        Ok(syn::Item::Struct(s))
            if let Err(e) = names::check_type_name(&s.ident, kind_of(&attr)) =>
        {
            Err(e)
        }
        Ok(syn::Item::Enum(e)) if let Err(err) = names::check_type_name(&e.ident, "enum") => {
            Err(err)
        }
        Ok(syn::Item::Struct(s)) if is_record(&attr) => {
            let what = format!("record `{}`", syn::ext::IdentExt::unraw(&s.ident));
            attrs::parse_data_args(attr, &what).and_then(|args| data::expand_record(args, s))
        }
        Ok(syn::Item::Struct(s)) => class::expand(attr, s),
        Ok(syn::Item::Enum(e)) => {
            let what = format!("enum `{}`", syn::ext::IdentExt::unraw(&e.ident));
            attrs::parse_data_args(attr, &what).and_then(|args| data::expand_enum(args, e))
        }
        Ok(syn::Item::Impl(i)) => functions::expand_impl(attr, i),
        Ok(syn::Item::Fn(f)) => functions::expand_free_fn(attr, f),
        Ok(syn::Item::ForeignMod(m)) => imports::expand(attr, m),
        Ok(other) => Err(syn::Error::new_spanned(
            other,
            "#[bridge] goes on a struct (a class; #[bridge(record)] for plain data), an enum, \
             an impl block of a class, a free function, or an `extern \"C\"` block of JS imports",
        )),
        Err(e) => Err(e),
    };
    expanded.unwrap_or_else(|e| e.to_compile_error()).into()
}
