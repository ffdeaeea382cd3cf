//! ABI helpers called by the code `#[bridge]` generates. Not a stable API.
//!
//! Conventions (mirrored by `templates/`):
//! - classes cross as the address of their box; a returned class carries one strong
//!   reference, routed through the class's identity hook;
//! - strings and vectors from JS arrive in buffers JS allocated with [`__bridge_alloc`]
//!   and are taken over by Rust;
//! - strings, vectors and `Option` flags going to JS are described in the return area
//!   ([`__bridge_ret_area`]): `[ptr, len, cap, is_some]`.
//!
//! Borrow guards for class arguments: a conflict becomes a `BridgeError`, thrown as a JS
//! `Error` after every guard is dropped (**guards never outlive the thunk's closure**; a JS
//! exception from `throw` never unwinds through a live guard; owned values the call only
//! borrows, `&str`, `&[T]`, `this: &Handle<Self>`, are moved past the guards so they drop
//! before them). A thunk lifts its owned arguments before any borrow, so a refusal's early
//! return frees them; in a thunk that owns nothing, a conflict at its first borrow is noted
//! and traps instead, so the hot path calls nothing; `$rethrow` asks `__bridge_refused` why
//! and words the error itself (the module keeps no class, member or parameter name for it). **A receiver is checked once, on one side**: members whose only argument is a
//! borrowed receiver (`Function::refuses_released`) get `this.#addr` unchecked from the glue,
//! and [`borrow_receiver`] refuses 0 with the glue's "already released" message (one `eqz`).
//! `begin_take` starts a class's move out of JS (see `handle.rs`) and words a refusal; its
//! "moved" message is registered through a function pointer, so a crate that moves nothing
//! links neither.

use crate::error::after_guards;
pub use crate::error::{BridgeError, Result, err_display, lift_char, or_throw, throw};
use crate::global::global;
pub use crate::handle::{ArgRef, ArgRefMut, Taking};
use crate::handle::{BorrowConflict, MoveRefusal, RawHeader, conflict_of};
pub use crate::maps::MapKey;
pub use crate::result::{
    ErrData, ErrMessage, ErrNoData, ErrProbe, ErrUnfit, ErrValue, ErrWbgValue, ExportError,
};
pub use crate::ret::{
    __bridge_alloc, __bridge_free, __bridge_realloc, __bridge_ret_area, ViewElem, enum_view_parts,
    lift_opt_string, lift_slice_mut, lift_string, lift_vec, ret_is_some, ret_opt_string,
    ret_option, ret_string, ret_vec, ret_view, take_ret_string, view_parts,
};
pub use crate::task::{await_or_throw, finish_task, start_task};
use crate::text::concat;
pub use crate::types::{ArgSite, ExternProbe, NotExtern, TakeParam, handle_arg, lower_class};
use crate::{BridgeClass, FromJs, Handle, IntoJs};
use std::cell::Cell;

/// What JS reads from a `pub` field of a class: a clone (a `Copy` value by value, a
/// `Handle<C>` one more reference to the same object, so identity holds).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is the type of a `pub` field of a #[bridge] class, which JS reads as a clone: it must be `Clone`",
    label = "not `Clone`",
    note = "derive `Clone`, hold the value as `Handle<T>` (JS then shares the object), or keep the field Rust-only with #[bridge(skip)]"
)]
pub trait FieldValue: Sized {
    fn read_field(&self) -> Self;
}

impl<T: Clone> FieldValue for T {
    #[inline(always)]
    fn read_field(&self) -> T {
        self.clone()
    }
}

/// The value JS reads from a `pub` field.
#[inline(always)]
pub fn read_field<T: FieldValue>(field: &T) -> T {
    field.read_field()
}

/// After a panic or a JS exception unwound a call's frames (skipping its borrow guards),
/// end the exclusive borrow that call had taken of an object. Sound because the call's
/// `&mut` guard was the only borrow of it (an exclusive borrow excludes every other).
///
/// # Safety
/// `addr` must be a live object box whose exclusive borrow the unwound call held.
#[unsafe(export_name = bridge_schema::runtime_export!(unborrow))]
pub unsafe extern "C" fn __bridge_unborrow(addr: u32) {
    // SAFETY: forwarded contract.
    unsafe { RawHeader::at(addr) }.clear_borrow();
}

/// As [`__bridge_unborrow`], for one shared borrow: decrements the count, so the shared
/// borrows of outer calls still running (re-entrancy through a callback) stay counted.
///
/// # Safety
/// `addr` must be a live object box one of whose shared borrows the unwound call held.
#[unsafe(export_name = bridge_schema::runtime_export!(unborrow_shared))]
pub unsafe extern "C" fn __bridge_unborrow_shared(addr: u32) {
    // SAFETY: forwarded contract.
    unsafe { RawHeader::at(addr) }.end_shared_borrow();
}

