//! `#[wasm_bindgen]` types in `#[bridge]` signatures (cargo feature `wasm-bindgen`):
//! exported wasm-bindgen structs and enums, imported `extern "C"` types, `js_sys` and
//! `web_sys` types, `wasm_bindgen::JsValue` — any type wasm-bindgen converts to and from
//! a `wasm_bindgen::JsValue` (`TryFromJsValue` and `Into<JsValue>`, which wasm-bindgen
//! implements for every one of them).
//!
//! Why blanket impls of bridge's own traits rather than a second set of traits the macro
//! picks between: the macro cannot tell from a path whether `Level` is a `#[bridge]` or a
//! `#[wasm_bindgen]` enum, and every place a user type crosses (a parameter, a result, an
//! `Option`, a `Vec`, a JS import's argument, a callback's) already goes through
//! `BridgeType`/`FromJs`/`IntoJs`. Coherence allows the blanket beside each `#[bridge]`
//! type's own impls because those types are local to their crate and are not wasm-bindgen
//! types. So such a value crosses as an imported JS class does (`#[bridge] extern` types):
//! as its JS value in bridge's value table, moved into wasm-bindgen's table and converted
//! by wasm-bindgen's own code (`TryFromJsValue`: a struct is taken out of its JS object,
//! an enum read from its number or string), and back through `Into<JsValue>` (a struct gets
//! its wasm-bindgen JS object). The value JS sees is the one wasm-bindgen gives it.
//!
//! An export's own parameter (`FromJs::from_param`) takes a faster way where the kind
//! allows: a struct's pointer (the glue takes it from the JS object, after its
//! `instanceof` check, as wasm-bindgen's own glue does: `__destroy_into_raw()`) and a
//! numeric enum's number, converted by wasm-bindgen's `FromWasmAbi::try_from_abi`, with
//! no value table, no call into JS. Which way is the type's wasm-bindgen ABI type's
//! ([`WbgAbi`]: `WasmPtr` a struct, `f64` a numeric enum, `u32` anything else), and the
//! type id says it (`#wasm-bindgen/class`, `#wasm-bindgen/number`, `#wasm-bindgen`), so
//! the glue and this side agree by construction. These are wasm-bindgen's internals
//! (`__rt::WasmPtr`, the glue's `__wbg_ptr`), hence the `wasm-bindgen` requirement
//! `0.2.130` (the CLI version cargo bridge installs for it is the locked one).
//!
//! The record then says `#wasm-bindgen/class:value:Tally` or
//! `#wasm-bindgen:extern:web_sys::HtmlElement`: the macro appends whether it is an
//! imported type (`ExternProbe`) and the type as written, and `cargo bridge` types it in
//! the `.d.ts` by wasm-bindgen's name for it (`postprocess/exports.rs`,
//! `wasm_bindgen/types.rs`).

use super::JsValue;
use crate::abi::{ArgProbe, ArgSite, BridgeError, Result, throw_after_guards};
use crate::text::concat;
use crate::types::{BridgeType, ExternProbe, FromJs, IntoJs};
use crate::wire::field::FieldProbe;
use crate::wire::{WireBuf, WireIn, WireOut, WireReader};
use bridge_schema::WasmBindgenKind;
use wasm_bindgen::__rt::{WasmPtr, WasmRefCell};
use wasm_bindgen::convert::{
    FromWasmAbi, MaybeFromWasmAbi, RefFromWasmAbi, RefMutFromWasmAbi, TryFromJsValue,
};

/// What every wasm-bindgen type is to `#[bridge]`: converted by wasm-bindgen from and to
/// its `JsValue`, and from its own ABI value as an export's parameter.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is neither a #[bridge] type nor a wasm-bindgen type",
    label = "not #[bridge], not #[wasm_bindgen]",
    note = "a #[bridge] signature takes #[bridge] classes, records and enums, and wasm-bindgen \
            types (#[wasm_bindgen] structs and enums, imported types, js_sys and web_sys types)"
)]
pub trait WasmBindgenType:
    TryFromJsValue + Into<wasm_bindgen::JsValue> + FromWasmAbi<Abi: WbgAbi> + 'static
{
}

