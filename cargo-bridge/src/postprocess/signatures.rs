//! Every wasm function a record names has the type the lowering table
//! (`bridge_schema::lowering`) gives its record: an export thunk (receiver, parameters,
//! result), a Rust closure's `#closure-call`/`#closure-drop`, and each JS import or
//! callback trampoline the module imports. A bridge-runtime or macro that lowers a type
//! otherwise than this cargo-bridge then fails the build here, naming the function and
//! both types, rather than passing wrong values at the first call.
//! (Runs after `check.rs`, which holds types to where the macro can put them.)

use crate::postprocess::exports::Exports;
use crate::transforms::by_name::FuncExports;
use anyhow::{Result, bail};
use bridge_schema::lowering::{self, Signature, Site, Wasm};
use bridge_schema::{Callback, Ty};
use walrus::{FunctionId, ImportKind, Module, ValType};

pub fn run(module: &Module, exports: &Exports, wasm_name: &str) -> Result<()> {
    let checker = Checker {
        module,
        funcs: FuncExports::of(module),
        wasm_name,
    };
    let free = exports.functions.iter().map(|f| (None, &f.function));
    let members = exports
        .classes
        .iter()
        .flat_map(|c| c.members.iter().map(move |m| (Some(c.name.as_str()), m)));
    for (class, f) in free.chain(members) {
        checker.export(class, f)?;
    }
    for im in &exports.imports {
        checker.import(&im.import)?;
    }
    Ok(())
}

/// The module's functions against what their records lower to.
struct Checker<'a> {
    module: &'a Module,
    funcs: FuncExports,
    wasm_name: &'a str,
}

impl Checker<'_> {
    /// The wasm function `func` (`symbol`, of `what`) has the `expected` type.
    fn check(
        &self,
        symbol: &str,
        what: &str,
        expected: Option<Signature>,
        func: FunctionId,
    ) -> Result<()> {
        let wasm_name = self.wasm_name;
        let Some(expected) = expected else {
            bail!(
                "{wasm_name}: the record of {what} has a type that cannot cross where it \
                 sits, which #[bridge] never writes; rebuild with matching bridge-runtime and \
                 cargo-bridge versions"
            );
        };
        let found = signature_of(self.module, func);
        if found != Some(expected.clone()) {
            let found = found.map_or_else(|| "a type with other values".into(), |s| s.to_string());
            bail!(
                "{wasm_name}: the wasm function `{symbol}` of {what} has type {found}, but \
                 its record lowers to {expected}; the crate was built with a bridge-runtime \
                 (or #[bridge] macro) that lowers types otherwise than this cargo-bridge: \
                 rebuild with matching bridge-runtime and cargo-bridge versions"
            );
        }
        Ok(())
    }

    /// A Rust closure's two exports (`check.rs` made sure both are there).
    fn closure(&self, base: &str, cb: &Callback, what: &str) -> Result<()> {
        for (symbol, expected) in [
            (
                bridge_schema::closure_call_export(base),
                lowering::closure_call_signature(cb),
            ),
            (
                bridge_schema::closure_drop_export(base),
                Some(lowering::closure_drop_signature()),
            ),
        ] {
            if let Some(f) = self.funcs.get(&symbol) {
                self.check(&symbol, what, expected, f)?;
            }
        }
        Ok(())
    }

    /// An export: its function, an async one's finish, a returned closure or iterator,
    /// the trampolines of the JS functions it takes.
    fn export(&self, class: Option<&str>, f: &bridge_schema::Function) -> Result<()> {
        let what = match class {
            Some(c) => format!("`{c}.{}`", f.js_name),
            None => format!("`{}`", f.js_name),
        };
        if let Some(func) = self.funcs.get(&f.symbol) {
            self.check(&f.symbol, &what, lowering::export_signature(f), func)?;
        }
        if f.is_async {
            let finish = bridge_schema::async_finish_export(&f.symbol);
            if let Some(func) = self.funcs.get(&finish) {
                self.check(&finish, &what, lowering::async_finish_signature(f), func)?;
            }
        }
        if let Ty::Callback(cb) = &f.ret {
            self.closure(&f.symbol, cb, &format!("the closure {what} returns"))?;
        }
        if let Ty::Iterator(item) = f.ret.ok() {
            let next = bridge_schema::iterator_next(item);
            self.closure(&f.symbol, &next, &format!("the iterator {what} returns"))?;
        }
        // A JS function passed as a parameter: Rust calls it through its trampoline,
        // whose first parameter is the function's `JsValue` index.
        for p in &f.params {
            if let Some(cb) = p.ty.closure() {
                let symbol = bridge_schema::callback_symbol(&f.symbol, &p.name);
                let what = format!("the JS function {what} takes as `{}`", p.name);
                if let Some(func) = import(self.module, &symbol) {
                    self.check(
                        &symbol,
                        &what,
                        js_call(&[Wasm::I32], &cb.params, &cb.ret),
                        func,
                    )?;
                }
            }
        }
        Ok(())
    }

    /// A JS import: its function, and the closures passed to it.
    fn import(&self, import: &bridge_schema::Import) -> Result<()> {
        let what = format!("the JS import `{}`", import.rust_name);
        let params: Vec<Ty> = import.params.iter().map(|p| p.ty.clone()).collect();
        if let Some(func) = self::import(self.module, &import.symbol) {
            self.check(
                &import.symbol,
                &what,
                js_call(&[], &params, &import.ret),
                func,
            )?;
        }
        for (index, ty) in params.iter().enumerate() {
            if let Some(cb) = ty.closure() {
                let base = bridge_schema::callback_symbol(&import.symbol, &format!("a{index}"));
                self.closure(&base, cb, &format!("the closure passed to {what}"))?;
            }
        }
        Ok(())
    }
}

