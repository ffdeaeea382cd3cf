//! What each variant of a fieldless enum is in JS: its name, a string of the user's
//! choice (`#[bridge(js_name = "read-only")]`, or wasm-bindgen's `Red = "red"`, any text)
//! or, when the enum says `#[bridge(numeric)]`, its discriminant (a number). Integer
//! discriminants and `#[repr]`s without `numeric` are errors: the enum would silently
//! cross as strings.

use super::attrs;
use syn::ext::IdentExt;
use syn::{Expr, ExprLit, ExprUnary, Fields, Lit, UnOp};

/// The JS value of one variant (both `None`: its name).
pub struct VariantJs {
    pub js_name: Option<String>,
    pub discriminant: Option<i64>,
}

/// JS numbers hold integers exactly up to 2^53 - 1.
const MAX_SAFE: i64 = (1 << 53) - 1;

const INTEGER_REPRS: [&str; 12] = [
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
];

/// The JS value of every variant of `item` (their `#[bridge]` attributes taken off).
/// Whether `item` is an untagged union, as wasm-bindgen 0.2.121's dynamic unions: its
/// unit variants are JS strings (`Loading = "loading"`, or their names) and its one-field
/// tuple variants are their value itself (`Data(String)` is a string), told apart in JS by
/// the value (strings first, then each tuple variant in order; `fallback`: the last tuple
/// variant takes anything else). So is an enum saying `untagged` or `fallback`, and one
/// with string variants beside tuple variants (which was an error before; an enum of tuple
/// variants alone keeps crossing as `{ kind, value }`). Its shape is checked here.
pub fn untagged(
    item: &syn::ItemEnum,
    numeric: bool,
    asked: bool,
    fallback: bool,
) -> syn::Result<bool> {
    let name = item.ident.unraw().to_string();
    let literal = item.variants.iter().any(|v| {
        matches!(
            &v.discriminant,
            Some((
                _,
                Expr::Lit(ExprLit {
                    lit: Lit::Str(_),
                    ..
                })
            ))
        )
    });
    let tuple = item
        .variants
        .iter()
        .any(|v| matches!(&v.fields, Fields::Unnamed(f) if f.unnamed.len() == 1));
    if fallback && !tuple {
        return Err(syn::Error::new_spanned(
            &item.ident,
            format!(
                "#[bridge(fallback)] enum `{name}` has no tuple variant: `fallback` makes the \
                 last one-field tuple variant (`Other(JsValue)`) take any value no other \
                 variant matches; add one, or remove `fallback`"
            ),
        ));
    }
    if !tuple || (!asked && !fallback && !literal) {
        return Ok(false);
    }
    if numeric {
        return Err(syn::Error::new_spanned(
            &item.ident,
            format!(
                "enum `{name}` is an untagged union (strings and one-value tuple variants), \
                 which cannot be `numeric`: remove `numeric`"
            ),
        ));
    }
    check_union_variants(item, &name, asked || fallback)?;
    Ok(true)
}

/// Every variant of untagged union `item` (`name`) is a unit or a one-field tuple
/// variant; `said`: the enum says `untagged` or `fallback` (the fix names it).
fn check_union_variants(item: &syn::ItemEnum, name: &str, said: bool) -> syn::Result<()> {
    for v in &item.variants {
        let count = match &v.fields {
            Fields::Unit => continue,
            Fields::Unnamed(f) if f.unnamed.len() == 1 => continue,
            Fields::Unnamed(f) => f.unnamed.len(),
            Fields::Named(_) => 0,
        };
        let what = if count == 0 {
            "named fields".to_string()
        } else {
            format!("{count} fields")
        };
        return Err(syn::Error::new_spanned(
            &v.fields,
            format!(
                "`{name}::{}` has {what}, but enum `{name}` is an untagged union (as \
                 wasm-bindgen's): its variants are strings (`Loading = \"loading\"`) or hold \
                 one value (`Data(String)`); hold a #[bridge(record)] (`{}(Record)`), or \
                 remove the string variants{} to make it cross as `{{ kind, ... }}` objects",
                v.ident.unraw(),
                v.ident.unraw(),
                if said {
                    " and `untagged`/`fallback`"
                } else {
                    ""
                },
            ),
        ));
    }
    Ok(())
}

