//! `static NAME: T;`: a JS value read once, on first use.

use super::args::{ImportArgs, class_source, item_args, namespace_of};
use super::function::{Own, own};
use super::members::Member;
use crate::model::imports::JsStaticItem;
use bridge_schema::MemberForm;
use syn::LitStr;

/// `static NAME: T;` (with `js_name`, `js_namespace`): a value read once, on first use.
pub(super) fn js_static(
    st: &syn::ForeignItemStatic,
    block_args: &ImportArgs,
) -> syn::Result<JsStaticItem> {
    if let syn::StaticMutability::Mut(m) = &st.mutability {
        return Err(syn::Error::new_spanned(
            m,
            "a JS static is read once and never written: declare it `static`, not `static mut`",
        ));
    }
    let mut attrs = st.attrs.clone();
    let args = item_args(
        &mut attrs,
        block_args,
        "a JS static",
        "a JS static takes `js_name = \"name\"` and `js_namespace = \"a.b\"` only",
    )?;
    if args.structural || args.typescript_type.is_some() {
        return Err(syn::Error::new_spanned(
            &st.ident,
            "a JS static takes `js_name = \"name\"` and `js_namespace = \"a.b\"` only \
             (`structural` and `typescript_type` go on a `pub type`)",
        ));
    }
    let ident = st.ident.clone();
    let rust_name = ident.to_string();
    let js_name = args
        .js_name
        .as_ref()
        .map(LitStr::value)
        .unwrap_or_else(|| rust_name.clone());
    if js_name.is_empty() {
        return Err(syn::Error::new_spanned(
            &st.ident,
            "js_name \"\" names no value: give the JS property's name",
        ));
    }
    let namespace = namespace_of(&args)?;
    let ty = &st.ty;
    let member = Member {
        of: ident.clone(),
        form: MemberForm::Value,
        key: js_name.clone(),
        source: class_source(&args, &js_name, &namespace),
    };
    let mut read = own(Own::Read(ty), &args, member, rust_name)
        .map_err(|e| syn::Error::new_spanned(ty, e.to_string()))?;
    read.member_of = None;
    Ok(JsStaticItem {
        attrs,
        vis: st.vis.clone(),
        ident,
        ty: (*st.ty).clone(),
        read,
    })
}
