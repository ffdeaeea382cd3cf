//! Rust iterators handed to JS (`impl Iterator<Item = T> + 'static`,
//! `Box<dyn Iterator<Item = T>>` as an export's result). The iterator itself is boxed,
//! in its concrete type, and JS holds the box's address; the export's `#closure-call`
//! pulls one item and `#closure-drop` frees it. Both are monomorphic in that type: the
//! macro cannot name an `impl Iterator`, so it passes the function that returned it to a
//! generic `fn` of its own, which infers `I` ([`IterType`]) from that function's return
//! type. A pull is then a direct call (no `call_indirect` through a `Box<dyn FnMut>`,
//! issue 23 item 5). The glue never pulls while a pull runs and defers a release made
//! during one to its end, so the `&mut` below is unique.

use core::marker::PhantomData;

/// The type `I` of the iterators a function returns, for [`next`] and [`free`].
pub struct IterType<I>(PhantomData<fn() -> I>);

impl<I> IterType<I> {
    /// Made by the macro's `fn` inferring `I` from the callee's signature
    /// (`F: FnOnce(A0, ..) -> I`, the arguments inferred too).
    pub const fn inferred() -> Self {
        IterType(PhantomData)
    }
}

/// Moves `iter` to the heap and gives its address (the wasm result of the export).
/// `'static`: it outlives the call that made it, and the borrows that call held.
pub fn into_abi<I: Iterator + 'static>(iter: I) -> u32 {
    Box::into_raw(Box::new(iter)) as usize as u32
}

/// Pulls one item from the iterator at `addr`.
///
/// # Safety
/// `addr` came from [`into_abi`] of an `I` (up to lifetimes: codegen erases them, and the
/// iterator is `'static`), is not freed, and no other reference to it is live (the glue
/// guarantees both).
#[inline(always)]
pub unsafe fn next<I: Iterator>(_: IterType<I>, addr: u32) -> Option<I::Item> {
    unsafe { (*(addr as usize as *mut I)).next() }
}

/// Frees the iterator at `addr` (runs its `Drop`).
///
/// # Safety
/// As for [`next`]; `addr` is not used afterwards.
pub unsafe fn free<I>(_: IterType<I>, addr: u32) {
    drop(unsafe { Box::from_raw(addr as usize as *mut I) });
}
