//! wasm-bindgen's half as CommonJS, for a joined package built `--target nodejs-cjs`.
//! The CLI runs `--target bundler` for every target (one instantiation, by the bridge
//! glue), so its `_bg.js` and its snippets are ES modules; this rewrites their top-level
//! `import` and `export` statements into `require()` and `exports` (the rest of the text
//! is untouched), so the package loads with `require()` on Node before 20.19. The forms
//! read are the ones wasm-bindgen writes and the usual ones of a snippet file; any other
//! (a default export, `export *`, `import.meta`) is an error naming the file and the fix.

use anyhow::{Result, bail};

/// `js` (the file `path` of the package) as a CommonJS module exporting the same names.
pub fn convert(js: &str, path: &str) -> Result<String> {
    to_commonjs(js).or_else(|what| {
        bail!(
            "{path} (wasm-bindgen's JS in the package) uses {what}, which cargo bridge cannot \
             turn into CommonJS for `--target nodejs-cjs`; build with `--target nodejs` (an \
             ES-module package, which Node 20.19+ can `require()`)"
        )
    })
}

/// An export: (exported name, local binding, read through a getter: `let`/`var` may change).
type Export = (String, String, bool);

/// [`convert`]'s work; an error says what could not be converted.
fn to_commonjs(js: &str) -> Result<String, String> {
    if js.contains("import.meta") {
        return Err("`import.meta`".into());
    }
    let mut out = String::with_capacity(js.len() + 256);
    let mut exports: Vec<Export> = Vec::new();
    let mut lines = js.lines();
    while let Some(line) = lines.next() {
        if let Some(rest) = line.strip_prefix("import ") {
            out.push_str(&import_statement(rest, &mut lines)?);
        } else if let Some(rest) = line.strip_prefix("export ") {
            let rest = rest.trim_start();
            if let Some(list) = rest.strip_prefix('{') {
                exports.extend(export_list(list, &mut lines)?);
                continue;
            }
            let (name, live) = exported_declaration(line, rest)?;
            exports.push((name.clone(), name, live));
            out.push_str(rest);
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    for (name, local, live) in exports {
        let name = serde_json::to_string(&name).expect("a string serializes");
        // Defined, not assigned: a name like `__proto__` would set the prototype.
        if live {
            out.push_str(&format!(
                "Object.defineProperty(exports, {name}, {{ enumerable: true, get() {{ return {local}; }} }});\n"
            ));
        } else {
            out.push_str(&format!(
                "Object.defineProperty(exports, {name}, {{ enumerable: true, value: {local} }});\n"
            ));
        }
    }
    Ok(out)
}

/// The `require()` form of the import statement that starts with `import <rest>` (and may
/// go on over the next `lines`).
fn import_statement<'a>(
    rest: &str,
    lines: &mut impl Iterator<Item = &'a str>,
) -> Result<String, String> {
    let mut text = rest.to_string();
    // A statement ends with its specifier's closing quote (and maybe `;`).
    while !ends_with_specifier(&text) {
        match lines.next() {
            Some(more) => {
                text.push(' ');
                text.push_str(more.trim());
            }
            None => return Err(format!("an unterminated `import {rest}`")),
        }
    }
    require(text.trim().trim_end_matches(';'))
        .ok_or_else(|| format!("the import `import {}`", text.trim()))
}

/// The names of `export {<list>` (which may go on over the next `lines`).
fn export_list<'a>(
    list: &str,
    lines: &mut impl Iterator<Item = &'a str>,
) -> Result<Vec<Export>, String> {
    let mut text = list.to_string();
    while !text.contains('}') {
        match lines.next() {
            Some(more) => text.push_str(more),
            None => return Err("an unterminated `export {` list".into()),
        }
    }
    let (inner, after) = text.split_once('}').expect("checked");
    if after.trim_start().starts_with("from") {
        return Err(format!("a re-export `export {{{inner}}}{after}`"));
    }
    let items = inner.split(',').map(str::trim).filter(|i| !i.is_empty());
    Ok(items
        .map(|item| {
            let (local, name) = item.split_once(" as ").unwrap_or((item, item));
            (name.trim().into(), local.trim().into(), true)
        })
        .collect())
}

