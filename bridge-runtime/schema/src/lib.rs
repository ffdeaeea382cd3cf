//! The export description that `#[bridge]` writes into a wasm custom section and
//! `cargo bridge` reads back. Shared by both sides so they cannot drift apart.
//!
//! Framing: every `#[bridge]` item contributes one record to the custom section
//! [`SECTION_NAME`]; the linker concatenates the records of all crates. A record is
//! `u32 LE length of the rest` + `u32 LE schema version` + JSON of [`Record`].
//! The version sits outside the JSON so a reader can reject a record it cannot parse.

use serde::{Deserialize, Serialize};

pub mod abi;
pub mod js;
pub mod lowering;
pub mod scalar;

pub use abi::header;
pub use scalar::Scalar;

/// Bump when the record format or the wasm ABI changes.
pub const SCHEMA_VERSION: u32 = 17;

/// Name of the custom section holding the records.
pub const SECTION_NAME: &str = "__bridge_exports";

/// Import module of the per-class lowering hooks that `cargo bridge` replaces.
pub const IDENTITY_IMPORT_MODULE: &str = "__bridge_identity";

/// Import (in [`IDENTITY_IMPORT_MODULE`]) through which the runtime's fast release pool
/// releases an entry; `cargo bridge` replaces it with a dispatch over the classes.
pub const POOL_RELEASE_IMPORT: &str = "__pool_release";

/// Exported global holding the shadow-stack pointer (added by `cargo bridge`): the glue
/// resets it after an exception leaves wasm.
pub const STACK_POINTER_EXPORT: &str = "__bridge_stack_pointer";

/// In a crate linking wasm-bindgen: exported global holding the shadow-stack pointer the
/// innermost call of wasm-bindgen's half was entered with (added by `cargo bridge`): the
/// glue puts the pointer back to it after an exception leaves that call.
pub const WBG_ENTRY_EXPORT: &str = "__bridge_wbg_entry";

/// Import module of the JS functions `#[bridge] extern` blocks declare and of the
/// trampolines through which Rust calls JS callbacks; the glue provides them.
pub const JS_IMPORT_MODULE: &str = "__bridge_import";

/// Import module of the runtime's `JsValue` operations (table, access, calls); the glue
/// provides them.
pub const JS_VALUE_MODULE: &str = "__bridge_js";

/// Name of the wasm import implementing the JS function `name` an extern block of
/// `crate_name` declares (crate-unique: two crates may import the same name).
pub fn import_symbol(crate_name: &str, name: &str) -> String {
    format!("{crate_name}::{name}")
}

/// Name of the wasm import converting what the promise of the async import `symbol`
/// settled with (`MemberForm::Settled`).
pub fn settled_import_symbol(symbol: &str) -> String {
    format!("{symbol}#settled")
}

/// Name of the wasm import through which Rust calls the JS function passed as `param`
/// of the export `symbol` (one trampoline per callback parameter).
pub fn callback_symbol(symbol: &str, param: &str) -> String {
    format!("{symbol}#{param}")
}

/// Name of the wasm export that calls the Rust closure the export `symbol` returned
/// (arguments: the closure's address, then the closure's parameters).
pub fn closure_call_export(symbol: &str) -> String {
    format!("{symbol}#closure-call")
}

/// How errors name a Rust closure passed as argument `index` (Rust name `name`, where
/// known) to the JS function `what` (`the JS import `each``). The macro's and the glue's
/// messages use it alike. (An owned closure keeps the words it had before lent and
/// `FnOnce` closures existed.)
pub fn closure_arg_label(index: usize, name: Option<&str>, what: &str, hold: Hold) -> String {
    match (hold, name) {
        (Hold::Owned, _) | (_, None) => {
            format!("the closure passed as argument {index} to {what}")
        }
        (Hold::Lent, Some(name)) => format!("the closure `{name}` lent to {what}"),
        (Hold::Once, Some(name)) => format!("the closure `{name}` passed to {what}"),
    }
}

/// Name of the wasm export that hands JS the output of the finished task of the async
/// export `symbol` (`(task) -> ret`).
pub fn async_finish_export(symbol: &str) -> String {
    format!("{symbol}#finish")
}

/// Name of the wasm export that frees a Rust closure the export `symbol` returned.
pub fn closure_drop_export(symbol: &str) -> String {
    format!("{symbol}#closure-drop")
}

