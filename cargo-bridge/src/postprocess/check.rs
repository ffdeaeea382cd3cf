//! The export records must match the module they came in: every function a record names
//! is a function the module exports, and every type sits where the macro can put it (a
//! borrowed type only as a parameter, `()` and `Result` only as a result). A mismatch (a
//! corrupt or hand-edited module, or crates built against another bridge-runtime) would
//! otherwise become glue that fails when it is first called, or an internal error.
//! (Type ids are resolved to definitions by `exports.rs`, beside this file.)

use crate::postprocess::exports::Exports;
use crate::transforms::by_name::FuncExports;
use anyhow::{Result, bail};
use bridge_schema::{Function, Ty};
use walrus::Module;

pub fn records_match_module(module: &Module, exports: &Exports, wasm_name: &str) -> Result<()> {
    let funcs = FuncExports::of(module);
    let exported = |symbol: &str| funcs.has(symbol);
    imports_match_module(exports, &exported, wasm_name)?;
    let free = exports.functions.iter().map(|f| (None, &f.function));
    let members = exports
        .classes
        .iter()
        .flat_map(|c| c.members.iter().map(move |m| (Some(c.name.as_str()), m)));
    for (class, f) in free.chain(members) {
        export_matches_module(exports, class, f, &exported, wasm_name)?;
    }
    Ok(())
}

/// A Rust closure passed to a JS import: the macro exports its call and drop.
fn imports_match_module(
    exports: &Exports,
    exported: &dyn Fn(&str) -> bool,
    wasm_name: &str,
) -> Result<()> {
    for im in &exports.imports {
        check_options(&im.import.params, &im.import.ret).map_err(|what| {
            anyhow::anyhow!(
                "{wasm_name}: the record of the JS import `{}` has {what}, which #[bridge] \
                 never writes; rebuild with matching bridge-runtime and cargo-bridge versions",
                im.import.rust_name
            )
        })?;
        for (index, p) in im.import.params.iter().enumerate() {
            let Some(cb) = p.ty.closure() else {
                continue;
            };
            let base = bridge_schema::callback_symbol(&im.import.symbol, &format!("a{index}"));
            // A lent closure has nothing to free.
            let drop = (cb.hold != bridge_schema::Hold::Lent)
                .then(|| bridge_schema::closure_drop_export(&base));
            for symbol in [Some(bridge_schema::closure_call_export(&base)), drop]
                .into_iter()
                .flatten()
            {
                if !exported(&symbol) {
                    bail!(
                        "{wasm_name}: the JS import `{}` takes a Rust closure, but the module \
                         does not export its wasm function `{symbol}`; rebuild with matching \
                         bridge-runtime and cargo-bridge versions",
                        im.import.rust_name
                    );
                }
            }
        }
    }
    Ok(())
}

/// One export's record against the module: its wasm function, an async export's finish,
/// a returned closure's call and drop, a `Result`'s error type, its types.
fn export_matches_module(
    exports: &Exports,
    class: Option<&str>,
    f: &bridge_schema::Function,
    exported: &dyn Fn(&str) -> bool,
    wasm_name: &str,
) -> Result<()> {
    let label = match class {
        Some(c) => format!("{c}.{}", f.js_name),
        None => f.js_name.clone(),
    };
    if !exported(&f.symbol) {
        bail!(
            "{wasm_name}: the export record of `{label}` names the wasm function `{}`, which \
             the module does not export; rebuild with matching bridge-runtime and \
             cargo-bridge versions",
            f.symbol
        );
    }
    if f.is_async {
        let finish = bridge_schema::async_finish_export(&f.symbol);
        if !exported(&finish) {
            bail!(
                "{wasm_name}: the async export `{}` has no finish export `{finish}`; \
                 rebuild with matching bridge-runtime and cargo-bridge versions",
                label
            );
        }
    }
    if let Ty::Callback(_) | Ty::Iterator(_) = f.ret.ok() {
        returned_closure_exported(&f.symbol, &label, exported, wasm_name)?;
    }
    if let Some(err) = f.ret.error_type_id() {
        let is_data = exports.records.iter().any(|r| r.def.type_id == err)
            || exports.enums.iter().any(|e| e.def.type_id == err);
        if !is_data {
            bail!(
                "{wasm_name}: `{}` returns a `Result` whose error data type `{err}` is not a \
                 #[bridge(record)] struct or #[bridge] enum; rebuild with matching \
                 bridge-runtime and cargo-bridge versions",
                label
            );
        }
    }
    check_types(f).map_err(|what| {
        anyhow::anyhow!(
            "{wasm_name}: the export record of `{}` has {what}, which #[bridge] never \
             writes; rebuild with matching bridge-runtime and cargo-bridge versions",
            label
        )
    })?;
    Ok(())
}

