//! The reference-counted box exported objects live in, and the handle Rust code holds.
//!
//! The box header layout is shared with `cargo bridge` (it emits wasm that reads it):
//! see `bridge_schema::header`. Counts are plain cells: wasm32 is single-threaded.
//!
//! Header: `strong: u32` @0, `borrow: i32` @4, `slot: i32` @8, `weak: u32` @12 (the
//! `WeakHandle`s plus one the strong references share, as `Rc`'s), then the value; const
//! assertions pin the offsets the wasm transforms and the glue read. `WeakHandle<T>`
//! (`Handle::downgrade`/`upgrade`) is Rust-only: it never crosses, an upgraded `Handle` does
//! (`fixtures/classes` weak.test.mjs, every mode). `ArgRef`/`ArgRefMut<'_, T, I>` are a
//! thunk's borrow guards, numbered `I` in the order it takes them: the free of a doomed box at
//! a guard's end first tells the glue which guards have ended (`guards_ended`).
//!
//! **A borrowed box outlives its last reference.** A guard holds no reference of its own, so
//! JS can drop the last one mid-call (`release()` from a callback, a pool drained inside
//! it); `Handle::drop` then marks the flag `BORROW_DOOMED` and the guard that ends the last
//! borrow frees it. A shared borrow from JS refuses an exclusive or doomed flag with one
//! unsigned comparison, after which the compiler sees the flag cannot end doomed, so a call
//! that cannot reach the object again keeps neither the free nor the counter updates.
//!
//! **An object moves out of JS whole or not at all.** `Taking<'_, T>` is an object a thunk
//! takes by value (`begin_take_raw`: refused while borrowed, being taken, taken, or shared
//! beyond JS's references; flag `BORROW_MOVING`); `finish` moves it out (`BORROW_MOVED`:
//! every borrow refuses it, `upgrade()` is `None`, the last reference frees only the
//! allocation) and an unfinished drop restores it. A thunk begins every take after all its
//! other checks and finishes them only after the last began, so a refusal returns before any
//! value moved; the glue then releases each moved wrapper (`$movedOut`, through the mode's
//! idempotent `<Class>$release`).
//!
//! The header slot is 0 until an object crosses in a caching mode, -1 between the lowering and
//! the JS lift, then the index of its wrapper in the class's JS array: JS writes it on a miss,
//! Rust clears it in `release_wrapper`, JS clears it on eviction.

use std::alloc::Layout;
use std::cell::{Cell, UnsafeCell};
use std::fmt;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

use bridge_schema::header::{
    BORROW_DOOMED as DOOMED, BORROW_EXCLUSIVE as EXCLUSIVE, BORROW_MOVED as MOVED,
    BORROW_MOVING as MOVING,
};

#[repr(C)]
pub(crate) struct ObjectBox<T> {
    strong: Cell<u32>,
    /// 0 free, 1.. shared borrows, `EXCLUSIVE`; plus `DOOMED` once `strong` reached 0
    /// while borrowed (see `bridge_schema::header`).
    borrow: Cell<i32>,
    /// Identity slot, owned by the JS glue and the identity hook. 0 when new.
    slot: Cell<i32>,
    /// `WeakHandle`s, plus one the strong references own together (as `Rc`'s): the value
    /// drops when `strong` reaches 0, the allocation goes when `weak` does.
    weak: Cell<u32>,
    /// Dropped in place when the last strong reference goes (weak ones may keep the box).
    value: UnsafeCell<ManuallyDrop<T>>,
}

impl<T> ObjectBox<T> {
    /// The header fields, without the value's type (`#[repr(C)]`, value last).
    fn header(&self) -> &ObjectBox<()> {
        // SAFETY: the header prefix is the same for every `T`; only it is read through this.
        unsafe { &*(self as *const ObjectBox<T> as *const ObjectBox<()>) }
    }
}

const _: () = {
    // The wasm code `cargo bridge` injects relies on these offsets.
    use bridge_schema::header;
    use std::mem::offset_of;
    assert!(offset_of!(ObjectBox<u8>, strong) == header::STRONG_OFFSET as usize);
    assert!(offset_of!(ObjectBox<u8>, borrow) == header::BORROW_OFFSET as usize);
    assert!(offset_of!(ObjectBox<u8>, slot) == header::SLOT_OFFSET as usize);
    assert!(offset_of!(ObjectBox<u8>, weak) == header::WEAK_OFFSET as usize);
    // A box address is even (a box of any `T` is aligned at least as its header), so a
    // `rust`-mode hit's tagged slot, whose low bit is set, is never one.
    assert!(align_of::<ObjectBox<()>>().is_multiple_of(2) && header::HIT_TAG == 1);
};

/// The header fields of the box at `addr`, whatever its value type (the header does not
/// depend on `T`: `#[repr(C)]`, value last). For code that only has an address.
pub(crate) struct RawHeader<'a>(&'a ObjectBox<()>);