// ---- names (see ARCHITECTURE.md, "Type ids and symbols") ----
//
/// The environment variable `cargo bridge` sets to `1` while it builds a crate whose
/// `js-names` is `"as-written"`, crate `package` (its Cargo package name, as written): the
/// messages its thunks build in Rust (a borrow refused at a later argument, a take by
/// value) then name its members as JS does, in Rust's spelling. The macro's expansion reads
/// it with `option_env!`, so cargo rebuilds the crate when it changes; a plain `cargo
/// build` sets none (the camelCase names).
pub fn as_written_variable(package: &str) -> String {
    format!("CARGO_BRIDGE_AS_WRITTEN_{package}")
}

// Every wasm export and import `#[bridge]` emits is spelled from the declaring crate's
// package name, so two crates can never link to the same symbol whatever their type,
// member or function names. Wasm names are arbitrary strings: `::` separates the crate,
// type and member (none of which can contain `:`), and `#` marks the names the macro and
// `cargo bridge` generate, which no Rust identifier can spell.

/// The type id of the user type `rust_name` declared by crate `crate_name`:
/// `"<crate>::<Name>"`. `BridgeType::TYPE_ID` holds it; records refer to types by it.
pub fn type_id(crate_name: &str, rust_name: &str) -> String {
    format!("{crate_name}::{rust_name}")
}

/// The type id of every wasm-bindgen type in a `#[bridge]` signature
/// (`bridge_runtime`'s `js/wbg_types.rs`), followed by how an export's parameter of it
/// crosses ([`WasmBindgenKind`]: `/class`, `/number`, nothing); the record follows it with
/// `:extern:` (an imported type: `JsCast`) or `:value:` (an exported struct or enum,
/// anything else) and the type as written (`#wasm-bindgen:extern:web_sys::HtmlElement`,
/// `#wasm-bindgen/class:value:Tally`).
pub const WASM_BINDGEN_TYPE_ID: &str = "#wasm-bindgen";
/// [`WASM_BINDGEN_TYPE_ID`] of a `#[wasm_bindgen]` struct (its wasm-bindgen ABI is a
/// pointer).
pub const WASM_BINDGEN_CLASS_TYPE_ID: &str = "#wasm-bindgen/class";
/// [`WASM_BINDGEN_TYPE_ID`] of a numeric `#[wasm_bindgen]` enum (its ABI is a number).
pub const WASM_BINDGEN_NUMBER_TYPE_ID: &str = "#wasm-bindgen/number";

/// The type id of `bridge_runtime::JsValue` reached under another name (`use ... as`, a
/// type alias: the macro knows it only by its name); `cargo bridge` reads it as a JS value
/// of any type.
pub const JS_VALUE_TYPE_ID: &str = "#js-value";

/// What an export's parameter of a wasm-bindgen type is passed as, chosen by its
/// wasm-bindgen ABI type (so the glue and the Rust side cannot disagree).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WasmBindgenKind {
    /// A `#[wasm_bindgen]` struct: the glue passes the object's pointer (taken from its
    /// JS object by value, lent by reference) where it finds the class under the Rust
    /// name, else a value-table entry tagged so Rust tells them apart
    /// (`abi::wbg_word`).
    Class,
    /// A numeric `#[wasm_bindgen]` enum: the number itself.
    Number,
    /// Anything else (string enums, imported types, `JsValue`): a value-table entry that
    /// wasm-bindgen converts in Rust.
    Value,
}

/// A wasm-bindgen type's id, read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WasmBindgenType<'a> {
    /// An imported JS type (`JsCast`), not an exported struct or enum.
    pub external: bool,
    /// How a parameter of it crosses.
    pub kind: WasmBindgenKind,
    /// The type as written in the signature (`web_sys::HtmlElement`, `Level`).
    pub written: &'a str,
}

/// The wasm-bindgen type `type_id` names, `None` for any other type id.
pub fn wasm_bindgen_type(type_id: &str) -> Option<WasmBindgenType<'_>> {
    let rest = type_id.strip_prefix(WASM_BINDGEN_TYPE_ID)?;
    let (kind, rest) = if let Some(rest) = rest.strip_prefix("/class") {
        (WasmBindgenKind::Class, rest)
    } else if let Some(rest) = rest.strip_prefix("/number") {
        (WasmBindgenKind::Number, rest)
    } else {
        (WasmBindgenKind::Value, rest)
    };
    let rest = rest.strip_prefix(':')?;
    let (external, written) = if let Some(written) = rest.strip_prefix("extern:") {
        (true, written)
    } else {
        (false, rest.strip_prefix("value:")?)
    };
    Some(WasmBindgenType {
        external,
        kind,
        written,
    })
}

/// Export of a member (`rust_name` without `r#`) of the type `type_id`.
pub fn member_symbol(type_id: &str, rust_name: &str) -> String {
    format!("{type_id}::{rust_name}")
}