/// A Rust closure as an export's result (or an iterator's): the macro also exports its
/// call and drop.
fn returned_closure_exported(
    export: &str,
    label: &str,
    exported: &dyn Fn(&str) -> bool,
    wasm_name: &str,
) -> Result<()> {
    for symbol in [
        bridge_schema::closure_call_export(export),
        bridge_schema::closure_drop_export(export),
    ] {
        if !exported(&symbol) {
            bail!(
                "{wasm_name}: `{}` returns a Rust closure, but the module does not \
                 export its wasm function `{symbol}`; rebuild with matching \
                 bridge-runtime and cargo-bridge versions",
                label
            );
        }
    }
    Ok(())
}

/// The runtime's half of the ABI is there, by the names in `bridge_schema::abi`: the
/// exports the glue calls in every module and the runtime's host imports (whose module
/// name the runtime's `#[link]` attribute spells as a literal). A module built against
/// another bridge-runtime fails here, naming what is missing, not when the glue loads.
pub fn runtime_matches_module(module: &Module, wasm_name: &str) -> Result<()> {
    use bridge_schema::abi::{exports, host, js_values};
    for name in exports::REQUIRED {
        if !module.exports.iter().any(|e| e.name == *name) {
            bail!(
                "{wasm_name} does not export `{name}`, which the glue calls; the crate must \
                 depend on the bridge-runtime of this cargo-bridge (rebuild with matching \
                 bridge-runtime and cargo-bridge versions)"
            );
        }
    }
    // The runtime's own import modules: the glue provides exactly these functions.
    let provided: [(&str, &[&str]); 3] = [
        (
            host::MODULE,
            &[
                host::THROW,
                host::PANIC_MESSAGE,
                host::GUARDS_ENDED,
                host::GUARDS_RESUMED,
            ],
        ),
        (bridge_schema::JS_VALUE_MODULE, js_values::ops::ALL),
        (
            bridge_schema::abi::tasks::MODULE,
            bridge_schema::abi::tasks::ALL,
        ),
    ];
    for (import_module, known) in provided {
        if let Some(import) = module
            .imports
            .iter()
            .find(|i| i.module == import_module && !known.contains(&i.name.as_str()))
        {
            bail!(
                "{wasm_name} imports `{}` from `{import_module}`, which the glue does not \
                 provide (it provides {}); rebuild with matching bridge-runtime and \
                 cargo-bridge versions",
                import.name,
                known
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    Ok(())
}

/// Where a type sits: in a parameter, at the top of the result, or inside the result.
#[derive(Clone, Copy, PartialEq)]
enum Position {
    Param,
    Return,
    /// The ok type of the result's `Result` (may be `()`).
    ResultOk,
    InsideReturn,
}

fn check_types(f: &Function) -> Result<(), String> {
    // `#[bridge(this)]`: only on a free function, whose first parameter receives `this`.
    if f.js_this && (f.kind != bridge_schema::FunctionKind::Free || f.params.is_empty()) {
        return Err("JS `this` as a parameter it does not have".to_string());
    }
    for p in &f.params {
        // A class by value is an export's own parameter only (`exports.rs` read the
        // records' and enums' as `Named`).
        match &p.ty {
            Ty::ByValue(_) => continue,
            Ty::Option(inner) if matches!(**inner, Ty::ByValue(_)) => continue,
            _ => {}
        }
        check_type(&p.ty, Position::Param).map_err(|e| format!("{e} in parameter `{}`", p.name))?;
    }
    check_type(&f.ret, Position::Return).map_err(|e| format!("{e} as its result"))?;
    check_options(&f.params, &f.ret)
}

/// No `Option` of what cannot be optional, at any depth of a signature (the glue has no
/// optional kind for it: `types::Kind::optional`).
fn check_options(params: &[bridge_schema::Param], ret: &Ty) -> Result<(), String> {
    for p in params {
        if let Some(what) = non_optional_param(&p.ty) {
            return Err(format!("{what} in parameter `{}`", p.name));
        }
    }
    match non_optional_option(ret) {
        Some(what) => Err(format!("{what} as its result")),
        None => Ok(()),
    }
}

/// [`non_optional_option`] of a parameter, which may be an optional function
/// (`Option<&dyn Fn(..)>`, `Option<Box<dyn Fn(..)>>`: `null` for `None`).
fn non_optional_param(ty: &Ty) -> Option<String> {
    match ty {
        Ty::Option(inner) if matches!(**inner, Ty::Callback(_)) => non_optional_option(inner),
        t => non_optional_option(t),
    }
}

/// An `Option` of `()`, another `Option`, a `Result`, `&JsValue` or a function in `ty`
/// (the macro refuses each; a parameter may be an optional function).
fn non_optional_option(ty: &Ty) -> Option<String> {
    match ty {
        Ty::Option(inner)
            if matches!(
                **inner,
                Ty::Unit | Ty::Option(_) | Ty::Result(..) | Ty::JsValueRef | Ty::Callback(_)
            ) =>
        {
            Some(format!("an `Option` of {inner:?}"))
        }
        Ty::Option(inner) | Ty::Vec(inner) | Ty::Result(inner, _) => non_optional_option(inner),
        Ty::Tuple(elems) => elems.iter().find_map(non_optional_option),
        Ty::Map(k, v) => non_optional_option(k).or_else(|| non_optional_option(v)),
        Ty::Set(inner) => non_optional_option(inner),
        Ty::Callback(cb) => cb
            .params
            .iter()
            .find_map(non_optional_param)
            .or_else(|| non_optional_option(&cb.ret)),
        _ => None,
    }
}

fn check_type(ty: &Ty, at: Position) -> Result<(), String> {
    use Position::*;
    match (ty, at) {
        (Ty::Unit, Param | InsideReturn) => Err("`()`".into()),
        (Ty::ByValue(_), _) => Err(format!(
            "a class taken by value ({ty:?}) that is not an export's own parameter"
        )),
        // A Rust closure returned to JS: its parameters cross like an export's, its result
        // like an export's result (no `Result`).
        (Ty::Callback(cb), Return) if !cb.catch && cb.hold != bridge_schema::Hold::Lent => {
            returned_closure(cb)
        }
        (Ty::Str | Ty::ClassRef(_) | Ty::ClassMut(_) | Ty::JsValueRef | Ty::Callback(_), at)
            if at != Param =>
        {
            Err(format!("a borrowed or callback type ({ty:?}) in a result"))
        }
        // An iterator is an export's whole result; its items cross as the result of its
        // `next()` closure does, one at a time (never `None`-like: `Option`, `JsValue`).
        // (Or `Ok` of a `Result` an export returns: `Err` throws, as any `Result`'s.)
        // An item `Result<T, E>` is pulled as a `T` (its `Err` throws from `next()`).
        (Ty::Iterator(item), Return | ResultOk) => iterator_item(item),
        (Ty::Iterator(_), _) => Err(format!("an iterator ({ty:?}) that is not the result")),
        // A view is an export's whole result; a `&mut [T]` an export's parameter.
        (Ty::View(inner), Return) if inner.is_number() => Ok(()),
        (Ty::View(_), _) => Err(format!("a borrowed slice ({ty:?}) that is not the result")),
        (Ty::SliceMut(inner), Param) if inner.is_number() => Ok(()),
        (Ty::SliceMut(_), _) => Err(format!("a `&mut [T]` ({ty:?}) that is not a parameter")),
        (Ty::Option(inner) | Ty::Vec(inner), _)
            if matches!(**inner, Ty::View(_) | Ty::SliceMut(_)) =>
        {
            Err(format!("a borrowed slice inside {ty:?}"))
        }
        (Ty::Result(ok, _), Return) => check_type(ok, ResultOk),
        (Ty::Result(..), _) => Err("a `Result` that is not the result".into()),
        // A tuple's elements are owned values, as a vector's.
        (Ty::Tuple(elems), _) if elems.is_empty() || elems.len() > bridge_schema::MAX_TUPLE => {
            Err(format!("a tuple of {} elements", elems.len()))
        }
        (Ty::Tuple(elems), Param) => elems.iter().try_for_each(|e| match e {
            Ty::Str | Ty::ClassRef(_) | Ty::ClassMut(_) | Ty::JsValueRef | Ty::Callback(_) => {
                Err(format!("a borrowed or callback type ({e:?}) in a tuple"))
            }
            e => check_type(e, Param),
        }),
        (Ty::Tuple(elems), _) => elems.iter().try_for_each(|e| check_type(e, InsideReturn)),
        // Keys are what a JS `Map` compares as Rust does (fieldless enums: `MapKey`).
        (Ty::Map(k, _) | Ty::Set(k), _) if !k.is_map_key() => {
            Err(format!("a map or set keyed by {k:?}"))
        }
        (Ty::Map(_, v), Param) => check_type(v, Param),
        (Ty::Map(_, v), _) => check_type(v, InsideReturn),
        (Ty::Set(_), _) => Ok(()),
        (Ty::Option(inner) | Ty::Vec(inner), Param) => check_type(inner, Param),
        (Ty::Option(inner) | Ty::Vec(inner), _) => check_type(inner, InsideReturn),
        _ => Ok(()),
    }
}

/// A Rust closure returned to JS: its parameters cross like an export's, its result like
/// an export's result (no `Result`).
fn returned_closure(cb: &bridge_schema::Callback) -> Result<(), String> {
    for p in &cb.params {
        if matches!(p, Ty::SliceMut(_)) {
            return Err("a `&mut [T]` parameter of a closure".into());
        }
        check_type(p, Position::Param)?;
    }
    match &*cb.ret {
        Ty::Result(..) => Err("a closure returning a `Result`".into()),
        ret => check_type(ret, Position::Return),
    }
}

/// An iterator's item crosses as the result of its `next()` closure does, one at a time
/// (never `None`-like: `Option`, `JsValue`); an item `Result<T, E>` is pulled as a `T`
/// (its `Err` throws from `next()`).
fn iterator_item(item: &Ty) -> Result<(), String> {
    match item.ok() {
        Ty::Unit | Ty::Option(_) | Ty::JsValue | Ty::Result(..) | Ty::View(_) => {
            Err(format!("an iterator of {item:?}"))
        }
        ok => check_type(ok, Position::Return),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::postprocess::exports::FunctionExport;
    use bridge_schema::Scalar;
    use bridge_schema::{FunctionKind, Receiver};

    fn exports(symbol: &str) -> Exports {
        Exports {
            functions: vec![FunctionExport {
                crate_name: "a".into(),
                function: Function {
                    is_async: false,
                    refuses_released: false,
                    as_written: None,
                    js_this: false,
                    kind: FunctionKind::Free,
                    js_name: "make".into(),
                    rust_name: "make".into(),
                    symbol: symbol.into(),
                    receiver: Receiver::None,
                    params: vec![],
                    ret: Ty::Unit,
                    doc: String::new(),
                    field: false,
                },
            }],
            ..Exports::default()
        }
    }

    fn module_exporting(name: &str) -> Module {
        let mut module = Module::default();
        export_empty_function(&mut module, name);
        module
    }

    fn export_empty_function(module: &mut Module, name: &str) {
        let mut f = walrus::FunctionBuilder::new(&mut module.types, &[], &[]);
        f.func_body();
        let f = f.finish(vec![], &mut module.funcs);
        module.exports.add(name, f);
    }

    /// A module with everything `bridge_schema::abi::exports::REQUIRED` names.
    fn module_with_runtime_exports() -> Module {
        let mut module = Module::default();
        let memory = module.memories.add_local(false, false, 1, None, None);
        module.exports.add("memory", memory);
        for name in bridge_schema::abi::exports::REQUIRED.iter().skip(1) {
            export_empty_function(&mut module, name);
        }
        module
    }

    #[test]
    fn a_module_without_the_runtime_abi_is_named() {
        let mut module = module_exporting("a::make");
        let err = runtime_matches_module(&module, "m.wasm")
            .unwrap_err()
            .to_string();
        assert!(err.contains("m.wasm does not export `memory`"), "{err}");
        let memory = module.memories.add_local(false, false, 1, None, None);
        module.exports.add("memory", memory);
        let err = runtime_matches_module(&module, "m.wasm")
            .unwrap_err()
            .to_string();
        assert!(err.contains("does not export `__bridge_alloc`"), "{err}");
        for name in bridge_schema::abi::exports::REQUIRED.iter().skip(1) {
            export_empty_function(&mut module, name);
        }
        runtime_matches_module(&module, "m.wasm").unwrap();
        let ty = module.types.add(&[], &[]);
        module.add_import_func("__bridge", bridge_schema::abi::host::PANIC_MESSAGE, ty);
        runtime_matches_module(&module, "m.wasm").unwrap();
        module.add_import_func("__bridge", "abort_message", ty);
        let err = runtime_matches_module(&module, "m.wasm")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("imports `abort_message` from `__bridge`"),
            "{err}"
        );
    }

    #[test]
    fn a_js_value_operation_the_glue_does_not_provide_is_named() {
        let mut module = module_with_runtime_exports();
        let ty = module.types.add(&[], &[]);
        for op in bridge_schema::abi::js_values::ops::ALL {
            module.add_import_func("__bridge_js", op, ty);
        }
        runtime_matches_module(&module, "m.wasm").unwrap();
        module.add_import_func("__bridge_js", "instance_of", ty);
        let err = runtime_matches_module(&module, "m.wasm")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(
                "imports `instance_of` from `__bridge_js`, which the glue does not provide"
            ),
            "{err}"
        );
        assert!(err.contains("`drop`, `clone`"), "{err}");
    }

    #[test]
    fn types_where_the_macro_never_puts_them_are_named() {
        let bad = [
            (vec![Ty::Unit], Ty::Unit, "`()` in parameter `p0`"),
            (vec![], Ty::Str, "in a result"),
            (
                vec![],
                Ty::Vec(Box::new(Ty::ClassRef("a::C".into()))),
                "in a result",
            ),
            (vec![], Ty::Option(Box::new(Ty::Unit)), "`()` as its result"),
            (
                vec![Ty::Result(Box::new(Ty::Scalar(Scalar::I32)), String::new())],
                Ty::Unit,
                "not the result",
            ),
            (
                vec![Ty::Option(Box::new(Ty::Option(Box::new(Ty::Scalar(
                    Scalar::U32,
                )))))],
                Ty::Unit,
                "an `Option` of Option(Scalar(U32)) in parameter `p0`",
            ),
            (
                vec![Ty::Option(Box::new(Ty::JsValueRef))],
                Ty::Unit,
                "an `Option` of JsValueRef in parameter `p0`",
            ),
            (
                vec![],
                Ty::Option(Box::new(Ty::Callback(bridge_schema::Callback {
                    params: vec![],
                    ret: Box::new(Ty::Unit),
                    catch: false,
                    names: Vec::new(),
                    hold: bridge_schema::Hold::Owned,
                }))),
                "a borrowed or callback type (Callback(",
            ),
            (
                vec![],
                Ty::Option(Box::new(Ty::Option(Box::new(Ty::Scalar(Scalar::Bool))))),
                "an `Option` of Option(Scalar(Bool)) as its result",
            ),
            (
                vec![Ty::Callback(bridge_schema::Callback {
                    params: vec![Ty::Option(Box::new(Ty::Option(Box::new(Ty::Scalar(
                        Scalar::I8,
                    )))))],
                    ret: Box::new(Ty::Unit),
                    catch: false,
                    names: Vec::new(),
                    hold: bridge_schema::Hold::Owned,
                })],
                Ty::Unit,
                "an `Option` of Option(Scalar(I8)) in parameter `p0`",
            ),
        ];
        for (params, ret, expected) in bad {
            let mut e = exports("a::make");
            e.functions[0].function.params = params
                .into_iter()
                .enumerate()
                .map(|(i, ty)| bridge_schema::Param {
                    name: format!("p{i}"),
                    ty,
                })
                .collect();
            e.functions[0].function.ret = ret;
            let err = records_match_module(&module_exporting("a::make"), &e, "m.wasm")
                .unwrap_err()
                .to_string();
            assert!(err.contains(expected) && err.contains("`make`"), "{err}");
        }
        let mut fine = exports("a::make");
        fine.functions[0].function.params = vec![bridge_schema::Param {
            name: "s".into(),
            ty: Ty::Option(Box::new(Ty::Str)),
        }];
        fine.functions[0].function.ret = Ty::Result(Box::new(Ty::Unit), String::new());
        records_match_module(&module_exporting("a::make"), &fine, "m.wasm").unwrap();
    }

    #[test]
    fn js_this_without_a_parameter_or_on_a_member_is_named() {
        let module = module_exporting("a::make");
        let mut e = exports("a::make");
        e.functions[0].function.js_this = true;
        let err = records_match_module(&module, &e, "m.wasm")
            .unwrap_err()
            .to_string();
        assert!(err.contains("JS `this`") && err.contains("`make`"), "{err}");
        e.functions[0].function.params = vec![bridge_schema::Param {
            name: "this".into(),
            ty: Ty::JsValue,
        }];
        records_match_module(&module, &e, "m.wasm").unwrap();
        e.functions[0].function.kind = FunctionKind::Static;
        let err = records_match_module(&module, &e, "m.wasm")
            .unwrap_err()
            .to_string();
        assert!(err.contains("JS `this`"), "{err}");
    }

    #[test]
    fn an_import_with_an_option_the_glue_cannot_make_is_named() {
        let mut e = exports("a::make");
        e.imports.push(crate::postprocess::exports::ImportExport {
            crate_name: "a".into(),
            import: bridge_schema::Import {
                rust_name: "pick".into(),
                symbol: "a::pick".into(),
                source: bridge_schema::ImportSource::Global {
                    namespace: vec![],
                    name: "pick".into(),
                },
                params: vec![],
                ret: Ty::Option(Box::new(Ty::JsValueRef)),
                catch: false,
                member: None,
            },
        });
        let err = records_match_module(&module_exporting("a::make"), &e, "m.wasm")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("the JS import `pick` has an `Option` of JsValueRef as its result"),
            "{err}"
        );
    }

    #[test]
    fn a_missing_symbol_is_named() {
        let e = exports("a::make");
        let err = records_match_module(&module_exporting("other"), &e, "m.wasm").unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("`make`") && msg.contains("`a::make`"), "{msg}");
        records_match_module(&module_exporting("a::make"), &e, "m.wasm").unwrap();
    }
}