impl RawHeader<'_> {
    /// # Safety
    /// `addr` must be a live object box for as long as the header is used.
    pub(crate) unsafe fn at(addr: u32) -> Self {
        // SAFETY: forwarded contract; the header prefix is the same for every `T`.
        RawHeader(unsafe { &*(addr as usize as *const ObjectBox<()>) })
    }

    pub(crate) fn slot(&self) -> i32 {
        self.0.slot.get()
    }

    /// One more strong reference (owned by whoever called this).
    pub(crate) fn retain(&self) {
        self.0.strong.set(self.0.strong.get() + 1);
    }

    /// End one shared borrow whose guard was skipped (a trap or a JS exception unwound it).
    pub(crate) fn end_shared_borrow(&self) {
        let b = self.0.borrow.get();
        if b > 0 && b & !DOOMED > 0 {
            self.0.borrow.set(b - 1);
        }
    }

    /// Forget any borrow: only sound when no borrow guard of the object can be live.
    pub(crate) fn clear_borrow(&self) {
        self.0.borrow.set(self.0.borrow.get() & DOOMED);
    }
}

/// A strong, clonable handle to an exported object (like `Rc<RefCell<T>>`, in one box).
pub struct Handle<T> {
    ptr: NonNull<ObjectBox<T>>,
    _owns: PhantomData<ObjectBox<T>>,
}

/// Why a borrow was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BorrowConflict {
    /// A `&mut` borrow is live.
    MutablyBorrowed,
    /// Shared borrows are live (an exclusive borrow was asked for).
    Borrowed,
    /// A call took the object by value (`self` or a `C` parameter): its value left the
    /// box (JS's wrapper is released when that call returns).
    Moved,
}

/// The conflict a refused borrow flag `b` (negative: exclusive or moved; else shared).
/// Out of line: the raw borrows hand the thunks their flag as it is, so a thunk's
/// refusal path stores one value and classifies nothing.
#[cold]
#[inline(never)]
pub(crate) fn conflict_of(b: i32) -> BorrowConflict {
    match b {
        MOVED | MOVING => BorrowConflict::Moved,
        b if b < 0 => BorrowConflict::MutablyBorrowed,
        _ => BorrowConflict::Borrowed,
    }
}

/// The panic of [`Handle::borrow`] and [`Handle::borrow_mut`]: a moved value says so
/// (rather than "borrowed"), the rest say `otherwise`.
#[cold]
#[inline(never)]
fn refused(c: BorrowConflict, otherwise: &str) -> ! {
    match c {
        BorrowConflict::Moved => panic!(
            "object's value was moved out by a call that took it by value (`self` or a class \
             parameter)"
        ),
        _ => panic!("{otherwise}"),
    }
}

impl<T> Handle<T> {
    /// Box a value. The handle holds the only reference.
    pub fn new(value: T) -> Self {
        let boxed = Box::new(ObjectBox {
            strong: Cell::new(1),
            borrow: Cell::new(0),
            slot: Cell::new(0),
            weak: Cell::new(1),
            value: UnsafeCell::new(ManuallyDrop::new(value)),
        });
        Handle {
            ptr: NonNull::from(Box::leak(boxed)),
            _owns: PhantomData,
        }
    }

    fn inner(&self) -> &ObjectBox<T> {
        // SAFETY: a live handle keeps the box allocated.
        unsafe { self.ptr.as_ref() }
    }

    /// Number of strong references (Rust handles plus JS references).
    pub fn strong_count(&self) -> u32 {
        self.inner().strong.get()
    }

    /// Whether two handles point at the same object.
    pub fn ptr_eq(a: &Self, b: &Self) -> bool {
        a.ptr == b.ptr
    }