/// `untagged`: an untagged union (see [`untagged`]), whose unit variants are strings too.
pub fn values(
    item: &mut syn::ItemEnum,
    numeric: bool,
    untagged: bool,
) -> syn::Result<Vec<VariantJs>> {
    let name = item.ident.unraw().to_string();
    let all_unit = item
        .variants
        .iter()
        .all(|v| matches!(v.fields, Fields::Unit));
    check_crossing(item, &name, numeric, all_unit)?;
    let mut out: Vec<VariantJs> = Vec::new();
    // (Rust name, JS string) of the variants so far: two may not share a string.
    let mut strings: Vec<(String, String)> = Vec::new();
    let mut next = 0i64;
    for v in &mut item.variants {
        let variant = v.ident.unraw().to_string();
        // Whether this variant is a JS string: every variant of a fieldless enum, the unit
        // variants of an untagged one.
        let fieldless = all_unit || (untagged && matches!(v.fields, Fields::Unit));
        let given = variant_js_name(v, &name, &variant)?;
        let js_name = js_string(v, &name, &variant, numeric, fieldless, given)?;
        let discriminant = discriminant(v, &name, &variant, numeric, next)?;
        if let Some(d) = discriminant {
            next = d + 1;
        }
        if !numeric && fieldless {
            let value = js_name.clone().unwrap_or_else(|| variant.clone());
            if let Some((other, _)) = strings.iter().find(|(_, s)| *s == value) {
                return Err(syn::Error::new(
                    v.ident.span(),
                    format!(
                        "`{name}::{other}` and `{name}::{variant}` are both the string {value:?} \
                         in JS: give one of them another #[bridge(js_name = \"...\")]"
                    ),
                ));
            }
            strings.push((variant, value));
        }
        out.push(VariantJs {
            js_name,
            discriminant,
        });
    }
    Ok(out)
}

/// The enum `name` crosses as it says: `numeric` only when fieldless (`all_unit`), and an
/// integer `#[repr]` only when `numeric`.
fn check_crossing(
    item: &syn::ItemEnum,
    name: &str,
    numeric: bool,
    all_unit: bool,
) -> syn::Result<()> {
    if numeric && !all_unit {
        let v = item
            .variants
            .iter()
            .find(|v| !matches!(v.fields, Fields::Unit))
            .expect("not fieldless");
        return Err(syn::Error::new_spanned(
            &v.ident,
            format!(
                "#[bridge(numeric)] enum `{name}` has a variant with fields (`{name}::{}`): only \
                 a fieldless enum crosses as numbers; remove `numeric` (it then crosses as \
                 `{{ kind, ... }}` objects)",
                v.ident.unraw()
            ),
        ));
    }
    if !numeric && let Some(repr) = integer_repr(&item.attrs) {
        return Err(syn::Error::new_spanned(
            repr,
            format!(
                "enum `{name}` has an integer #[repr], but a #[bridge] enum crosses as its \
                 variants' names (strings) unless it says `numeric`: write \
                 #[bridge(numeric)] to make it cross as its discriminants (JS numbers), or \
                 remove the #[repr]"
            ),
        ));
    }
    Ok(())
}

/// The JS string of `name::variant` other than its name, if it has one: the `given`
/// `js_name`, or a string discriminant (taken off `v`); refused where the variant does
/// not cross as a string (`numeric`, not `fieldless`) or has both.
fn js_string(
    v: &mut syn::Variant,
    name: &str,
    variant: &str,
    numeric: bool,
    fieldless: bool,
    given: Option<String>,
) -> syn::Result<Option<String>> {
    let mut js_name = given;
    // wasm-bindgen's string enum: `Red = "red"` is the variant's JS string (the Rust
    // enum is emitted without it: Rust has no string discriminants).
    if let Some((
        _,
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }),
    )) = &v.discriminant
    {
        let problem = if numeric {
            Some("a #[bridge(numeric)] enum's variants cross as numbers: remove `numeric`, or give an integer discriminant".to_string())
        } else if !fieldless {
            Some("only the variants of a fieldless enum cross as strings (a variant of an enum with fields is `{ kind: \"<Variant>\", ... }`)".to_string())
        } else {
            js_name.as_ref().map(|given| {
                format!("it also has #[bridge(js_name = {given:?})]: give one JS string")
            })
        };
        if let Some(problem) = problem {
            return Err(syn::Error::new_spanned(
                s,
                format!(
                    "`{name}::{variant}` = {:?} is the JS string it crosses as, but {problem}",
                    s.value()
                ),
            ));
        }
        js_name = Some(s.value());
        v.discriminant = None;
    }
    if let Some(given) = &js_name {
        let why = if numeric {
            "a #[bridge(numeric)] enum's variants cross as their discriminants"
        } else if !fieldless {
            "only the variants of a fieldless enum cross as strings (a variant of an enum \
             with fields is `{ kind: \"<Variant>\", ... }`)"
        } else {
            ""
        };
        if !why.is_empty() {
            return Err(syn::Error::new(
                v.ident.span(),
                format!(
                    "`{name}::{variant}` has #[bridge(js_name = {given:?})], but {why}: \
                     remove the js_name"
                ),
            ));
        }
    }
    Ok(js_name)
}