/// Export of the free function `rust_name` (without `r#`) of crate `crate_name`.
pub fn function_symbol(crate_name: &str, rust_name: &str) -> String {
    format!("{crate_name}::{rust_name}")
}

/// Export dropping one reference to an object of the class `type_id` (emitted by `#[bridge]`).
pub fn drop_ref_export(type_id: &str) -> String {
    format!("{type_id}#drop_ref")
}

/// Export adding one reference to an object of the class `type_id` (emitted by `#[bridge]`).
pub fn retain_export(type_id: &str) -> String {
    format!("{type_id}#retain")
}

/// Import (in [`IDENTITY_IMPORT_MODULE`]) of the class `type_id`'s lowering hook.
pub fn identity_import(type_id: &str) -> String {
    type_id.to_string()
}

/// Export of an empty function beside a record's or enum's record (emitted by `#[bridge]`):
/// the linker includes an object file of a library crate only for a symbol it needs, and a
/// data type alone has none, so without it the type's record would be left out. `cargo
/// bridge` removes these exports.
pub fn data_anchor_export(type_id: &str) -> String {
    format!("{type_id}#anchor")
}

/// Export releasing a `rust`-mode object's JS wrapper (added by `cargo bridge`).
pub fn release_wrapper_export(type_id: &str) -> String {
    format!("{type_id}#release_wrapper")
}

/// Exported global counting the references the identity table holds, one count for every
/// `rust`-mode class of the module (added by `cargo bridge` when it has one): a count per
/// class would make each class's miss path and release wrapper differ by their global,
/// so `wasm-opt` could not merge them across classes (issue 48, ~18 B gz per class).
pub const IDENTITY_TABLE_LEN_EXPORT: &str = "__bridge_identity_table_len";

/// What the macro writes where a record names a type whose id only const evaluation
/// knows (`<T as BridgeType>::TYPE_ID`); the `index`-th such type of the record. Control
/// characters cannot occur in identifiers, and the macro removes them from doc text, so
/// the JSON string `"\u0001type:<index>\u0001"` occurs exactly where a type id belongs.
pub fn type_id_placeholder(index: usize) -> String {
    format!("\u{1}type:{index}\u{1}")
}

/// The identity modes a class can have.
pub const IDENTITY_MODES: [&str; 3] = ["none", "pointer", "rust"];

/// One exported item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Cargo package name of the crate whose macro wrote the record.
    pub crate_name: String,
    pub item: Item,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "item", rename_all = "snake_case")]
pub enum Item {
    Class(Class),
    Impl(Impl),
    Function(Function),
    /// A JS function declared in a `#[bridge] extern` block.
    Import(Import),
    /// `#[bridge(record)]` struct: plain data by value.
    Record(RecordDef),
    /// `#[bridge]` enum: a string (fieldless) or a tagged object.
    Enum(EnumDef),
    /// `pub type T;` in a `#[bridge] extern` block: a JS class Rust holds handles to.
    JsType(JsTypeDef),
}

/// An imported JS class (`pub type Counter;` in a `#[bridge] extern` block): Rust holds
/// its instances as `JsValue` handles, checked with `instanceof` where JS hands one over.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JsTypeDef {
    /// See [`type_id`].
    pub type_id: String,
    pub rust_name: String,
    /// Where the class (its constructor) lives: a global or a module's export.
    pub source: ImportSource,
    /// `#[bridge(structural)]`: no JS class is behind it; values are not checked and the
    /// glue never reads `source` (it names the type in messages only).
    #[serde(default)]
    pub structural: bool,
    /// `typescript_type = ".."` of a structural type: its `.d.ts` type.
    #[serde(default)]
    pub typescript_type: Option<String>,
}

/// A record: crosses as a plain JS object with one property per field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordDef {
    /// See [`type_id`].
    pub type_id: String,
    /// Name in JS (its TypeScript interface).
    pub name: String,
    pub rust_name: String,
    pub fields: Vec<Field>,
    pub doc: String,
}

/// A field of a record or enum variant, in declaration order (the wire order).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Field {
    /// Property name in JS (camelCase; `value` for a one-field tuple variant).
    pub name: String,
    pub ty: Ty,
    /// The name as written in Rust, where a crate that keeps Rust names (wasm-bindgen's
    /// convention, `js-names = "as-written"`) has it instead of `name`: absent where
    /// `name` is a `js_name` (which wins) or the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_written: Option<String>,
}