    /// Shared access; panics if the object is mutably borrowed.
    pub fn borrow(&self) -> HandleRef<'_, T> {
        self.try_borrow()
            .unwrap_or_else(|c| refused(c, "object is already mutably borrowed"))
    }

    /// Exclusive access; panics if the object is borrowed.
    pub fn borrow_mut(&self) -> HandleRefMut<'_, T> {
        self.try_borrow_mut()
            .unwrap_or_else(|c| refused(c, "object is already borrowed"))
    }

    pub fn try_borrow(&self) -> Result<HandleRef<'_, T>, BorrowConflict> {
        let flag = &self.inner().borrow;
        let b = flag.get();
        if b < 0 {
            return Err(conflict_of(b));
        }
        flag.set(b + 1);
        Ok(HandleRef {
            object: self.inner(),
        })
    }

    pub fn try_borrow_mut(&self) -> Result<HandleRefMut<'_, T>, BorrowConflict> {
        let flag = &self.inner().borrow;
        match flag.get() {
            0 => {
                flag.set(EXCLUSIVE);
                Ok(HandleRefMut {
                    object: self.inner(),
                })
            }
            b => Err(conflict_of(b)),
        }
    }

    /// Give up this handle's reference as a raw address (for the ABI).
    pub fn into_raw(self) -> usize {
        let addr = self.ptr.as_ptr() as usize;
        std::mem::forget(self);
        addr
    }

    /// Take over one reference from a raw address.
    ///
    /// # Safety
    /// `addr` must come from [`Handle::into_raw`] of a `Handle<T>` (or be a box whose
    /// reference the caller owns).
    pub unsafe fn from_raw(addr: usize) -> Self {
        Handle {
            // SAFETY: non-null by the caller's contract.
            ptr: unsafe { NonNull::new_unchecked(addr as *mut ObjectBox<T>) },
            _owns: PhantomData,
        }
    }

    /// A new reference to the object at `addr`, leaving the caller's reference in place.
    ///
    /// # Safety
    /// `addr` must be a live `Handle<T>` box.
    pub unsafe fn clone_from_raw(addr: usize) -> Self {
        // SAFETY: forwarded contract; `ManuallyDrop` keeps the caller's reference.
        let borrowed = std::mem::ManuallyDrop::new(unsafe { Self::from_raw(addr) });
        (*borrowed).clone()
    }

    /// Address of the box (identity of the object).
    pub fn as_raw(&self) -> usize {
        self.ptr.as_ptr() as usize
    }
}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        let strong = &self.inner().strong;
        strong.set(strong.get() + 1);
        Handle {
            ptr: self.ptr,
            _owns: PhantomData,
        }
    }
}

impl<T> Drop for Handle<T> {
    fn drop(&mut self) {
        let object = self.inner();
        let n = object.strong.get() - 1;
        object.strong.set(n);
        if n == 0 {
            let b = object.borrow.get();
            if b == 0 {
                // SAFETY: last reference and no borrow; the box came from `Box::leak` in `new`.
                unsafe { free_box(object) };
            } else {
                // SAFETY: the last reference, whose weak count the strong ones own together.
                unsafe {
                    last_reference_flagged(object.header(), b, Layout::new::<ObjectBox<T>>())
                };
            }
        }
    }
}

/// The last strong reference went while the flag `b` is not 0: moved or borrowed. Out of
/// line and shared by every class (the header does not depend on `T`, the allocation is
/// freed by its layout): each class's `drop_ref` (and the `release_wrapper` that ends
/// with it) keeps only the call, so a package pays for the moved case once.
///
/// # Safety
/// `header` is a box of layout `layout` from [`Handle::new`] whose last strong reference
/// the caller just gave up (strong is 0).
#[cold]
#[inline(never)]
unsafe fn last_reference_flagged(header: &ObjectBox<()>, b: i32, layout: Layout) {
    if b == MOVED {
        // A call took the value (`Taking::finish`): only the allocation is left.
        // SAFETY: forwarded contract (the strong references' weak count).
        unsafe { release_weak_raw(header, layout) };
    } else {
        // Borrowed with no reference left: JS released its last reference from inside a
        // call that borrows the object (a callback re-entering JS). That call's guard has
        // no reference of its own: it frees the box when the borrow ends.
        header.borrow.set(b | DOOMED);
    }
}

/// As [`release_weak`], for a box known by its header and layout (the value is gone).
///
/// # Safety
/// As [`release_weak`]; `layout` is the box's.
unsafe fn release_weak_raw(header: &ObjectBox<()>, layout: Layout) {
    let n = header.weak.get() - 1;
    header.weak.set(n);
    if n == 0 {
        // SAFETY: no strong or weak reference is left and the value was moved out (its
        // `ManuallyDrop` is not dropped again): freeing the allocation is all that is left.
        unsafe { std::alloc::dealloc(header as *const ObjectBox<()> as *mut u8, layout) };
    }
}

/// Drop the value, then free the box unless a `WeakHandle` still points at it.
///
/// # Safety
/// No reference (strong count 0) and no borrow of the box is left, and it came from
/// `Box::leak` in [`Handle::new`].
unsafe fn free_box<T>(object: &ObjectBox<T>) {
    // The flag may still say doomed: a weak handle sees strong 0 either way.
    object.borrow.set(0);
    // SAFETY: the value is live (strong just reached 0, once) and nothing borrows it. The
    // strong references' weak count stays until it has dropped, so a `WeakHandle` its
    // `Drop` drops cannot free the box under it.
    unsafe { ManuallyDrop::drop(&mut *object.value.get()) };
    // SAFETY: forwarded contract.
    unsafe { release_weak(object) };
}