impl<T> WasmBindgenType for T where
    T: TryFromJsValue + Into<wasm_bindgen::JsValue> + FromWasmAbi<Abi: WbgAbi> + 'static
{
}

pub use bridge_schema::WASM_BINDGEN_TYPE_ID;

/// A wasm-bindgen ABI type a parameter's word (`u32`, what the glue passes) becomes.
#[doc(hidden)]
pub trait WbgAbi: Sized {
    const KIND: WasmBindgenKind;
    /// The type id of a type with this ABI (`bridge_schema::wasm_bindgen_type`).
    const TYPE_ID: &'static str;
    /// The ABI value the glue passed as `word`.
    fn from_word(word: u32) -> Self;
    /// The other reading of `word`, if it has one: a negative `i32` discriminant.
    fn alt_word(word: u32) -> Option<Self> {
        let _ = word;
        None
    }
}

/// A `#[wasm_bindgen]` struct: the pointer JS held.
impl<X> WbgAbi for WasmPtr<X> {
    const KIND: WasmBindgenKind = WasmBindgenKind::Class;
    const TYPE_ID: &'static str = bridge_schema::WASM_BINDGEN_CLASS_TYPE_ID;
    fn from_word(word: u32) -> Self {
        WasmPtr::from_usize(word as usize)
    }
}

/// A numeric `#[wasm_bindgen]` enum: the discriminant as a number (the glue passes it
/// `>>> 0`, so an `i32` enum's negative one arrives as its two's complement).
impl WbgAbi for f64 {
    const KIND: WasmBindgenKind = WasmBindgenKind::Number;
    const TYPE_ID: &'static str = bridge_schema::WASM_BINDGEN_NUMBER_TYPE_ID;
    fn from_word(word: u32) -> Self {
        f64::from(word)
    }
    fn alt_word(word: u32) -> Option<Self> {
        let signed = word as i32;
        (signed < 0).then_some(f64::from(signed))
    }
}

/// Anything else (a string enum's index, an imported type's or `JsValue`'s table entry):
/// the word is a bridge value-table entry, converted through `JsValue`.
impl WbgAbi for u32 {
    const KIND: WasmBindgenKind = WasmBindgenKind::Value;
    const TYPE_ID: &'static str = WASM_BINDGEN_TYPE_ID;
    fn from_word(word: u32) -> Self {
        word
    }
}

/// The low bits of a `Class` word that carries a value-table entry (`entry << 2 | 1`)
/// rather than a pointer (every `Rc` allocation is 4-aligned): the glue found no class
/// under the type's Rust name (a `js_name`d struct) to check the object against.
const VALUE_TAG: u32 = 1;
const TAG_MASK: u32 = 3;

impl<T: WasmBindgenType> BridgeType for T {
    const TYPE_ID: &'static str = <<T as FromWasmAbi>::Abi as WbgAbi>::TYPE_ID;
    const WASM_BINDGEN: bool = true;
}

/// Crosses as its JS value (an entry of bridge's value table, which JS takes).
impl<T: WasmBindgenType> IntoJs for T {
    type Abi = u32;
    #[inline]
    fn into_abi(self) -> u32 {
        JsValue::from(self.into()).into_abi()
    }
}

/// The glue checked the value where it can (an instance of a wasm-bindgen class, a value
/// of a wasm-bindgen enum); wasm-bindgen converts it.
impl<T: WasmBindgenType> FromJs for T {
    type Abi = u32;
    #[inline]
    unsafe fn from_abi(idx: u32) -> T {
        from_value(idx)
    }

