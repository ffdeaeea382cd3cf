//! Which of wasm-bindgen's imports the glue may call without `$wbgImportGuard`
//! (templates/wasm_bindgen.js.j2): those that can never run user JS code.
//!
//! The guard counts the wasm-bindgen imports running, so that a bridge call made from
//! inside one (the JS function `Function::call1` runs) that throws leaves the shadow-stack
//! pointer alone. Its counter and `try`/`finally` cost ~6 ns a call, a third of a `JsValue`
//! conversion (`jsValueConversion` in `cargo xtask bench`). An import that runs no user
//! code cannot make a bridge call, so it needs no guard.
//!
//! Safe direction: an import goes unguarded only when its name has one of the prefixes
//! below *and* its body in `_bg.js` is, line for line, one wasm-bindgen 0.2.130 writes for
//! that intrinsic (each read here; why it cannot reach user code beside it). Anything else
//! (another wasm-bindgen version's text, a user import whose name looks like an
//! intrinsic's) stays guarded: slower, never unsound. Values are what is hostile here (a
//! Proxy, getters, `valueOf`); JS that replaces globals (`Array.prototype`, `BigInt`) is
//! outside what any glue defends against. Kept wrapped on purpose: loose `==`
//! (`jsval_loose_eq`: `valueOf`/`Symbol.toPrimitive`), `in` (a Proxy's `has` trap),
//! arithmetic and comparison (`valueOf`), `debug_string` (`toString`, getters), every js-sys
//! and web-sys import (property gets and calls on arbitrary objects), class unwraps
//! (`instanceof`, `__destroy_into_raw`).

/// An allowed body: its lines, trimmed; `{ident}` in a line stands for one JS identifier.
type Body = &'static [&'static str];

