//! The names wasm-bindgen's `_bg.js` exports, read from its top-level `export`
//! statements: `export function f(`, `export class C`, `export const E = ...`, and
//! `export { a, b as c }` lists. Its output has one statement form per kind, each at
//! the start of a line; anything else starting with `export` is an error rather than a
//! name silently missing from the package.

use anyhow::{Result, bail};

pub fn names(js: &str) -> Result<Vec<String>> {
    let mut names = Vec::new();
    let mut lines = js.lines();
    while let Some(line) = lines.next() {
        let Some(rest) = line.strip_prefix("export ") else {
            continue;
        };
        let rest = rest.trim_start();
        if let Some(list) = rest.strip_prefix('{') {
            let mut text = list.to_string();
            while !text.contains('}') {
                match lines.next() {
                    Some(more) => text.push_str(more),
                    None => bail!("wasm-bindgen's JS has an unterminated `export {{` list"),
                }
            }
            let inner = &text[..text.find('}').expect("checked")];
            for item in inner.split(',').map(str::trim).filter(|i| !i.is_empty()) {
                let name = item
                    .rsplit(" as ")
                    .next()
                    .expect("split has one part")
                    .trim();
                names.push(name.to_string());
            }
            continue;
        }
        let decl = [
            "function* ",
            "function ",
            "async function ",
            "class ",
            "const ",
            "let ",
            "var ",
        ]
        .iter()
        .find_map(|kw| rest.strip_prefix(kw));
        let Some(decl) = decl else {
            bail!("wasm-bindgen's JS has an export cargo bridge cannot read: `{line}`");
        };
        let name: String = decl
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
            .collect();
        if name.is_empty() {
            bail!("wasm-bindgen's JS has an export cargo bridge cannot read: `{line}`");
        }
        names.push(name);
    }
    names.sort();
    names.dedup();
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::names;

    #[test]
    fn reads_every_export_form() {
        let js = "let wasm;\nexport function __wbg_set_wasm(val) {\n    wasm = val;\n}\n\
                  export class Point {\n}\nexport const Direction = Object.freeze({});\n\
                  export {\n  a,\n  b as c\n};\n  export function nested() {}\n";
        assert_eq!(
            names(js).unwrap(),
            ["Direction", "Point", "__wbg_set_wasm", "a", "c"]
        );
    }

    #[test]
    fn an_unknown_export_form_is_an_error() {
        let err = names("export default 3;\n").unwrap_err();
        assert!(err.to_string().contains("`export default 3;`"), "{err}");
    }
}
