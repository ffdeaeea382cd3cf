//! Dead code across the rendered glue. The templates define every runtime helper a
//! package might need (string and array passing, wire, checks, ...); after rendering, the
//! module-scope definitions of `$` names that nothing else in the module refers to are
//! dropped, until none is left (a dropped helper's own references stop counting). So a
//! package ships only the helpers its classes and functions use, and no template has to
//! know which helpers another one needs.
//!
//! What counts as a definition (the templates' layout, see ARCHITECTURE.md "Glue
//! hygiene"): a line at column 0 starting with `function $name(`, `const $name` or
//! `let $name`, up to its end: the same line if it ends with `;`, else the next line at
//! column 0 that starts with `}`, `]` or `)`. The `//` lines right above it go with it. A
//! `const`/`let` line of several `$a = b` declarators keeps the ones still used. A
//! reference is a whole identifier token starting with `$` anywhere else in the text
//! (strings and comments inside code included, which can only keep a helper, never drop a
//! used one), except in the `//` lines that go with a definition: those only explain.
//! `$` names are the glue's own (user names contain no `$`), so no user item is touched.

use std::collections::HashMap;

/// `js` without the definitions of unreferenced `$` names.
pub fn unused_helpers(js: &str) -> String {
    let lines: Vec<&str> = js.split_inclusive('\n').collect();
    let mut items = definitions(&lines);
    let owner = line_owners(&items, lines.len());
    let mut refs = references(&lines, &owner, &items);
    drop_unused(&lines, &mut items, &mut refs);
    render(js.len(), &lines, &owner, &items)
}

/// References per name, from every line outside the definition's own lines (`owner`: the
/// item each line belongs to).
fn references<'a>(
    lines: &[&'a str],
    owner: &[Option<usize>],
    items: &[Item],
) -> HashMap<&'a str, usize> {
    let mut refs: HashMap<&str, usize> = HashMap::new();
    for (i, line) in lines.iter().enumerate() {
        if owner[i].is_some_and(|item| i < items[item].def) {
            continue;
        }
        for token in dollar_tokens(line) {
            if owner[i].is_some_and(|item| items[item].defines(token)) {
                continue;
            }
            *refs.entry(token).or_default() += 1;
        }
    }
    refs
}

