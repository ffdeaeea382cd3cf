//! Rust closures handed to JS as functions (`Box<dyn Fn(..)>` / `Box<dyn FnMut(..)>` as an
//! export's result). The box is boxed again so that JS holds a thin address; the glue's
//! function object calls it through the export's `#closure-call` and frees it through
//! `#closure-drop` (on `release()`, a pool drain or finalization). The glue never calls a
//! closure while it runs (a re-entrant call is refused in JS) and defers a release made
//! during the call to its end, so the `&mut` below is unique.

/// Moves `f` to the heap and gives its address (the wasm result of the export).
pub fn into_abi<F: ?Sized>(f: Box<F>) -> u32 {
    Box::into_raw(Box::new(f)) as usize as u32
}

/// The closure at `addr`, for one call.
///
/// # Safety
/// `addr` came from [`into_abi`] with the same `F`, is not freed, and no other reference
/// to the closure is live (the glue guarantees both).
pub unsafe fn get<'a, F: ?Sized>(addr: u32) -> &'a mut F {
    unsafe { &mut *(addr as usize as *mut Box<F>) }
}

/// Frees the closure at `addr` (runs its captured state's `Drop`).
///
/// # Safety
/// As for [`get`]; `addr` is not used afterwards.
pub unsafe fn free<F: ?Sized>(addr: u32) {
    drop(unsafe { Box::from_raw(addr as usize as *mut Box<F>) });
}

/// Moves a `Box<dyn FnOnce>` to the heap and gives its address: the box holds an `Option`
/// that the call takes, so a failed argument check leaves it callable and a second call
/// reaching Rust finds `None` ([`take_once`]); [`free_once`] frees the box either way.
pub fn into_abi_once<F: ?Sized>(f: Box<F>) -> u32 {
    Box::into_raw(Box::new(Some(f))) as usize as u32
}

/// Takes the `FnOnce` closure at `addr` out of its box (`None` when a call took it).
///
/// # Safety
/// `addr` came from [`into_abi_once`] with the same `F` and is not freed.
pub unsafe fn take_once<F: ?Sized>(addr: u32) -> Option<Box<F>> {
    unsafe { (*(addr as usize as *mut Option<Box<F>>)).take() }
}

/// Frees the box at `addr` (and the closure, if no call took it).
///
/// # Safety
/// As for [`take_once`]; `addr` is not used afterwards.
pub unsafe fn free_once<F: ?Sized>(addr: u32) {
    drop(unsafe { Box::from_raw(addr as usize as *mut Option<Box<F>>) });
}

/// The address of `slot`, a lent `&dyn Fn`/`&mut dyn FnMut` on the caller's stack: JS
/// calls it through `#closure-call` until the import it was passed to returns.
pub fn lend<T>(slot: &mut T) -> u32 {
    slot as *mut T as usize as u32
}

/// The lent `&F` whose slot is at `addr`.
///
/// # Safety
/// `addr` came from [`lend`] of a `&F` slot whose call has not returned (the glue's
/// function is invalidated when it does).
pub unsafe fn get_lent<'a, F: ?Sized>(addr: u32) -> &'a F {
    unsafe { *(addr as usize as *const &F) }
}

/// The lent `&mut F` whose slot is at `addr`.
///
/// # Safety
/// As for [`get_lent`], of a `&mut F` slot, and no other reference to the closure is live
/// (the glue never re-enters a closure).
pub unsafe fn get_lent_mut<'a, F: ?Sized>(addr: u32) -> &'a mut F {
    unsafe { &mut **(addr as usize as *mut &mut F) }
}
