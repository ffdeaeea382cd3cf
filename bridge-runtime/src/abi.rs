//! ABI helpers called by the code `#[bridge]` generates. Not a stable API.
//!
//! Conventions (mirrored by `templates/`):
//! - classes cross as the address of their box; a returned class carries one strong
//!   reference, routed through the class's identity hook;
//! - strings and vectors from JS arrive in buffers JS allocated with [`__bridge_alloc`]
//!   and are taken over by Rust;
//! - strings, vectors and `Option` flags going to JS are described in the return area
//!   ([`__bridge_ret_area`]): `[ptr, len, cap, is_some]`.

use crate::global::global;
pub use crate::handle::{ArgRef, ArgRefMut};
use crate::handle::{BorrowConflict, RawHeader};
pub use crate::result::{ErrDisplayOnly, ErrProbe, ExportError};
use crate::text::{concat, push_hex};
use crate::{BridgeClass, FromJs, Handle, IntoJs};
use std::alloc::Layout;
use std::cell::Cell;

/// An error the generated code turns into a thrown JS `Error`. Its message waits in
/// `LAST_ERROR`, so the value is zero-sized: a `Result<&T, BridgeError>` is one pointer and
/// the thunks' hot paths need no stack frame for an error they rarely build.
#[derive(Debug)]
pub struct BridgeError(());

impl BridgeError {
    /// Record `message` as the error to throw.
    #[cold]
    #[inline(never)]
    pub fn new(message: String) -> BridgeError {
        LAST_ERROR.with(|slot| drop(slot.replace(message)));
        BridgeError(())
    }
}

pub type Result<T> = std::result::Result<T, BridgeError>;

/// The return area: how a thunk describes a string, vector or `Option` result to the
/// glue. Layout: `bridge_schema::abi::ret_area` (pinned below and in the tests).
#[repr(C)]
pub(crate) struct RetArea {
    ptr: Cell<u32>,
    len: Cell<u32>,
    cap: Cell<u32>,
    is_some: Cell<u32>,
}
// SAFETY: wasm32-unknown-unknown is single-threaded; the host build never shares it.
unsafe impl Sync for RetArea {}
static RET: RetArea = RetArea {
    ptr: Cell::new(0),
    len: Cell::new(0),
    cap: Cell::new(0),
    is_some: Cell::new(0),
};

const _: () = {
    use bridge_schema::abi::ret_area;
    use std::mem::{offset_of, size_of};
    assert!(offset_of!(RetArea, ptr) == ret_area::PTR_OFFSET as usize);
    assert!(offset_of!(RetArea, len) == ret_area::LEN_OFFSET as usize);
    assert!(offset_of!(RetArea, cap) == ret_area::CAP_OFFSET as usize);
    assert!(offset_of!(RetArea, is_some) == ret_area::IS_SOME_OFFSET as usize);
    assert!(size_of::<RetArea>() == ret_area::SIZE as usize);
};

/// Address of the return area, read once by the glue.
#[unsafe(export_name = bridge_schema::runtime_export!(ret_area))]
pub extern "C" fn __bridge_ret_area() -> u32 {
    &RET as *const RetArea as usize as u32
}

/// Allocate a buffer for JS to fill. `size` 0 gives a dangling, aligned address; 0 means
/// the allocation failed (wasm memory cannot grow that far), which the glue reports.
#[unsafe(export_name = bridge_schema::runtime_export!(alloc))]
pub extern "C" fn __bridge_alloc(size: u32, align: u32) -> u32 {
    let Ok(layout) = Layout::from_size_align(size as usize, align as usize) else {
        return 0;
    };
    if size == 0 {
        return align;
    }
    // SAFETY: non-zero size.
    unsafe { std::alloc::alloc(layout) as usize as u32 }
}

