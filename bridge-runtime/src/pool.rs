//! The fast release pool: entries for `rust`-mode objects handed to JS while a pool is
//! active live here, in linear memory, and a whole pool drains in one call.
//!
//! The identity hook `cargo bridge` installs for `rust` mode calls [`__bridge_pool_note`]
//! for every object JS receives for the first time while the innermost JS pool uses this
//! implementation (JS keeps the flag in step; the hook reads the flag's byte in place, so
//! a module with no pool active pays no call). The entry takes one strong reference of its
//! own, so the object cannot be freed, and its address reused, before the pool drains.
//! Draining releases the object's JS wrapper through the class's identity table (if JS
//! has not released it by hand meanwhile) and then drops the entry's reference.
//!
//! Entries never move while pools are live: `keep` turns them into tombstones, so the marks
//! where inner pools begin stay true. Pool tokens route on their low bit (1 = fast), never on
//! the current latch.

use crate::global::{global, with_vec};
use crate::handle::RawHeader;

#[derive(Clone, Copy)]
struct Entry {
    class: u32,
    addr: u32,
}

/// The address of an entry `keep` took out (no box lives at address 0).
const KEPT: u32 = 0;

// Plain `Cell`s, not `RefCell`s (whose borrow panics format their message); the vectors
// are reached only through `with_vec`, whose closures call nothing that could re-enter.
/// Recording on or off. On wasm a plain exported static (one byte, 0 or 1), whose address
/// the linker exports as a constant global: `cargo bridge`'s identity hook reads it
/// inline. (Single-threaded wasm: the atomic is a plain load and store there.)
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
mod recording {
    use std::sync::atomic::{AtomicBool, Ordering};

    #[unsafe(export_name = bridge_schema::runtime_export!(pool_active))]
    static ACTIVE: AtomicBool = AtomicBool::new(false);
    // The hook reads one byte that is non-zero exactly when recording.
    const _: () = assert!(size_of::<AtomicBool>() == 1);

    pub(super) fn get() -> bool {
        ACTIVE.load(Ordering::Relaxed)
    }

    pub(super) fn set(on: bool) {
        ACTIVE.store(on, Ordering::Relaxed);
    }
}

/// The host build (unit tests, several threads): a thread-local flag.
#[cfg(not(all(target_family = "wasm", not(target_feature = "atomics"))))]
mod recording {
    use crate::global::global;
    use std::cell::Cell;

    global! { static ACTIVE: bool = false; }

    pub(super) fn get() -> bool {
        ACTIVE.with(Cell::get)
    }

    pub(super) fn set(on: bool) {
        ACTIVE.with(|a| a.set(on));
    }
}
global! { static ENTRIES: Vec<Entry> = Vec::new(); }
global! {
    /// Every wrapper the last drain released, for JS to invalidate.
    static RELEASED: Vec<ReleasedWrapper> = Vec::new();
}

/// One wrapper a drain released, as JS reads it (`bridge_schema::abi::released_wrapper`).
#[repr(C)]
#[derive(Clone, Copy)]
struct ReleasedWrapper {
    class: u32,
    slot: u32,
}

const _: () = {
    use bridge_schema::abi::released_wrapper as layout;
    use std::mem::{offset_of, size_of};
    assert!(offset_of!(ReleasedWrapper, class) == layout::CLASS_OFFSET as usize);
    assert!(offset_of!(ReleasedWrapper, slot) == layout::SLOT_OFFSET as usize);
    assert!(size_of::<ReleasedWrapper>() == layout::SIZE as usize);
};

/// Bytes the pool's vectors keep allocated (their high-water capacity).
pub(crate) fn buffer_bytes() -> usize {
    let entries = with_vec(&ENTRIES, |e| e.capacity()) * size_of::<Entry>();
    entries + with_vec(&RELEASED, |r| r.capacity()) * size_of::<ReleasedWrapper>()
}

#[cfg(target_arch = "wasm32")]
#[link(wasm_import_module = "__bridge_identity")]
unsafe extern "C" {
    /// Replaced by `cargo bridge` with a dispatch over the module's `rust`-mode classes:
    /// if `release_wrapper` is 1, release the class's JS wrapper of `addr`; then drop one
    /// reference of `addr`.
    #[link_name = "__pool_release"] // bridge_schema::POOL_RELEASE_IMPORT
    fn pool_release(class: u32, addr: u32, release_wrapper: u32);
}

