//! The TypeScript the `.d.ts` spells: the names it declares user types under, and the type
//! of every boundary type (as an export takes or returns it, as a parameter, as a Rust
//! closure JS holds, as a value decoded from the wire). The one place that prints types.

use super::numbers;
pub use super::ts_names::plain;
use super::type_names::TypeNames;
use bridge_schema::{Callback, Ty};

/// How the `.d.ts` refers to the class `name`.
pub fn class_ref(name: &str) -> String {
    if plain(name) {
        name.to_string()
    } else {
        format!("{name}$class")
    }
}

/// How the `.d.ts` refers to the record or enum `name` (declared as `<name>$type` and
/// exported under its name when it cannot be declared as itself).
pub fn data_ref(name: &str) -> String {
    if plain(name) {
        name.to_string()
    } else {
        format!("{name}$type")
    }
}

/// Which way a value crosses, for what `None` is in its type: JS receives `undefined`
/// (`T | undefined`); JS may pass `null` or `undefined` (`T | null | undefined`); a record's
/// field, which goes both ways, is typed for what JS may pass (reading it, `null` never
/// comes, which the type allows).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    /// What JS receives: results, arguments of calls into JS.
    Out,
    /// What JS passes: parameters, results of JS functions Rust calls.
    In,
}

impl Flow {
    /// The union an `Option` adds to its value's type.
    fn none(self) -> &'static str {
        match self {
            Flow::Out => "undefined",
            Flow::In => "null | undefined",
        }
    }
}

/// The type of a value as an export returns it (`TyView::ts`): what JS receives.
pub fn of(ty: &Ty, names: &TypeNames) -> String {
    typed(ty, names, Flow::Out)
}

/// The type of a value crossing `flow`-wards.
fn typed(ty: &Ty, names: &TypeNames, flow: Flow) -> String {
    let of = |ty: &Ty, names: &TypeNames| typed(ty, names, flow);
    if ty.travels_on_wire() {
        return wire_flow(ty, names, flow);
    }
    match ty {
        Ty::Result(ok, _) => of(ok, names),
        Ty::Tuple(_) | Ty::Map(..) | Ty::Set(_) | Ty::I128 | Ty::U128 => wire_flow(ty, names, flow),
        Ty::Named(id) if names.is_data(id) => data_ref(&names.js_name(id)),
        // `&T`/`&mut T` of a wasm-bindgen struct too.
        Ty::Named(id) | Ty::ClassRef(id) | Ty::ClassMut(id) if names.is_js_type(id) => {
            names.js_type_ts(id)
        }
        Ty::Named(id) | Ty::ClassRef(id) | Ty::ClassMut(id) | Ty::ByValue(id) => {
            class_ref(&names.js_name(id))
        }
        // A function type is parenthesized: `(() => void) | null | undefined`.
        Ty::Option(inner) if matches!(**inner, Ty::Callback(_)) => {
            format!("({}) | {}", of(inner, names), flow.none())
        }
        Ty::Option(inner) => format!("{} | {}", of(inner, names), flow.none()),
        Ty::Vec(inner) => match numbers::typed_array(inner) {
            Some(array) => array.to_string(),
            None => format!("{}[]", of(inner, names)),
        },
        // A typed array over the module's memory; a parameter's caller passes its own.
        Ty::View(inner) | Ty::SliceMut(inner) => numbers::typed_array(inner)
            .expect("views and mutable slices hold numbers")
            .to_string(),
        // A JS function (an export's parameter): it receives what Rust passes and may
        // return anything the result's parameter type accepts; a Rust closure among its
        // arguments has `release()`.
        Ty::Callback(cb) => {
            let params: Vec<String> = cb
                .params
                .iter()
                .zip(fn_type_params(cb))
                .map(|(t, name)| match t {
                    Ty::Callback(c) => format!("{name}: {}", closure(c, names)),
                    Ty::Option(inner) if let Ty::Callback(c) = &**inner => {
                        format!("{name}: ({}) | {}", closure(c, names), Flow::Out.none())
                    }
                    t => format!("{name}: {}", typed(t, names, Flow::Out)),
                })
                .collect();
            format!("({}) => {}", params.join(", "), param(&cb.ret, names))
        }
        // `IterableIterator<T>` plus `release()` (`glue.d.ts.j2`).
        Ty::Iterator(item) => format!("__BridgeIterator<{}>", typed(item, names, Flow::Out)),
        Ty::Unit => "void".into(),
        Ty::String | Ty::Str => "string".into(),
        Ty::JsValue | Ty::JsValueRef => "any".into(),
        Ty::Scalar(s) => s.ts().into(),
    }
}