/// The discriminant of `name::variant` in a `numeric` enum (`next` when it gives none),
/// a JS safe integer; a discriminant elsewhere is refused.
fn discriminant(
    v: &syn::Variant,
    name: &str,
    variant: &str,
    numeric: bool,
    next: i64,
) -> syn::Result<Option<i64>> {
    let discriminant = match (&v.discriminant, numeric) {
        (Some((_, expr)), false) => {
            return Err(syn::Error::new_spanned(
                expr,
                format!(
                    "`{name}::{variant}` has an explicit discriminant, but a #[bridge] enum \
                     crosses as its variants' names (strings) unless it says `numeric`: \
                     write #[bridge(numeric)] on `{name}` to make it cross as its \
                     discriminants (JS numbers), or remove the discriminants (a JS string \
                     of your choice is `{variant} = \"...\"`)"
                ),
            ));
        }
        (Some((_, expr)), true) => Some(literal(expr, name, variant)?),
        (None, true) => Some(next),
        (None, false) => None,
    };
    if let Some(d) = discriminant
        && !(-MAX_SAFE..=MAX_SAFE).contains(&d)
    {
        return Err(syn::Error::new(
            v.ident.span(),
            format!(
                "`{name}::{variant}` is {d}, which a JS number cannot hold exactly \
                 (the safe integers are ±(2^53 - 1)): choose a smaller discriminant"
            ),
        ));
    }
    Ok(discriminant)
}

/// The `js_name` of variant `v` (its `#[bridge(..)]` attributes taken off).
fn variant_js_name(v: &mut syn::Variant, name: &str, variant: &str) -> syn::Result<Option<String>> {
    let mut out: Option<String> = None;
    for taken in attrs::take_bridge_attrs(&mut v.attrs)? {
        if taken.cond.is_some() {
            return Err(syn::Error::new_spanned(
                &taken.attr,
                format!(
                    "#[cfg_attr(.., bridge(..))] on variant `{name}::{variant}` is not supported: \
                     write #[bridge(js_name = \"...\")] without a condition"
                ),
            ));
        }
        taken.attr.parse_nested_meta(|meta| {
            if !meta.path.is_ident("js_name") {
                return Err(meta.error(format!(
                    "unknown #[bridge] argument on variant `{name}::{variant}`: the valid \
                     argument is `js_name = \"value\"` (the JS string it crosses as)"
                )));
            }
            let value: syn::LitStr = meta.value()?.parse()?;
            if let Some(first) = &out {
                return Err(syn::Error::new_spanned(
                    &value,
                    format!(
                        "two JS names for variant `{name}::{variant}`: {first:?} and {:?}: give one",
                        value.value()
                    ),
                ));
            }
            out = Some(value.value());
            Ok(())
        })?;
    }
    Ok(out)
}

/// An integer literal, maybe negated: the macro writes it into the glue, so it must know
/// the value (an expression is evaluated only by the compiler).
fn literal(expr: &Expr, name: &str, variant: &str) -> syn::Result<i64> {
    let bad = || {
        syn::Error::new_spanned(
            expr,
            format!(
                "the discriminant of `{name}::{variant}` must be an integer literal (`= 3`, \
                 `= -1`, `= 0x10`): #[bridge(numeric)] writes it into the JS glue, which cannot \
                 evaluate an expression"
            ),
        )
    };
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Int(i), ..
        }) => i.base10_parse::<i64>().map_err(|_| bad()),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => match &**expr {
            Expr::Lit(ExprLit {
                lit: Lit::Int(i), ..
            }) => i.base10_parse::<i64>().map(|v| -v).map_err(|_| bad()),
            _ => Err(bad()),
        },
        Expr::Group(g) => literal(&g.expr, name, variant),
        Expr::Paren(p) => literal(&p.expr, name, variant),
        _ => Err(bad()),
    }
}

/// The number a `#[repr(u8/u16/u32/i8/i16/i32)]` enum's discriminants are stored as: a
/// returned `&[E]` view of it is a typed array of them. Wider or no integer repr: `None`.
pub fn view_repr(attrs: &[syn::Attribute]) -> Option<bridge_schema::Ty> {
    use bridge_schema::{Scalar, Ty};
    let mut out = None;
    for a in attrs.iter().filter(|a| a.path().is_ident("repr")) {
        let _ = a.parse_nested_meta(|meta| {
            let ty = [
                ("u8", Ty::Scalar(Scalar::U8)),
                ("u16", Ty::Scalar(Scalar::U16)),
                ("u32", Ty::Scalar(Scalar::U32)),
                ("i8", Ty::Scalar(Scalar::I8)),
                ("i16", Ty::Scalar(Scalar::I16)),
                ("i32", Ty::Scalar(Scalar::I32)),
            ]
            .into_iter()
            .find(|(name, _)| meta.path.is_ident(name));
            if let Some((_, ty)) = ty {
                out = Some(ty);
            }
            Ok(())
        });
    }
    out
}

/// A `#[repr(..)]` naming an integer type.
fn integer_repr(attrs: &[syn::Attribute]) -> Option<&syn::Attribute> {
    attrs.iter().find(|a| {
        a.path().is_ident("repr") && {
            let mut found = false;
            let _ = a.parse_nested_meta(|meta| {
                if INTEGER_REPRS.iter().any(|t| meta.path.is_ident(t)) {
                    found = true;
                }
                Ok(())
            });
            found
        }
    })
}
