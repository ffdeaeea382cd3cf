//! The traits `#[bridge]` implements for user types, through which the generated thunks
//! marshal them. The macro cannot tell from a type's path whether it names a class, a
//! record or an enum, nor which crate declared it, so it never needs to: every user type
//! implements [`BridgeType`] (its crate-qualified type id, which the export records refer
//! to), and a thunk converts a value of it with [`IntoJs`] / [`FromJs`], whose impls the
//! type's own `#[bridge]` expansion provides. Classes add [`BridgeClass`].
//!
//! `IntoJs::ret_vec`/`FromJs::lift_vec` let records and enums put a whole `Vec` on the wire
//! while classes keep address arrays; `TakeParam` is an export's user-type parameter by value
//! (every `FromJs` type by a blanket impl, and classes, whose expansion implements it as a
//! move out of JS; `ArgSite` names the parameter in messages). How a class handle lowers and
//! lifts (`lower_class`, `handle_arg`, plain and on the wire) is here, above `wire.rs`:
//! **every return shape goes through `lower_class`** (plain, `Option`, `Vec` elements, class
//! handles inside wire values, import and callback arguments), so identity holds uniformly.

use crate::Handle;
use crate::ret;
use crate::wire::{WireBuf, WireIn, WireOut, WireReader};

/// Implemented by `#[bridge]` for every user type that crosses the boundary (classes;
/// records and enums). Not meant to be implemented by hand.
///
/// The note's scalars are `bridge_schema::Scalar::ALL` written out: an attribute takes only
/// a string literal (no `concat!`, no constant), so the list cannot be generated from the
/// table; `the_note_lists_every_scalar` fails when the two disagree.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot cross the JS boundary: it is not a #[bridge] type",
    label = "not a #[bridge] type",
    note = "put #[bridge] on the struct (or enum) `{Self}`, or use a supported type: bool, i8, i16, \
            i32, u8, u16, u32, f32, f64, i64, u64, usize, isize, char, String, &str, Option<T>, \
            Vec<T>; #[bridge] reads types as they are spelled, so a type alias of a supported \
            type (`type Id = u32;`) must be written as that type"
)]
pub trait BridgeType: 'static {
    /// The type id, `"<cargo package>::<Rust name>"` (e.g. `"linked-a::Node"`): unique per
    /// crate and type, so two crates' same-named types never merge. Export records name
    /// types by it; `cargo bridge` resolves it to the type's definition.
    const TYPE_ID: &'static str;
    /// A wasm-bindgen type (`js/wbg_types.rs`): the record names it by the type as written.
    #[doc(hidden)]
    const WASM_BINDGEN: bool = false;
}

/// Whether a wasm-bindgen type is an imported JS type (`JsCast`: `extern "C"` types,
/// js-sys, web-sys) rather than an exported struct or enum, asked where the record names it
/// (`cargo bridge` types the two apart in the `.d.ts`): `ExternProbe::<T>::IS_EXTERN` is the
/// inherent const for `T: JsCast` (feature `wasm-bindgen`, `js/wbg_types.rs`), else
/// [`NotExtern`]'s `false`.
#[doc(hidden)]
pub struct ExternProbe<T>(core::marker::PhantomData<T>);

/// The fallback of [`ExternProbe`].
#[doc(hidden)]
pub trait NotExtern {
    const IS_EXTERN: bool = false;
}

impl<T> NotExtern for ExternProbe<T> {}

/// Implemented by `#[bridge]` for every exported class. Not meant to be implemented by hand.
///
/// # Safety
/// `lower_identity` must hand the strong reference it receives to the JS side (or balance
/// it), as the identity hook that `cargo bridge` installs does.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a #[bridge] class",
    label = "only a #[bridge] struct (a class) can be borrowed or held in a Handle across the boundary",
    note = "records and enums cross by value: take `{Self}`, not `&{Self}`, `&mut {Self}` or `Handle<{Self}>`; \
            so do wasm-bindgen enums and imported types in a #[bridge] signature (a \
            #[wasm_bindgen] struct may also be borrowed). `&JsValue` and `Handle<C>` are known by those names: write \
            them so, not as a type alias or `use .. as` rename (an owned `JsValue` may be renamed)"
)]
pub unsafe trait BridgeClass: BridgeType + Sized {
    /// The class name JS sees (after `js_name`), for error messages.
    const NAME: &'static str;
    /// Pass one strong reference to `ptr` through the class's identity hook.
    fn lower_identity(ptr: u32) -> u32;
}