/// Resize a buffer from [`__bridge_alloc`] (align 1) to `new_size` bytes, keeping its
/// contents up to the smaller size: the glue sizes strings exactly with it. 0 means the
/// allocation failed; the old buffer is then still live.
///
/// # Safety
/// `ptr` and `old_size` must describe a live allocation with alignment 1.
#[unsafe(export_name = bridge_schema::runtime_export!(realloc))]
pub unsafe extern "C" fn __bridge_realloc(ptr: u32, old_size: u32, new_size: u32) -> u32 {
    if old_size == 0 {
        return __bridge_alloc(new_size, 1);
    }
    if new_size == 0 {
        // SAFETY: forwarded contract.
        unsafe { __bridge_free(ptr, old_size, 1) };
        return 1;
    }
    if new_size as usize > isize::MAX as usize {
        return 0;
    }
    // A live allocation's size always makes a layout; 0 (failure) rather than a panic.
    let Ok(layout) = Layout::from_size_align(old_size as usize, 1) else {
        return 0;
    };
    // SAFETY: forwarded contract; `new_size` is non-zero and fits `isize`.
    unsafe {
        std::alloc::realloc(ptr as usize as *mut u8, layout, new_size as usize) as usize as u32
    }
}

/// Free a buffer from [`__bridge_alloc`] or one the return area described.
///
/// # Safety
/// `ptr`, `size` and `align` must describe a live allocation.
#[unsafe(export_name = bridge_schema::runtime_export!(free))]
pub unsafe extern "C" fn __bridge_free(ptr: u32, size: u32, align: u32) {
    if size == 0 {
        return;
    }
    // A live allocation's size and alignment always make a layout (no panic path here).
    if let Ok(layout) = Layout::from_size_align(size as usize, align as usize) {
        // SAFETY: forwarded contract.
        unsafe { std::alloc::dealloc(ptr as usize as *mut u8, layout) }
    }
}

/// Installs the panic hook that hands panic messages to JS. Called once by the glue.
#[unsafe(export_name = bridge_schema::runtime_export!(init))]
pub extern "C" fn __bridge_init() {
    std::panic::set_hook(Box::new(panic::hook));
}

/// Frees what the last panic left behind (see [`panic`]). The glue calls it after the
/// trap of a panic, before it throws the panic's `Error`.
#[unsafe(export_name = bridge_schema::runtime_export!(panic_reclaim))]
pub extern "C" fn __bridge_panic_reclaim() {
    panic::reclaim();
}

/// Panics on wasm32 (`panic = "abort"`): std formats the message of `panic!("{x}")` into a
/// `String` held by a payload on its own stack frame, calls the hook, then traps. A trap
/// runs no destructor, so that `String` was never freed: every panic leaked it (64 bytes
/// of heap per panic of the soak's operation mix, ~390 bytes of wasm memory with the
/// fragmentation it caused). Now the hook writes its message into one buffer it keeps, and
/// notes where the payload's `String` lives; once the trap has ended std's frame for good
/// (nothing can use the payload again), [`reclaim`] frees it, from the glue right after
/// the trap and again at the next panic should the glue not have called.
///
/// What stays: std's panic count is never decreased (the trap skips that too), so
/// `std::thread::panicking()` is `true` after a module's first panic; and a payload
/// of another type (`std::panic::panic_any(value)`) keeps what `value` owns.
mod panic {
    use crate::global::global;

    global! {
        /// Address and capacity of the payload `String` the last trap abandoned.
        static ABANDONED: (usize, usize) = (0, 0);
    }

    pub(super) fn hook(info: &std::panic::PanicHookInfo<'_>) {
        reclaim();
        // Only with `panic = "abort"` does the trap abandon the payload; an unwinding
        // build moves it into a `Box` that `catch_unwind` frees.
        #[cfg(panic = "abort")]
        if let Some(text) = info.payload().downcast_ref::<String>() {
            if text.capacity() != 0 {
                ABANDONED.with(|a| a.set((text.as_ptr() as usize, text.capacity())));
            }
        }
        let parts = parts(info);
        super::host::panic_message(&parts);
    }

    /// What the glue needs to write `Rust panic: ` and what `PanicHookInfo`'s `Display`
    /// writes (`panicked at file:line:col:`, a newline, the payload). The glue joins the
    /// pieces: building the text here would link decimal printing and `String` growth.
    // Read by the wasm32 host import (and the tests) only.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) struct Parts<'a> {
        /// `(file, line, column)`.
        pub location: Option<(&'a str, u32, u32)>,
        /// The payload, when it is a string (`panic_any` of another type: none).
        pub payload: Option<&'a str>,
    }

    pub(crate) fn parts<'a>(info: &'a std::panic::PanicHookInfo<'_>) -> Parts<'a> {
        Parts {
            location: info
                .location()
                .map(|at| (at.file(), at.line(), at.column())),
            payload: info.payload_as_str(),
        }
    }

