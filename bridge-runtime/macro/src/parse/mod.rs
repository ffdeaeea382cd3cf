//! The parse layer: from the item and its `#[bridge(..)]` arguments to the [`model`],
//! with every check. The only layer whose functions return `syn::Error`; what it lets
//! through, `generate` can emit.
//!
//! [`model`]: crate::model

mod asyncs;
mod attrs;
mod callback_names;
mod class;
mod data;
mod fields;
mod functions;
mod imports;
mod iterators;
mod jscall;
mod lifts;
mod names;
mod position;
mod record;
mod slices;
mod types;
mod unsupported;
mod variants;

use crate::model::Item;
use proc_macro2::TokenStream;

/// `#[bridge(record)]` or `#[bridge(record, ...)]`: the struct is plain data, not a class.
fn is_record(attr: &TokenStream) -> bool {
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
fn kind_of(attr: &TokenStream) -> &'static str {
    if is_record(attr) { "record" } else { "class" }
}

/// The item `#[bridge(attr)]` is on.
pub fn item(attr: TokenStream, item: TokenStream) -> syn::Result<Item> {
    match syn::parse2::<syn::Item>(item)? {
        syn::Item::Struct(s) => {
            names::check_type_name(&s.ident, kind_of(&attr))?;
            if is_record(&attr) {
                let what = format!("record `{}`", syn::ext::IdentExt::unraw(&s.ident));
                let args = attrs::parse_data_args(attr, &what)?;
                data::record(args, s).map(Item::Data)
            } else {
                class::class(attr, s).map(Item::Class)
            }
        }
        syn::Item::Enum(e) => {
            names::check_type_name(&e.ident, "enum")?;
            let what = format!("enum `{}`", syn::ext::IdentExt::unraw(&e.ident));
            let args = attrs::parse_data_args(attr, &what)?;
            data::enumeration(args, e).map(Item::Data)
        }
        syn::Item::Impl(i) => functions::impl_block(attr, i).map(Item::Impl),
        syn::Item::Fn(f) => functions::free_fn(attr, f).map(Item::Function),
        syn::Item::ForeignMod(m) => imports::imports(attr, m).map(Item::Imports),
        other => Err(syn::Error::new_spanned(
            other,
            "#[bridge] goes on a struct (a class; #[bridge(record)] for plain data), an enum, \
             an impl block of a class, a free function, or an `extern \"C\"` block of JS imports",
        )),
    }
}
