//! The view of a package's wasm-bindgen half (`templates/wasm_bindgen.js.j2`): the files
//! its JS lives in, the modules its imports come from, and what the bridge glue re-exports.
//! Empty (`enabled: false`) for a crate without wasm-bindgen: the glue is then byte for
//! byte what it was before wasm-bindgen support.

use serde::Serialize;

#[derive(Serialize, Default)]
pub struct WasmBindgenView {
    pub enabled: bool,
    /// JS string literal: wasm-bindgen's JS in the package (`"./<lib>_bg.js"`), which is also
    /// the import module its half of the wasm module imports from.
    pub bg_js: String,
    /// JS array literal: the names of `bg_js`'s import functions that can run no user code,
    /// which the glue passes to the module unguarded (`wasm_bindgen/unguarded.rs`).
    pub bg_unguarded: String,
    /// Further modules the wasm module imports from directly (wasm-bindgen snippets,
    /// `#[wasm_bindgen(module = "...")]` packages), each bound to a namespace import.
    pub modules: Vec<ModuleImport>,
    /// JS names of wasm-bindgen's items, re-exported from `bg_js`.
    pub exports: Vec<String>,
    /// JS string literal: bridge-runtime's `JsValue` conversion snippet, if the package has
    /// it (the glue hands it the value table).
    pub connect: Option<String>,
    /// The module exports `__wbindgen_start` (wasm-bindgen's start functions and its value
    /// table set-up), called once the instance is ready.
    pub start: bool,
    /// wasm-bindgen's TypeScript declarations, put into the package's `.d.ts`.
    pub dts: String,
}

#[derive(Serialize)]
pub struct ModuleImport {
    /// `$wbgModule<N>`.
    pub var: String,
    /// JS string literal: the module's specifier (the wasm import module's name).
    pub spec: String,
    /// JS array literal: its functions that can run no user code (`bg_unguarded`).
    pub unguarded: String,
}
