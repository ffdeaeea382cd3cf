//! Rust types that cross the boundary, classified: the schema [`Ty`] plus what the
//! generated code needs beyond it, JS function signatures, and how each value of a call
//! into JS is lowered to wasm and lifted back.
//!
//! Any path that is not a known primitive, `Option`, `Vec` or `Handle` names a user type
//! (class, record or enum: the macro cannot tell which, nor which crate declared it). Its
//! [`Ty::Named`] carries a placeholder that the record fills in with the type's
//! `BridgeType::TYPE_ID` at compile time (see `refs.rs`), and thunks convert it through
//! the `IntoJs`/`FromJs` impls of its own `#[bridge]` expansion. How each scalar is
//! lowered is `bridge_schema::lowering`'s.
//!
//! How a thunk makes each parameter's Rust value of its wasm values (an export's
//! parameter, a Rust closure's argument) and lowers its result: only the ways parse
//! accepts, so generate's matches are exhaustive ([`ThunkParam`], [`ResultLift`]). They
//! live beside [`TyInfo`] because the types are one recursive graph (a returned closure's
//! [`RustClosure`] holds its parameters' [`ThunkParam`]s, which hold their [`TyInfo`]):
//! split over two modules, the two would import each other (`cargo xtask circles`).

use bridge_schema::Ty;
use bridge_schema::lowering::{Part, Role, Scalar};
use syn::Type;

/// A classified type.
#[derive(Clone)]
pub struct TyInfo {
    pub ty: Ty,
    /// The user type carried (with `Self` resolved): the `T` of `T`, `Handle<T>`, `&T`.
    pub named: Option<Type>,
    /// The Rust type that converts to and from wasm (`T` or `Handle<T>`; for `Option` and
    /// `Vec`, their element), for user-type-carrying types.
    pub carrier: Option<Carrier>,
    /// Spelled `Handle<T>` (a class reference, not a value moving into a new box).
    pub handle: bool,
    /// A `&[T]` parameter (crosses like `Vec<T>`, lent to the callee).
    pub slice: bool,
    /// A `Box<[T]>` (crosses as the `Vec<T>` it converts to, `ty` is that `Vec`).
    pub boxed: bool,
    /// For `Ty::Callback`: the signature and form of the JS function.
    pub callback: Option<Box<CallbackInfo>>,
    /// The error type `E` of a `Result<T, E>` return.
    pub error: Option<Type>,
    /// `bridge_runtime::JsPromise`: a `Ty::JsValue` that only the result of a call into JS
    /// may be (lifted as the value, wrapped to be awaited).
    pub promise: bool,
    /// A returned Rust closure or iterator (`Ty::Callback` in return position, as parse
    /// checked it): the exports JS calls it through.
    pub closure: Option<Box<RustClosure>>,
}

/// The Rust type that converts a user type to and from wasm: the type itself, or a class
/// handle (`Handle<T>`: generate spells it).
#[derive(Clone)]
pub enum Carrier {
    Value(Type),
    Handle(Type),
}

/// A type that carries nothing beyond its schema type.
pub fn plain(ty: Ty) -> TyInfo {
    TyInfo {
        ty,
        named: None,
        carrier: None,
        handle: false,
        slice: false,
        boxed: false,
        callback: None,
        error: None,
        promise: false,
        closure: None,
    }
}

/// How a function crosses: a JS function passed to an export, or a Rust closure handed
/// to JS (returned by an export, or passed to a JS function).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `&dyn Fn`
    Ref,
    /// `&mut dyn FnMut`
    Mut,
    /// `Box<dyn Fn>` / `Box<dyn FnMut>`
    Boxed,
    /// `Box<dyn FnOnce>`
    Once,
}

/// A function type's signature.
#[derive(Clone)]
pub struct CallbackInfo {
    pub form: Form,
    /// The trait object type (`dyn Fn(u32) -> bool`).
    pub dyn_ty: Type,
    pub params: Vec<(TyInfo, Type)>,
    pub ret: TyInfo,
    /// The result type as written (the `T` of `Result<T, JsError>`), `None` for `()`.
    pub ret_ty: Option<Type>,
    /// Declared `-> Result<T, JsError>`.
    pub catch: bool,
    /// Calling it as a JS function (checked for every function type, so an unfit
    /// signature is an error at its parameter's type).
    pub call: JsCall,
    /// The closure a returned iterator's `next()` is typed as: what one pull returns.
    /// `None` for every other function type.
    pub pull: Option<Pull>,
}