/// One weak count less; the last frees the allocation (the value is gone by then).
///
/// # Safety
/// The caller owns one weak count of a box from [`Handle::new`].
unsafe fn release_weak<T>(object: &ObjectBox<T>) {
    let n = object.weak.get() - 1;
    object.weak.set(n);
    if n == 0 {
        // SAFETY: no strong or weak reference is left; `ManuallyDrop` keeps the dropped
        // value from dropping twice.
        drop(unsafe { Box::from_raw(object as *const ObjectBox<T> as *mut ObjectBox<T>) });
    }
}

/// A weak reference to an exported object ([`Handle::downgrade`]): it keeps the
/// allocation, not the object. [`WeakHandle::upgrade`] gives a [`Handle`] while a strong
/// reference (a Rust `Handle` or a JS wrapper's) is left, `None` once the object was
/// dropped. For parent links in a tree of handles, without a reference cycle.
pub struct WeakHandle<T> {
    ptr: NonNull<ObjectBox<T>>,
    _owns: PhantomData<ObjectBox<T>>,
}

impl<T> Handle<T> {
    /// A weak reference to this object (like `Rc::downgrade`). A method like
    /// [`Handle::strong_count`] (a `Handle` does not deref to its value, so no method of
    /// `T` is shadowed); `Handle::downgrade(&h)` is the same call.
    pub fn downgrade(&self) -> WeakHandle<T> {
        let weak = &self.inner().weak;
        weak.set(weak.get() + 1);
        WeakHandle {
            ptr: self.ptr,
            _owns: PhantomData,
        }
    }

    /// Number of [`WeakHandle`]s to this object (`h.weak_count()`, or
    /// `Handle::weak_count(&h)` as for `Rc`).
    pub fn weak_count(&self) -> u32 {
        // The strong references' own count is not a `WeakHandle`.
        self.inner().weak.get() - 1
    }
}

impl<T> WeakHandle<T> {
    fn inner(&self) -> &ObjectBox<T> {
        // SAFETY: a weak handle keeps the allocation (not the value).
        unsafe { self.ptr.as_ref() }
    }

    /// A strong handle, if the object is still alive: `None` once it was dropped, or
    /// once a call took it out of JS by value (its value left the box, into that call).
    pub fn upgrade(&self) -> Option<Handle<T>> {
        let object = self.inner();
        let strong = object.strong.get();
        if strong == 0 || object.borrow.get() == MOVED {
            return None;
        }
        object.strong.set(strong + 1);
        Some(Handle {
            ptr: self.ptr,
            _owns: PhantomData,
        })
    }

    /// Strong references left (0: the object was dropped, or is being dropped).
    pub fn strong_count(&self) -> u32 {
        self.inner().strong.get()
    }

    /// Whether two weak handles point at the same allocation.
    pub fn ptr_eq(a: &Self, b: &Self) -> bool {
        a.ptr == b.ptr
    }
}

impl<T> Clone for WeakHandle<T> {
    fn clone(&self) -> Self {
        Handle::downgrade(&std::mem::ManuallyDrop::new(Handle {
            ptr: self.ptr,
            _owns: PhantomData,
        }))
    }
}

impl<T> Drop for WeakHandle<T> {
    fn drop(&mut self) {
        // SAFETY: this handle owns one weak count.
        unsafe { release_weak(self.inner()) }
    }
}

impl<T> fmt::Debug for WeakHandle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(WeakHandle)")
    }
}

impl<T: fmt::Debug> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.try_borrow() {
            Ok(v) => f.debug_tuple("Handle").field(&*v).finish(),
            Err(_) => f.write_str("Handle(<mutably borrowed>)"),
        }
    }
}

/// Shared borrow of a handle's object.
pub struct HandleRef<'a, T> {
    object: &'a ObjectBox<T>,
}

impl<T> Deref for HandleRef<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the borrow flag guarantees no `&mut` exists.
        unsafe { &*self.object.value.get() }
    }
}

impl<T> Drop for HandleRef<'_, T> {
    fn drop(&mut self) {
        let b = self.object.borrow.get() - 1;
        self.object.borrow.set(b);
        if b == DOOMED {
            // SAFETY: the last reference was dropped during this borrow (see `Handle::drop`).
            unsafe { free_box(self.object) };
        }
    }
}

/// Exclusive borrow of a handle's object.
pub struct HandleRefMut<'a, T> {
    object: &'a ObjectBox<T>,
}

impl<T> Deref for HandleRefMut<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the borrow flag guarantees exclusivity.
        unsafe { &*self.object.value.get() }
    }
}

impl<T> DerefMut for HandleRefMut<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: the borrow flag guarantees exclusivity.
        unsafe { &mut *self.object.value.get() }
    }
}

impl<T> Drop for HandleRefMut<'_, T> {
    fn drop(&mut self) {
        let doomed = self.object.borrow.get() & DOOMED != 0;
        self.object.borrow.set(0);
        if doomed {
            // SAFETY: the last reference was dropped during this borrow (see `Handle::drop`).
            unsafe { free_box(self.object) };
        }
    }
}

