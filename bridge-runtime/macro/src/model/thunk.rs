//! The `extern "C"` export thunk of one function, as data.

use super::ty::TyInfo;
use super::ty::{ResultLift, ThunkParam};
use bridge_schema::lowering::TrappingBorrow;
use proc_macro2::Ident;

/// How the thunk reaches the object a method is called on.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Receiver {
    None,
    /// `&self`
    Ref,
    /// `&mut self`
    Mut,
    /// `this: &Handle<Self>`
    Handle,
    /// `self`: the object moves out of JS (`abi::begin_take`), its wrapper is released.
    Value,
}

impl Receiver {
    /// How the record names it.
    pub fn schema(self) -> bridge_schema::Receiver {
        match self {
            Receiver::None => bridge_schema::Receiver::None,
            Receiver::Ref => bridge_schema::Receiver::Shared,
            Receiver::Handle => bridge_schema::Receiver::Handle,
            Receiver::Mut => bridge_schema::Receiver::Exclusive,
            Receiver::Value => bridge_schema::Receiver::Value,
        }
    }
}

/// The function a thunk calls, which generate writes as a path.
#[derive(Clone)]
pub enum Callee {
    /// A function in scope by its name: a free function, or a helper of the expansion's
    /// own (an async export's start and finish, a returned closure's invoke helper).
    Named(Ident),
    /// A class's associated function or method: `<Class>::name`.
    Member(Box<syn::Type>, Ident),
}

/// A member's name as written in Rust where it differs from the JS name the macro gives
/// it (`add_one` beside `addOne`), for the messages the thunk builds: a crate that keeps
/// Rust names (`js-names = "as-written"`) is built with `variable` set, and its messages
/// then name the member so.
#[derive(Clone)]
pub struct AsWritten {
    pub member: String,
    /// `bridge_schema::as_written_variable` of the crate.
    pub variable: String,
}

pub struct ThunkSpec {
    /// The wasm export name (see `bridge_schema::member_symbol`).
    pub symbol: String,
    /// The thunk's Rust name, unique in its `const _` block.
    pub ident: Ident,
    /// `<Counter>::inc` or `add`: what to call.
    pub callee: Callee,
    /// The class (for receivers and error messages); `None` for free functions.
    pub class: Option<syn::Type>,
    /// The member's (or function's) JS name, for error messages.
    pub member: String,
    /// Its name as written where that differs (`Function::as_written`).
    pub as_written: Option<AsWritten>,
    pub receiver: Receiver,
    /// JS name, type and lift of each parameter.
    pub params: Vec<ThunkParam>,
    /// Whether a user type parameter (not `Handle<C>`) may be a class moving out of JS
    /// (`TakeParam`): exports' parameters; a Rust closure's take records, enums and handles
    /// only (`FromJs`), as its glue releases no wrapper.
    pub moves: bool,
    pub ret: TyInfo,
    /// How the thunk lowers `ret`.
    pub lower: ResultLift,
    /// An `async fn`: this thunk starts its task (`callee` is the start helper in
    /// `items`, returning the task id); `finish` hands JS the task's output.
    pub asynchronous: Option<Box<AsyncParts>>,
    /// The receiver is the only argument and borrowed (`&self`/`&mut self`, not `async`):
    /// the glue passes the wrapper's address unchecked, and the thunk refuses 0 as
    /// released (`abi::borrow_receiver`). Recorded as `Function::refuses_released`.
    pub refuses_released: bool,
}

impl ThunkSpec {
    /// The borrow this thunk refuses by trapping, by the rule the glue's refusal sites
    /// follow too (`bridge_schema::lowering::trapping_borrow`, from what the record says:
    /// the receiver, `refuses_released` and each parameter's type).
    pub fn trapping_borrow(&self) -> Option<TrappingBorrow> {
        bridge_schema::lowering::trapping_borrow(
            self.receiver.schema(),
            self.refuses_released,
            self.params.iter().map(|p| &p.info.ty),
        )
    }
}

/// What an async export adds to its start thunk.
pub struct AsyncParts {
    /// The finish thunk: `(task: u32) -> R`, `R` the function's return type.
    pub finish: ThunkSpec,
    /// The start and finish helpers the two thunks call.
    pub helpers: AsyncHelpers,
}

/// The helpers of an async export (outside the impl block): `start(this, params..) -> u32`
/// starts the task of `callee`'s future, `finish(task: u32) -> output` hands over its
/// output.
pub struct AsyncHelpers {
    pub start: Ident,
    pub finish: Ident,
    /// The async function (the export's `ThunkSpec::callee`).
    pub callee: Callee,
    /// The type of its `this: Handle<Self>`, as declared, if it takes one.
    pub this: Option<syn::Type>,
    /// The types of its other parameters, as declared.
    pub params: Vec<syn::Type>,
    /// Its result, as declared.
    pub output: syn::ReturnType,
    /// The class it is a member of: `Self` in the declared types is spelled as it.
    pub self_ty: Option<syn::Type>,
}
