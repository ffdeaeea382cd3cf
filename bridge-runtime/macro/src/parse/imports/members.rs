//! The JS classes a block declares as its functions see them, and which member of which
//! class a function is (`constructor`, `method`, `getter`, `setter`, `static_method_of`).

use super::args::{ImportArgs, class_source};
use crate::parse::jscall;
use bridge_schema::{ImportSource, MemberForm};
use proc_macro2::Ident;
use syn::{FnArg, LitStr, ReturnType};

/// A JS class the block declares (`pub type T;`).
pub(super) struct BlockType {
    pub(super) ident: Ident,
    /// The class's name in JS (`js_name`, else the Rust name).
    pub(super) js_name: String,
    pub(super) namespace: Vec<String>,
    /// `#[bridge(structural)]`: no JS class behind it (no constructor, no statics).
    pub(super) structural: bool,
}

/// A function that is a member of a JS class of the block.
pub(super) struct Member {
    pub(super) of: Ident,
    pub(super) form: MemberForm,
    pub(super) key: String,
    /// The class.
    pub(super) source: ImportSource,
}

/// The block type `ty` names (`T`, or with `by_ref`, `&T`).
pub(super) fn block_type<'a>(
    ty: &syn::Type,
    types: &'a [BlockType],
    by_ref: bool,
) -> Option<&'a BlockType> {
    let ty = match (ty, by_ref) {
        (syn::Type::Reference(r), true) if r.mutability.is_none() => &*r.elem,
        (_, true) => return None,
        (t, false) => t,
    };
    let syn::Type::Path(p) = ty else { return None };
    let ident = p.path.get_ident()?;
    types.iter().find(|t| t.ident == *ident)
}

/// `Option<&T>` with `T` a `pub type` of the block.
pub(super) fn optional_block_ref(ty: &syn::Type, types: &[BlockType]) -> bool {
    let syn::Type::Path(p) = ty else { return false };
    let Some(seg) = p.path.segments.last() else {
        return false;
    };
    if seg.ident != "Option" || p.qself.is_some() {
        return false;
    }
    let syn::PathArguments::AngleBracketed(args) = &seg.arguments else {
        return false;
    };
    match args.args.first() {
        Some(syn::GenericArgument::Type(inner)) if args.args.len() == 1 => {
            block_type(inner, types, true).is_some()
        }
        _ => false,
    }
}

/// What member of which class `f` is, from its arguments (`None`: a plain function).
pub(super) fn member_of(
    f: &syn::ForeignItemFn,
    args: &ImportArgs,
    types: &[BlockType],
) -> syn::Result<Option<Member>> {
    let sig = &f.sig;
    if !check_roles(sig, args)? {
        return Ok(None);
    }
    let class = member_class(sig, args, types)?;
    if class.structural && !args.method {
        return Err(syn::Error::new_spanned(
            &sig.ident,
            format!(
                "`{}` is `structural`: no JS class is behind it, so it has no constructor and \
                 no static methods; declare them as plain JS functions (or remove \
                 `structural` if a class is there)",
                class.ident
            ),
        ));
    }
    let (form, key) = form_and_key(sig, args);
    check_accessor(sig, form, &key)?;
    let js_class = args
        .js_class
        .as_ref()
        .map(LitStr::value)
        .unwrap_or_else(|| class.js_name.clone());
    Ok(Some(Member {
        of: class.ident.clone(),
        form,
        key,
        source: class_source(args, &js_class, &class.namespace),
    }))
}

/// Whether `args` make the function a member of a class (one role of `constructor`,
/// `method` and `static_method_of`), with `getter`/`setter`/`js_class` only where they fit.
fn check_roles(sig: &syn::Signature, args: &ImportArgs) -> syn::Result<bool> {
    let roles = [
        args.constructor,
        args.method,
        args.static_method_of.is_some(),
    ]
    .iter()
    .filter(|r| **r)
    .count();
    if roles > 1 {
        return Err(syn::Error::new_spanned(
            &sig.ident,
            "a JS class member is one of `constructor`, `method` and `static_method_of = T`: give one",
        ));
    }
    if roles == 0 {
        if args.getter.is_some() || args.setter.is_some() || args.js_class.is_some() {
            return Err(syn::Error::new_spanned(
                &sig.ident,
                "`getter`, `setter` and `js_class` go with `method` (`#[bridge(method, getter)]`)",
            ));
        }
        return Ok(false);
    }
    if args.getter.is_some() && args.setter.is_some() {
        return Err(syn::Error::new_spanned(
            &sig.ident,
            "a function is a getter or a setter, not both: declare two functions",
        ));
    }
    if !args.method && (args.getter.is_some() || args.setter.is_some()) {
        return Err(syn::Error::new_spanned(
            &sig.ident,
            "`getter` and `setter` go with `method` (`#[bridge(method, getter)]`): static \
             properties are read with a `static` of the block or a static method",
        ));
    }
    Ok(true)
}