/// A thunk's borrow guard of its argument number `I` (guards count from 0 in the order a
/// thunk takes them: its receiver, then its parameters). It ends like a [`HandleRef`],
/// except that the free of a doomed box (whose `Drop` may panic or throw) tells the glue
/// first that this thunk's guards from `I` on have ended: guards end in reverse order, so
/// those after `I` are done, and this one's object has no wrapper left. Should the `Drop`
/// leave wasm by an exception, the glue ends only the borrows before `I` (still live)
/// instead of undoing borrows this call no longer holds (an outer call's).
pub struct ArgRef<'a, T, const I: u32> {
    object: &'a ObjectBox<T>,
}

/// As [`ArgRef`], for an exclusive borrow.
pub struct ArgRefMut<'a, T, const I: u32> {
    object: &'a ObjectBox<T>,
}

impl<'a, T, const I: u32> ArgRef<'a, T, I> {
    pub(crate) fn from_guard(guard: HandleRef<'a, T>) -> Self {
        let guard = std::mem::ManuallyDrop::new(guard);
        ArgRef {
            object: guard.object,
        }
    }
}

impl<'a, T, const I: u32> ArgRefMut<'a, T, I> {
    pub(crate) fn from_guard(guard: HandleRefMut<'a, T>) -> Self {
        let guard = std::mem::ManuallyDrop::new(guard);
        ArgRefMut {
            object: guard.object,
        }
    }
}

impl<T, const I: u32> Deref for ArgRef<'_, T, I> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the borrow flag guarantees no `&mut` exists.
        unsafe { &*self.object.value.get() }
    }
}

impl<T, const I: u32> Deref for ArgRefMut<'_, T, I> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: the borrow flag guarantees exclusivity.
        unsafe { &*self.object.value.get() }
    }
}

impl<T, const I: u32> DerefMut for ArgRefMut<'_, T, I> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: the borrow flag guarantees exclusivity.
        unsafe { &mut *self.object.value.get() }
    }
}

impl<T, const I: u32> Drop for ArgRef<'_, T, I> {
    fn drop(&mut self) {
        let b = self.object.borrow.get() - 1;
        self.object.borrow.set(b);
        if b == DOOMED {
            // SAFETY: the last reference was dropped during this borrow (see `Handle::drop`).
            unsafe { free_after_guard(self.object, I) };
        }
    }
}

impl<T, const I: u32> Drop for ArgRefMut<'_, T, I> {
    fn drop(&mut self) {
        let doomed = self.object.borrow.get() & DOOMED != 0;
        self.object.borrow.set(0);
        if doomed {
            // SAFETY: the last reference was dropped during this borrow (see `Handle::drop`).
            unsafe { free_after_guard(self.object, I) };
        }
    }
}

/// Free a doomed box whose last borrow, a thunk's guard number `from`, just ended.
///
/// # Safety
/// As [`free_box`].
#[cold]
#[inline(never)]
unsafe fn free_after_guard<T>(object: &ObjectBox<T>, from: u32) {
    // SAFETY: forwarded contract.
    crate::error::after_guards(from, || unsafe { free_box(object) });
}

/// Borrows of objects that JS passes by address (the ABI side of [`Handle`]).
impl<T> Handle<T> {
    /// Refused: `Err` holds the flag ([`conflict_of`] says what it means).
    ///
    /// # Safety
    /// `addr` must be a live `Handle<T>` box that outlives `'a`.
    pub(crate) unsafe fn try_borrow_raw<'a>(addr: usize) -> Result<HandleRef<'a, T>, i32> {
        // SAFETY: forwarded contract.
        let object = unsafe { &*(addr as *const ObjectBox<T>) };
        // One comparison refuses a flag that is exclusive or doomed (JS passes only boxes
        // its wrappers hold a reference to, never doomed ones). After it the guard's end
        // sees that the flag it restores is not doomed, so a call that cannot reach the
        // object again has no free on its path.
        let b = object.borrow.get();
        if b as u32 >= DOOMED as u32 {
            return Err(b);
        }
        object.borrow.set(b + 1);
        Ok(HandleRef { object })
    }

    /// Refused: `Err` holds the flag ([`conflict_of`] says what it means).
    ///
    /// # Safety
    /// `addr` must be a live `Handle<T>` box that outlives `'a`.
    pub(crate) unsafe fn try_borrow_mut_raw<'a>(addr: usize) -> Result<HandleRefMut<'a, T>, i32> {
        // SAFETY: forwarded contract.
        let object = unsafe { &*(addr as *const ObjectBox<T>) };
        match object.borrow.get() {
            0 => {
                object.borrow.set(EXCLUSIVE);
                Ok(HandleRefMut { object })
            }
            b => Err(b),
        }
    }

