//! wasm-bindgen's types in `#[bridge]` signatures (mixed signatures; the Rust side is
//! `bridge-runtime/src/js/wbg_types.rs`): each crosses as a JS value and is typed in the
//! `.d.ts` as wasm-bindgen types it, so a `#[bridge]` item and a `#[wasm_bindgen]` one
//! taking the same type read the same in TypeScript.
//!
//! The record names such a type as written and says whether it is an imported type
//! (`#wasm-bindgen:extern:web_sys::HtmlElement`, `#wasm-bindgen:value:Level`), so the name
//! is found from that: an exported struct or enum by the class, enum or type wasm-bindgen's
//! own `.d.ts` declares under its Rust name (not found, e.g. `js_name`d or an alias of a
//! number: `any`); an imported type by its `typescript_type`, which js-sys and web-sys give
//! their types: js-sys's that differ from the Rust name are listed here (`JsString` is
//! `string`), web-sys's are the Web IDL names its Rust names are made from (`HtmlElement`
//! is `HTMLElement`; an unqualified name is taken as one of theirs). Another crate's
//! imported type is `any`, wasm-bindgen's own type for one without `typescript_type`.

use crate::postprocess::exports::{Exports, wasm_bindgen_name};
use bridge_schema::{ImportSource, WasmBindgenType};

/// Give each wasm-bindgen type of `exports` its `.d.ts` name (the global `name` of its JS
/// type), from wasm-bindgen's declarations `dts`.
pub fn name_types(exports: &mut Exports, dts: &str) {
    let declared = declared_names(dts);
    for t in &mut exports.js_types {
        let Some(ty) = bridge_schema::wasm_bindgen_type(&t.def.type_id) else {
            continue;
        };
        let name = ts_name(ty, &declared);
        t.def.source = ImportSource::Global {
            namespace: Vec::new(),
            name,
        };
    }
}

/// The names wasm-bindgen's `.d.ts` declares (`export class X`, `export enum X`,
/// `export type X`, `export interface X`).
fn declared_names(dts: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in dts.lines() {
        let line = line.trim_start();
        let line = line.strip_prefix("export ").unwrap_or(line);
        let line = line.strip_prefix("declare ").unwrap_or(line);
        let line = line.strip_prefix("const ").unwrap_or(line);
        for keyword in ["class ", "enum ", "type ", "interface "] {
            if let Some(rest) = line.strip_prefix(keyword) {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
                    .collect();
                if !name.is_empty() {
                    names.push(name);
                }
            }
        }
    }
    names
}

/// js-sys types whose `typescript_type` is not their Rust name (js-sys 0.3.107).
const JS_SYS: &[(&str, &str)] = &[
    ("Array", "Array<any>"),
    ("BigInt", "bigint"),
    ("Boolean", "boolean"),
    ("JsString", "string"),
    ("Number", "number"),
    ("Object", "object"),
    ("Promise", "Promise<any>"),
    ("Map", "Map<any, any>"),
    ("Set", "Set<any>"),
    ("Iterator", "Iterator<any>"),
    ("AsyncIterator", "AsyncIterator<any>"),
    ("WeakMap", "WeakMap<object, any>"),
    ("WeakSet", "WeakSet<object>"),
    ("UriError", "URIError"),
    ("Memory", "WebAssembly.Memory"),
    ("Module", "WebAssembly.Module"),
    ("Instance", "WebAssembly.Instance"),
    ("Table", "WebAssembly.Table"),
];

/// js-sys types whose `typescript_type` is their Rust name.
const JS_SYS_SAME: &[&str] = &[
    "ArrayBuffer",
    "DataView",
    "Date",
    "Error",
    "EvalError",
    "Float32Array",
    "Float64Array",
    "Function",
    "Int8Array",
    "Int16Array",
    "Int32Array",
    "RangeError",
    "ReferenceError",
    "RegExp",
    "Symbol",
    "SyntaxError",
    "TypeError",
    "Uint8Array",
    "Uint8ClampedArray",
    "Uint16Array",
    "Uint32Array",
    "BigInt64Array",
    "BigUint64Array",
];