/// The block's class a member belongs to: what a `constructor` returns, a `method`'s
/// first parameter, or the `static_method_of` class.
fn member_class<'a>(
    sig: &syn::Signature,
    args: &ImportArgs,
    types: &'a [BlockType],
) -> syn::Result<&'a BlockType> {
    if args.constructor {
        let ok = match &sig.output {
            ReturnType::Type(_, t) => Some(jscall::result_of_js_error(t).unwrap_or(t)),
            ReturnType::Default => None,
        };
        ok.and_then(|t| block_type(t, types, false)).ok_or_else(|| {
            syn::Error::new_spanned(
                &sig.ident,
                "a `constructor` returns the JS class it constructs, a `pub type` of this extern \
                 block (`fn new(..) -> Counter;`, or `-> Result<Counter, JsError>`)",
            )
        })
    } else if args.method {
        let first = sig.inputs.first().and_then(|a| match a {
            FnArg::Typed(t) => block_type(&t.ty, types, true),
            FnArg::Receiver(_) => None,
        });
        first.ok_or_else(|| {
            syn::Error::new_spanned(
                &sig.ident,
                "a `method` takes the object first, as `this: &T` with `T` a `pub type` of this \
                 extern block (`fn add(this: &Counter, n: u32) -> u32;`)",
            )
        })
    } else {
        let of = args.static_method_of.as_ref().expect("the third role");
        types.iter().find(|t| t.ident == *of).ok_or_else(|| {
            syn::Error::new_spanned(
                of,
                format!("static_method_of = {of}: `{of}` is not a `pub type` of this extern block"),
            )
        })
    }
}

/// The member's form and its property key in JS (`js_name`, a `getter = ".."`'s name, else
/// the Rust name; a setter's without `set_`).
fn form_and_key(sig: &syn::Signature, args: &ImportArgs) -> (MemberForm, String) {
    let rust = sig.ident.to_string();
    let rust = rust.trim_start_matches("r#");
    let name_or = |given: Option<&LitStr>, default: &str| {
        given
            .map(LitStr::value)
            .or_else(|| args.js_name.as_ref().map(LitStr::value))
            .unwrap_or_else(|| default.to_string())
    };
    if args.constructor {
        (MemberForm::Constructor, String::new())
    } else if let Some(g) = &args.getter {
        (MemberForm::Getter, name_or(g.as_ref(), rust))
    } else if let Some(g) = &args.setter {
        let default = rust.strip_prefix("set_").unwrap_or(rust);
        (MemberForm::Setter, name_or(g.as_ref(), default))
    } else if args.method {
        (MemberForm::Method, name_or(None, rust))
    } else {
        (MemberForm::Static, name_or(None, rust))
    }
}

/// A member's key names something, and a getter's or setter's signature is one.
fn check_accessor(sig: &syn::Signature, form: MemberForm, key: &str) -> syn::Result<()> {
    if form != MemberForm::Constructor && key.is_empty() {
        return Err(syn::Error::new_spanned(
            &sig.ident,
            "an empty JS name names no member: give the property's name",
        ));
    }
    let expected = match form {
        MemberForm::Getter => Some((1, "a getter takes only `this: &T` and returns the value")),
        MemberForm::Setter => Some((
            2,
            "a setter takes `this: &T` and the new value, and returns nothing",
        )),
        _ => None,
    };
    if let Some((n, why)) = expected {
        let returns = !matches!(sig.output, ReturnType::Default);
        if sig.inputs.len() != n
            || (form == MemberForm::Setter && returns)
            || (form == MemberForm::Getter && !returns)
        {
            return Err(syn::Error::new_spanned(&sig.ident, why));
        }
    }
    Ok(())
}

/// Whether `member`'s first parameter is its `&self` (a method, getter or setter).
pub(super) fn has_receiver(member: Option<&Member>) -> bool {
    matches!(
        member.map(|m| m.form),
        Some(MemberForm::Method | MemberForm::Getter | MemberForm::Setter)
    )
}