/// The type of a parameter: number vectors accept any array of numbers.
pub fn param(ty: &Ty, names: &TypeNames) -> String {
    match ty {
        Ty::Result(ok, _) => param(ok, names),
        Ty::Vec(inner) if !ty.travels_on_wire() => match numbers::of(inner) {
            Some(n) if n.view.big => format!("{} | bigint[]", n.array),
            Some(n) => format!("{} | number[]", n.array),
            None => typed(ty, names, Flow::In),
        },
        Ty::Option(inner) if matches!(&**inner, Ty::Map(k, _) if **k == Ty::String) => {
            format!("{} | {}", param(inner, names), Flow::In.none())
        }
        // A map with string keys also takes a plain object (its own enumerable keys).
        Ty::Map(k, v) if **k == Ty::String => {
            let v = wire(v, names);
            format!("Map<string, {v}> | Record<string, {v}>")
        }
        Ty::SliceMut(inner) => match numbers::of(inner) {
            Some(n) if n.view.big => format!("{} | bigint[]", n.array),
            Some(n) => format!("{} | number[]", n.array),
            None => typed(ty, names, Flow::In),
        },
        _ => typed(ty, names, Flow::In),
    }
}

/// The names of a function type's parameters: the Rust names where the record has them,
/// else `a<index>`; a reserved word or a repeat gets `_` appended (as parameters of
/// exports do). A Rust closure's calling function binds its parameters by these names
/// (`calls::closure_of`), so its messages name them as the `.d.ts` does.
pub fn fn_type_params(cb: &Callback) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(cb.params.len());
    for i in 0..cb.params.len() {
        let mut name = cb
            .names
            .get(i)
            .filter(|n| bridge_schema::js::identifier_problem(n).is_none())
            .cloned()
            .unwrap_or_else(|| format!("a{i}"));
        while !bridge_schema::js::is_bindable(&name) || out.contains(&name) {
            name.push('_');
        }
        out.push(name);
    }
    out
}

/// How many leading parameters a JS caller must pass: the trailing `Option`s and
/// `JsValue`s may be left out (`undefined` is `None`, or the value `undefined`).
pub fn required_params<'a>(tys: impl IntoIterator<Item = &'a Ty>) -> usize {
    let tys: Vec<&Ty> = tys.into_iter().collect();
    tys.iter()
        .rposition(|t| !matches!(t, Ty::Option(_) | Ty::JsValue | Ty::JsValueRef))
        .map_or(0, |i| i + 1)
}

/// The type of a Rust closure JS holds: called with what an export takes, returning what
/// an export returns, with `release()` (not when it is lent for a call).
pub fn closure(cb: &Callback, names: &TypeNames) -> String {
    // The calling function checks no arity: trailing optional parameters may be left out.
    let required = required_params(cb.params.iter());
    let params: Vec<String> = cb
        .params
        .iter()
        .zip(fn_type_params(cb))
        .enumerate()
        .map(|(i, (t, name))| {
            let optional = if i >= required { "?" } else { "" };
            format!("{name}{optional}: {}", param(t, names))
        })
        .collect();
    let f = format!("({}) => {}", params.join(", "), of(&cb.ret, names));
    // A lent closure has nothing to release: it stops working when its call returns.
    if cb.hold == bridge_schema::Hold::Lent {
        return format!("({f})");
    }
    format!("({f}) & {{ release(): void }}")
}

/// Whether `ts` is one bracketed tuple type (`[a, b | null]`), which needs no parentheses
/// to be an array's element.
fn bracketed(ts: &str) -> bool {
    let mut depth = 0;
    for (i, c) in ts.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            _ => {}
        }
        if depth == 0 {
            return ts.starts_with('[') && i + 1 == ts.len();
        }
    }
    false
}

/// The type of a wire value JS may pass (record fields, codecs' messages).
pub fn wire(ty: &Ty, names: &TypeNames) -> String {
    wire_flow(ty, names, Flow::In)
}