    /// An export's own parameter: by its kind's word (the module docs).
    #[inline]
    unsafe fn from_param(word: u32) -> T {
        type Abi<T> = <T as FromWasmAbi>::Abi;
        match <Abi<T> as WbgAbi>::KIND {
            WasmBindgenKind::Class if word & TAG_MASK == VALUE_TAG => from_value(word >> 2),
            WasmBindgenKind::Class => {
                // SAFETY: the glue passed the pointer of a live object of this class (an
                // instance of the class wasm-bindgen exports under this type's name,
                // given up with `__destroy_into_raw`), or 0 (refused by `try_from_abi`).
                match unsafe { T::try_from_abi(Abi::<T>::from_word(word)) } {
                    Ok(value) => value,
                    Err(why) => not_taken(core::any::type_name::<T>(), why),
                }
            }
            WasmBindgenKind::Number => {
                // SAFETY: `try_from_abi` of an enum checks the number against every
                // discriminant.
                let first = unsafe { T::try_from_abi(Abi::<T>::from_word(word)) };
                match (first, Abi::<T>::alt_word(word)) {
                    (Ok(value), _) => value,
                    // SAFETY: as above.
                    (Err(why), Some(alt)) => unsafe { T::try_from_abi(alt) }
                        .unwrap_or_else(|_| not_taken(core::any::type_name::<T>(), why)),
                    (Err(why), None) => not_taken(core::any::type_name::<T>(), why),
                }
            }
            WasmBindgenKind::Value => from_value(word),
        }
    }
}

/// The value at bridge value-table entry `idx`, converted by wasm-bindgen.
fn from_value<T: WasmBindgenType>(idx: u32) -> T {
    let value = wasm_bindgen::JsValue::from(JsValue::from_abi(idx));
    match T::try_from_js_value(value) {
        Ok(v) => v,
        Err(_) => refused(core::any::type_name::<T>()),
    }
}

/// `&T` and `&mut T` of a `#[wasm_bindgen]` struct as an export's parameter: the glue
/// lends the object's pointer (checked an instance, not freed; it keeps it) and
/// wasm-bindgen's `RefFromWasmAbi` borrows it for the call, its own borrow flag refusing
/// an aliased `&mut` (the same object twice, or one a running call holds). Found before
/// [`ArgProbe`]'s inherent methods (bridge classes) by method lookup; the macro calls the
/// same names either way. Its anchor ends the borrow when the thunk drops it; the glue has
/// nothing to end (`<type>$peek` is 0), so a trap that skips the drop leaves the object
/// borrowed (and its count leaked), as a trap in wasm-bindgen's own exports does.
#[doc(hidden)]
pub trait WbgArgBorrow {
    /// The type lent (`T` of `&T`).
    type Lent;
    type Ref;
    type RefMut;
    /// # Safety
    /// `word` is what the glue passes: the pointer of a live object of this class.
    unsafe fn borrow_arg(self, word: u32, site: &ArgSite) -> Result<Self::Ref>;
    /// # Safety
    /// As [`WbgArgBorrow::borrow_arg`].
    unsafe fn borrow_mut_arg(self, word: u32, site: &ArgSite) -> Result<Self::RefMut>
    where
        Self::Lent: WbgExclusive;
    /// # Safety
    /// As [`WbgArgBorrow::borrow_arg`], and nothing borrowed or owned by the thunk yet.
    unsafe fn borrow_first_arg(self, word: u32, site: &'static ArgSite) -> Self::Ref;
    /// # Safety
    /// As [`WbgArgBorrow::borrow_first_arg`].
    unsafe fn borrow_mut_first_arg(self, word: u32, site: &'static ArgSite) -> Self::RefMut
    where
        Self::Lent: WbgExclusive;
}

/// What `&mut T` of a wasm-bindgen type needs: a struct (wasm-bindgen's borrow flag guards
/// it). An enum, an imported type or a js-sys/web-sys type has none: wasm-bindgen refuses
/// `&mut` of them too (no `RefMutFromWasmAbi`).
#[diagnostic::on_unimplemented(
    message = "`&mut {Self}` cannot be a #[bridge] parameter: `{Self}` is no #[wasm_bindgen] struct",
    label = "`&mut` of a wasm-bindgen enum or imported type",
    note = "wasm-bindgen lends only its own structs mutably; take `&{Self}` (JS keeps the value) or `{Self}` by value"
)]
#[doc(hidden)]
pub trait WbgExclusive {}

// `RefMutFromWasmAbi` alone, not `WasmBindgenStruct`: a refusal then explains one bound.
impl<T: WasmBindgenType + RefMutFromWasmAbi> WbgExclusive for T {}

