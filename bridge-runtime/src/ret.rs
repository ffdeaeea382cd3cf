//! The return area and the buffers that cross: how a thunk describes a string, vector or
//! `Option` result to the glue, how Rust takes over buffers JS allocated, and the
//! allocation exports the glue calls. The lowest layer of the ABI (it imports nothing of
//! the runtime); `abi` re-exports what the generated code calls.
//!
//! Views (`view_parts`, taken inside the thunk's closure while the receiver is borrowed, then
//! `ret_view`: JS reads the memory in place and frees nothing) and `&mut [T]` parameters
//! (`lift_slice_mut`: lent, JS copies the buffer back and frees it) are here too.

use std::alloc::Layout;
use std::cell::Cell;

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

/// Describe a buffer JS only reads (and does not free) in the return area.
pub(crate) fn describe_ret(ptr: u32, len: u32) {
    set_ret(ptr, len, 0);
}

fn set_ret(ptr: u32, len: u32, cap: u32) {
    RET.ptr.set(ptr);
    RET.len.set(len);
    RET.cap.set(cap);
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

/// A `&[T]` result's address and length (`T` a number), taken while the thunk still
/// borrows what it points into; [`ret_view`] describes them after the guards dropped.
/// JS reads the memory in place and never frees it.
pub fn view_parts<T>(view: &[T]) -> (u32, u32) {
    (view.as_ptr() as usize as u32, view.len() as u32)
}

/// The element of a returned `&[E]` view that is not a number: a `#[bridge(numeric)]` enum
/// with `#[repr(u8)]` (`u16`, `u32`, `i8`, `i16`, `i32`), which JS reads as a typed array
/// of its discriminants.
///
/// # Safety
/// The type must be laid out as its repr's integer, every value a discriminant JS knows.
/// `#[bridge]` implements it; do not implement it by hand.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the element of a returned `&[T]` view",
    label = "not a number, nor a #[bridge(numeric)] enum with #[repr(u8)], #[repr(u16)] or #[repr(u32)]",
    note = "a view is a typed array over wasm memory: its elements are numbers (u8..u64, \
            i8..i64, f32, f64) or a #[bridge(numeric)] enum with an 8- to 32-bit #[repr] \
            (`#[repr(u8)]`: a Uint8Array of its discriminants); return `Vec<T>` (a copy) for \
            anything else"
)]
// No `Copy` bound: JS only reads the bytes, and a numeric enum without `derive(Copy)`
// built before views of enums existed (it must keep building).
pub unsafe trait ViewElem {}

/// [`view_parts`] of a view of a numeric enum ([`ViewElem`]).
pub fn enum_view_parts<T: ViewElem>(view: &[T]) -> (u32, u32) {
    view_parts(view)
}

/// Describe a view (from [`view_parts`]) in the return area.
pub fn ret_view((ptr, len): (u32, u32)) {
    describe_ret(ptr, len);
}

/// A `&mut [T]` parameter over the buffer JS allocated for it: JS copies it back into the
/// caller's array after the call and frees it, so Rust only lends it.
///
/// # Safety
/// The buffer must come from [`__bridge_alloc`]`(len * size_of::<T>(), align_of::<T>())`
/// (for `len` 0, any aligned non-null address) and stay live and unaliased for `'a`.
pub unsafe fn lift_slice_mut<'a, T: Copy>(ptr: u32, len: u32) -> &'a mut [T] {
    // SAFETY: forwarded contract (`__bridge_alloc` gives a size 0 its alignment, an
    // aligned non-null address, so no `len == 0` branch is needed).
    unsafe { std::slice::from_raw_parts_mut(ptr as usize as *mut T, len as usize) }
}

/// Return an optional number: the value (or its default) plus the flag in the return area.
pub fn ret_option<T: Default>(v: Option<T>) -> T {
    RET.is_some.set(v.is_some() as u32);
    v.unwrap_or_default()
}

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

/// The `Option` flag the glue wrote for an optional number a JS function returned.
pub fn ret_is_some() -> bool {
    RET.is_some.get() != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use bridge_schema::abi::ret_area;

    /// An empty `&mut [T]` arrives as `__bridge_alloc(0, align)`'s address, `align`:
    /// aligned and non-null, so the slice is made without a `len == 0` branch (which kept
    /// LLVM from unrolling the user's loop over it: docs/benchmark-analysis.md, mutSlice).
    #[test]
    fn an_empty_mut_slice_is_the_aligned_address_of_a_zero_size_allocation() {
        let align = std::mem::align_of::<f64>() as u32;
        assert_eq!(__bridge_alloc(0, align), align);
        // SAFETY: what the glue passes for an empty array: a zero-size allocation.
        let s = unsafe { lift_slice_mut::<f64>(__bridge_alloc(0, align), 0) };
        assert!(s.is_empty());
    }

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
}