// ---- parameters (JS -> Rust) ----

/// New values from the `u32`s JS wrote for a `Vec` of a user type; frees the buffer.
///
/// # Safety
/// As [`lift_vec`]; every element must be what the glue passes for `T`.
pub unsafe fn lift_named_vec<T: FromJs<Abi = u32>>(ptr: u32, len: u32) -> Vec<T> {
    // SAFETY: forwarded contract.
    unsafe { T::lift_vec(ptr, len) }
}

/// An optional user type: `value` is only read when `is_some` is 1.
///
/// # Safety
/// When `is_some` is 1, `value` must be what the glue passes for `T`.
pub unsafe fn lift_opt_named<T: FromJs>(is_some: u32, value: T::Abi) -> Option<T> {
    // SAFETY: forwarded contract.
    (is_some != 0).then(|| unsafe { T::from_abi(value) })
}

/// The error of a borrow refused by the flag `flag` (see [`conflict_of`]).
#[cold]
#[inline(never)]
fn conflict(site: &ArgSite, arg_class: &str, flag: i32) -> BridgeError {
    let state = match conflict_of(flag) {
        BorrowConflict::MutablyBorrowed => "is already mutably borrowed",
        BorrowConflict::Borrowed => "is already borrowed",
        // Only a take moves a value, and `begin_take` registered the message first.
        BorrowConflict::Moved => match MOVED_CONFLICT.with(Cell::get) {
            Some(moved) => return moved(site, arg_class),
            None => "was moved",
        },
    };
    let dot = if site.class.is_empty() { "" } else { "." };
    BridgeError::new(concat(&[
        arg_class,
        " ",
        state,
        ": `",
        site.class,
        dot,
        site.member,
        "` cannot borrow `",
        site.param,
        "` while another borrow of the same ",
        arg_class,
        " is live (the same object passed twice, or as both `this` and an argument)",
    ]))
}

global! {
    /// [`moved_conflict`] once a thunk began a take ([`begin_take`], the only way a value
    /// leaves its box): a package with no by-value parameter links neither the message
    /// nor its text (issue 24), and its borrow refusals cannot meet a moved object.
    static MOVED_CONFLICT: Option<fn(&ArgSite, &str) -> BridgeError> = None;
}

/// A borrow of an object whose value a call took by value: from JS during that call
/// (its wrapper is released when the call returns), or through a `Handle` Rust made of
/// the wrapper meanwhile.
#[cold]
#[inline(never)]
fn moved_conflict(site: &ArgSite, arg_class: &str) -> BridgeError {
    let dot = if site.class.is_empty() { "" } else { "." };
    BridgeError::new(concat(&[
        "`",
        site.class,
        dot,
        site.member,
        "` cannot borrow `",
        site.param,
        "`: this ",
        arg_class,
        "'s value was moved into Rust by a call that took it by value",
    ]))
}

/// Begin taking a class argument (or a `self` receiver) out of JS by value: refused
/// while it is borrowed, already being taken, or Rust holds references to it besides
/// JS's (the wrapper's, or in `rust` mode the identity table's, plus one per fast-pool
/// entry). The thunk begins every take before it finishes any (`Taking::finish` moves
/// the value), so a refusal leaves each object as it was.
///
/// # Safety
/// `addr` must be a live `Handle<C>` box that JS keeps alive during the call.
pub unsafe fn begin_take<C: BridgeClass>(addr: u32, site: &ArgSite) -> Result<Taking<'static, C>> {
    MOVED_CONFLICT.with(|m| m.set(Some(moved_conflict)));
    let js_refs = 1 + crate::pool::entries_of(addr);
    // SAFETY: forwarded contract.
    unsafe { Handle::<C>::begin_take_raw(addr as usize, js_refs) }
        .map_err(|refusal| move_refused(site, C::NAME, refusal))
}

/// [`TakeParam::begin`] of an `Option<T>` parameter: `value` is only read when `is_some`
/// is 1.
///
/// # Safety
/// When `is_some` is 1, as [`TakeParam::begin`].
#[inline]
pub unsafe fn begin_take_opt<T: TakeParam>(
    is_some: u32,
    value: T::Abi,
    site: &ArgSite,
) -> Result<Option<T::Taking>> {
    if is_some == 0 {
        return Ok(None);
    }
    // SAFETY: forwarded contract.
    unsafe { T::begin(value, site) }.map(Some)
}