/// The raw import of a call into JS: `leading` values, the arguments, the result.
fn js_call(leading: &[Wasm], params: &[Ty], ret: &Ty) -> Option<Signature> {
    let mut sig = Signature {
        params: leading.to_vec(),
        results: lowering::parts(ret, Site::JsResult)?
            .into_iter()
            .map(|p| p.wasm)
            .collect(),
    };
    for ty in params {
        let parts = lowering::parts(ty, Site::JsArg)?;
        sig.params.extend(parts.into_iter().map(|p| p.wasm));
    }
    Some(sig)
}

/// The function the module imports from the glue's JS import module as `symbol` (a call
/// nothing makes is not imported).
fn import(module: &Module, symbol: &str) -> Option<FunctionId> {
    module.imports.iter().find_map(|i| match i.kind {
        ImportKind::Function(f)
            if i.module == bridge_schema::JS_IMPORT_MODULE && i.name == symbol =>
        {
            Some(f)
        }
        _ => None,
    })
}

/// The type of `func`, if every value is one the boundary passes.
fn signature_of(module: &Module, func: FunctionId) -> Option<Signature> {
    let ty = module.types.get(module.funcs.get(func).ty());
    let wasm = |tys: &[ValType]| -> Option<Vec<Wasm>> {
        tys.iter()
            .map(|t| match t {
                ValType::I32 => Some(Wasm::I32),
                ValType::I64 => Some(Wasm::I64),
                ValType::F32 => Some(Wasm::F32),
                ValType::F64 => Some(Wasm::F64),
                ValType::V128 | ValType::Ref(_) => None,
            })
            .collect()
    };
    Some(Signature {
        params: wasm(ty.params())?,
        results: wasm(ty.results())?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::postprocess::exports::{ClassExport, FunctionExport, ImportExport};
    use bridge_schema::Scalar;
    use bridge_schema::{Function, FunctionKind, Import, ImportSource, Param, Receiver};

    fn function(symbol: &str, receiver: Receiver, params: Vec<Ty>, ret: Ty) -> Function {
        Function {
            is_async: false,
            refuses_released: false,
            as_written: None,
            js_this: false,
            kind: FunctionKind::Method,
            js_name: "scale".into(),
            rust_name: "scale".into(),
            symbol: symbol.into(),
            receiver,
            params: params
                .into_iter()
                .enumerate()
                .map(|(i, ty)| Param {
                    name: format!("p{i}"),
                    ty,
                })
                .collect(),
            ret,
            doc: String::new(),
            field: false,
        }
    }

    fn module_exporting(name: &str, params: &[ValType], results: &[ValType]) -> Module {
        let mut module = Module::default();
        let mut f = walrus::FunctionBuilder::new(&mut module.types, params, results);
        let mut body = f.func_body();
        for r in results {
            match r {
                ValType::I64 => body.i64_const(0),
                ValType::F32 => body.f32_const(0.0),
                ValType::F64 => body.f64_const(0.0),
                _ => body.i32_const(0),
            };
        }
        let args = params.iter().map(|t| module.locals.add(*t)).collect();
        let f = f.finish(args, &mut module.funcs);
        module.exports.add(name, f);
        module
    }

    fn class_with(member: Function) -> Exports {
        Exports {
            classes: vec![ClassExport {
                crate_name: "a".into(),
                type_id: "a::Shape".into(),
                name: "Shape".into(),
                rust_name: "Shape".into(),
                identity_mode: None,
                inspectable: false,
                doc: String::new(),
                members: vec![member],
            }],
            ..Exports::default()
        }
    }

    #[test]
    fn an_export_whose_wasm_type_differs_from_its_record_is_named_with_both_types() {
        use ValType::{F64, I32};
        // `&mut self, factor: f64, name: &str -> u32`: the thunk takes the receiver, the
        // number and the string's pointer, length and capacity.
        let f = function(
            "a::Shape::scale",
            Receiver::Exclusive,
            vec![Ty::Scalar(Scalar::F64), Ty::Str],
            Ty::Scalar(Scalar::U32),
        );
        let exports = class_with(f);
        let right = module_exporting("a::Shape::scale", &[I32, F64, I32, I32, I32], &[I32]);
        run(&right, &exports, "m.wasm").unwrap();
        // A runtime whose strings cross without their capacity.
        let wrong = module_exporting("a::Shape::scale", &[I32, F64, I32, I32], &[I32]);
        let err = run(&wrong, &exports, "m.wasm").unwrap_err().to_string();
        assert!(err.contains("`a::Shape::scale`"), "{err}");
        assert!(err.contains("`Shape.scale`"), "{err}");
        assert!(err.contains("(i32, f64, i32, i32) -> (i32)"), "{err}");
        assert!(err.contains("(i32, f64, i32, i32, i32) -> (i32)"), "{err}");
        assert!(err.contains("rebuild with matching"), "{err}");
    }

    #[test]
    fn a_result_of_another_wasm_type_is_a_mismatch() {
        use ValType::{I32, I64};
        let f = function(
            "a::Shape::scale",
            Receiver::None,
            vec![],
            Ty::Scalar(Scalar::I64),
        );
        let exports = class_with(f);
        let wrong = module_exporting("a::Shape::scale", &[], &[I32]);
        let err = run(&wrong, &exports, "m.wasm").unwrap_err().to_string();
        assert!(err.contains("has type () -> (i32)"), "{err}");
        assert!(err.contains("lowers to () -> (i64)"), "{err}");
        let right = module_exporting("a::Shape::scale", &[], &[I64]);
        run(&right, &exports, "m.wasm").unwrap();
    }

    #[test]
    fn a_js_import_is_held_to_its_record_too() {
        use ValType::I32;
        let import = Import {
            rust_name: "log".into(),
            symbol: "a::log".into(),
            source: ImportSource::Global {
                namespace: vec![],
                name: "log".into(),
            },
            params: vec![Param {
                name: "s".into(),
                ty: Ty::Str,
            }],
            ret: Ty::Unit,
            catch: false,
            member: None,
        };
        let exports = Exports {
            functions: vec![FunctionExport {
                crate_name: "a".into(),
                function: function("a::f", Receiver::None, vec![], Ty::Unit),
            }],
            imports: vec![ImportExport {
                crate_name: "a".into(),
                import,
            }],
            ..Exports::default()
        };
        let with_import = |params: &[ValType]| {
            let mut module = module_exporting("a::f", &[], &[]);
            let ty = module.types.add(params, &[]);
            module.add_import_func(bridge_schema::JS_IMPORT_MODULE, "a::log", ty);
            module
        };
        // A string into JS is its pointer and length.
        run(&with_import(&[I32, I32]), &exports, "m.wasm").unwrap();
        let err = run(&with_import(&[I32, I32, I32]), &exports, "m.wasm")
            .unwrap_err()
            .to_string();
        assert!(err.contains("the JS import `log`"), "{err}");
        assert!(err.contains("(i32, i32, i32) -> ()"), "{err}");
        assert!(err.contains("lowers to (i32, i32) -> ()"), "{err}");
    }
}