#[cfg(not(target_arch = "wasm32"))]
unsafe fn pool_release(_class: u32, _addr: u32, _release_wrapper: u32) {}

/// Called by the `rust`-mode identity hook for each object JS receives for the first time.
#[unsafe(export_name = bridge_schema::runtime_export!(pool_note))]
pub extern "C" fn __bridge_pool_note(class: u32, addr: u32) {
    if recording::get() {
        // SAFETY: `addr` is a live box (the identity hook was just handed it).
        unsafe { RawHeader::at(addr) }.retain();
        with_vec(&ENTRIES, |e| e.push(Entry { class, addr }));
    }
}

/// Start a pool: returns its mark (where its entries begin) and activates recording.
#[unsafe(export_name = bridge_schema::runtime_export!(pool_begin))]
pub extern "C" fn __bridge_pool_begin() -> u32 {
    recording::set(true);
    with_vec(&ENTRIES, |e| e.len() as u32)
}

/// Turn recording on or off (on while the innermost JS pool uses this implementation).
#[unsafe(export_name = bridge_schema::runtime_export!(pool_set_active))]
pub extern "C" fn __bridge_pool_set_active(active: u32) {
    recording::set(active != 0);
}

/// Release every entry above `mark`, newest first, including entries added while
/// draining; then set recording to `active_after`. Returns the number of released
/// wrappers JS must invalidate, described in the return area.
#[unsafe(export_name = bridge_schema::runtime_export!(pool_drain))]
pub extern "C" fn __bridge_pool_drain(mark: u32, active_after: u32) -> u32 {
    with_vec(&RELEASED, Vec::clear);
    // One entry at a time, no borrow held across the release: a Drop may add entries.
    let next = || {
        with_vec(&ENTRIES, |e| {
            (e.len() > mark as usize).then(|| e.pop()).flatten()
        })
    };
    while let Some(entry) = next() {
        if entry.addr == KEPT {
            continue;
        }
        // SAFETY: the entry holds a reference, so `addr` is a live box.
        let slot = unsafe { RawHeader::at(entry.addr) }.slot();
        if slot > 0 {
            let released = ReleasedWrapper {
                class: entry.class,
                slot: slot as u32,
            };
            with_vec(&RELEASED, |r| r.push(released));
        }
        // SAFETY: the entry owns one reference to `addr`; the dispatch drops it.
        unsafe { pool_release(entry.class, entry.addr, 1) };
    }
    recording::set(active_after != 0);
    __bridge_pool_released()
}

/// The wrappers the last drain released (also after a drain that trapped): their count,
/// and their address in the return area.
#[unsafe(export_name = bridge_schema::runtime_export!(pool_released))]
pub extern "C" fn __bridge_pool_released() -> u32 {
    with_vec(&RELEASED, |r| {
        crate::ret::describe_ret(r.as_ptr() as usize as u32, r.len() as u32);
        r.len() as u32
    })
}

/// How many live entries of the active pools hold `addr`: each owns a reference JS
/// drops with its pool, so a move out of JS counts them as JS's.
pub(crate) fn entries_of(addr: u32) -> u32 {
    with_vec(&ENTRIES, |e| {
        e.iter().filter(|x| x.addr == addr).count() as u32
    })
}

/// `keep`: forget every entry for `addr` (dropping their references); the object
/// survives the drain. Returns how many entries were removed. The entries become
/// [`KEPT`] in place: removing them would move the entries above, and with them the
/// marks where inner pools begin.
#[unsafe(export_name = bridge_schema::runtime_export!(pool_keep))]
pub extern "C" fn __bridge_pool_keep(addr: u32) -> u32 {
    let removed: Vec<Entry> = with_vec(&ENTRIES, |e| {
        let mut removed = Vec::new();
        for entry in e.iter_mut().filter(|x| x.addr == addr) {
            removed.push(*entry);
            entry.addr = KEPT;
        }
        removed
    });
    for entry in &removed {
        // SAFETY: each removed entry owned one reference.
        unsafe { pool_release(entry.class, entry.addr, 0) };
    }
    removed.len() as u32
}