#[cold]
#[inline(never)]
fn move_refused(site: &ArgSite, class: &str, refusal: MoveRefusal) -> BridgeError {
    let dot = if site.class.is_empty() { "" } else { "." };
    let count;
    let why: &[&str] = match refusal {
        MoveRefusal::Borrowed => &[
            "it is borrowed (it is also `this` or a borrowed argument of this call, or a call \
             still running is using it)",
        ],
        MoveRefusal::Twice => &["it is also another argument this call takes by value"],
        MoveRefusal::Moved => {
            &["its value was already moved into Rust by a call that took it by value"]
        }
        MoveRefusal::Shared(n) => {
            count = crate::text::decimal(n);
            &[
                "Rust holds ",
                &count,
                if n == 1 {
                    " other reference to it"
                } else {
                    " other references to it"
                },
                " (a `Handle`, or in `none` mode another wrapper of it)",
            ]
        }
    };
    let mut parts = vec![
        "`",
        site.class,
        dot,
        site.member,
        "` cannot take `",
        site.param,
        "`: this ",
        class,
        " cannot move out of JS, ",
    ];
    parts.extend_from_slice(why);
    parts.push("; nothing was moved");
    BridgeError::new(concat(&parts))
}

/// Shared borrow of a class argument, the thunk's guard number `I` (see [`ArgRef`]).
///
/// # Safety
/// `addr` must be a live `Handle<C>` box that JS keeps alive during the call.
pub unsafe fn borrow_arg<'a, C: BridgeClass, const I: u32>(
    addr: u32,
    site: &ArgSite,
) -> Result<ArgRef<'a, C, I>> {
    // SAFETY: forwarded contract.
    match unsafe { Handle::<C>::try_borrow_raw(addr as usize) } {
        Ok(guard) => Ok(ArgRef::from_guard(guard)),
        Err(c) => Err(conflict(site, C::NAME, c)),
    }
}

/// Throw the error `make` builds from a thunk's `Err(e)` after every guard was dropped:
/// `e`'s `Display` (and `Drop`, and its encoding as the error's `data`) may panic or
/// throw, and the glue must then not end the borrows again (an outer call's would go).
#[cold]
#[inline(never)]
pub fn throw_after_guards(make: impl FnOnce() -> BridgeError) -> ! {
    throw(after_guards(0, make))
}

/// The `Error` of a receiver JS released (address 0, see [`borrow_receiver`]): the text of
/// the glue's `$usedAfterRelease` for `this`.
#[cfg(not(target_arch = "wasm32"))]
#[cold]
#[inline(never)]
fn released(site: &ArgSite, arg_class: &str) -> BridgeError {
    BridgeError::new(concat(&[
        site.class,
        ".",
        site.member,
        ": `this` is ",
        bridge_schema::js::article(arg_class),
        " ",
        arg_class,
        " that was already released; a released object cannot be used",
    ]))
}

/// Why a thunk's first argument was refused.
#[derive(Clone, Copy)]
enum Refused {
    /// A borrow flag that refused it.
    Conflict(i32),
    /// Address 0: the wrapper was released (only receivers the glue passes unchecked).
    Released,
}

/// The error of a borrow refused at a thunk's first argument (native builds, which throw
/// it at once; wasm leaves the wording to the glue: [`refuse`]).
#[cfg(not(target_arch = "wasm32"))]
fn refusal_error(site: &ArgSite, arg_class: &str, why: Refused) -> BridgeError {
    match why {
        Refused::Conflict(flag) => conflict(site, arg_class, flag),
        Refused::Released => released(site, arg_class),
    }
}

global! {
    /// Why the first argument was refused, waiting for the glue after the trap (as the
    /// thunk found it: [`__bridge_refused`] classifies it, off the thunk's path).
    static REFUSAL: Option<Refused> = None;
}

/// Note the refusal and trap: nothing is borrowed or owned yet when a first argument is
/// refused, so the trap skips nothing, and the thunk's hot path calls no function (V8
/// compiles a wasm function without calls with no stack check: about 0.5 ns a call).
/// The glue's `$rethrow` then asks [`__bridge_refused`] why, and words the error with the
/// call's class, member and parameter, the same text [`conflict`], [`moved_conflict`] and
/// [`released`] write (`$refusal`, `templates/runtime.js.j2`). The thunk notes only why:
/// `site` and `arg_class` stay out of the module, so the thunks of two classes' members
/// that differ by nothing else are the same code, which `wasm-opt` merges (issue 48).
#[inline(always)]
fn refuse(site: &'static ArgSite, arg_class: &'static str, why: Refused) -> ! {
    #[cfg(target_arch = "wasm32")]
    {
        let _ = (site, arg_class);
        REFUSAL.with(|slot| slot.set(Some(why)));
        core::arch::wasm32::unreachable();
    }
    #[cfg(not(target_arch = "wasm32"))]
    throw(refusal_error(site, arg_class, why))
}