    /// Free the payload `String` of the panic whose trap ended its owner's frame.
    pub(super) fn reclaim() {
        let (ptr, cap) = ABANDONED.with(|a| a.replace((0, 0)));
        if cap != 0 {
            // SAFETY: `ptr`/`cap` describe the heap buffer of the `String` std made for the
            // last panic's message, on a frame the trap ended: its owner can never run,
            // read or free it again, and nothing else knows the buffer.
            drop(unsafe { String::from_raw_parts(ptr as *mut u8, 0, cap) });
        }
    }
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

// A `Cell`, not a `RefCell`: a `RefCell`'s borrow panics format their message.
global! { static LAST_ERROR: String = String::new(); }

/// Bytes the error messages keep allocated for the next one.
pub(crate) fn buffer_bytes() -> usize {
    LAST_ERROR.with(|cell| {
        let text = cell.take();
        let bytes = text.capacity();
        cell.set(text);
        bytes
    })
}

/// Throw `error` as a JS `Error`. Call only when no borrow guards are live.
/// Cold and out of line: keeps the error path out of every thunk's hot path.
#[cold]
#[inline(never)]
pub fn throw(error: BridgeError) -> ! {
    let BridgeError(()) = error;
    // The message lives in LAST_ERROR until the next error; JS copies it before throwing.
    // No borrow may be held across `host::throw`: the JS exception skips destructors.
    let (ptr, len) = LAST_ERROR.with(|slot| {
        // Moving the String out and back keeps its buffer where it is.
        let message = slot.take();
        let at = (message.as_ptr(), message.len());
        slot.set(message);
        at
    });
    // SAFETY: LAST_ERROR is not touched again before JS has copied the message.
    host::throw(unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(ptr, len)) })
}

/// Unwrap the result of a generated export body, throwing on error.
#[inline(always)]
pub fn or_throw<T>(result: Result<T>) -> T {
    match result {
        Ok(v) => v,
        Err(e) => throw(e),
    }
}

mod host {
    #[cfg(target_arch = "wasm32")]
    // bridge_schema::abi::host (the attribute takes only literals; `cargo bridge` checks
    // every built module's imports against the schema).
    #[link(wasm_import_module = "__bridge")]
    unsafe extern "C" {
        #[link_name = "throw"]
        fn bridge_throw(ptr: u32, len: u32) -> !;
        #[link_name = "guards_ended"]
        fn bridge_guards_ended(from: u32, frame: u32);
        #[link_name = "guards_resumed"]
        fn bridge_guards_resumed();
        #[link_name = "panic_parts"]
        fn bridge_panic_message(
            file_ptr: u32,
            file_len: u32,
            line: u32,
            column: u32,
            payload_ptr: u32,
            payload_len: u32,
        );
    }

    #[cfg(target_arch = "wasm32")]
    pub fn guards_ended(from: u32, frame: u32) {
        // SAFETY: JS notes two numbers.
        unsafe { bridge_guards_ended(from, frame) }
    }

