//! Joining wasm-bindgen's half to the package: which wasm import modules its JS provides,
//! which names it exports (re-exported from the package's entry module), where
//! bridge-runtime's conversion snippet is, and whether it has a start function.

use super::run::Processed;
use crate::glue::{ModuleImport, WasmBindgenView};
use anyhow::{Result, bail};

/// The import function wasm-bindgen's JS exports to receive the instance's exports.
const SET_WASM: &str = "__wbg_set_wasm";
const START: &str = "__wbindgen_start";
/// bridge-runtime's conversion snippet, as wasm-bindgen copies it
/// (`snippets/bridge-runtime-<hash>/src/js/wbg_values.js`).
const CONNECT_SNIPPET: (&str, &str) = ("snippets/bridge-runtime-", "/src/js/wbg_values.js");

/// The view of wasm-bindgen's half of the module `module` (its output, after its CLI).
pub fn view(
    processed: &Processed,
    module: &walrus::Module,
    lib_name: &str,
) -> Result<WasmBindgenView> {
    let bg_file = format!("{lib_name}_bg.js");
    let bg_module = format!("./{bg_file}");
    if !processed.bg_js.contains(SET_WASM) {
        bail!(
            "wasm-bindgen's {bg_file} has no `{SET_WASM}`: this wasm-bindgen version's \
             `--target bundler` output is not one cargo bridge knows"
        );
    }
    // The import functions wasm-bindgen's JS exports are for the module, not for users.
    let shims: Vec<&str> = module
        .imports
        .iter()
        .filter(|i| i.module == bg_module)
        .map(|i| i.name.as_str())
        .collect();
    let unguarded = super::unguarded::bg_js(&processed.bg_js, &shims, &processed.snippets);
    let exports = super::js_exports::names(&processed.bg_js)?
        .into_iter()
        .filter(|n| n != SET_WASM && !shims.contains(&n.as_str()))
        .collect();
    let mut specs: Vec<&str> = module
        .imports
        .iter()
        .map(|i| i.module.as_str())
        .filter(|m| *m != bg_module && !crate::build::import_check::provided_by_bridge(m))
        .collect();
    specs.sort();
    specs.dedup();
    let modules = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| ModuleImport {
            var: format!("$wbgModule{i}"),
            spec: literal(spec),
            unguarded: literal_list(&super::unguarded::snippet(
                spec.strip_prefix("./").unwrap_or(spec),
                &processed.snippets,
            )),
        })
        .collect();
    let connect = processed
        .snippets
        .iter()
        .find(|(path, _)| path.starts_with(CONNECT_SNIPPET.0) && path.ends_with(CONNECT_SNIPPET.1))
        .map(|(path, _)| literal(&format!("./{path}")));
    let start = module.exports.iter().any(|e| e.name == START);
    Ok(WasmBindgenView {
        enabled: true,
        bg_js: literal(&bg_module),
        bg_unguarded: literal_list(&unguarded),
        modules,
        exports,
        connect,
        start,
        dts: declarations(&processed.dts),
    })
}

/// wasm-bindgen's declarations without its lint pragmas, ending in one newline. A class's
/// `[Symbol.dispose](): void;` becomes the bridge classes' `__BridgeDisposable` interface
/// merged into it, so the `.d.ts` still compiles under libs without `Symbol.dispose`
/// (es2020): written directly it is TS2550 there.
fn declarations(dts: &str) -> String {
    let mut out = String::new();
    let mut class = None;
    let mut disposable = Vec::new();
    for line in dts.lines() {
        if matches!(line.trim(), "/* tslint:disable */" | "/* eslint-disable */") {
            continue;
        }
        if let Some(rest) = line.strip_prefix("export class ") {
            class = Some(
                rest.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
                    .collect::<String>(),
            );
        }
        if line.trim() == "[Symbol.dispose](): void;"
            && let Some(name) = &class
        {
            disposable.push(name.clone());
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    let mut out = out.trim().to_string() + "\n";
    for name in disposable {
        out.push_str(&format!(
            "export interface {name} extends __BridgeDisposable {{}}\n"
        ));
    }
    out
}

fn literal(text: &str) -> String {
    serde_json::to_string(text).expect("a string serializes")
}

/// A JS array literal of strings.
fn literal_list(texts: &[String]) -> String {
    serde_json::to_string(texts).expect("strings serialize")
}

#[cfg(test)]
mod tests {
    use super::declarations;

    #[test]
    fn dispose_members_become_the_disposable_interface() {
        let dts = "/* tslint:disable */\n/* eslint-disable */\nexport class Point {\n  free(): void;\n  \
                   [Symbol.dispose](): void;\n  norm(): number;\n}\nexport function f(): void;\n";
        assert_eq!(
            declarations(dts),
            "export class Point {\n  free(): void;\n  norm(): number;\n}\nexport function f(): void;\n\
             export interface Point extends __BridgeDisposable {}\n"
        );
    }
}