impl Refused {
    /// The code [`__bridge_refused`] hands the glue.
    fn code(self) -> u32 {
        use bridge_schema::abi::refusal;
        match self {
            Refused::Conflict(flag) => match conflict_of(flag) {
                BorrowConflict::MutablyBorrowed => refusal::MUTABLY_BORROWED,
                BorrowConflict::Borrowed => refusal::BORROWED,
                BorrowConflict::Moved => refusal::MOVED,
            },
            Refused::Released => refusal::RELEASED,
        }
    }
}

/// After a trap: why a thunk refused its first argument, the trap's cause
/// ([`bridge_schema::abi::refusal`]), or 0 when no refusal is waiting (the trap was
/// something else). Taken: a later trap reads 0.
#[unsafe(export_name = bridge_schema::runtime_export!(refused))]
pub extern "C" fn __bridge_refused() -> u32 {
    REFUSAL.with(Cell::take).map_or(0, Refused::code)
}

/// As [`borrow_arg`], for the first thing a thunk does (its receiver, or its first
/// parameter when there is no receiver): a conflict traps (see [`refuse`]).
///
/// # Safety
/// As [`borrow_arg`]; no borrow guard or owned argument may be live in the thunk yet.
#[inline(always)]
pub unsafe fn borrow_first_arg<'a, C: BridgeClass, const I: u32>(
    addr: u32,
    site: &'static ArgSite,
) -> ArgRef<'a, C, I> {
    // SAFETY: forwarded contract.
    match unsafe { Handle::<C>::try_borrow_raw(addr as usize) } {
        Ok(guard) => ArgRef::from_guard(guard),
        Err(c) => refuse(site, C::NAME, Refused::Conflict(c)),
    }
}

/// As [`borrow_mut_arg`], for the first thing a thunk does (see [`borrow_first_arg`]).
///
/// # Safety
/// As [`borrow_first_arg`].
#[inline(always)]
pub unsafe fn borrow_mut_first_arg<'a, C: BridgeClass, const I: u32>(
    addr: u32,
    site: &'static ArgSite,
) -> ArgRefMut<'a, C, I> {
    // SAFETY: forwarded contract.
    match unsafe { Handle::<C>::try_borrow_mut_raw(addr as usize) } {
        Ok(guard) => ArgRefMut::from_guard(guard),
        Err(c) => refuse(site, C::NAME, Refused::Conflict(c)),
    }
}

/// As [`borrow_first_arg`], for a receiver the glue passes unchecked: the wrapper's
/// address as it is, 0 once released, which this refuses as released (with the glue's
/// message). The thunks of members whose only argument is a borrowed receiver use it
/// (`ThunkSpec::refuses_released`, recorded as `Function::refuses_released`), so the
/// glue's getter is a private-field read and the call.
///
/// # Safety
/// As [`borrow_first_arg`], for an `addr` that is not 0.
#[inline(always)]
pub unsafe fn borrow_receiver<'a, C: BridgeClass, const I: u32>(
    addr: u32,
    site: &'static ArgSite,
) -> ArgRef<'a, C, I> {
    if addr == 0 {
        refuse(site, C::NAME, Refused::Released)
    }
    // SAFETY: forwarded contract; `addr` is not 0.
    unsafe { borrow_first_arg(addr, site) }
}

/// As [`borrow_receiver`], exclusive (`&mut self`).
///
/// # Safety
/// As [`borrow_receiver`].
#[inline(always)]
pub unsafe fn borrow_mut_receiver<'a, C: BridgeClass, const I: u32>(
    addr: u32,
    site: &'static ArgSite,
) -> ArgRefMut<'a, C, I> {
    if addr == 0 {
        refuse(site, C::NAME, Refused::Released)
    }
    // SAFETY: forwarded contract; `addr` is not 0.
    unsafe { borrow_mut_first_arg(addr, site) }
}

/// Exclusive borrow of a class argument.
///
/// # Safety
/// As [`borrow_arg`].
pub unsafe fn borrow_mut_arg<'a, C: BridgeClass, const I: u32>(
    addr: u32,
    site: &ArgSite,
) -> Result<ArgRefMut<'a, C, I>> {
    // SAFETY: forwarded contract.
    match unsafe { Handle::<C>::try_borrow_mut_raw(addr as usize) } {
        Ok(guard) => Ok(ArgRefMut::from_guard(guard)),
        Err(c) => Err(conflict(site, C::NAME, c)),
    }
}