/// An enum. Fieldless enums cross as a string (the variant's `js_name`, else its name) or,
/// `#[bridge(numeric)]`, as the variant's discriminant (a number); others as
/// `{ kind: "<Variant>", ...fields }`. On the wasm side every fieldless enum is its
/// variant's index: the glue maps between the JS value and the index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EnumDef {
    /// See [`type_id`].
    pub type_id: String,
    /// Name in JS (the frozen object of a fieldless enum, the TypeScript type).
    pub name: String,
    pub rust_name: String,
    pub variants: Vec<Variant>,
    pub doc: String,
    /// A `#[bridge(numeric)]` enum's `#[repr]` of 8 to 32 bits (`Scalar::U8` ..): what a
    /// returned `&[E]` view of it is in JS (a typed array of the discriminants).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repr: Option<Ty>,
    /// An untagged union (wasm-bindgen's dynamic union): a unit variant is its JS string
    /// (`js_name`, else its name), a one-field tuple variant its value itself; JS values
    /// are told apart by strings first, then each tuple variant in order.
    #[serde(default, skip_serializing_if = "is_false")]
    pub untagged: bool,
    /// `#[bridge(fallback)]` on an untagged union: its last tuple variant takes any value
    /// no other variant matches.
    #[serde(default, skip_serializing_if = "is_false")]
    pub fallback: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Variant {
    pub name: String,
    pub fields: Vec<Field>,
    /// The JS string of a fieldless enum's variant (`#[bridge(js_name = "read-only")]`):
    /// any text. Absent: its name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub js_name: Option<String>,
    /// The discriminant of a `#[bridge(numeric)]` enum's variant: the JS number it is
    /// (within JS's safe integers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discriminant: Option<i64>,
}

/// The JS value of a fieldless enum's variant.
#[derive(Debug, Clone, PartialEq)]
pub enum VariantValue<'a> {
    String(&'a str),
    Number(i64),
}

impl Variant {
    /// What this variant of a fieldless enum is in JS.
    pub fn js_value(&self) -> VariantValue<'_> {
        match (self.discriminant, &self.js_name) {
            (Some(d), _) => VariantValue::Number(d),
            (None, Some(s)) => VariantValue::String(s),
            (None, None) => VariantValue::String(&self.name),
        }
    }
}

impl EnumDef {
    /// No variant has fields: the enum crosses as a string (or, numeric, a number).
    pub fn is_fieldless(&self) -> bool {
        self.variants.iter().all(|v| v.fields.is_empty())
    }

    /// `#[bridge(numeric)]`: the enum crosses as its variants' discriminants.
    pub fn is_numeric(&self) -> bool {
        self.variants.iter().all(|v| v.discriminant.is_some())
    }
}

/// A JS function Rust calls.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Import {
    /// Rust name, for messages.
    pub rust_name: String,
    /// Name of the wasm import (in [`JS_IMPORT_MODULE`]), see [`import_symbol`].
    pub symbol: String,
    /// Where the function lives.
    pub source: ImportSource,
    pub params: Vec<Param>,
    pub ret: Ty,
    /// Declared `-> Result<T, JsError>`: a JS exception becomes `Err`.
    pub catch: bool,
    /// A member of an imported JS class: `source` is then the class, and this says how the
    /// member is reached from it (or, form `Value`, a static: `source` is the value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member: Option<JsMember>,
}

/// How a member of an imported JS class is called (`source` names the class).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JsMember {
    pub form: MemberForm,
    /// The property name (empty for a constructor and `instanceof`).
    pub key: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemberForm {
    /// `new C(args)`.
    Constructor,
    /// `args[0][key](args[1..])`: the first argument is `this`.
    Method,
    /// `args[0][key]`.
    Getter,
    /// `args[0][key] = args[1]`.
    Setter,
    /// `C[key](args)`.
    Static,
    /// `args[0] instanceof C` (the type's own check, `TryFrom<JsValue>`).
    InstanceOf,
    /// The value of `source` itself (a `static` of the block), read once.
    Value,
    /// `args[0]` itself: the value an `async fn` import's promise settled with, converted
    /// as that import's declared result (`rust_name` and `source` are the import's, so
    /// messages read as its own; the symbol is [`settled_import_symbol`]).
    Settled,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "from", rename_all = "snake_case")]
pub enum ImportSource {
    /// `globalThis.<namespace...>.<name>`, looked up at each call (any strings).
    Global {
        namespace: Vec<String>,
        name: String,
    },
    /// The export `name` of a JS module file of the crate (`path` relative to its
    /// `Cargo.toml`); with a `namespace`, its first part is the export and `name` a
    /// property of the object reached by the rest (`tools.math` → `tools.math.name`).
    /// Any strings: the glue reads them as quoted keys where they are not identifiers.
    Module {
        path: String,
        name: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        namespace: Vec<String>,
    },
}