    /// Begin moving the value out of the box at `addr` (a thunk's `self` or `C`
    /// parameter): refused while it is borrowed or being moved, or while more than
    /// `js_refs` references (the ones JS holds through the wrapper passed) exist. The
    /// flag says [`MOVING`] until [`Taking::finish`]; a [`Taking`] dropped unfinished
    /// (a later argument was refused) puts it back to 0.
    ///
    /// # Safety
    /// `addr` must be a live `Handle<T>` box that outlives `'a`.
    pub(crate) unsafe fn begin_take_raw<'a>(
        addr: usize,
        js_refs: u32,
    ) -> Result<Taking<'a, T>, MoveRefusal> {
        // SAFETY: forwarded contract.
        let object = unsafe { &*(addr as *const ObjectBox<T>) };
        match object.borrow.get() {
            0 => {}
            MOVING => return Err(MoveRefusal::Twice),
            MOVED => return Err(MoveRefusal::Moved),
            _ => return Err(MoveRefusal::Borrowed),
        }
        let strong = object.strong.get();
        if strong > js_refs {
            return Err(MoveRefusal::Shared(strong - js_refs));
        }
        object.borrow.set(MOVING);
        Ok(Taking { object })
    }
}

/// Why a call could not take an object out of JS by value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MoveRefusal {
    /// A borrow of it is live (it is also `this` or a borrowed argument of the call, or
    /// a call further out is using it).
    Borrowed,
    /// The same call takes it by value twice.
    Twice,
    /// A call still running took it by value.
    Moved,
    /// This many references besides JS's exist (Rust `Handle`s, other `none`-mode
    /// wrappers).
    Shared(u32),
}

/// An object a thunk is taking by value, checked but not yet moved ([`MOVING`]).
pub struct Taking<'a, T> {
    object: &'a ObjectBox<T>,
}

impl<T> Taking<'_, T> {
    /// Move the value out; the box keeps its references, flagged [`MOVED`], until JS
    /// drops them (the glue releases the wrapper after the call).
    pub fn finish(self) -> T {
        let this = ManuallyDrop::new(self);
        this.object.borrow.set(MOVED);
        // SAFETY: no borrow and no other owner (checked by `begin_take_raw`); the flag keeps
        // the value from being dropped or reached again.
        unsafe { ManuallyDrop::take(&mut *this.object.value.get()) }
    }
}