    #[cfg(target_arch = "wasm32")]
    pub fn guards_resumed() {
        // SAFETY: JS drops a note.
        unsafe { bridge_guards_resumed() }
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn guards_ended(_from: u32, _frame: u32) {}

    #[cfg(not(target_arch = "wasm32"))]
    pub fn guards_resumed() {}

    #[cfg(target_arch = "wasm32")]
    pub fn throw(message: &str) -> ! {
        // SAFETY: JS reads the message synchronously, before throwing.
        unsafe { bridge_throw(message.as_ptr() as u32, message.len() as u32) }
    }

    /// Line 0: no location; payload address 0: no string payload (a `&str` is never null).
    #[cfg(target_arch = "wasm32")]
    pub fn panic_message(parts: &super::panic::Parts<'_>) {
        let (file, line, column) = parts.location.unwrap_or(("", 0, 0));
        let (payload_ptr, payload_len) = parts
            .payload
            .map_or((0, 0), |p| (p.as_ptr() as u32, p.len() as u32));
        // SAFETY: JS copies the pieces synchronously.
        unsafe {
            bridge_panic_message(
                file.as_ptr() as u32,
                file.len() as u32,
                line,
                column,
                payload_ptr,
                payload_len,
            )
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn throw(message: &str) -> ! {
        panic!("{message}")
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn panic_message(_parts: &super::panic::Parts<'_>) {}
}

// ---- parameters (JS -> Rust) ----

/// Take over a UTF-8 buffer JS allocated (`cap` bytes, `len` used).
///
/// # Safety
/// The buffer must come from [`__bridge_alloc`]`(cap, 1)` and hold valid UTF-8.
pub unsafe fn lift_string(ptr: u32, len: u32, cap: u32) -> String {
    if cap == 0 {
        return String::new();
    }
    // SAFETY: forwarded contract; the glue encodes with TextEncoder (valid UTF-8).
    unsafe { String::from_raw_parts(ptr as usize as *mut u8, len as usize, cap as usize) }
}

/// As [`lift_string`]; address 0 means `None`.
///
/// # Safety
/// As [`lift_string`].
pub unsafe fn lift_opt_string(ptr: u32, len: u32, cap: u32) -> Option<String> {
    // SAFETY: forwarded contract.
    (ptr != 0).then(|| unsafe { lift_string(ptr, len, cap) })
}

/// Take over a buffer of `len` numbers JS allocated with their size and alignment.
///
/// # Safety
/// The buffer must come from [`__bridge_alloc`]`(len * size_of::<T>(), align_of::<T>())`.
pub unsafe fn lift_vec<T: Copy>(ptr: u32, len: u32) -> Vec<T> {
    if len == 0 || std::mem::size_of::<T>() == 0 {
        return Vec::new();
    }
    // SAFETY: forwarded contract.
    unsafe { Vec::from_raw_parts(ptr as usize as *mut T, len as usize, len as usize) }
}

/// New values from the `u32`s JS wrote for a `Vec` of a user type; frees the buffer.
///
/// # Safety
/// As [`lift_vec`]; every element must be what the glue passes for `T`.
pub unsafe fn lift_named_vec<T: FromJs<Abi = u32>>(ptr: u32, len: u32) -> Vec<T> {
    // SAFETY: forwarded contract.
    unsafe { T::lift_vec(ptr, len) }
}

/// A `char` from the code point JS passed (the glue checked it is one code point).
pub fn lift_char(code: u32) -> Result<char> {
    char::from_u32(code).ok_or_else(|| bad_char(code))
}

#[cold]
#[inline(never)]
fn bad_char(code: u32) -> BridgeError {
    let mut message = String::new();
    push_hex(&mut message, code);
    message.push_str(" is not a Unicode scalar value, so it cannot be a Rust `char`");
    BridgeError::new(message)
}

/// The error a `Result`-returning export throws for `Err(e)`: `e`'s `Display` text.
/// `e` is dropped here, inside [`throw_after_guards`] (or, for an error type that borrows,
/// inside the thunk's closure, before the borrow guards).
#[cold]
#[inline(never)]
pub fn err_display<E: std::fmt::Display>(e: E) -> BridgeError {
    BridgeError::new(e.to_string())
}

/// An optional user type: `value` is only read when `is_some` is 1.
///
/// # Safety
/// When `is_some` is 1, `value` must be what the glue passes for `T`.
pub unsafe fn lift_opt_named<T: FromJs>(is_some: u32, value: T::Abi) -> Option<T> {
    // SAFETY: forwarded contract.
    (is_some != 0).then(|| unsafe { T::from_abi(value) })
}

/// Where a borrow of an argument happens, for the error message.
pub struct ArgSite {
    pub class: &'static str,
    pub member: &'static str,
    pub param: &'static str,
}

#[cold]
#[inline(never)]
fn conflict(site: &ArgSite, arg_class: &str, c: BorrowConflict) -> BridgeError {
    let state = match c {
        BorrowConflict::MutablyBorrowed => "is already mutably borrowed",
        BorrowConflict::Borrowed => "is already borrowed",
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

/// Run `f`, code a thunk runs after its borrow guards from number `from` on have ended
/// (0: all), that may panic or throw: the glue then ends only the borrows before `from`
/// (see `bridge_schema::abi::host::GUARDS_ENDED`). Cold paths only: two host calls.
pub(crate) fn after_guards<R>(from: u32, f: impl FnOnce() -> R) -> R {
    // The marker's key: an address in this frame, on the shadow stack (its address goes
    // to JS, so it lives in memory). It lies below the stack base of the JS call running
    // this thunk and at or above that of any call `f` makes into JS and back: the glue's
    // `$rethrow` applies the marker to exactly this call.
    let frame = Cell::new(0u8);
    host::guards_ended(from, frame.as_ptr() as usize as u32);
    let result = f();
    host::guards_resumed();
    frame.set(1);
    result
}

/// Throw the error `make` builds from a thunk's `Err(e)` after every guard was dropped:
/// `e`'s `Display` (and `Drop`, and its encoding as the error's `data`) may panic or
/// throw, and the glue must then not end the borrows again (an outer call's would go).
#[cold]
#[inline(never)]
pub fn throw_after_guards(make: impl FnOnce() -> BridgeError) -> ! {
    throw(after_guards(0, make))
}

/// A borrow refused at a thunk's first argument, waiting for the glue after the trap.
#[derive(Clone, Copy)]
struct Refusal {
    site: &'static ArgSite,
    arg_class: &'static str,
    conflict: BorrowConflict,
}

global! { static REFUSAL: Option<Refusal> = None; }

/// Note the refusal and trap: nothing is borrowed or owned yet when a first argument is
/// refused, so the trap skips nothing, and the thunk's hot path calls no function (V8
/// compiles a wasm function without calls with no stack check: about 0.5 ns a call).
/// The glue's `$rethrow` then calls [`__bridge_refused`], which throws the message.
#[inline(always)]
fn refuse(site: &'static ArgSite, arg_class: &'static str, kind: BorrowConflict) -> ! {
    REFUSAL.with(|slot| {
        slot.set(Some(Refusal {
            site,
            arg_class,
            conflict: kind,
        }))
    });
    #[cfg(target_arch = "wasm32")]
    core::arch::wasm32::unreachable();
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = REFUSAL.with(Cell::take);
        throw(conflict(site, arg_class, kind))
    }
}

/// After a trap: throw the borrow refusal that caused it as a JS `Error` (the message of
/// [`borrow_arg`]'s error); return if no refusal is waiting (the trap was something else).
#[unsafe(export_name = bridge_schema::runtime_export!(refused))]
pub extern "C" fn __bridge_refused() {
    if let Some(r) = REFUSAL.with(Cell::take) {
        throw(conflict(r.site, r.arg_class, r.conflict));
    }
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
        Err(c) => refuse(site, C::NAME, c),
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
        Err(c) => refuse(site, C::NAME, c),
    }
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

/// A new handle to a class argument.
///
/// # Safety
/// As [`borrow_arg`].
pub unsafe fn handle_arg<C: BridgeClass>(addr: u32) -> Handle<C> {
    // SAFETY: forwarded contract.
    unsafe { Handle::clone_from_raw(addr as usize) }
}

// ---- returns (Rust -> JS) ----

/// Describe a buffer JS only reads (and does not free) in the return area.
pub(crate) fn describe_ret(ptr: u32, len: u32) {
    set_ret(ptr, len, 0);
}

fn set_ret(ptr: u32, len: u32, cap: u32) {
    RET.ptr.set(ptr);
    RET.len.set(len);
    RET.cap.set(cap);
}

/// Pass one reference to a class object to JS, through its identity hook.
pub fn lower_class<C: BridgeClass>(handle: Handle<C>) -> u32 {
    C::lower_identity(handle.into_raw() as u32)
}

/// Describe a string in the return area; JS decodes it and frees the buffer.
pub fn ret_string(s: String) {
    let mut bytes = std::mem::ManuallyDrop::new(s.into_bytes());
    set_ret(
        bytes.as_mut_ptr() as usize as u32,
        bytes.len() as u32,
        bytes.capacity() as u32,
    );
}

pub fn ret_opt_string(s: Option<String>) {
    match s {
        Some(s) => ret_string(s),
        None => set_ret(0, 0, 0),
    }
}

/// Describe a vector of numbers in the return area; JS copies it out and frees it.
pub fn ret_vec<T: Copy>(v: Vec<T>) {
    let mut v = std::mem::ManuallyDrop::new(v);
    set_ret(
        v.as_mut_ptr() as usize as u32,
        v.len() as u32,
        v.capacity() as u32,
    );
}

/// Return an optional user type: its wasm value (or the default) plus the flag in the
/// return area.
pub fn ret_opt_named<T: IntoJs>(v: Option<T>) -> T::Abi {
    ret_option(v.map(IntoJs::into_abi))
}

/// Lower every element (classes: through the identity hook), then describe the values.
pub fn ret_named_vec<T: IntoJs<Abi = u32>>(v: Vec<T>) {
    T::ret_vec(v);
}

/// Return an optional number: the value (or its default) plus the flag in the return area.
pub fn ret_option<T: Default>(v: Option<T>) -> T {
    RET.is_some.set(v.is_some() as u32);
    v.unwrap_or_default()
}

// ---- results of calls into JS (imports, callbacks) ----

/// Take over the UTF-8 buffer the glue described in the return area (address 0: `None`).
///
/// # Safety
/// The glue must just have described a buffer it allocated with [`__bridge_alloc`]`(cap, 1)`
/// and filled with valid UTF-8, or address 0.
pub unsafe fn take_ret_string() -> Option<String> {
    let ptr = RET.ptr.get();
    // SAFETY: forwarded contract.
    (ptr != 0).then(|| unsafe { lift_string(ptr, RET.len.get(), RET.cap.get()) })
}

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

/// The `Option` flag the glue wrote for an optional number a JS function returned.
pub fn ret_is_some() -> bool {
    RET.is_some.get() != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use bridge_schema::abi::ret_area;

    /// The glue reads a result's description at `bridge_schema::abi::ret_area`'s offsets
    /// (the const assertions above pin `offset_of!`): what a thunk writes must be there.
    #[test]
    fn return_area_fields_sit_at_the_schema_offsets() {
        let base = &RET as *const RetArea as *const u8;
        // SAFETY: RET is a static of four aligned u32 cells.
        let read = |offset: u32| unsafe { base.add(offset as usize).cast::<u32>().read() };
        let mut text = String::with_capacity(11);
        text.push_str("returned");
        let raw = text.as_ptr().cast_mut();
        ret_string(text);
        // The area holds wasm32 addresses: compare the host's pointer as the thunk stores it.
        let ptr = raw as usize as u32;
        assert_eq!(read(ret_area::PTR_OFFSET), ptr);
        assert_eq!(read(ret_area::LEN_OFFSET), 8);
        assert_eq!(read(ret_area::CAP_OFFSET), 11);
        // SAFETY: the buffer ret_string handed over (8 bytes used of 11).
        drop(unsafe { String::from_raw_parts(raw, 8, 11) });
        assert_eq!(ret_option(Some(5u32)), 5);
        assert_eq!(read(ret_area::IS_SOME_OFFSET), 1);
        assert_eq!(ret_option(None::<u32>), 0);
        assert_eq!(read(ret_area::IS_SOME_OFFSET), 0);
    }

    /// The glue joins the hook's pieces as `$panicText` in runtime.js.j2 does; the
    /// result reads as formatting the hook's info did: `Rust panic: panicked at
    /// file:line:col:\nmessage`.
    fn joined(parts: &panic::Parts<'_>) -> String {
        let mut text = String::from("Rust panic: panicked at ");
        if let Some((file, line, column)) = parts.location {
            text += &format!("{file}:{line}:{column}");
        }
        if let Some(payload) = parts.payload {
            text += ":\n";
            text += payload;
        }
        text
    }

    #[test]
    fn panic_parts_join_to_the_formatted_hook_info() {
        use std::sync::Mutex;
        static SEEN: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(|info| {
            let formatted = format!("Rust panic: {info}");
            let built = joined(&panic::parts(info));
            SEEN.lock().unwrap().push((built, formatted));
        }));
        let code = 7;
        let _ = std::panic::catch_unwind(|| panic!("static message"));
        let _ = std::panic::catch_unwind(|| panic!("formatted {code}"));
        let _ = std::panic::catch_unwind(|| std::panic::panic_any(42u8));
        std::panic::set_hook(previous);
        let seen = SEEN.lock().unwrap();
        assert_eq!(seen.len(), 3);
        for (built, formatted) in seen.iter() {
            assert_eq!(built, formatted);
        }
        assert!(
            seen[0].0.starts_with("Rust panic: panicked at "),
            "{}",
            seen[0].0
        );
        assert!(seen[0].0.ends_with(":\nstatic message"), "{}", seen[0].0);
        assert!(seen[1].0.ends_with(":\nformatted 7"), "{}", seen[1].0);
    }
}