/// Web IDL's capitals that web-sys writes as words (`HTMLElement` → `HtmlElement`).
const ACRONYMS: &[(&str, &str)] = &[
    ("Html", "HTML"),
    ("Svg", "SVG"),
    ("Css", "CSS"),
    ("Dom", "DOM"),
    ("Url", "URL"),
    ("WebGl", "WebGL"),
    ("Rtc", "RTC"),
    ("Idb", "IDB"),
    ("Xml", "XML"),
    ("Gpu", "GPU"),
];

fn ts_name(ty: WasmBindgenType, declared: &[String]) -> String {
    let written = ty.written;
    let name = wasm_bindgen_name(written);
    if written == "wasm_bindgen::JsValue" || name == "JsValue" {
        return "any".into();
    }
    if !ty.external {
        // A #[wasm_bindgen] struct or enum: the class or enum wasm-bindgen declares (a
        // `js_name`d one is not found, nor is an alias of a number: `any`).
        return if declared.contains(&name) {
            name
        } else {
            "any".into()
        };
    }
    let qualified = written.contains("::");
    let js_sys = !qualified || written.starts_with("js_sys::");
    let web_sys = !qualified || written.starts_with("web_sys::");
    if js_sys {
        if let Some((_, ts)) = JS_SYS.iter().find(|(rust, _)| *rust == name) {
            return (*ts).into();
        }
        if JS_SYS_SAME.contains(&name.as_str()) || qualified {
            return name;
        }
    }
    if web_sys {
        return web_idl_name(&name);
    }
    // Another crate's imported type: wasm-bindgen's own type for one without
    // `typescript_type`.
    "any".into()
}

/// The Web IDL name of a web-sys type (`HtmlCanvasElement` → `HTMLCanvasElement`,
/// `CanvasRenderingContext2d` → `CanvasRenderingContext2D`).
fn web_idl_name(name: &str) -> String {
    let mut out = name.to_string();
    for (word, caps) in ACRONYMS {
        if out.starts_with(word) {
            let rest = &out[word.len()..];
            if rest.is_empty() || rest.starts_with(|c: char| c.is_ascii_uppercase()) {
                out = format!("{caps}{rest}");
            }
        }
    }
    if let Some(stem) = out.strip_suffix("2d").or_else(|| out.strip_suffix("3d")) {
        let d = &out[stem.len()..stem.len() + 1];
        out = format!("{stem}{d}D");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use bridge_schema::WasmBindgenKind;

    #[test]
    fn names_come_from_wasm_bindgen_then_js_sys_then_web_idl() {
        let dts = "export class Tally {\n  free(): void;\n}\nexport enum Level {\n  Low = 0,\n}\n\
                   export type Color = \"red\" | \"green\";\n";
        let declared = declared_names(dts);
        assert_eq!(declared, ["Tally", "Level", "Color"]);
        let value = |written| WasmBindgenType {
            external: false,
            kind: WasmBindgenKind::Value,
            written,
        };
        let external = |written| WasmBindgenType {
            external: true,
            kind: WasmBindgenKind::Value,
            written,
        };
        assert_eq!(ts_name(value("Tally"), &declared), "Tally");
        assert_eq!(ts_name(value("crate::Level"), &declared), "Level");
        assert_eq!(ts_name(value("Color"), &declared), "Color");
        // A js_name'd struct, an alias of a number: not declared under the Rust name.
        assert_eq!(ts_name(value("Renamed"), &declared), "any");
        assert_eq!(ts_name(value("Id"), &declared), "any");
        assert_eq!(ts_name(external("js_sys::Function"), &declared), "Function");
        assert_eq!(ts_name(external("js_sys::JsString"), &declared), "string");
        assert_eq!(ts_name(external("js_sys::Reflect"), &declared), "Reflect");
        assert_eq!(ts_name(external("Function"), &declared), "Function");
        assert_eq!(
            ts_name(external("web_sys::HtmlElement"), &declared),
            "HTMLElement"
        );
        assert_eq!(ts_name(external("HtmlElement"), &declared), "HTMLElement");
        assert_eq!(ts_name(external("web_sys::Element"), &declared), "Element");
        assert_eq!(
            ts_name(external("web_sys::CanvasRenderingContext2d"), &declared),
            "CanvasRenderingContext2D"
        );
        assert_eq!(ts_name(external("wasm_bindgen::JsValue"), &declared), "any");
        assert_eq!(ts_name(external("other_crate::Thing"), &declared), "any");
        assert_eq!(ts_name(external("web_sys::Htmlish"), &declared), "Htmlish");
    }
}