/// The type of a wire value crossing `flow`-wards.
fn wire_flow(ty: &Ty, names: &TypeNames, flow: Flow) -> String {
    let wire = |ty: &Ty, names: &TypeNames| wire_flow(ty, names, flow);
    match ty {
        Ty::Vec(inner) => match numbers::typed_array(inner) {
            Some(array) => array.to_string(),
            None => {
                let elem = wire(inner, names);
                if elem.contains(' ') && !bracketed(&elem) {
                    format!("({elem})[]")
                } else {
                    format!("{elem}[]")
                }
            }
        },
        Ty::Option(inner) => format!("{} | {}", wire(inner, names), flow.none()),
        // A TypeScript tuple type: the array's length and each element's type.
        Ty::Tuple(elems) => {
            let elems: Vec<String> = elems.iter().map(|e| wire(e, names)).collect();
            format!("[{}]", elems.join(", "))
        }
        Ty::Map(k, v) => format!("Map<{}, {}>", wire(k, names), wire(v, names)),
        Ty::Set(inner) => format!("Set<{}>", wire(inner, names)),
        Ty::I128 | Ty::U128 => "bigint".into(),
        Ty::String | Ty::Str => "string".into(),
        Ty::JsValue => "any".into(),
        Ty::Named(id) if names.is_data(id) => data_ref(&names.js_name(id)),
        Ty::Named(id) if names.is_js_type(id) => names.js_type_ts(id),
        Ty::Named(id) => class_ref(&names.js_name(id)),
        Ty::Scalar(s) => s.ts().into(),
        // Never on the wire (the post-process check and the macro keep them out); spelled
        // as before this printer had an arm per type.
        Ty::Unit
        | Ty::ClassRef(_)
        | Ty::ClassMut(_)
        | Ty::ByValue(_)
        | Ty::Result(..)
        | Ty::JsValueRef
        | Ty::Callback(_)
        | Ty::View(_)
        | Ty::SliceMut(_)
        | Ty::Iterator(_) => "number".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::glue::test_support::{exports, opt, vec};
    use bridge_schema::Scalar;

    #[test]
    fn typescript_of_wire_values() {
        let exports = exports();
        let names = TypeNames::new(&exports);
        // A wire value JS may pass (a record's field): `None` is null or undefined.
        let ts = wire;
        assert_eq!(
            ts(&vec(opt(Ty::Named("a::Node".into()))), &names),
            "(String | null | undefined)[]"
        );
        assert_eq!(
            ts(&opt(vec(Ty::Scalar(Scalar::F64))), &names),
            "Float64Array | null | undefined"
        );
        assert_eq!(ts(&vec(Ty::String), &names), "string[]");
        assert_eq!(
            ts(&vec(vec(Ty::Scalar(Scalar::Usize))), &names),
            "number[][]"
        );
        assert_eq!(ts(&vec(Ty::JsValue), &names), "any[]");
        assert_eq!(
            ts(&vec(opt(Ty::I128)), &names),
            "(bigint | null | undefined)[]"
        );
        assert_eq!(of(&Ty::U128, &names), "bigint");
        let pair = Ty::Tuple(vec![Ty::Scalar(Scalar::U32), opt(Ty::String)]);
        assert_eq!(ts(&pair, &names), "[number, string | null | undefined]");
        assert_eq!(
            ts(&vec(pair.clone()), &names),
            "[number, string | null | undefined][]"
        );
        // What JS receives: `None` is undefined, at every depth.
        assert_eq!(
            of(&opt(pair.clone()), &names),
            "[number, string | undefined] | undefined"
        );
        assert_eq!(
            param(&opt(pair), &names),
            "[number, string | null | undefined] | null | undefined"
        );
        let map = Ty::Map(Box::new(Ty::String), Box::new(vec(Ty::Scalar(Scalar::U8))));
        assert_eq!(of(&map, &names), "Map<string, Uint8Array>");
        assert_eq!(
            param(&map, &names),
            "Map<string, Uint8Array> | Record<string, Uint8Array>"
        );
        let by_id = Ty::Map(
            Box::new(Ty::Scalar(Scalar::U64)),
            Box::new(Ty::Named("a::Node".into())),
        );
        assert_eq!(param(&by_id, &names), "Map<bigint, String>");
        assert_eq!(
            of(&Ty::Set(Box::new(Ty::Scalar(Scalar::Char))), &names),
            "Set<string>"
        );
    }

    #[test]
    fn typed_array_and_typescript_names_are_not_declared_as_themselves() {
        for taken in [
            "BigUint64Array",
            "Int8Array",
            "Float32Array",
            "Record",
            "new",
        ] {
            assert!(!plain(taken), "{taken}");
        }
        assert_eq!(class_ref("Uint16Array"), "Uint16Array$class");
        assert!(plain("Node") && plain("Uint16Arrays"));
    }

    #[test]
    fn parameters_take_plain_arrays_and_closures_have_release() {
        let exports = exports();
        let names = TypeNames::new(&exports);
        assert_eq!(
            param(&vec(Ty::Scalar(Scalar::F64)), &names),
            "Float64Array | number[]"
        );
        assert_eq!(
            param(&vec(Ty::Scalar(Scalar::I64)), &names),
            "BigInt64Array | bigint[]"
        );
        assert_eq!(of(&vec(Ty::Scalar(Scalar::I64)), &names), "BigInt64Array");
        assert_eq!(
            of(&vec(opt(Ty::Named("a::Node".into()))), &names),
            "(String | undefined)[]"
        );
        assert_eq!(
            param(&vec(opt(Ty::Named("a::Node".into()))), &names),
            "(String | null | undefined)[]"
        );
        // A JS function Rust calls receives `undefined` for `None` and may return null.
        let js_fn = Ty::Callback(Callback {
            params: vec![opt(Ty::Scalar(Scalar::U32))],
            ret: Box::new(opt(Ty::String)),
            catch: false,
            names: vec!["n".into()],
            hold: bridge_schema::Hold::Owned,
        });
        assert_eq!(
            param(&js_fn, &names),
            "(n: number | undefined) => string | null | undefined"
        );
        let cb = Callback {
            params: vec![vec(Ty::Scalar(Scalar::U8))],
            ret: Box::new(Ty::Named("a::Node".into())),
            catch: false,
            names: Vec::new(),
            hold: bridge_schema::Hold::Owned,
        };
        assert_eq!(
            closure(&cb, &names),
            "((a0: Uint8Array | number[]) => String) & { release(): void }"
        );
    }
}