/// A `#[wasm_bindgen]` struct (its ABI is a pointer to its `WasmRefCell`).
pub trait WasmBindgenStruct:
    WasmBindgenType
    + RefFromWasmAbi<Abi = WasmPtr<WasmRefCell<Self>>>
    + RefMutFromWasmAbi<Abi = WasmPtr<WasmRefCell<Self>>>
{
}

impl<T> WasmBindgenStruct for T where
    T: WasmBindgenType
        + RefFromWasmAbi<Abi = WasmPtr<WasmRefCell<T>>>
        + RefMutFromWasmAbi<Abi = WasmPtr<WasmRefCell<T>>>
{
}

impl<T: WasmBindgenStruct, const I: u32> WbgArgBorrow for &&ArgProbe<T, I> {
    type Lent = T;
    type Ref = <T as RefFromWasmAbi>::Anchor;
    type RefMut = <T as RefMutFromWasmAbi>::Anchor;

    #[inline]
    unsafe fn borrow_arg(self, word: u32, site: &ArgSite) -> Result<Self::Ref> {
        // SAFETY: the glue passed a live object's pointer (or 0, refused).
        unsafe { T::try_ref_from_abi(WasmPtr::from_usize(word as usize)) }
            .map_err(|why| not_lent::<T>(site, why, false))
    }

    #[inline]
    unsafe fn borrow_mut_arg(self, word: u32, site: &ArgSite) -> Result<Self::RefMut>
    where
        T: WbgExclusive,
    {
        // SAFETY: as above.
        unsafe { T::try_ref_mut_from_abi(WasmPtr::from_usize(word as usize)) }
            .map_err(|why| not_lent::<T>(site, why, true))
    }

    #[inline]
    unsafe fn borrow_first_arg(self, word: u32, site: &'static ArgSite) -> Self::Ref {
        // SAFETY: forwarded contract.
        match unsafe { self.borrow_arg(word, site) } {
            Ok(anchor) => anchor,
            // Nothing is held yet: throwing skips nothing.
            Err(e) => throw_after_guards(|| e),
        }
    }

    #[inline]
    unsafe fn borrow_mut_first_arg(self, word: u32, site: &'static ArgSite) -> Self::RefMut
    where
        T: WbgExclusive,
    {
        // SAFETY: forwarded contract.
        match unsafe { self.borrow_mut_arg(word, site) } {
            Ok(anchor) => anchor,
            Err(e) => throw_after_guards(|| e),
        }
    }
}

/// `&T` of any other wasm-bindgen type (an enum, an imported type, a js-sys or web-sys
/// type, `JsValue`): the glue passes its by-value word after the by-value checks (JS
/// keeps its value: a table entry is a new reference to it), converted as by value into a
/// value the thunk owns and lends for the call. One autoref level further than the
/// struct's impl, so a struct (and, past both, a bridge class) keeps its own path.
impl<T: WasmBindgenType, const I: u32> WbgArgBorrow for &&&ArgProbe<T, I> {
    type Lent = T;
    type Ref = WbgLent<T>;
    type RefMut = WbgLent<T>;

    #[inline]
    unsafe fn borrow_arg(self, word: u32, _site: &ArgSite) -> Result<Self::Ref> {
        // SAFETY: the glue passed the word it passes for `T` by value.
        Ok(WbgLent(unsafe { T::from_param(word) }))
    }

    unsafe fn borrow_mut_arg(self, _: u32, _: &ArgSite) -> Result<Self::RefMut>
    where
        T: WbgExclusive,
    {
        unreachable!("only a struct is `WbgExclusive`, and a struct takes the `&&ArgProbe` impl")
    }

    #[inline]
    unsafe fn borrow_first_arg(self, word: u32, site: &'static ArgSite) -> Self::Ref {
        // SAFETY: forwarded contract; converting refuses with a panic, not an `Err`.
        match unsafe { self.borrow_arg(word, site) } {
            Ok(value) => value,
            Err(e) => throw_after_guards(|| e),
        }
    }