/// (name prefix, the bodies it may have) of wasm-bindgen 0.2.130's intrinsics.
const INTRINSICS: &[(&str, &[Body])] = &[
    // `!` is ToBoolean: it calls no method of its operand.
    (
        "__wbg___wbindgen_is_falsy_",
        &[&["const ret = !arg0;", "return ret;"]],
    ),
    // `typeof` and `===` look at the value only (a Proxy has no trap for them).
    (
        "__wbg___wbindgen_is_function_",
        &[&["const ret = typeof(arg0) === 'function';", "return ret;"]],
    ),
    (
        "__wbg___wbindgen_is_undefined_",
        &[&["const ret = arg0 === undefined;", "return ret;"]],
    ),
    (
        "__wbg___wbindgen_is_null_or_undefined_",
        // Loose equality with `null` converts nothing (IsLooselyEqual compares an object
        // with null as false without ToPrimitive); loose `==` of two values does, and
        // `jsval_loose_eq` stays guarded.
        &[&["const ret = arg0 == null;", "return ret;"]],
    ),
    (
        "__wbg___wbindgen_is_null_",
        &[&["const ret = arg0 === null;", "return ret;"]],
    ),
    (
        "__wbg___wbindgen_is_object_",
        &[&[
            "const val = arg0;",
            "const ret = typeof(val) === 'object' && val !== null;",
            "return ret;",
        ]],
    ),
    (
        "__wbg___wbindgen_is_string_",
        &[&["const ret = typeof(arg0) === 'string';", "return ret;"]],
    ),
    (
        "__wbg___wbindgen_is_symbol_",
        &[&["const ret = typeof(arg0) === 'symbol';", "return ret;"]],
    ),
    (
        "__wbg___wbindgen_is_bigint_",
        &[&["const ret = typeof(arg0) === 'bigint';", "return ret;"]],
    ),
    (
        "__wbg___wbindgen_jsval_eq_",
        &[&["const ret = arg0 === arg1;", "return ret;"]],
    ),
    (
        "__wbg___wbindgen_typeof_",
        &[&["const ret = typeof arg0;", "return ret;"]],
    ),
    // The `as_f64`/`as_string`/`as_bool` family: a `typeof` check, then only a primitive
    // is written to wasm memory (a string through wasm-bindgen's own encoder and allocator).
    (
        "__wbg___wbindgen_number_get_",
        &[&[
            "const obj = arg1;",
            "const ret = typeof(obj) === 'number' ? obj : undefined;",
            "getDataViewMemory0().setFloat64((arg0 >>> 0) + 8 * 1, isLikeNone(ret) ? 0 : ret, true);",
            "getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, !isLikeNone(ret), true);",
        ]],
    ),
    (
        "__wbg___wbindgen_string_get_",
        &[&[
            "const obj = arg1;",
            "const ret = typeof(obj) === 'string' ? obj : undefined;",
            "var ptr1 = isLikeNone(ret) ? 0 : passStringToWasm0(ret, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);",
            "var len1 = WASM_VECTOR_LEN;",
            "getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 1, len1, true);",
            "getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, ptr1, true);",
        ]],
    ),
    (
        "__wbg___wbindgen_boolean_get_",
        &[&[
            "const v = arg0;",
            "const ret = typeof(v) === 'boolean' ? v : undefined;",
            "return isLikeNone(ret) ? 0xFFFFFF : ret ? 1 : 0;",
        ]],
    ),
    (
        "__wbg___wbindgen_bigint_get_as_i64_",
        &[&[
            "const v = arg1;",
            "const ret = typeof(v) === 'bigint' ? v : undefined;",
            "getDataViewMemory0().setBigInt64((arg0 >>> 0) + 8 * 1, isLikeNone(ret) ? BigInt(0) : ret, true);",
            "getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, !isLikeNone(ret), true);",
        ]],
    ),
    // `throw_str`: a new Error of a string read from wasm memory.
    (
        "__wbg___wbindgen_throw_",
        &[&["throw new Error(getStringFromWasm0(arg0, arg1));"]],
    ),
    // Casts (`JsValue::from` of a Rust value; wasm-bindgen's comment names each): the
    // value as is, a string or bytes read from wasm memory, a BigInt from wasm, a new
    // closure function (made, not called).
    (
        "__wbindgen_generic_",
        &[
            &["const ret = arg0;", "return ret;"],
            &["const ret = getStringFromWasm0(arg0, arg1);", "return ret;"],
            &["const ret = BigInt.asUintN(64, arg0);", "return ret;"],
            &[
                "var v0 = getArrayU8FromWasm0(arg0, arg1).slice();",
                "wasm.__wbindgen_free(arg0, arg1 * 1, 1);",
                "const ret = v0;",
                "return ret;",
            ],
            &[
                "const ret = makeMutClosure(arg0, arg1, {ident});",
                "return ret;",
            ],
        ],
    ),
];

/// bridge-runtime's conversion snippet (`bridge-runtime/src/js/wbg_values.js`), which
/// wasm-bindgen copies into the package unchanged. Its `take` and `add` move a value
/// between the two value tables (`$takeHeap`/`$addHeap`: array reads and writes, `===`
/// with constants): no user code. Its class lift (`__bridgeClassToWasmBindgen`) makes a
/// wrapper and stays guarded.
const SNIPPET: &str = include_str!("../../../bridge-runtime/src/js/wbg_values.js");
const SNIPPET_PURE: &[&str] = &["__bridgeToWasmBindgen", "__bridgeFromWasmBindgen"];
/// wasm-bindgen's shim in `_bg.js` for `__bridgeToWasmBindgen` (its `u32` argument).
const SNIPPET_SHIM: (&str, Body) = (
    "__wbg___bridgeToWasmBindgen_",
    &[
        "const ret = __bridgeToWasmBindgen(arg0 >>> 0);",
        "return ret;",
    ],
);

