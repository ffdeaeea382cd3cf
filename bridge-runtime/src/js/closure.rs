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