/// What one pull of a returned iterator hands back: `Option<item>`, or
/// `Result<Option<item>, error>` when its items are `Result<item, error>` (an `Err`
/// throws from the pull).
#[derive(Clone)]
pub struct Pull {
    pub item: Type,
    pub error: Option<Type>,
}

/// A call into JS (a `#[bridge] extern` import, or a JS function passed to an export):
/// arguments are lowered to wasm values (the glue lifts them, the way it lifts an
/// export's result), the raw import is called, and its result is lifted (the glue lowers
/// it, the way it lowers an export's parameter).
#[derive(Clone)]
pub struct JsCall {
    pub args: Vec<Arg>,
    /// The arguments' JS names where the declaration gives them (imports; empty for
    /// callbacks), for messages naming a closure argument.
    pub arg_names: Vec<String>,
    pub ret: Lift,
    /// The result's schema type.
    pub ret_ty: Ty,
    /// The result's one wasm value (`bridge_schema::lowering::parts` at
    /// `Site::JsResult`), `None` when it comes back in the return area or is `()`.
    pub ret_part: Option<Part>,
    /// Declared `-> Result<T, JsError>`: a JS exception becomes `Err`.
    pub catch: bool,
    /// The function, for messages (`the JS import `log``).
    pub what: String,
}

/// One argument of a call into JS: its schema type, how it is lowered, and its wasm
/// values (`bridge_schema::lowering::parts` at `Site::JsArg`).
#[derive(Clone)]
pub struct Arg {
    pub ty: Ty,
    pub lower: Lower,
    pub parts: Vec<Part>,
}

/// How one argument of a call into JS is lowered.
#[derive(Clone)]
pub enum Lower {
    /// A number, `bool` or `char`: its wasm value (`Scalar::abi`).
    Scalar(Scalar),
    /// `&str` or `String`: address and length.
    Str,
    /// A user type (its carrier type): a class handle through its identity hook (like a
    /// returned class), a fieldless enum as its index, a record or enum with data on the
    /// wire (`IntoJs::into_js_arg`).
    Named(Carrier),
    /// Encoded on the wire, as its offset there.
    Wire,
    /// An owned `JsValue`: its table index, given to JS.
    JsValue,
    /// A `&JsValue`: its table index, lent.
    JsValueRef,
    /// `Option` of a scalar: a flag, then the value.
    OptScalar(Scalar),
    /// `Option<&str>`/`Option<String>`: address 0 for `None`.
    OptStr,
    /// `Option` of a user type (its carrier type): a flag, then the value.
    OptNamed(Carrier),
    /// A Rust closure, passed owned (`Box<dyn Fn>`): its `#closure-call`/`#closure-drop`
    /// exports are named from the call and the argument's index.
    Closure(Box<RustClosure>),
    /// A `&dyn Fn` / `&mut dyn FnMut` lent for the call: the address of a stack slot
    /// holding the reference (no `#closure-drop`: the glue's function stops working when
    /// the call returns).
    Lent(Box<RustClosure>),
    /// `Option` of a closure (owned or lent, as its form says): 0 for `None`.
    OptClosure(Box<RustClosure>),
}

/// How the result of a call into JS is lifted.
#[derive(Clone)]
pub enum Lift {
    Unit,
    /// A number, `bool` or `char` (checked by the glue).
    Scalar(Scalar),
    /// Through the return area.
    String,
    JsValue,
    /// `JsPromise`: the `JsValue`, to be awaited.
    JsPromise,
    /// A user type (its carrier type), by its wasm value.
    Named(Carrier),
    /// A value JS wrote into the wire's in-buffer (the type as written), at the offset it
    /// returned.
    Wire(Type),
    /// `Option` of a scalar: the flag in the return area.
    OptScalar(Scalar),
    OptString,
    /// `Option` of a user type (its carrier type).
    OptNamed(Carrier),
}

/// One parameter of a thunk: its JS name, its classified type, how it is lifted, and its
/// wasm values (`bridge_schema::lowering::parts` at `Site::ExportParam`).
#[derive(Clone)]
pub struct ThunkParam {
    pub js_name: String,
    pub info: TyInfo,
    pub how: ParamHow,
    pub parts: Vec<Part>,
}