/// What a thunk borrows a parameter `&C`/`&mut C` (also in an `Option`) through: `(&&ArgProbe::<C, I>::NEW)
/// .borrow_arg(..)`. A wasm-bindgen struct (feature `wasm-bindgen`) is borrowed by the
/// trait `js::WbgArgBorrow`, implemented for `&&ArgProbe<T, I>` and found first by method
/// lookup (any other wasm-bindgen type: its impl for `&&&ArgProbe<T, I>`, found next, lends
/// a value converted as by value); anything else reaches these inherent methods, whose `C: BridgeClass` bound
/// then names the type when it is no class. (The macro cannot tell the two apart by path,
/// and no one trait can have both as impls: their bounds are foreign traits.)
pub struct ArgProbe<C, const I: u32>(core::marker::PhantomData<C>);

impl<C, const I: u32> ArgProbe<C, I> {
    pub const NEW: Self = ArgProbe(core::marker::PhantomData);

    /// [`borrow_arg`].
    ///
    /// # Safety
    /// As [`borrow_arg`].
    #[inline(always)]
    pub unsafe fn borrow_arg<'a>(&self, addr: u32, site: &ArgSite) -> Result<ArgRef<'a, C, I>>
    where
        C: BridgeClass,
    {
        // SAFETY: forwarded contract.
        unsafe { borrow_arg::<C, I>(addr, site) }
    }

    /// [`borrow_mut_arg`].
    ///
    /// # Safety
    /// As [`borrow_arg`].
    #[inline(always)]
    pub unsafe fn borrow_mut_arg<'a>(
        &self,
        addr: u32,
        site: &ArgSite,
    ) -> Result<ArgRefMut<'a, C, I>>
    where
        C: BridgeClass,
    {
        // SAFETY: forwarded contract.
        unsafe { borrow_mut_arg::<C, I>(addr, site) }
    }

    /// [`borrow_first_arg`].
    ///
    /// # Safety
    /// As [`borrow_first_arg`].
    #[inline(always)]
    pub unsafe fn borrow_first_arg<'a>(&self, addr: u32, site: &'static ArgSite) -> ArgRef<'a, C, I>
    where
        C: BridgeClass,
    {
        // SAFETY: forwarded contract.
        unsafe { borrow_first_arg::<C, I>(addr, site) }
    }

    /// [`borrow_mut_first_arg`].
    ///
    /// # Safety
    /// As [`borrow_first_arg`].
    #[inline(always)]
    pub unsafe fn borrow_mut_first_arg<'a>(
        &self,
        addr: u32,
        site: &'static ArgSite,
    ) -> ArgRefMut<'a, C, I>
    where
        C: BridgeClass,
    {
        // SAFETY: forwarded contract.
        unsafe { borrow_mut_first_arg::<C, I>(addr, site) }
    }
}

// ---- returns (Rust -> JS) ----

/// Return an optional user type: its wasm value (or the default) plus the flag in the
/// return area.
pub fn ret_opt_named<T: IntoJs>(v: Option<T>) -> T::Abi {
    ret_option(v.map(IntoJs::into_abi))
}

/// Lower every element (classes: through the identity hook), then describe the values.
pub fn ret_named_vec<T: IntoJs<Abi = u32>>(v: Vec<T>) {
    T::ret_vec(v);
}

// ---- results of calls into JS (imports, callbacks) ----

/// A `char` a JS function returned (the glue checked it is one code point, not a lone
/// surrogate); anything else means glue and wasm disagree, which panics.
pub fn checked_char(code: u32) -> char {
    match char::from_u32(code) {
        Some(c) => c,
        None => panic!(
            "bridge: {code:#x} is not a Unicode scalar value; the glue and the wasm disagree: \
             rebuild both with the same cargo-bridge"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message of `error` as a native build throws it (a panic).
    fn message(error: BridgeError) -> String {
        let payload = std::panic::catch_unwind(|| throw(error)).unwrap_err();
        *payload.downcast::<String>().unwrap()
    }

    #[test]
    fn a_released_receivers_class_is_named_after_its_article() {
        let site = |class| ArgSite {
            class,
            member: "get",
            param: "self",
        };
        assert_eq!(
            message(released(&site("Item3"), "Item3")),
            "Item3.get: `this` is an Item3 that was already released; a released object cannot be used"
        );
        assert_eq!(
            message(released(&site("Node"), "Node")),
            "Node.get: `this` is a Node that was already released; a released object cannot be used"
        );
    }
}