/// Drop to a fixpoint: each dropped item's references stop counting.
fn drop_unused<'a>(lines: &[&'a str], items: &mut [Item<'a>], refs: &mut HashMap<&'a str, usize>) {
    let used = |refs: &HashMap<&str, usize>, name: &str| refs.get(name).copied().unwrap_or(0) > 0;
    loop {
        let mut changed = false;
        for item in items.iter_mut().filter(|i| !i.dropped) {
            let before = item.names.iter().filter(|n| n.1).count();
            for name in item.names.iter_mut().filter(|n| n.1) {
                if !used(refs, name.0) {
                    name.1 = false;
                }
            }
            let alive = item.names.iter().filter(|n| n.1).count();
            if alive == before {
                continue;
            }
            changed = true;
            if alive == 0 {
                item.dropped = true;
                for line in &lines[item.def..item.end] {
                    for token in dollar_tokens(line) {
                        if !item.defines(token)
                            && let Some(count) = refs.get_mut(token)
                        {
                            *count = count.saturating_sub(1);
                        }
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// The lines of the items still used (a partly dropped declarator list rewritten), and
/// the rest of the text.
fn render(len: usize, lines: &[&str], owner: &[Option<usize>], items: &[Item]) -> String {
    let mut out = String::with_capacity(len);
    let mut i = 0;
    while i < lines.len() {
        match owner[i].map(|k| &items[k]) {
            Some(item) if item.dropped => i = item.end,
            Some(item) if item.start == i && item.partly_dropped() => {
                // Its comment lines, then the declarators still used.
                lines[item.start..item.end - 1]
                    .iter()
                    .for_each(|l| out.push_str(l));
                out.push_str(&item.rewrite());
                i = item.end;
            }
            // A section header whose section is now empty goes too.
            _ if lines[i].starts_with("// ----") && is_section_end(lines, owner, items, i + 1) => {
                i += 1;
            }
            _ => {
                out.push_str(lines[i]);
                i += 1;
            }
        }
    }
    out
}

/// Does nothing but dropped items (and blank lines) follow line `from` up to the next
/// section header or the end?
fn is_section_end(lines: &[&str], owner: &[Option<usize>], items: &[Item], from: usize) -> bool {
    let mut i = from;
    while i < lines.len() {
        match owner[i].map(|k| &items[k]) {
            Some(item) if item.dropped => i = item.end,
            _ if lines[i].trim().is_empty() => i += 1,
            _ => return lines[i].starts_with("// ----"),
        }
    }
    true
}

/// One module-scope definition: lines `start..end` (its comment lines included).
struct Item<'a> {
    start: usize,
    /// Its first line of code: `start..def` are its comment lines, whose mentions of other
    /// helpers keep nothing alive (a comment naming a helper it explains, whose own code
    /// names the commented one, would otherwise keep both).
    def: usize,
    end: usize,
    /// The names it defines, each with whether it is still used.
    names: Vec<(&'a str, bool)>,
    /// `Some((keyword, [(name, initializer)]))` for a one-line declarator list.
    declarators: Option<(&'a str, Vec<(&'a str, &'a str)>)>,
    dropped: bool,
}

impl Item<'_> {
    fn defines(&self, token: &str) -> bool {
        self.names.iter().any(|n| n.0 == token)
    }

    fn partly_dropped(&self) -> bool {
        self.declarators.is_some() && self.names.iter().any(|n| !n.1)
    }

    /// The declaration line with only the used declarators.
    fn rewrite(&self) -> String {
        let Some((keyword, list)) = &self.declarators else {
            return String::new();
        };
        let kept: Vec<String> = list
            .iter()
            .filter(|(name, _)| self.names.iter().any(|n| n.0 == *name && n.1))
            .map(|(name, init)| format!("{name} = {init}"))
            .collect();
        format!("{keyword} {};\n", kept.join(", "))
    }
}

fn definitions<'a>(lines: &[&'a str]) -> Vec<Item<'a>> {
    let mut items = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        match definition_at(lines, i) {
            Some(item) => {
                i = item.end;
                items.push(item);
            }
            None => i += 1,
        }
    }
    items
}

/// The definition whose first line of code is line `i`, if it is one.
fn definition_at<'a>(lines: &[&'a str], i: usize) -> Option<Item<'a>> {
    let line = lines[i];
    let (keyword, rest) = ["function ", "const ", "let "]
        .into_iter()
        .find_map(|k| line.strip_prefix(k).map(|rest| (k.trim_end(), rest)))?;
    let name = dollar_tokens(rest).next().filter(|n| rest.starts_with(n))?;
    // The comment right above goes with it; not the file's first line nor a section
    // header (`// ---- ...`), which belong to what follows them.
    let mut start = i;
    while start > 1
        && lines[start - 1].starts_with("//")
        && !lines[start - 1].starts_with("// ----")
    {
        start -= 1;
    }
    let end = if line.trim_end().ends_with(';')
        || keyword == "function" && line.trim_end().ends_with('}')
    {
        i + 1
    } else {
        // None: not the layout this pass understands; keep it.
        (i + 1..lines.len()).find(|&j| lines[j].starts_with(['}', ']', ')']))? + 1
    };
    // A definition whose brackets do not balance is not the layout this pass reads
    // (its end was guessed wrong): keep it, and skip only its first line.
    if !balanced(&lines[i..end]) {
        return None;
    }
    let declarators = (keyword != "function" && end == i + 1)
        .then(|| declarator_list(rest))
        .flatten();
    let names = match &declarators {
        Some(list) => list.iter().map(|(n, _)| (*n, true)).collect(),
        None => vec![(name, true)],
    };
    Some(Item {
        start,
        def: i,
        end,
        names,
        declarators: declarators.map(|list| (keyword, list)),
        dropped: false,
    })
}

/// `$a = b, $c = d;` (a line of simple declarators, initializers without commas) as pairs.
fn declarator_list(rest: &str) -> Option<Vec<(&str, &str)>> {
    let body = rest.trim_end().strip_suffix(';')?;
    let parts: Vec<&str> = body.split(", ").collect();
    if parts.len() < 2 {
        return None;
    }
    parts
        .into_iter()
        .map(|part| {
            let (name, init) = part.split_once(" = ")?;
            let simple = |s: &str| !s.is_empty() && s.bytes().all(is_ident_byte);
            (name.starts_with('$') && simple(name) && simple(init)).then_some((name, init))
        })
        .collect()
}

/// Do `{}`, `[]` and `()` open and close in equal numbers over `lines`? (Brackets inside
/// strings count too, so a message with an unpaired one keeps its helper: the safe side.)
fn balanced(lines: &[&str]) -> bool {
    let mut depth = [0i64; 3];
    for byte in lines.iter().flat_map(|l| l.bytes()) {
        match byte {
            b'{' => depth[0] += 1,
            b'}' => depth[0] -= 1,
            b'[' => depth[1] += 1,
            b']' => depth[1] -= 1,
            b'(' => depth[2] += 1,
            b')' => depth[2] -= 1,
            _ => {}
        }
    }
    depth == [0, 0, 0]
}

/// Does `js` refer to any of `names` (`$` names) as a whole token?
pub fn refers_to(js: &str, names: &[&str]) -> bool {
    dollar_tokens(js).any(|token| names.contains(&token))
}

