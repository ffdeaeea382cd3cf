//! Which of a class's module bindings the rest of the glue reads. A class's functions
//! (`lift`, `addr`, `peek`, `release`) and a `rust`-mode class's wrapper table are local
//! to its glue (its own members call them by `$lift`, ...); other glue (another class's
//! members, codecs, values, iterators) reaches them as `<Class>$lift`, ... at module
//! scope. A package ships such a binding only where something reads it (issue 48: what a
//! package does not use, it does not ship; ~25 B gz a class): the glue is first rendered
//! without any (`class_bindings` empty), and every `<Class>$<what>` token left in it is a
//! reader.

use super::prune::identifier_tokens;
use std::collections::{BTreeMap, HashSet};

/// The bindings a class can export at module scope (`class.js.j2`, `identity/*.js.j2`).
const BINDINGS: [&str; 5] = ["lift", "addr", "peek", "release", "wrappers"];

/// Per class name (of `classes`), the bindings `js` (rendered without any) reads; classes
/// with none left out. The templates' `module_bindings`.
pub fn read_by<'a>(
    js: &str,
    classes: impl IntoIterator<Item = &'a str>,
) -> BTreeMap<String, Vec<&'static str>> {
    let tokens: HashSet<&str> = identifier_tokens(js).filter(|t| t.contains('$')).collect();
    classes
        .into_iter()
        .filter_map(|class| {
            let read: Vec<&'static str> = BINDINGS
                .into_iter()
                .filter(|what| tokens.contains(format!("{class}${what}").as_str()))
                .collect();
            (!read.is_empty()).then(|| (class.to_string(), read))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::read_by;

    #[test]
    fn whole_tokens_only() {
        let js = "const x = Item$lift(a), y = Item2$peek(b) !== -1;\n\
                  $cachedWrapper(Item$wrappers, $lift, r);\n\
                  const s = \"Other$addr\"; Node$releaseAll(); xItem2$addr(c);\n";
        let read = read_by(js, ["Item", "Item2", "Other", "Node", "None"]);
        let got: Vec<(&str, &[&str])> = read
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_slice()))
            .collect();
        assert_eq!(
            got,
            [
                ("Item", &["lift", "wrappers"][..]),
                ("Item2", &["peek"][..]),
                // A mention in a string keeps it (the safe direction).
                ("Other", &["addr"][..]),
            ]
        );
    }
}