impl<T> Drop for Taking<'_, T> {
    /// Not finished: a later argument was refused, so nothing moves.
    fn drop(&mut self) {
        self.object.borrow.set(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    struct CountsDrops(Rc<Cell<u32>>);
    impl Drop for CountsDrops {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
        }
    }

    /// The wasm passes and the glue read the header at `bridge_schema::header`'s offsets
    /// (the const assertions above pin `offset_of!`): what sits there must be the box's
    /// strong count, borrow flag, identity slot and weak count, for any value type.
    #[test]
    fn header_fields_sit_at_the_schema_offsets() {
        use bridge_schema::header;
        fn check<T>(value: T) {
            let h = Handle::new(value);
            let extra = h.clone();
            let shared = h.borrow();
            h.inner().slot.set(header::SLOT_PENDING);
            let base = h.as_raw() as *const u8;
            // SAFETY: the box is live and the header is three aligned 4-byte fields.
            let read = |offset: u32| unsafe { base.add(offset as usize).cast::<i32>().read() };
            assert_eq!(read(header::STRONG_OFFSET), 2);
            assert_eq!(read(header::BORROW_OFFSET), 1);
            assert_eq!(read(header::SLOT_OFFSET), header::SLOT_PENDING);
            let weak = Handle::downgrade(&h);
            assert_eq!(
                read(header::WEAK_OFFSET),
                2,
                "one weak handle plus the strong ones'"
            );
            drop(weak);
            assert_eq!(read(header::WEAK_OFFSET), 1);
            drop((shared, extra));
            assert_eq!(
                (read(header::STRONG_OFFSET), read(header::BORROW_OFFSET)),
                (1, 0)
            );
        }
        check(0u8);
        check(1u64);
        check([0u128; 3]);
        check(String::from("boxed"));
    }

    #[test]
    fn drop_runs_once_after_last_reference() {
        let drops = Rc::new(Cell::new(0));
        let a = Handle::new(CountsDrops(drops.clone()));
        let b = a.clone();
        let raw = b.clone().into_raw();
        assert_eq!(a.strong_count(), 3);
        drop(a);
        drop(b);
        assert_eq!(drops.get(), 0);
        drop(unsafe { Handle::<CountsDrops>::from_raw(raw) });
        assert_eq!(drops.get(), 1);
    }

    #[test]
    fn borrows_conflict_like_refcell() {
        let h = Handle::new(5);
        let r = h.borrow();
        assert_eq!(h.try_borrow_mut().err(), Some(BorrowConflict::Borrowed));
        assert!(h.try_borrow().is_ok());
        drop(r);
        let mut w = h.borrow_mut();
        *w += 1;
        assert_eq!(h.try_borrow().err(), Some(BorrowConflict::MutablyBorrowed));
        drop(w);
        assert_eq!(*h.borrow(), 6);
    }

    /// JS drops its last reference (release() in a callback) while a call it made still
    /// borrows the object by address: the box lives until that borrow ends.
    #[test]
    fn last_reference_dropped_during_a_raw_borrow_frees_when_the_borrow_ends() {
        let drops = Rc::new(Cell::new(0));
        let raw = Handle::new(CountsDrops(drops.clone())).into_raw();
        let outer = unsafe { Handle::<CountsDrops>::try_borrow_raw(raw) }.unwrap();
        let inner = unsafe { Handle::<CountsDrops>::try_borrow_raw(raw) }.unwrap();
        drop(unsafe { Handle::<CountsDrops>::from_raw(raw) });
        assert_eq!(drops.get(), 0, "freed under a live borrow");
        drop(inner);
        assert_eq!(drops.get(), 0, "freed while the outer borrow is live");
        assert_eq!(outer.0.get(), 0, "the value is still readable");
        drop(outer);
        assert_eq!(drops.get(), 1);

        let raw = Handle::new(CountsDrops(drops.clone())).into_raw();
        let exclusive = unsafe { Handle::<CountsDrops>::try_borrow_mut_raw(raw) }.unwrap();
        drop(unsafe { Handle::<CountsDrops>::from_raw(raw) });
        assert_eq!(drops.get(), 1, "freed under a live &mut borrow");
        drop(exclusive);
        assert_eq!(drops.get(), 2);
    }

    /// A trap skipped one guard and the glue ended that borrow (`end_shared_borrow`) after
    /// JS had dropped the last reference: the box stays marked, and the last live guard
    /// still frees it.
    #[test]
    fn an_unwound_shared_borrow_keeps_the_box_doomed() {
        let drops = Rc::new(Cell::new(0));
        let raw = Handle::new(CountsDrops(drops.clone())).into_raw();
        let outer = unsafe { Handle::<CountsDrops>::try_borrow_raw(raw) }.unwrap();
        std::mem::forget(unsafe { Handle::<CountsDrops>::try_borrow_raw(raw) }.unwrap());
        drop(unsafe { Handle::<CountsDrops>::from_raw(raw) });
        // (`RawHeader::at` takes a wasm address; the host's are 64-bit.)
        RawHeader(unsafe { &*(raw as *const ObjectBox<()>) }).end_shared_borrow();
        assert_eq!(drops.get(), 0, "freed under the outer borrow");
        drop(outer);
        assert_eq!(drops.get(), 1, "the last guard frees the doomed box");
    }

    /// JS's shared borrow (one comparison) refuses an exclusive flag, and only that.
    #[test]
    fn a_raw_shared_borrow_is_refused_only_under_an_exclusive_one() {
        let raw = Handle::new(1).into_raw();
        let shared = unsafe { Handle::<i32>::try_borrow_raw(raw) }.unwrap();
        assert!(unsafe { Handle::<i32>::try_borrow_raw(raw) }.is_ok());
        drop(shared);
        let exclusive = unsafe { Handle::<i32>::try_borrow_mut_raw(raw) }.unwrap();
        assert_eq!(
            unsafe { Handle::<i32>::try_borrow_raw(raw) }
                .err()
                .map(conflict_of),
            Some(BorrowConflict::MutablyBorrowed)
        );
        drop(exclusive);
        assert_eq!(*unsafe { Handle::<i32>::try_borrow_raw(raw) }.unwrap(), 1);
        drop(unsafe { Handle::<i32>::from_raw(raw) });
    }

    #[test]
    fn upgrade_gives_the_object_while_a_strong_reference_is_left() {
        let drops = Rc::new(Cell::new(0));
        let h = Handle::new(CountsDrops(drops.clone()));
        let w = Handle::downgrade(&h);
        let w2 = w.clone();
        assert_eq!(Handle::weak_count(&h), 2);
        let w3 = h.downgrade();
        assert_eq!(h.weak_count(), 3, "the method spelling is the same call");
        drop(w3);
        let up = w.upgrade().expect("alive");
        assert!(Handle::ptr_eq(&up, &h));
        assert_eq!(h.strong_count(), 2);
        drop((up, h));
        assert_eq!(
            drops.get(),
            1,
            "the value drops with the last strong reference"
        );
        assert!(w.upgrade().is_none());
        assert_eq!(w2.strong_count(), 0);
        drop(w);
        drop(w2); // the last weak frees the allocation (miri/asan would see a double free)
        assert_eq!(drops.get(), 1);
    }

    /// A value whose `Drop` drops a weak handle to its own box (a child's parent link, the
    /// child owned by the parent): the box outlives the value's drop.
    #[test]
    fn a_weak_handle_dropped_by_the_value_itself_does_not_free_the_box_under_it() {
        struct Node {
            drops: Rc<Cell<u32>>,
            parent: Option<WeakHandle<Node>>,
            children: Vec<Handle<Node>>,
        }
        impl Drop for Node {
            fn drop(&mut self) {
                self.drops.set(self.drops.get() + 1);
            }
        }
        let drops = Rc::new(Cell::new(0));
        let root = Handle::new(Node {
            drops: drops.clone(),
            parent: None,
            children: Vec::new(),
        });
        let child = Handle::new(Node {
            drops: drops.clone(),
            parent: Some(Handle::downgrade(&root)),
            children: Vec::new(),
        });
        // The child's weak link to itself too: dropped while its own value drops.
        child.borrow_mut().parent = Some(Handle::downgrade(&child));
        child.borrow_mut().children.clear();
        root.borrow_mut().children.push(child.clone());
        let weak_child = Handle::downgrade(&child);
        drop(child);
        drop(root);
        assert_eq!(drops.get(), 2, "no cycle: both dropped");
        assert!(weak_child.upgrade().is_none());
    }

    /// Last strong reference dropped under a borrow (doomed): the weak handle sees the
    /// object as gone at once, the value drops when the borrow ends, the box with the weak.
    #[test]
    fn a_doomed_box_is_gone_for_weak_handles_and_freed_after_the_borrow_and_the_weak() {
        let drops = Rc::new(Cell::new(0));
        let raw = Handle::new(CountsDrops(drops.clone())).into_raw();
        let borrow = unsafe { Handle::<CountsDrops>::try_borrow_raw(raw) }.unwrap();
        let owned = unsafe { Handle::<CountsDrops>::from_raw(raw) };
        let w = Handle::downgrade(&owned);
        drop(owned);
        assert!(
            w.upgrade().is_none(),
            "strong is 0: no new handle to a doomed box"
        );
        assert_eq!(drops.get(), 0);
        drop(borrow);
        assert_eq!(drops.get(), 1);
        drop(w);
    }

    #[test]
    fn clone_from_raw_keeps_callers_reference() {
        let h = Handle::new(1);
        let raw = h.as_raw();
        let c = unsafe { Handle::<i32>::clone_from_raw(raw) };
        assert_eq!(h.strong_count(), 2);
        assert!(Handle::ptr_eq(&h, &c));
    }

    /// A take refused (shared, borrowed, twice) changes nothing; one that finishes moves
    /// the value out, after which borrows and weak handles see it gone and the last
    /// reference frees the box without dropping a value.
    #[test]
    fn a_take_moves_the_value_once_and_a_refused_one_changes_nothing() {
        let drops = Rc::new(Cell::new(0));
        let owned = Handle::new(CountsDrops(drops.clone()));
        let raw = owned.as_raw();
        let extra = owned.clone();
        let refused = unsafe { Handle::<CountsDrops>::begin_take_raw(raw, 1) };
        assert_eq!(refused.err(), Some(MoveRefusal::Shared(1)));
        drop(extra);
        let borrow = owned.borrow();
        let refused = unsafe { Handle::<CountsDrops>::begin_take_raw(raw, 1) };
        assert_eq!(refused.err(), Some(MoveRefusal::Borrowed));
        drop(borrow);
        let first = unsafe { Handle::<CountsDrops>::begin_take_raw(raw, 1) }.unwrap();
        let twice = unsafe { Handle::<CountsDrops>::begin_take_raw(raw, 1) };
        assert_eq!(twice.err(), Some(MoveRefusal::Twice));
        drop(first);
        assert_eq!(
            owned.inner().borrow.get(),
            0,
            "an unfinished take restores the flag"
        );
        let weak = Handle::downgrade(&owned);
        let value = unsafe { Handle::<CountsDrops>::begin_take_raw(raw, 1) }
            .unwrap()
            .finish();
        assert!(weak.upgrade().is_none(), "the value left the box");
        assert_eq!(owned.try_borrow().err(), Some(BorrowConflict::Moved));
        assert_eq!(owned.try_borrow_mut().err(), Some(BorrowConflict::Moved));
        let again = unsafe { Handle::<CountsDrops>::begin_take_raw(raw, 1) };
        assert_eq!(again.err(), Some(MoveRefusal::Moved));
        for panicked in [
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(owned.borrow()))),
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(owned.borrow_mut()))),
        ] {
            let message = panicked.expect_err("a moved value cannot be borrowed");
            let message = message.downcast_ref::<&str>().copied();
            assert_eq!(
                message,
                Some(
                    "object's value was moved out by a call that took it by value (`self` or \
                     a class parameter)"
                ),
            );
        }
        drop(owned);
        assert_eq!(drops.get(), 0, "the box went without a value to drop");
        drop(value);
        assert_eq!(drops.get(), 1);
        drop(weak);
    }
}
