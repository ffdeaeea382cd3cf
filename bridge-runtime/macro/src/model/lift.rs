//! How a thunk makes each parameter's Rust value of its wasm values (an export's
//! parameter, a Rust closure's argument): only the ways parse accepts, so generate's
//! matches are exhaustive.

use super::ty::{CallbackInfo, TyInfo};
use bridge_schema::Scalar;

/// One parameter of a thunk: its JS name, its classified type, and how it is lifted.
#[derive(Clone)]
pub struct ThunkParam {
    pub js_name: String,
    pub info: TyInfo,
    pub how: ParamHow,
}

impl ThunkParam {
    /// A scalar parameter the expansion adds itself (a task id, a closure's address).
    pub fn scalar(js_name: &str, s: Scalar) -> Self {
        ThunkParam {
            js_name: js_name.to_string(),
            info: super::ty::plain(bridge_schema::Ty::Scalar(s)),
            how: ParamHow::Lift(ParamLift::Scalar(s)),
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

/// A Rust closure JS calls (returned by an export, or passed to a JS function): its
/// signature, and its `#closure-call` thunk's parameters after the closure's address
/// (`a0`, `a1`, ..).
#[derive(Clone)]
pub struct RustClosure {
    pub info: CallbackInfo,
    pub params: Vec<ThunkParam>,
}