/// A value a thunk returns to JS: a user type by value, `Handle<C>`, or (through the
/// generic helpers in [`crate::abi`]) an `Option` or `Vec` of them.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned to JS",
    label = "not a #[bridge] type that can be returned",
    note = "return a #[bridge] class (`C` or `Handle<C>`), record or enum, or a supported type"
)]
pub trait IntoJs: Sized {
    /// The wasm value it travels as. `u32` for classes (the box address).
    type Abi: Default;
    /// Hand the value to JS (for a class: one strong reference, through the identity hook).
    fn into_abi(self) -> Self::Abi;

    /// Return the value from an export (alone or as a `Result`'s `Ok`): by default its
    /// wasm value; a record of scalars writes its fields into the flat area
    /// (`crate::flat`) instead of the wire.
    #[inline(always)]
    fn into_ret(self) -> Self::Abi {
        self.into_abi()
    }

    /// Pass the value as an argument of a call into JS (an import or a callback): by
    /// default its wasm value; records and enums with data are encoded into `args` and
    /// travel as their offset there.
    #[inline(always)]
    fn into_js_arg(self, args: &mut crate::wire::WireArgs) -> Self::Abi {
        let _ = args;
        self.into_abi()
    }

    /// Return a `Vec<Self>`: by default each element's value in a `u32` array described
    /// in the return area; records and enums encode the whole vector on the wire.
    #[inline]
    fn ret_vec(v: Vec<Self>)
    where
        Self: IntoJs<Abi = u32>,
    {
        ret::ret_vec(v.into_iter().map(IntoJs::into_abi).collect::<Vec<u32>>());
    }
}

/// A value a thunk takes from JS by value: `Handle<C>`, records and enums (a class by
/// value is [`TakeParam`]'s: it moves out of JS, only as an export's own parameter).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be taken by value from JS here",
    label = "not a record, enum or `Handle<C>`",
    note = "a #[bridge] class moves out of JS by value only as a plain parameter (or `self`) of \
            an export; in an `Option`, a `Vec`, a field, a JS function's result or a Rust \
            closure's parameter take `Handle<{Self}>` (JS keeps its object); records and enums \
            are taken by value; a type alias of a supported type (`type Id = u32;`) must be \
            written as that type (#[bridge] reads types as they are spelled)"
)]
pub trait FromJs: Sized {
    /// The wasm value it travels as. `u32` for classes (the box address).
    type Abi;
    /// # Safety
    /// `abi` must be what the glue passes for this type (for a class: a live box whose
    /// reference JS keeps for the duration of the call).
    unsafe fn from_abi(abi: Self::Abi) -> Self;

    /// Take the value as an export's parameter: by default [`FromJs::from_abi`]; a record
    /// of scalars reads its fields from the flat area when the glue wrote them there.
    ///
    /// # Safety
    /// As [`FromJs::from_abi`].
    #[inline(always)]
    unsafe fn from_param(abi: Self::Abi) -> Self {
        // SAFETY: forwarded contract.
        unsafe { Self::from_abi(abi) }
    }

    /// Take a `Vec<Self>`: by default a `u32` array JS allocated (`ptr`, `len`); records
    /// and enums read the whole vector from the wire's in-buffer at offset `ptr`.
    ///
    /// # Safety
    /// `ptr` and `len` must be what the glue passes for a `Vec<Self>`.
    #[inline]
    unsafe fn lift_vec(ptr: u32, len: u32) -> Vec<Self>
    where
        Self: FromJs<Abi = u32>,
    {
        // SAFETY: forwarded contract.
        let abis: Vec<u32> = unsafe { ret::lift_vec(ptr, len) };
        abis.into_iter()
            // SAFETY: forwarded contract.
            .map(|a| unsafe { Self::from_abi(a) })
            .collect()
    }
}