/// The name `export <rest>` (the whole `line`) declares, and whether it may change.
fn exported_declaration(line: &str, rest: &str) -> Result<(String, bool), String> {
    let found = [
        ("async function ", false),
        ("function* ", false),
        ("function ", false),
        ("class ", false),
        ("const ", false),
        ("let ", true),
        ("var ", true),
    ]
    .into_iter()
    .find_map(|(kw, live)| rest.strip_prefix(kw).map(|decl| (decl, live)));
    let Some((decl, live)) = found else {
        return Err(format!("the export `{line}`"));
    };
    let name: String = decl
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
        .collect();
    if name.is_empty() || decl.contains(',') && live {
        return Err(format!("the export `{line}`"));
    }
    Ok((name, live))
}

fn ends_with_specifier(text: &str) -> bool {
    let t = text.trim_end().trim_end_matches(';').trim_end();
    (t.ends_with('\'') || t.ends_with('"')) && (t.contains(" from ") || !t.contains('{'))
}

/// The `require()` form of an import statement's text after `import ` (no `;`), if it is
/// one of: `{ a, b as c } from "m"`, `* as X from "m"`, `"m"`.
fn require(text: &str) -> Option<String> {
    if text.starts_with('"') || text.starts_with('\'') {
        return Some(format!("require({text});"));
    }
    let (clause, spec) = text.rsplit_once(" from ")?;
    let spec = spec.trim();
    let clause = clause.trim();
    if let Some(ns) = clause.strip_prefix("* as ") {
        return Some(format!("const {} = require({spec});", ns.trim()));
    }
    let inner = clause.strip_prefix('{')?.strip_suffix('}')?;
    let bindings: Vec<String> = inner
        .split(',')
        .map(str::trim)
        .filter(|i| !i.is_empty())
        .map(|item| match item.split_once(" as ") {
            Some((name, local)) => format!("{}: {}", name.trim(), local.trim()),
            None => item.to_string(),
        })
        .collect();
    Some(format!(
        "const {{ {} }} = require({spec});",
        bindings.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::convert;

    #[test]
    fn imports_and_exports_become_require_and_exports() {
        let js = "import { a, b as c } from './snippets/x.js';\nimport * as m from \"m\";\n\
                  let wasm;\nexport function __wbg_set_wasm(val) {\n    wasm = val;\n}\n\
                  export class Point {\n}\nexport const Direction = Object.freeze({});\n\
                  export let counter = 0;\nfunction local() {}\nexport { local as __proto__ };\n";
        let out = convert(js, "x_bg.js").unwrap();
        assert_eq!(
            out,
            "const { a, b: c } = require('./snippets/x.js');\nconst m = require(\"m\");\n\
             let wasm;\nfunction __wbg_set_wasm(val) {\n    wasm = val;\n}\n\
             class Point {\n}\nconst Direction = Object.freeze({});\nlet counter = 0;\n\
             function local() {}\n\
             Object.defineProperty(exports, \"__wbg_set_wasm\", { enumerable: true, value: __wbg_set_wasm });\n\
             Object.defineProperty(exports, \"Point\", { enumerable: true, value: Point });\n\
             Object.defineProperty(exports, \"Direction\", { enumerable: true, value: Direction });\n\
             Object.defineProperty(exports, \"counter\", { enumerable: true, get() { return counter; } });\n\
             Object.defineProperty(exports, \"__proto__\", { enumerable: true, get() { return local; } });\n"
        );
    }

    #[test]
    fn forms_without_a_commonjs_equivalent_name_the_file_and_the_fix() {
        for js in [
            "export default 3;\n",
            "export * from './y.js';\n",
            "const u = new URL('a', import.meta.url);\n",
            "import def from './y.js';\n",
            "export { a } from './y.js';\n",
        ] {
            let err = convert(js, "snippets/s/y.js").unwrap_err().to_string();
            assert!(
                err.contains("snippets/s/y.js") && err.contains("--target nodejs`"),
                "{js}: {err}"
            );
        }
    }
}
