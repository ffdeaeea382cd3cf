//! The exports of a built module as TypeScript sees them, for `<name>_bg.wasm.d.ts`: what
//! a project importing the `.wasm` itself (a bundler's ES module integration) type-checks
//! against, as wasm-bindgen's file of that name is. Read from the module's bytes (after
//! wasm-opt), so the declarations are the module's exports, no more and no fewer. A leaf of
//! `glue/`.
//!
//! A bridge module's exports are named `crate::Class::method` and `__bridge_*`: the glue's
//! ABI, typed so that `import * as wasm` has the module's true shape, but not an API (the
//! template says so). Names that are not identifiers are exported as string names
//! (`export { e0 as "crate::f" }`), which TypeScript 5.6 and later read.

use anyhow::{Context, Result};
use serde::Serialize;
use wasmparser::{CompositeInnerType, Export, ExternalKind, Parser, Payload, TypeRef, ValType};

/// One export: its name and TypeScript type. `quoted`: the name is not an identifier (or
/// is a reserved word), so it is declared under `binding` and exported as a string name.
#[derive(Debug, Serialize)]
pub struct ModuleExport {
    pub name: String,
    pub quoted: bool,
    /// The name as a JS string literal, for a quoted export.
    pub literal: String,
    /// The module-private name a quoted export is declared under (`$0`, `$1`, …: not a
    /// name of this module's identifier exports).
    pub binding: String,
    pub ts: String,
}

/// The exports of `wasm`, in the module's order.
pub fn read(wasm: &[u8]) -> Result<Vec<ModuleExport>> {
    let mut types: Vec<Option<String>> = Vec::new();
    // The type of each function index: imported functions first, then the module's own.
    let mut functions: Vec<u32> = Vec::new();
    let mut exports = Vec::new();
    for payload in Parser::new(0).parse_all(wasm) {
        match payload.context("reading the built module's exports")? {
            Payload::TypeSection(section) => {
                for group in section {
                    for sub in group?.into_types() {
                        types.push(match &sub.composite_type.inner {
                            CompositeInnerType::Func(f) => {
                                Some(function_type(f.params(), f.results()))
                            }
                            _ => None,
                        });
                    }
                }
            }
            Payload::ImportSection(section) => {
                for import in section.into_imports() {
                    if let TypeRef::Func(index) | TypeRef::FuncExact(index) = import?.ty {
                        functions.push(index);
                    }
                }
            }
            Payload::FunctionSection(section) => {
                for index in section {
                    functions.push(index?);
                }
            }
            Payload::ExportSection(section) => {
                for export in section {
                    let export = export?;
                    let ts = export_type(&export, &functions, &types);
                    exports.push(ModuleExport {
                        name: export.name.to_string(),
                        quoted: !is_identifier(export.name),
                        literal: serde_json::to_string(export.name).expect("a string serializes"),
                        binding: String::new(),
                        ts,
                    });
                }
            }
            _ => {}
        }
    }
    bind_quoted(&mut exports);
    Ok(exports)
}

/// The TypeScript type of an export: a function's from its type (`types` by index,
/// `functions`: each function index's type).
fn export_type(export: &Export<'_>, functions: &[u32], types: &[Option<String>]) -> String {
    match export.kind {
        ExternalKind::Func | ExternalKind::FuncExact => functions
            .get(export.index as usize)
            .and_then(|t| types.get(*t as usize).cloned().flatten())
            .unwrap_or_else(|| "Function".into()),
        ExternalKind::Memory => "__WasmMemory".into(),
        ExternalKind::Table => "__WasmTable".into(),
        ExternalKind::Global => "__WasmGlobal".into(),
        ExternalKind::Tag => "unknown".into(),
    }
}

/// A binding for each export whose name is not an identifier: a `$` prefix no
/// identifier export starts with, and its index.
fn bind_quoted(exports: &mut [ModuleExport]) {
    let taken: std::collections::HashSet<String> = exports
        .iter()
        .filter(|e| !e.quoted)
        .map(|e| e.name.clone())
        .collect();
    let mut prefix = "$".to_string();
    while taken.iter().any(|name| name.starts_with(&prefix)) {
        prefix.push('$');
    }
    for (index, export) in exports.iter_mut().filter(|e| e.quoted).enumerate() {
        export.binding = format!("{prefix}{index}");
    }
}