/// Where a borrow or move of an argument happens, for the error message.
pub struct ArgSite {
    pub class: &'static str,
    pub member: &'static str,
    pub param: &'static str,
}

/// A user type an export's parameter takes by value (not `Handle<C>`), in two steps so
/// that a thunk checks every object it moves before it moves any: every [`FromJs`] type
/// (converted in `begin`), and classes, whose `#[bridge]` expansion implements it: `begin`
/// checks the object can leave JS (nothing borrows it, Rust holds no other reference:
/// `abi::begin_take`), `finish` moves the value out of its box.
pub trait TakeParam: Sized {
    /// The wasm value it travels as (a class: its box address).
    type Abi;
    /// Checked, not yet taken.
    type Taking;
    /// # Safety
    /// As [`FromJs::from_abi`].
    unsafe fn begin(abi: Self::Abi, site: &ArgSite) -> crate::error::Result<Self::Taking>;
    fn finish(taking: Self::Taking) -> Self;
}

impl<T: FromJs> TakeParam for T {
    type Abi = T::Abi;
    type Taking = T;
    #[inline(always)]
    unsafe fn begin(abi: T::Abi, _site: &ArgSite) -> crate::error::Result<T> {
        // SAFETY: forwarded contract.
        Ok(unsafe { T::from_param(abi) })
    }
    #[inline(always)]
    fn finish(taking: T) -> T {
        taking
    }
}

impl<C: BridgeClass> IntoJs for Handle<C> {
    type Abi = u32;
    #[inline(always)]
    fn into_abi(self) -> u32 {
        lower_class(self)
    }
}

impl<C: BridgeClass> FromJs for Handle<C> {
    type Abi = u32;
    #[inline(always)]
    unsafe fn from_abi(addr: u32) -> Self {
        // SAFETY: forwarded contract.
        unsafe { handle_arg(addr) }
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

/// Pass one reference to a class object to JS, through its identity hook.
pub fn lower_class<C: BridgeClass>(handle: Handle<C>) -> u32 {
    C::lower_identity(handle.into_raw() as u32)
}

// Class handles inside wire values (records, Vec and Option on the wire).
impl<C: BridgeClass> WireOut for Handle<C> {
    /// Through the class's identity hook, like a plain class return.
    #[inline]
    fn wire_write(self, w: &mut WireBuf) {
        w.put(lower_class(self).to_le_bytes());
    }
}
unsafe impl<C: BridgeClass> WireIn for Handle<C> {
    #[inline]
    unsafe fn wire_read(r: &mut WireReader) -> crate::error::Result<Self> {
        let addr = u32::from_le_bytes(r.take()?);
        // SAFETY: the trait's contract: a live object of class C.
        Ok(unsafe { Handle::clone_from_raw(addr as usize) })
    }
}

#[cfg(test)]
mod tests {
    use bridge_schema::Scalar;

    /// `BridgeType`'s `on_unimplemented` note names the scalars of the table, in its
    /// order: the note is a literal, so only this test ties it to `Scalar::ALL`.
    #[test]
    fn the_note_lists_every_scalar() {
        let source = include_str!("types.rs");
        let start = source
            .find("or use a supported type: ")
            .expect("BridgeType's note names the supported types")
            + "or use a supported type: ".len();
        let end = start + source[start..].find(", String,").expect("then String");
        // The literal's line continuations (`\` and the next line's indent) are spaces.
        let listed: Vec<&str> = source[start..end]
            .split(',')
            .map(|name| name.trim_matches(|c: char| c.is_whitespace() || c == '\\'))
            .collect();
        let table: Vec<&str> = Scalar::ALL.iter().map(|s| s.rust()).collect();
        assert_eq!(listed, table, "BridgeType's note and Scalar::ALL disagree");
    }
}
