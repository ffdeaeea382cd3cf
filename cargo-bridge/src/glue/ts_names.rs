//! Which user type names the `.d.ts` can declare as themselves: not a global or
//! TypeScript's own type name, not a typed array. Read by `ts` (how a type is spelled) and
//! `type_names` (which names an imported class is declared under), so neither imports the
//! other.

use bridge_schema::lowering::Scalar;

/// Names the `.d.ts` refers to itself (globals and TypeScript's own type names; and the
/// typed arrays, from the lowering table): a user class spelled like one is declared
/// under its glue name and exported as an alias.
const TS_TAKEN: &[&str] = &[
    "Record",
    "Promise",
    "Request",
    "Response",
    "BufferSource",
    "WebAssembly",
    "URL",
    "Symbol",
    "globalThis",
    "Error",
    "any",
    "unknown",
    "never",
    "object",
    "string",
    "number",
    "boolean",
    "bigint",
    "symbol",
    "undefined",
];

/// Whether the `.d.ts` can declare `name` as itself (`export class Name`), rather than as
/// `Name$class` exported under its name.
pub fn plain(name: &str) -> bool {
    let typed_array = Scalar::ALL.iter().any(|s| s.typed_array() == Some(name));
    bridge_schema::js::is_bindable(name) && !TS_TAKEN.contains(&name) && !typed_array
}