/// A JS function passed to an export as `&dyn Fn(..)`, `&mut dyn FnMut(..)` or a
/// `Box<dyn Fn(..)>` Rust may keep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
/// Its trampoline import (in [`JS_IMPORT_MODULE`]) is named by [`callback_symbol`] from
/// the export's symbol and the parameter's name.
pub struct Callback {
    pub params: Vec<Ty>,
    pub ret: Box<Ty>,
    /// Declared `-> Result<T, JsError>`.
    pub catch: bool,
    /// The parameters' names where the Rust source gives them (camelCase; empty or `""`
    /// for none): a returned closure literal's, the arguments a callback is called with.
    /// For the `.d.ts` only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// How JS holds a Rust closure of this type (what the glue's function does after a
    /// call and when the import it was passed to returns). For JS functions passed to
    /// exports it only says how Rust holds them.
    #[serde(default, skip_serializing_if = "Hold::is_owned")]
    pub hold: Hold,
}

/// How long a function is valid across the boundary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Hold {
    /// `Box<dyn Fn>` / `Box<dyn FnMut>`: valid until released (or collected).
    #[default]
    Owned,
    /// `Box<dyn FnOnce>`: the first call consumes it.
    Once,
    /// `&dyn Fn` / `&mut dyn FnMut`: valid until the call it was passed to returns.
    Lent,
}