/// The import functions of `_bg.js` (`shims`: the names the module imports from it) that
/// need no guard; `snippets` are wasm-bindgen's snippet files as (path, contents).
pub fn bg_js(bg_js: &str, shims: &[&str], snippets: &[(String, Vec<u8>)]) -> Vec<String> {
    let functions = functions(bg_js);
    let snippet_bound = bound_from_snippet(bg_js, snippets);
    let mut names: Vec<String> = functions
        .into_iter()
        .filter(|(name, _)| shims.contains(&name.as_str()))
        .filter(|(name, body)| {
            let intrinsic = INTRINSICS.iter().any(|(prefix, bodies)| {
                name.starts_with(prefix) && bodies.iter().any(|b| matches(b, body))
            });
            let (prefix, shim) = SNIPPET_SHIM;
            intrinsic
                || (name.starts_with(prefix)
                    && snippet_bound.contains(&"__bridgeToWasmBindgen")
                    && matches(shim, body))
        })
        .map(|(name, _)| name)
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The functions the module imports directly from the snippet at `path` (relative to the
/// package) that need no guard: bridge-runtime's own, when the file is.
pub fn snippet(path: &str, snippets: &[(String, Vec<u8>)]) -> Vec<String> {
    let ours = snippets
        .iter()
        .any(|(p, text)| p == path && text.as_slice() == SNIPPET.as_bytes());
    if !ours {
        return Vec::new();
    }
    SNIPPET_PURE.iter().map(|n| n.to_string()).collect()
}

/// The names `_bg.js` imports, unrenamed, from bridge-runtime's snippet (checked by its
/// contents): a shim calling one of them calls ours.
fn bound_from_snippet<'a>(bg_js: &'a str, snippets: &[(String, Vec<u8>)]) -> Vec<&'a str> {
    let mut bound = Vec::new();
    for line in bg_js.lines() {
        let Some(rest) = line.strip_prefix("import {") else {
            continue;
        };
        let Some((list, from)) = rest.split_once("} from '") else {
            continue;
        };
        let Some(spec) = from.strip_suffix("';") else {
            continue;
        };
        let Some(path) = spec.strip_prefix("./") else {
            continue;
        };
        if snippet(path, snippets).is_empty() {
            continue;
        }
        bound.extend(
            list.split(',')
                .map(str::trim)
                .filter(|item| !item.contains(' ') && !item.is_empty()),
        );
    }
    bound
}

/// `_bg.js`'s exported functions as (name, body lines): trimmed, blank lines, comments and
/// wasm-bindgen's debug-build assertions dropped, a debug build's `logError` wrapper
/// unwrapped. Functions of any other form are left out (so guarded).
fn functions(bg_js: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut lines = bg_js.lines();
    while let Some(line) = lines.next() {
        let Some(rest) = line.strip_prefix("export function ") else {
            continue;
        };
        let Some((name, params)) = rest.split_once('(') else {
            continue;
        };
        let Some(head) = params.strip_suffix(") {") else {
            continue;
        };
        let end = if !head.contains(['{', '}', '(', ')']) {
            "}"
        } else if head.starts_with(") { return logError(function (") {
            "}, arguments); }"
        } else {
            continue;
        };
        let mut body = Vec::new();
        let mut closed = false;
        for line in lines.by_ref() {
            if line == end {
                closed = true;
                break;
            }
            body.push(line.trim().to_string());
        }
        if closed {
            out.push((name.to_string(), normalize(body)));
        }
    }
    out
}

/// Drops what runs no code (blank lines, comments) and a debug build's assertions on
/// `ret` (`_assertBoolean`/`_assertNum`: a `typeof` check that throws wasm-bindgen's own
/// Error), with the `if` that holds one alone.
fn normalize(body: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in body {
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        if line == "_assertBoolean(ret);" || line == "_assertNum(ret);" {
            continue;
        }
        if line == "}" && out.last().is_some_and(|l| l == "if (!isLikeNone(ret)) {") {
            out.pop();
            continue;
        }
        out.push(line);
    }
    out
}

fn matches(pattern: Body, body: &[String]) -> bool {
    pattern.len() == body.len() && pattern.iter().zip(body).all(|(p, l)| line_matches(p, l))
}