fn line_owners(items: &[Item], lines: usize) -> Vec<Option<usize>> {
    let mut owner = vec![None; lines];
    for (k, item) in items.iter().enumerate() {
        for slot in &mut owner[item.start..item.end] {
            *slot = Some(k);
        }
    }
    owner
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// The identifier tokens of `text` that start with `$`.
fn dollar_tokens(text: &str) -> impl Iterator<Item = &str> {
    identifier_tokens(text).filter(|t| t.len() > 1 && t.starts_with('$'))
}

/// The identifier tokens of `text` (runs of letters, digits, `_`, `$` and non-ASCII).
pub(super) fn identifier_tokens(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() && !is_ident_byte(bytes[i]) {
            i += 1;
        }
        let start = i;
        while i < bytes.len() && is_ident_byte(bytes[i]) {
            i += 1;
        }
        (i > start).then(|| &text[start..i])
    })
}

#[cfg(test)]
mod tests {
    use super::{refers_to, unused_helpers};

    #[test]
    fn drops_unreferenced_helpers_to_a_fixpoint() {
        let js = "\
// header
function $used(x) {
  return $inner(x);
}
// only the dead helper calls this
function $onlyDead() {
  return 1;
}
function $dead() {
  return $onlyDead();
}
function $inner(x) {
  return x;
}
// ---- dead section ----
const $table = [
  1,
];

// ---- live section ----
let $flag = false;
export function api(x) {
  return $used(x) + ($flag ? 1 : 0);
}
";
        let out = unused_helpers(js);
        assert!(out.contains("function $used"), "{out}");
        assert!(out.contains("function $inner"), "{out}");
        assert!(out.contains("let $flag"), "{out}");
        assert!(!out.contains("$dead"), "{out}");
        assert!(!out.contains("$onlyDead"), "{out}");
        assert!(!out.contains("only the dead helper"), "{out}");
        assert!(!out.contains("$table"), "{out}");
        assert!(out.contains("// header\nfunction $used"), "{out}");
        assert!(!out.contains("---- dead section"), "{out}");
        assert!(out.contains("---- live section"), "{out}");
        assert!(
            out.ends_with("export function api(x) {\n  return $used(x) + ($flag ? 1 : 0);\n}\n")
        );
    }

    #[test]
    fn keeps_used_declarators_of_a_list() {
        let js = "// generated\n// ---- runtime ----\n// builtins\nconst $Object = Object, $String = String, $Map = Map;\nexport const x = $Map;\n";
        assert_eq!(
            unused_helpers(js),
            "// generated\n// ---- runtime ----\n// builtins\nconst $Map = Map;\nexport const x = $Map;\n"
        );
        // Wholly unused: the header and the section header stay.
        let js = "// generated\n// ---- runtime ----\n// builtins\nconst $Object = Object, $String = String;\nexport const x = 1;\n";
        assert_eq!(
            unused_helpers(js),
            "// generated\n// ---- runtime ----\nexport const x = 1;\n"
        );
    }

    #[test]
    fn user_and_per_item_names_are_never_candidates() {
        // `Item$lift` is not a reference to a `$lift`, and non-`$` definitions stay.
        let js = "function $lift() {\n}\nfunction Item$lift() {\n}\nconst Item$class = 1;\nexport { Item$class as Item };\n";
        let out = unused_helpers(js);
        assert!(!out.contains("function $lift"), "{out}");
        assert!(out.contains("function Item$lift"), "{out}");
    }

    #[test]
    fn a_definition_whose_end_is_not_found_is_kept_whole() {
        // The column-0 `}` closes an object literal, not the function: dropping up to it
        // would leave the function's tail behind.
        let js = "function $odd() {\n  const o = {\n}\n  return o;\n}\nexport const z = 1;\n";
        assert_eq!(unused_helpers(js), js);
    }

    #[test]
    fn a_self_reference_does_not_keep_a_helper() {
        let js = "function $rec(n) {\n  return n ? $rec(n - 1) : 0;\n}\nexport const y = 1;\n";
        assert_eq!(unused_helpers(js), "export const y = 1;\n");
    }

    #[test]
    fn a_helpers_comment_keeps_nothing_alive() {
        // `$b`'s comment names `$a`, whose code names `$b`: neither is used.
        let js = "function $a() {\n  return $b();\n}\n// explains $a\nfunction $b() {\n}\nexport const z = 1;\n";
        assert_eq!(unused_helpers(js), "export const z = 1;\n");
        // A used helper keeps its comment, and the helper the comment names stays dropped.
        let js = "function $a() {\n}\n// unlike $a\nfunction $b() {\n}\nexport const z = $b;\n";
        assert_eq!(
            unused_helpers(js),
            "// unlike $a\nfunction $b() {\n}\nexport const z = $b;\n"
        );
    }

    #[test]
    fn refers_to_matches_whole_tokens() {
        assert!(refers_to("const pool = $POOLS.top;", &["$POOLS"]));
        assert!(!refers_to("const x = $POOLS2 + Item$POOLS;", &["$POOLS"]));
    }

    #[test]
    fn a_mention_in_a_string_keeps_it() {
        let js = "function $h() {\n}\nexport const s = \"uses $h\";\n";
        assert!(unused_helpers(js).contains("function $h"));
    }
}