    unsafe fn borrow_mut_first_arg(self, _: u32, _: &'static ArgSite) -> Self::RefMut
    where
        T: WbgExclusive,
    {
        unreachable!("only a struct is `WbgExclusive`, and a struct takes the `&&ArgProbe` impl")
    }
}

/// A wasm-bindgen value the thunk converted and owns, lent to the call as `&T`.
#[doc(hidden)]
pub struct WbgLent<T>(T);

impl<T> core::ops::Deref for WbgLent<T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        &self.0
    }
}

// Never lent mutably (`&mut T` of such a type is refused: `WbgExclusive`); here so that
// that refusal is the only error a `&mut T` or `Option<&mut T>` parameter gets.
impl<T> core::ops::DerefMut for WbgLent<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

/// The `Error` of a wasm-bindgen struct wasm-bindgen would not lend.
#[cold]
#[inline(never)]
fn not_lent<T>(site: &ArgSite, why: &str, exclusive: bool) -> BridgeError {
    let full = core::any::type_name::<T>();
    let name = full.rsplit("::").next().unwrap_or(full);
    let state = if why == wasm_bindgen::__rt::BORROW_ERROR {
        if exclusive {
            "is borrowed elsewhere (the same object passed twice, or a call still running holds it), so it cannot be borrowed mutably"
        } else {
            "is mutably borrowed elsewhere (the same object passed twice, or a call still running holds it)"
        }
    } else {
        "was freed or moved into Rust"
    };
    let dot = if site.class.is_empty() { "" } else { "." };
    BridgeError::new(concat(&[
        "`",
        site.class,
        dot,
        site.member,
        "` cannot borrow `",
        site.param,
        "`: the ",
        name,
        " ",
        state,
    ]))
}

/// Bridge's wire codec for a crate's own `#[wasm_bindgen]` types: a field of any
/// wasm-bindgen type, alone or in one `Option` or `Vec`, needs no line (`WbgField`); nested
/// deeper (a tuple, `Option<Vec<T>>`, a map's value) it goes through bridge's codec of the
/// container, which needs the element's, so a crate names its own types once:
///
/// ```ignore
/// bridge_runtime::wasm_bindgen_fields!(Tally, Level);
/// ```
///
/// The value crosses as its JS value either way (the same wire bytes as `WbgField`'s).
/// Another crate's types (js-sys's, web-sys's) cannot be named so (the orphan rule).
#[macro_export]
macro_rules! wasm_bindgen_fields {
    ($($ty:ty),+ $(,)?) => {$(
        impl $crate::wire::WireOut for $ty {
            #[inline]
            fn wire_write(self, w: &mut $crate::wire::WireBuf) {
                let value = $crate::__wasm_bindgen::JsValue::from(self);
                $crate::wire::WireOut::wire_write($crate::JsValue::from(value), w)
            }
        }
        // SAFETY: reads what the glue writes for a wasm-bindgen type (a table entry).
        unsafe impl $crate::wire::WireIn for $ty {
            #[inline]
            unsafe fn wire_read(
                r: &mut $crate::wire::WireReader,
            ) -> $crate::abi::Result<Self> {
                // SAFETY: forwarded contract.
                let value: $crate::JsValue = unsafe { $crate::wire::WireIn::wire_read(r) }?;
                $crate::js::wire_field_from::<$ty>(value)
            }
        }
    )+};
}

/// A wasm-bindgen value read from a record's field, converted by wasm-bindgen. The glue
/// checked what it can (the class, a live object, a number of the enum); what
/// wasm-bindgen still refuses (a string of no variant of a string enum) is a panic naming
/// the type, as for a parameter, not a wire error (which would blame the build).
#[doc(hidden)]
pub fn wire_field_from<T: WasmBindgenType>(value: JsValue) -> Result<T> {
    Ok(from_value(value.into_abi()))
}

/// A wasm-bindgen type that is one value on the wire (an entry of the value table), as
/// the record's type id says: not an `Option` of one (that is a wasm-bindgen type too,
/// but the record says `Option` and the glue writes its tag), not a `Vec` (wasm-bindgen's
/// ABI of a `Vec` is not a `WbgAbi`, so it is no `WasmBindgenType`).
#[doc(hidden)]
pub trait WbgLeaf: WasmBindgenType + MaybeFromWasmAbi {}