impl ThunkParam {
    /// A scalar parameter the expansion adds itself (a task id, a closure's address).
    pub fn scalar(js_name: &str, s: Scalar) -> Self {
        ThunkParam {
            js_name: js_name.to_string(),
            info: plain(Ty::Scalar(s)),
            how: ParamHow::Lift(ParamLift::Scalar(s)),
            parts: vec![value_part(s)],
        }
    }
}

/// A JS function passed in (called back through, `generate::callback`), or a value
/// lifted from its wasm values.
#[derive(Clone)]
pub enum ParamHow {
    Function(Box<CallbackInfo>),
    Lift(ParamLift),
}

/// How a value parameter is lifted.
#[derive(Clone, Copy)]
pub enum ParamLift {
    /// A tuple of scalars: in the flat area, or (the glue ran out of slots) on the wire.
    Flat,
    /// On the wire, at the offset it passes.
    Wire,
    Scalar(Scalar),
    /// `String`, or `&str` (`borrowed`).
    Str {
        borrowed: bool,
    },
    ClassRef,
    ClassMut,
    /// A user type by value (`FromJs`), or a class moving out of JS (`TakeParam`).
    Named,
    JsValue,
    JsValueRef,
    /// `Vec<T>`, `&[T]` or `Box<[T]>` of numbers or user types, copied in.
    Vec(Elem),
    /// `&mut [number]`: a buffer JS allocated, copied back after the call.
    SliceMut(Scalar),
    /// `Option<T>` off the wire: a flag, then the value.
    Optional(OptLift),
}

/// The element of a copied-in vector.
#[derive(Clone, Copy)]
pub enum Elem {
    Number(Scalar),
    Named,
}

/// The value of an optional parameter off the wire.
#[derive(Clone, Copy)]
pub enum OptLift {
    Scalar(Scalar),
    /// `Option<String>`, or `Option<&str>` (`borrowed`).
    Str {
        borrowed: bool,
    },
    ClassRef,
    ClassMut,
    Named,
}

/// The one wasm value a scalar crosses as (the lowering table's row for scalars).
fn value_part(s: Scalar) -> Part {
    Part {
        role: Role::Value,
        wasm: s.wasm(),
    }
}

/// How a thunk lowers its result `__value`: the vector a `Box<[T]>` converts to first
/// (`into_vec`), then the value (a `Result`'s `Ok`: its `Err` is thrown); the wasm value
/// it returns (`part`; `None`: it comes back in the return area, or is `()`).
#[derive(Clone, Copy)]
pub struct ResultLift {
    pub into_vec: bool,
    pub value: ResultValue,
    pub part: Option<Part>,
}

impl ResultLift {
    /// `()`.
    pub fn unit() -> Self {
        ResultLift {
            into_vec: false,
            value: ResultValue::Unit,
            part: None,
        }
    }

    /// A scalar the expansion returns itself (a task id).
    pub fn scalar(s: Scalar) -> Self {
        ResultLift {
            into_vec: false,
            value: ResultValue::Scalar(s),
            part: Some(value_part(s)),
        }
    }
}

/// How a result's value is lowered.
#[derive(Clone, Copy)]
pub enum ResultValue {
    /// A tuple of scalars, into the flat area (the glue reads it from slot 0).
    Flat,
    /// Encoded on the wire.
    Wire,
    /// A `&[T]` view: the thunk made it an address and length while it was borrowed.
    View,
    Unit,
    Scalar(Scalar),
    String,
    JsValue,
    /// A Rust closure handed to JS (`once`: a `Box<dyn FnOnce>`).
    Closure {
        once: bool,
    },
    /// An iterator the thunk boxed: its address.
    Iterator,
    Named,
    OptScalar(Scalar),
    OptString,
    OptNamed,
    /// A `Vec` of numbers or (`named`) of user types, copied out.
    Vec {
        named: bool,
    },
}

/// A Rust closure JS calls (returned by an export, or passed to a JS function): its
/// signature, its `#closure-call` thunk's parameters after the closure's address (`a0`,
/// `a1`, ..), and how that thunk lowers the closure's result.
#[derive(Clone)]
pub struct RustClosure {
    pub info: CallbackInfo,
    pub params: Vec<ThunkParam>,
    pub lower: ResultLift,
}