/// Whether `name` can follow `export const` (an identifier that is not a reserved word).
fn is_identifier(name: &str) -> bool {
    bridge_schema::js::identifier_problem(&name.replace('$', "_")).is_none()
        && bridge_schema::js::is_bindable(name)
}

/// `(a: number, b: bigint) => [number, number]`, as wasm-bindgen types its exports.
fn function_type(params: &[ValType], results: &[ValType]) -> String {
    let params: Vec<String> = params
        .iter()
        .enumerate()
        .map(|(i, ty)| format!("{}: {}", param_name(i), value_type(ty)))
        .collect();
    let result = match results {
        [] => "void".to_string(),
        [one] => value_type(one).to_string(),
        many => format!(
            "[{}]",
            many.iter().map(value_type).collect::<Vec<_>>().join(", ")
        ),
    };
    format!("({}) => {result}", params.join(", "))
}

/// `a` … `z`, then `a26`, `a27`, ….
fn param_name(index: usize) -> String {
    match u8::try_from(index) {
        Ok(i) if i < 26 => char::from(b'a' + i).to_string(),
        _ => format!("a{index}"),
    }
}

fn value_type(ty: &ValType) -> &'static str {
    match ty {
        ValType::I32 | ValType::F32 | ValType::F64 => "number",
        ValType::I64 => "bigint",
        ValType::V128 => "never",
        ValType::Ref(_) => "any",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module with every kind of export, built by walrus.
    fn module() -> Vec<u8> {
        use walrus::{FunctionBuilder, Module, ValType as T};
        let mut m = Module::default();
        let memory = m.memories.add_local(false, false, 1, None, None);
        m.exports.add("memory", memory);
        let f = |name: &str, params: &[T], results: &[T], m: &mut Module| {
            let mut b = FunctionBuilder::new(&mut m.types, params, results);
            for r in results {
                match r {
                    T::I64 => b.func_body().i64_const(0),
                    T::F64 => b.func_body().f64_const(0.0),
                    _ => b.func_body().i32_const(0),
                };
            }
            let locals = params.iter().map(|t| m.locals.add(*t)).collect();
            let id = b.finish(locals, &mut m.funcs);
            m.exports.add(name, id);
        };
        f("__bridge_alloc", &[T::I32, T::I32], &[T::I32], &mut m);
        f("my-crate::Counter::new", &[T::I64, T::F64], &[], &mut m);
        f("pair", &[], &[T::I32, T::F64], &mut m);
        f(
            "delete",
            &[T::Ref(walrus::RefType::EXTERNREF)],
            &[T::I64],
            &mut m,
        );
        f("quote\"and\\back", &[], &[], &mut m);
        f("$1", &[], &[], &mut m);
        let global = m.globals.add_local(
            T::I32,
            true,
            false,
            walrus::ConstExpr::Value(walrus::ir::Value::I32(0)),
        );
        m.exports.add("__bridge_stack_pointer", global);
        m.emit_wasm()
    }

    #[test]
    fn every_export_is_typed_and_names_that_are_not_identifiers_are_quoted() {
        let exports = read(&module()).unwrap();
        let lines: Vec<String> = exports
            .iter()
            .map(|e| format!("{} {} {}", e.binding, e.literal, e.ts))
            .collect();
        assert_eq!(
            lines,
            [
                " \"memory\" __WasmMemory",
                " \"__bridge_alloc\" (a: number, b: number) => number",
                "$$0 \"my-crate::Counter::new\" (a: bigint, b: number) => void",
                " \"pair\" () => [number, number]",
                "$$1 \"delete\" (a: any) => bigint",
                "$$2 \"quote\\\"and\\\\back\" () => void",
                " \"$1\" () => void",
                " \"__bridge_stack_pointer\" __WasmGlobal",
            ]
        );
    }

    #[test]
    fn parameters_are_named_by_letter_then_by_number() {
        assert_eq!(param_name(0), "a");
        assert_eq!(param_name(25), "z");
        assert_eq!(param_name(26), "a26");
    }
}