impl Hold {
    pub fn is_owned(&self) -> bool {
        *self == Hold::Owned
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Class {
    /// See [`type_id`].
    pub type_id: String,
    /// Name in JS (the Rust name, or `js_name`).
    pub name: String,
    /// Rust name (without `r#`), for error messages.
    pub rust_name: String,
    /// Identity mode from the class attribute, already validated by the macro.
    pub identity_mode: Option<String>,
    /// `#[bridge(inspectable)]`: `toJSON()`, `toString()` and Node's inspect show its
    /// readable properties (as wasm-bindgen's `inspectable`).
    #[serde(default)]
    pub inspectable: bool,
    pub doc: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Impl {
    /// Type id of the class.
    pub class: String,
    pub members: Vec<Function>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FunctionKind {
    /// Free function (outside any impl).
    Free,
    Constructor,
    Method,
    Static,
    Getter,
    Setter,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Receiver {
    None,
    /// `&self`.
    Shared,
    /// `&mut self`.
    Exclusive,
    /// `this: &Handle<Self>` (no borrow).
    Handle,
    /// `self` by value: the object moves out of JS, whose wrapper the glue releases after
    /// the call (a refused move, borrowed or still shared, changes nothing).
    Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Function {
    pub kind: FunctionKind,
    /// Name in JS (camelCase; for getters/setters the property name).
    pub js_name: String,
    /// Rust name, for error messages.
    pub rust_name: String,
    /// Name of the wasm export implementing it.
    pub symbol: String,
    pub receiver: Receiver,
    pub params: Vec<Param>,
    pub ret: Ty,
    pub doc: String,
    /// A getter or setter the macro made for a `pub` field of a class (`rust_name` is the
    /// field's): the CLI names it as a field when its JS name clashes with a member's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub field: bool,
    /// An `async fn`: JS gets a `Promise` of `ret`. The export `symbol` converts the
    /// arguments and returns a task id (`u32`); [`async_finish_export`] of `symbol` takes
    /// the task's output once it is ready and returns it as a sync export returns `ret`.
    /// Absent from the records of sync functions (their bytes are as before).
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub is_async: bool,
    /// The thunk refuses a released receiver itself (address 0, with the glue's "already
    /// released" message), so the glue passes the wrapper's address unchecked: set by
    /// the macro for members whose only argument is a borrowed receiver (`&self` or
    /// `&mut self`, no parameters, not `async`). Absent (the glue checks) otherwise, and
    /// from the records of an older macro.
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub refuses_released: bool,
    /// The JS name as written in Rust (a setter's without `set_`), where a crate that keeps
    /// Rust names (wasm-bindgen's convention, `js-names = "as-written"`) has it instead of
    /// `js_name`: absent where `js_name` was given (it wins) or is the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_written: Option<String>,
    /// `#[bridge(this)]` on a free function (wasm-bindgen's `this`): its first parameter is
    /// the JS `this` of the call, not an argument. Absent (false) from other records.
    #[serde(default, skip_serializing_if = "core::ops::Not::not")]
    pub js_this: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Param {
    pub name: String,
    pub ty: Ty,
}

/// A type that crosses the boundary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "ty", content = "of", rename_all = "snake_case")]
pub enum Ty {
    Unit,
    /// One of the scalar table's types (`bridge_schema::scalar`): `bool`, the numbers
    /// that are one wasm value, `usize`/`isize` (a JS number; out of range →
    /// `RangeError`), `char` (a one-code-point JS string).
    Scalar(Scalar),
    /// `i128` / `u128`: a BigInt, on the wire at every site (two 64-bit halves, low
    /// first): one codec serves parameters, results, fields and elements.
    I128,
    U128,
    String,
    /// `&str` (parameters only).
    Str,
    Option(Box<Ty>),
    Vec(Box<Ty>),
    /// A user type by value, by type id: a class (`C` or `Handle<C>`), record or enum.
    /// `cargo bridge` resolves the id to its definition.
    Named(String),
    /// `&C` of a class, by type id (parameters only).
    ClassRef(String),
    /// `&mut C` of a class, by type id (parameters only).
    ClassMut(String),
    /// A user type an export's parameter takes by value (`C`, not `Handle<C>`), by type
    /// id: a class moves out of JS (its wrapper is released after the call). The macro
    /// cannot tell a class from a record or enum, so it writes every such parameter so;
    /// `cargo bridge` reads those of records and enums as [`Ty::Named`].
    ByValue(String),
    /// `Result<ok, E>` (returns only): `Err` throws a JS `Error` with `E`'s `Display` text.
    /// The string is `E`'s type id when `E` is a record or enum (the `Error` then carries
    /// `e` as `data`), empty otherwise.
    Result(Box<Ty>, String),
    /// `bridge_runtime::JsValue`, owned.
    JsValue,
    /// `&JsValue` (borrowed for the call).
    JsValueRef,
    /// A JS function Rust calls (export parameters).
    Callback(Callback),
    /// `&[T]` of numbers borrowed from `&self` (or `&'static`), returned (export results
    /// only): a typed array over the module's memory, no copy; valid until the next call
    /// into the module.
    View(Box<Ty>),
    /// `&mut [T]` of numbers (export parameters only): copied in, and what Rust wrote is
    /// copied back into the caller's array after the call.
    SliceMut(Box<Ty>),
    /// A tuple `(A, B, ..)` of 1 to [`MAX_TUPLE`] elements: a JS array of that length,
    /// on the wire element by element.
    Tuple(Vec<Ty>),
    /// `HashMap<K, V>` / `BTreeMap<K, V>`: a JS `Map` (on the wire: a count, then each key
    /// and value in the Rust map's iteration order). Keys are strings, integers, `char`s or
    /// fieldless enums (`bridge_runtime::abi::MapKey`).
    Map(Box<Ty>, Box<Ty>),
    /// `HashSet<T>` / `BTreeSet<T>` of map keys: a JS `Set`.
    Set(Box<Ty>),
    /// `impl Iterator<Item = T> + 'static` or `Box<dyn Iterator<Item = T>>` (export
    /// results only), by its item type: a JS iterator object pulling one item per
    /// `next()` through the Rust closure [`iterator_next`] describes (its address is the
    /// export's result; `#closure-call` and `#closure-drop` as for a returned closure).
    Iterator(Box<Ty>),
}

/// The Rust closure behind a returned iterator of `item`s: no parameters, `Option<item>`
/// (`None` when it is exhausted), owned by JS. The macro, the post-process check and the
/// glue read an iterator's `#closure-call` export as this closure's.
pub fn iterator_next(item: &Ty) -> Callback {
    // An item `Result<T, E>` is pulled as a `T`; its `Err` throws from the pull.
    let ret = match item {
        Ty::Result(ok, err) => Ty::Result(Box::new(Ty::Option(ok.clone())), err.clone()),
        item => Ty::Option(Box::new(item.clone())),
    };
    Callback {
        params: Vec::new(),
        ret: Box::new(ret),
        catch: false,
        names: Vec::new(),
        hold: Hold::Owned,
    }
}

/// The most elements a tuple that crosses may have (a longer one is a record's job).
pub const MAX_TUPLE: usize = 8;

impl Ty {
    /// The function type of a callback or closure, also inside an `Option` (an optional
    /// parameter or argument).
    pub fn closure(&self) -> Option<&Callback> {
        match self {
            Ty::Callback(cb) => Some(cb),
            Ty::Option(inner) => match &**inner {
                Ty::Callback(cb) => Some(cb),
                _ => None,
            },
            _ => None,
        }
    }

    /// The type id of the user type this type carries, at any depth (a tuple carries
    /// several: [`Ty::type_ids`] lists them).
    pub fn type_id(&self) -> Option<&str> {
        match self {
            Ty::Named(c) | Ty::ClassRef(c) | Ty::ClassMut(c) | Ty::ByValue(c) => Some(c),
            Ty::Option(inner) | Ty::Vec(inner) | Ty::Result(inner, _) | Ty::Iterator(inner) => {
                inner.type_id()
            }
            _ => None,
        }
    }

    /// What a successful call hands JS: a `Result`'s `Ok` type, else the type itself.
    pub fn ok(&self) -> &Ty {
        match self {
            Ty::Result(ok, _) => ok,
            other => other,
        }
    }

    /// The type id of a `Result`'s error type (an iterator's items' too), when it is a
    /// record or enum.
    pub fn error_type_id(&self) -> Option<&str> {
        match self {
            Ty::Result(_, err) if !err.is_empty() => Some(err),
            Ty::Iterator(item) => item.error_type_id(),
            _ => None,
        }
    }

    /// Every type id the type names, including those in a callback's signature.
    pub fn type_ids(&self) -> Vec<&str> {
        match self {
            Ty::Callback(cb) => cb
                .params
                .iter()
                .chain([&*cb.ret])
                .flat_map(Ty::type_ids)
                .collect(),
            Ty::Tuple(elems) => elems.iter().flat_map(Ty::type_ids).collect(),
            Ty::Map(k, v) => k.type_ids().into_iter().chain(v.type_ids()).collect(),
            Ty::Set(inner) => inner.type_ids(),
            Ty::Option(inner) | Ty::Vec(inner) | Ty::Result(inner, _) | Ty::View(inner) => {
                inner.type_ids()
            }
            other => other.type_id().into_iter().collect(),
        }
    }

    /// The type ids at every depth, mutably (for filling in placeholders).
    pub fn type_id_mut(&mut self) -> Option<&mut String> {
        match self {
            Ty::Named(c) | Ty::ClassRef(c) | Ty::ClassMut(c) | Ty::ByValue(c) => Some(c),
            Ty::Option(inner)
            | Ty::Vec(inner)
            | Ty::Result(inner, _)
            | Ty::Iterator(inner)
            | Ty::View(inner) => inner.type_id_mut(),
            _ => None,
        }
    }

    /// A number that crosses as one wasm scalar (and fills a typed array in a `Vec`): the
    /// scalars with a typed array ([`Scalar::is_number`]).
    pub fn is_number(&self) -> bool {
        matches!(self, Ty::Scalar(s) if s.is_number())
    }

    /// A map's key (a set's element): what a JS `Map` compares as Rust does: strings,
    /// integers, `char`s ([`Scalar::map_key`]) and user types (fieldless enums: the
    /// macro's `MapKey` bound refuses the others).
    pub fn is_map_key(&self) -> bool {
        match self {
            Ty::String | Ty::I128 | Ty::U128 | Ty::Named(_) => true,
            Ty::Scalar(s) => s.map_key(),
            _ => false,
        }
    }

    /// Compound values that cross encoded in the wire buffer (`bridge_runtime::wire`)
    /// rather than as wasm scalars, typed arrays or class addresses: vectors of anything
    /// but numbers and classes, tuples, maps, sets, and options of vectors, tuples, maps,
    /// sets or `JsValue`s; 128-bit integers (alone and in options).
    pub fn travels_on_wire(&self) -> bool {
        match self {
            Ty::Vec(inner) => !inner.is_number() && !matches!(**inner, Ty::Named(_)),
            Ty::Option(inner) => matches!(
                **inner,
                Ty::Vec(_)
                    | Ty::JsValue
                    | Ty::Tuple(_)
                    | Ty::Map(..)
                    | Ty::Set(_)
                    | Ty::I128
                    | Ty::U128
            ),
            Ty::Tuple(_) | Ty::Map(..) | Ty::Set(_) | Ty::I128 | Ty::U128 => true,
            _ => false,
        }
    }
}

/// Encode one record with its framing.
pub fn encode_record(record: &Record) -> Vec<u8> {
    let json = serde_json::to_vec(record).expect("records always serialize");
    let mut out = Vec::with_capacity(json.len() + 8);
    out.extend_from_slice(&((json.len() + 4) as u32).to_le_bytes());
    out.extend_from_slice(&SCHEMA_VERSION.to_le_bytes());
    out.extend_from_slice(&json);
    out
}

/// Why a section could not be decoded.
#[derive(Debug, PartialEq)]
pub enum DecodeError {
    Truncated {
        offset: usize,
    },
    VersionMismatch {
        found: u32,
        crate_hint: Option<String>,
    },
    Json {
        offset: usize,
        message: String,
    },
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::Truncated { offset } => {
                write!(f, "export section is truncated at byte {offset}")
            }
            DecodeError::VersionMismatch { found, crate_hint } => {
                let who = crate_hint
                    .as_deref()
                    .map(|c| format!(" (crate `{c}`)"))
                    .unwrap_or_default();
                write!(
                    f,
                    "the wasm was built with bridge-runtime export schema {found}{who}, but this \
                     cargo-bridge reads schema {SCHEMA_VERSION}; align the versions: use the \
                     bridge-runtime that matches cargo-bridge {} (or install the cargo-bridge that \
                     matches your bridge-runtime)",
                    env!("CARGO_PKG_VERSION")
                )
            }
            DecodeError::Json { offset, message } => {
                write!(f, "export record at byte {offset} is malformed: {message}")
            }
        }
    }
}

impl std::error::Error for DecodeError {}

/// Decode all records of a concatenated section.
pub fn decode_section(mut bytes: &[u8]) -> Result<Vec<Record>, DecodeError> {
    let mut records = Vec::new();
    let mut offset = 0;
    while !bytes.is_empty() {
        if bytes.len() < 8 {
            return Err(DecodeError::Truncated { offset });
        }
        let len = u32::from_le_bytes(bytes[0..4].try_into().unwrap()) as usize;
        let version = u32::from_le_bytes(bytes[4..8].try_into().unwrap());
        if len < 4 || bytes.len() < 4 + len {
            return Err(DecodeError::Truncated { offset });
        }
        let json = &bytes[8..4 + len];
        if version != SCHEMA_VERSION {
            // Best effort: name the crate if the JSON still has that field.
            let crate_hint = serde_json::from_slice::<serde_json::Value>(json)
                .ok()
                .and_then(|v| v.get("crate_name")?.as_str().map(str::to_owned));
            return Err(DecodeError::VersionMismatch {
                found: version,
                crate_hint,
            });
        }
        let record = serde_json::from_slice(json).map_err(|e| DecodeError::Json {
            offset,
            message: e.to_string(),
        })?;
        records.push(record);
        bytes = &bytes[4 + len..];
        offset += 4 + len;
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wasm_bindgen_type_ids_read_their_kind_and_type() {
        let read = |id| wasm_bindgen_type(id).map(|t| (t.kind, t.external, t.written));
        assert_eq!(
            read("#wasm-bindgen/class:value:Tally"),
            Some((WasmBindgenKind::Class, false, "Tally"))
        );
        assert_eq!(
            read("#wasm-bindgen/number:value:crate::Level"),
            Some((WasmBindgenKind::Number, false, "crate::Level"))
        );
        assert_eq!(
            read("#wasm-bindgen:extern:web_sys::HtmlElement"),
            Some((WasmBindgenKind::Value, true, "web_sys::HtmlElement"))
        );
        assert_eq!(
            read("#wasm-bindgen:value:Color"),
            Some((WasmBindgenKind::Value, false, "Color"))
        );
        assert_eq!(read("#wasm-bindgen/other:value:X"), None);
        assert_eq!(read("#wasm-bindgen"), None);
        assert_eq!(read("demo::Tally"), None);
    }

    fn sample() -> Record {
        Record {
            crate_name: "demo".into(),
            item: Item::Class(Class {
                type_id: type_id("demo", "Counter"),
                name: "Counter".into(),
                rust_name: "Counter".into(),
                identity_mode: Some("rust".into()),
                inspectable: false,
                doc: String::new(),
            }),
        }
    }

    #[test]
    fn records_roundtrip_through_concatenation() {
        let mut bytes = encode_record(&sample());
        bytes.extend(encode_record(&sample()));
        assert_eq!(decode_section(&bytes).unwrap(), vec![sample(), sample()]);
    }

    #[test]
    fn version_mismatch_names_versions_and_crate() {
        let mut bytes = encode_record(&sample());
        bytes[4..8].copy_from_slice(&99u32.to_le_bytes());
        let err = decode_section(&bytes).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("schema 99"), "{msg}");
        assert!(
            msg.contains(&format!("reads schema {SCHEMA_VERSION}")),
            "{msg}"
        );
        assert!(msg.contains("crate `demo`"), "{msg}");
    }

    #[test]
    fn truncated_section_is_an_error() {
        let bytes = encode_record(&sample());
        assert!(matches!(
            decode_section(&bytes[..bytes.len() - 1]),
            Err(DecodeError::Truncated { .. })
        ));
    }
}
