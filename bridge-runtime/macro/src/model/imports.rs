//! `#[bridge] extern "C" { ... }`: JS functions Rust calls, and the JS classes they
//! work on (`pub type T;`).

use super::conditional::Configured;
use super::refs::RecordSection;
use super::ty::JsCall;
use proc_macro2::Ident;

pub struct Imports {
    /// Each declared function, per configuration of its `#[cfg_attr(p, bridge(..))]`s.
    pub fns: Vec<Configured<ImportFn>>,
    /// Each declared JS class.
    pub types: Vec<JsType>,
    /// Each declared JS value (`static PI: f64;`).
    pub statics: Vec<JsStaticItem>,
}

/// `static NAME: T;`: a `bridge_runtime::JsStatic<T>` reading the value once.
pub struct JsStaticItem {
    pub attrs: Vec<syn::Attribute>,
    pub vis: syn::Visibility,
    pub ident: Ident,
    pub ty: syn::Type,
    /// The read: a function of no arguments returning `T`.
    pub read: ImportFn,
}

/// One declared JS function: a safe Rust function calling the raw import `symbol`.
pub struct ImportFn {
    /// Its attributes other than `#[bridge(..)]`.
    pub attrs: Vec<syn::Attribute>,
    pub vis: syn::Visibility,
    /// The safe function's signature.
    pub sig: ImportSig,
    /// The value each generated parameter binding takes, in order.
    pub binds: Vec<Bind>,
    pub symbol: String,
    pub call: JsCall,
    pub record: RecordSection,
    /// A member of the JS class `T` of the block: generated in `impl T`.
    pub member_of: Option<Ident>,
    /// Declared `async fn` (its `sig` has the `async` taken off): the safe function returns
    /// a future awaiting what the JS call returned (a `JsValue`).
    pub asynchronous: bool,
    /// Declared `-> Result<_, JsError>`: a JS exception, and a rejection, is `Err`.
    pub catch: bool,
    /// The safe function's parameter names, in order (what an async import's inner
    /// call passes on; a `_` of the declaration is `__arg<i>`).
    pub args: Vec<Ident>,
    /// An async import whose result is not a `JsValue`: `sig` (and the call) return the
    /// `JsValue` the JS function returned, and this converts what it settles with.
    pub settle: Option<Box<Settle>>,
}

/// The safe function's signature, as data (generate writes it).
pub enum ImportSig {
    /// The user's declaration, which generate makes the safe function's: each `_` named
    /// after `ImportFn::args`, no `mut`/`ref` on a parameter, no `async`, the first
    /// parameter `&self` when `receiver`; returning the `JsValue` the JS function returned
    /// (`Result<JsValue, JsError>` when the import catches) when `returns_value` (an async
    /// import whose `Settle` converts what that settles with).
    Declared {
        sig: syn::Signature,
        receiver: bool,
        returns_value: bool,
    },
    /// `fn __bridge_read() -> T`: a JS static's read.
    Read(syn::Type),
    /// `fn __bridge_instance_of(value: &JsValue) -> bool`: a JS class's `instanceof`.
    InstanceOf,
    /// `fn __bridge_settle(value: JsValue) <the declared result>`: see [`Settle`].
    Settle(syn::ReturnType),
}

/// What the safe function passes the raw import for one parameter.
pub enum Bind {
    /// The member's `&self`, lent as its `&JsValue`.
    Receiver,
    /// A `&T` of a JS class of the block, lent as its `&JsValue`.
    Lent(Ident),
    /// `Option<&T>` of the same: that `&JsValue`, or `undefined` for `None`.
    LentOrUndefined(Ident),
    /// The parameter itself.
    Value(Ident),
}

/// The second half of an async import declared `-> T` (or `-> Result<T, JsError>`) for a
/// `T` other than `JsValue`: a sync import (`MemberForm::Settled`: JS returns its
/// argument) converting the settled value exactly as a sync import's result, with its
/// TypeError (or, declared with `Result`, `Err`) on a wrong shape.
pub struct Settle {
    /// `fn __bridge_settle(value: JsValue) -> <the declared result>`.
    pub import: ImportFn,
    /// The declared result: the future's output.
    pub output: syn::ReturnType,
}

/// `pub type T;`: an owned handle to a JS object of one class (a `JsValue` inside).
pub struct JsType {
    /// Its attributes other than `#[bridge(..)]` (docs, derives are refused).
    pub attrs: Vec<syn::Attribute>,
    pub vis: syn::Visibility,
    pub ident: Ident,
    pub type_id: String,
    /// Its JS class name, for messages.
    pub js_name: String,
    pub record: RecordSection,
    /// `value instanceof T` (for `TryFrom<JsValue>`); `None` for a `structural` type,
    /// which has no class and takes any value.
    pub instance_of: Option<ImportFn>,
}