/// `line` is `pattern`, its `{ident}` (at most one) standing for one JS identifier.
fn line_matches(pattern: &str, line: &str) -> bool {
    let Some((before, after)) = pattern.split_once("{ident}") else {
        return pattern == line;
    };
    let Some(middle) = line
        .strip_prefix(before)
        .and_then(|rest| rest.strip_suffix(after))
    else {
        return false;
    };
    !middle.is_empty()
        && !middle.starts_with(|c: char| c.is_ascii_digit())
        && middle
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

#[cfg(test)]
mod tests {
    use super::{SNIPPET, bg_js, snippet};

    const SNIPPET_PATH: &str = "snippets/bridge-runtime-3526e982bdccb75e/src/js/wbg_values.js";

    fn ours() -> Vec<(String, Vec<u8>)> {
        vec![(SNIPPET_PATH.to_string(), SNIPPET.as_bytes().to_vec())]
    }

    /// Every export function of `js`, as the module's import names.
    fn shims(js: &str) -> Vec<&str> {
        js.lines()
            .filter_map(|l| l.strip_prefix("export function "))
            .map(|l| l.split('(').next().unwrap())
            .collect()
    }

    // wasm-bindgen 0.2.130's `--target bundler` output, release build (a crate calling each
    // intrinsic, and the bench's joined package), cut to the functions.
    const RELEASE: &str = "import { __bridgeToWasmBindgen } from './snippets/bridge-runtime-3526e982bdccb75e/src/js/wbg_values.js';

export function __wbg___bridgeToWasmBindgen_922564e6dae1a3ff(arg0) {
    const ret = __bridgeToWasmBindgen(arg0 >>> 0);
    return ret;
}
export function __wbg___wbindgen_add_7859b7151d4116b3(arg0, arg1) {
    const ret = arg0 + arg1;
    return ret;
}
export function __wbg___wbindgen_bigint_get_as_i64_11da4b52cd0aedef(arg0, arg1) {
    const v = arg1;
    const ret = typeof(v) === 'bigint' ? v : undefined;
    getDataViewMemory0().setBigInt64((arg0 >>> 0) + 8 * 1, isLikeNone(ret) ? BigInt(0) : ret, true);
    getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, !isLikeNone(ret), true);
}
export function __wbg___wbindgen_boolean_get_4f1baf9a00be3c74(arg0) {
    const v = arg0;
    const ret = typeof(v) === 'boolean' ? v : undefined;
    return isLikeNone(ret) ? 0xFFFFFF : ret ? 1 : 0;
}
export function __wbg___wbindgen_debug_string_f249a2a76caa9a55(arg0, arg1) {
    const ret = debugString(arg1);
    const ptr1 = passStringToWasm0(ret, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
    const len1 = WASM_VECTOR_LEN;
    getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 1, len1, true);
    getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, ptr1, true);
}
export function __wbg___wbindgen_in_3f58a9d3b3a7eed2(arg0, arg1) {
    const ret = arg0 in arg1;
    return ret;
}
export function __wbg___wbindgen_is_bigint_5fa10641e039d3ef(arg0) {
    const ret = typeof(arg0) === 'bigint';
    return ret;
}
export function __wbg___wbindgen_is_falsy_d864b623500ae65d(arg0) {
    const ret = !arg0;
    return ret;
}
export function __wbg___wbindgen_is_function_741ff2bb612836f5(arg0) {
    const ret = typeof(arg0) === 'function';
    return ret;
}
export function __wbg___wbindgen_is_null_c22311b1cc228e3a(arg0) {
    const ret = arg0 === null;
    return ret;
}
export function __wbg___wbindgen_is_null_or_undefined_fb96af93c75460ae(arg0) {
    const ret = arg0 == null;
    return ret;
}
export function __wbg___wbindgen_is_object_8b968c3ab8e96595(arg0) {
    const val = arg0;
    const ret = typeof(val) === 'object' && val !== null;
    return ret;
}
export function __wbg___wbindgen_is_string_fc456fee5d3317de(arg0) {
    const ret = typeof(arg0) === 'string';
    return ret;
}
export function __wbg___wbindgen_is_symbol_f846131a047725ea(arg0) {
    const ret = typeof(arg0) === 'symbol';
    return ret;
}
export function __wbg___wbindgen_is_undefined_be5b34249ff1fc15(arg0) {
    const ret = arg0 === undefined;
    return ret;
}
export function __wbg___wbindgen_jsval_eq_38d7bfbe4cc84039(arg0, arg1) {
    const ret = arg0 === arg1;
    return ret;
}
export function __wbg___wbindgen_jsval_loose_eq_b2f214e2e4b30e36(arg0, arg1) {
    const ret = arg0 == arg1;
    return ret;
}
export function __wbg___wbindgen_number_get_934b640d0889af78(arg0, arg1) {
    const obj = arg1;
    const ret = typeof(obj) === 'number' ? obj : undefined;
    getDataViewMemory0().setFloat64((arg0 >>> 0) + 8 * 1, isLikeNone(ret) ? 0 : ret, true);
    getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, !isLikeNone(ret), true);
}
export function __wbg___wbindgen_string_get_7ce8eee7fd327545(arg0, arg1) {
    const obj = arg1;
    const ret = typeof(obj) === 'string' ? obj : undefined;
    var ptr1 = isLikeNone(ret) ? 0 : passStringToWasm0(ret, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
    var len1 = WASM_VECTOR_LEN;
    getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 1, len1, true);
    getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, ptr1, true);
}
export function __wbg___wbindgen_throw_4c88d8bf264fd984(arg0, arg1) {
    throw new Error(getStringFromWasm0(arg0, arg1));
}
export function __wbg___wbindgen_typeof_ee4990276e02f607(arg0) {
    const ret = typeof arg0;
    return ret;
}
export function __wbg_push_c9f4893fc209f768(arg0, arg1) {
    const ret = arg0.push(arg1);
    return ret;
}
export function __wbg_wbgpoint_unwrap(arg0) {
    const ret = WbgPoint.__unwrap(arg0);
    return ret;
}
export function __wbindgen_generic_0000000000000001(arg0) {
    // Cast intrinsic for `F64 -> Externref`.
    const ret = arg0;
    return ret;
}
export function __wbindgen_generic_0000000000000003(arg0, arg1) {
    // Cast intrinsic for `Ref(String) -> Externref`.
    const ret = getStringFromWasm0(arg0, arg1);
    return ret;
}
export function __wbindgen_generic_0000000000000004(arg0) {
    // Cast intrinsic for `U64 -> Externref`.
    const ret = BigInt.asUintN(64, arg0);
    return ret;
}
export function __wbindgen_generic_0000000000000005(arg0, arg1) {
    var v0 = getArrayU8FromWasm0(arg0, arg1).slice();
    wasm.__wbindgen_free(arg0, arg1 * 1, 1);
    // Cast intrinsic for `Vector(U8) -> Externref`.
    const ret = v0;
    return ret;
}
export function __wbg_set_wasm(val) {
    wasm = val;
}
";

    #[test]
    fn intrinsics_that_run_no_user_code_go_unguarded_the_rest_stay_guarded() {
        let unguarded = bg_js(RELEASE, &shims(RELEASE), &ours());
        let pure = [
            "__wbg___bridgeToWasmBindgen_922564e6dae1a3ff",
            "__wbg___wbindgen_bigint_get_as_i64_11da4b52cd0aedef",
            "__wbg___wbindgen_boolean_get_4f1baf9a00be3c74",
            "__wbg___wbindgen_is_bigint_5fa10641e039d3ef",
            "__wbg___wbindgen_is_falsy_d864b623500ae65d",
            "__wbg___wbindgen_is_function_741ff2bb612836f5",
            "__wbg___wbindgen_is_null_c22311b1cc228e3a",
            "__wbg___wbindgen_is_null_or_undefined_fb96af93c75460ae",
            "__wbg___wbindgen_is_object_8b968c3ab8e96595",
            "__wbg___wbindgen_is_string_fc456fee5d3317de",
            "__wbg___wbindgen_is_symbol_f846131a047725ea",
            "__wbg___wbindgen_is_undefined_be5b34249ff1fc15",
            "__wbg___wbindgen_jsval_eq_38d7bfbe4cc84039",
            "__wbg___wbindgen_number_get_934b640d0889af78",
            "__wbg___wbindgen_string_get_7ce8eee7fd327545",
            "__wbg___wbindgen_throw_4c88d8bf264fd984",
            "__wbg___wbindgen_typeof_ee4990276e02f607",
            "__wbindgen_generic_0000000000000001",
            "__wbindgen_generic_0000000000000003",
            "__wbindgen_generic_0000000000000004",
            "__wbindgen_generic_0000000000000005",
        ];
        assert_eq!(unguarded, pure);
        // Kept guarded: `+`, `in`, `debugString`, loose `==`, a js-sys call, a class
        // unwrap (`instanceof`), and `__wbg_set_wasm` (not an import).
    }

    #[test]
    fn a_debug_build_s_asserts_and_log_error_wrapper_are_read_through() {
        let js = "export function __wbg___wbindgen_is_falsy_d864b623500ae65d(arg0) {
    const ret = !arg0;
    _assertBoolean(ret);
    return ret;
}
export function __wbg___wbindgen_number_get_934b640d0889af78(arg0, arg1) {
    const obj = arg1;
    const ret = typeof(obj) === 'number' ? obj : undefined;
    if (!isLikeNone(ret)) {
        _assertNum(ret);
    }
    getDataViewMemory0().setFloat64((arg0 >>> 0) + 8 * 1, isLikeNone(ret) ? 0 : ret, true);
    getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, !isLikeNone(ret), true);
}
export function __wbindgen_generic_0000000000000001() { return logError(function (arg0, arg1) {
    // Cast intrinsic for `Closure(Closure { owned: true, function: Function { arguments: [Externref], shim_idx: 44, ret: Result(Unit), inner_ret: Some(Result(Unit)) }, mutable: true }) -> Externref`.
    const ret = makeMutClosure(arg0, arg1, wasm_bindgen__convert__closures_____invoke__h8ef6c1b6c1c3e401);
    return ret;
}, arguments); }
export function __wbg_call_40b008ba32f73991() { return handleError(function (arg0, arg1) {
    const ret = arg0.call(arg1);
    return ret;
}, arguments); }
";
        assert_eq!(
            bg_js(js, &shims(js), &[]),
            [
                "__wbg___wbindgen_is_falsy_d864b623500ae65d",
                "__wbg___wbindgen_number_get_934b640d0889af78",
                "__wbindgen_generic_0000000000000001",
            ]
        );
    }

    #[test]
    fn a_name_that_looks_like_an_intrinsic_or_ours_is_guarded_unless_its_text_is_theirs() {
        // A user's `#[wasm_bindgen(js_name = "__wbindgen_is_undefined")]` import, a cast
        // shape never read here, a conversion shim not bound to bridge-runtime's snippet.
        let js = "import { __bridgeToWasmBindgen } from './snippets/user-crate-0123456789abcdef/src/js/wbg_values.js';
export function __wbg___wbindgen_is_undefined_0123456789abcdef(arg0) {
    const ret = __wbindgen_is_undefined(arg0);
    return ret;
}
export function __wbindgen_generic_0000000000000002(arg0) {
    const ret = arg0.valueOf();
    return ret;
}
export function __wbindgen_generic_0000000000000003(arg0, arg1) {
    const ret = makeMutClosure(arg0, arg1, f());
    return ret;
}
export function __wbg___bridgeToWasmBindgen_922564e6dae1a3ff(arg0) {
    const ret = __bridgeToWasmBindgen(arg0 >>> 0);
    return ret;
}
";
        let user = vec![(
            "snippets/user-crate-0123456789abcdef/src/js/wbg_values.js".to_string(),
            b"export function __bridgeToWasmBindgen(i) { return globalThis.hook(i); }".to_vec(),
        )];
        assert!(bg_js(js, &shims(js), &user).is_empty());
        // Not an import of the module: never listed.
        assert!(bg_js(RELEASE, &[], &ours()).is_empty());
    }

    #[test]
    fn only_bridge_runtime_s_own_snippet_has_unguarded_functions() {
        assert_eq!(
            snippet(SNIPPET_PATH, &ours()),
            ["__bridgeToWasmBindgen", "__bridgeFromWasmBindgen"]
        );
        let changed = vec![(SNIPPET_PATH.to_string(), b"export function x() {}".to_vec())];
        assert!(snippet(SNIPPET_PATH, &changed).is_empty());
        assert!(snippet("snippets/other/x.js", &ours()).is_empty());
    }
}
