//! How a thunk makes each parameter's Rust value of its wasm values (an export's
//! parameter, a Rust closure's argument): only the ways parse accepts, so generate's
//! matches are exhaustive.

use super::ty::{CallbackInfo, TyInfo};
use bridge_schema::Scalar;
use bridge_schema::lowering::{Part, Role};

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
            info: super::ty::plain(bridge_schema::Ty::Scalar(s)),
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