impl<T: WasmBindgenType + MaybeFromWasmAbi> WbgLeaf for T {}

/// A field of a wasm-bindgen type (alone, or in one `Option` or `Vec`) of a
/// `#[bridge(record)]` struct or a `#[bridge]` enum, found by method lookup after
/// bridge's own codec (`wire::field::FieldProbe`): it crosses as its JS value, converted by
/// wasm-bindgen (a struct's object consumed going in, a new one coming out), checked by the
/// glue as where it is a parameter.
#[doc(hidden)]
pub trait WbgField {
    type Value;
    fn field_write(self, value: Self::Value, w: &mut WireBuf);
    /// # Safety
    /// As [`WireIn::wire_read`].
    unsafe fn field_read(self, r: &mut WireReader) -> Result<Self::Value>;
}

/// One wasm-bindgen value on the wire (its value-table entry), as an element.
#[repr(transparent)]
struct WbgItem<T>(T);

impl<T: WbgLeaf> WireOut for WbgItem<T> {
    #[inline]
    fn wire_write(self, w: &mut WireBuf) {
        JsValue::from(self.0.into()).wire_write(w)
    }
}

// SAFETY: reads what the glue writes for a wasm-bindgen type (a table entry).
unsafe impl<T: WbgLeaf> WireIn for WbgItem<T> {
    #[inline]
    unsafe fn wire_read(r: &mut WireReader) -> Result<Self> {
        // SAFETY: forwarded contract.
        let value = unsafe { JsValue::wire_read(r) }?;
        wire_field_from(value).map(WbgItem)
    }
}

impl<T: WbgLeaf> WbgField for &&FieldProbe<T> {
    type Value = T;
    #[inline]
    fn field_write(self, value: T, w: &mut WireBuf) {
        WbgItem(value).wire_write(w)
    }
    #[inline]
    unsafe fn field_read(self, r: &mut WireReader) -> Result<T> {
        // SAFETY: forwarded contract.
        Ok(unsafe { WbgItem::<T>::wire_read(r) }?.0)
    }
}

impl<T: WbgLeaf> WbgField for &&&FieldProbe<Option<T>> {
    type Value = Option<T>;
    #[inline]
    fn field_write(self, value: Option<T>, w: &mut WireBuf) {
        value.map(WbgItem).wire_write(w)
    }
    #[inline]
    unsafe fn field_read(self, r: &mut WireReader) -> Result<Option<T>> {
        // SAFETY: forwarded contract.
        Ok(unsafe { Option::<WbgItem<T>>::wire_read(r) }?.map(|item| item.0))
    }
}

impl<T: WbgLeaf> WbgField for &&&FieldProbe<Vec<T>> {
    type Value = Vec<T>;
    #[inline]
    fn field_write(self, value: Vec<T>, w: &mut WireBuf) {
        // Same layout: collected in place.
        value
            .into_iter()
            .map(WbgItem)
            .collect::<Vec<_>>()
            .wire_write(w)
    }
    #[inline]
    unsafe fn field_read(self, r: &mut WireReader) -> Result<Vec<T>> {
        // SAFETY: forwarded contract.
        let items = unsafe { Vec::<WbgItem<T>>::wire_read(r) }?;
        Ok(items.into_iter().map(|item| item.0).collect())
    }
}

/// An imported JS type (the record says so: its `.d.ts` name is its `typescript_type`).
impl<T: wasm_bindgen::JsCast> ExternProbe<T> {
    pub const IS_EXTERN: bool = true;
}

#[cold]
#[inline(never)]
fn refused(ty: &str) -> ! {
    panic!("wasm-bindgen could not convert the JS value passed as `{ty}`")
}

/// The glue checks what it can before the call (the class, a live object, a number of
/// the enum); what is left is wasm-bindgen's own refusal (an object a running call
/// borrows, passed by value).
#[cold]
#[inline(never)]
fn not_taken(ty: &str, why: &str) -> ! {
    panic!("wasm-bindgen could not take the `{ty}` passed: {why}")
}
