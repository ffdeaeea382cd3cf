//! A record's or enum's field written and read through [`FieldProbe`] (the macro does so
//! when its feature `wasm-bindgen` is on, which bridge-runtime's turns on): bridge's codec
//! where it applies, else wasm-bindgen's (`js::WbgField`). A module of its own so the
//! expansion without the feature compiles to the same module as before it existed.

use super::{WireBuf, WireIn, WireOut, WireReader};
use crate::error::Result;

/// What a record's or enum's field is written and read through when the crate may hold
/// wasm-bindgen types (the macro's feature `wasm-bindgen`): `(&&&&FieldProbe::<T>::NEW)
/// .field_write(..)`. Method lookup tries the receiver's reference levels in turn, so the
/// first impl whose bounds hold picks the codec: bridge's own (`BridgeFieldOut`/`In`, for
/// `T: WireOut`/`WireIn`) first, so numbers, `bool` and `String` keep their encoding;
/// then wasm-bindgen's (`js::WbgField`, on `&&&` for an `Option`/`Vec` of one, on `&&` for
/// one alone); last the inherent methods here, whose unmet bound is the compile error.
/// One trait could not hold both: a blanket impl for wasm-bindgen types collides with
/// bridge's for the primitives (wasm-bindgen converts those too).
#[doc(hidden)]
pub struct FieldProbe<T>(core::marker::PhantomData<T>);

impl<T> FieldProbe<T> {
    pub const NEW: Self = FieldProbe(core::marker::PhantomData);

    /// No codec applies: the call's `T: WireOut` bound is the error.
    #[inline(always)]
    pub fn field_write(&self, value: T, w: &mut WireBuf)
    where
        T: WireOut,
    {
        value.wire_write(w)
    }

    /// As [`FieldProbe::field_write`].
    ///
    /// # Safety
    /// As [`WireIn::wire_read`].
    #[inline(always)]
    pub unsafe fn field_read(&self, r: &mut WireReader) -> Result<T>
    where
        T: WireIn,
    {
        // SAFETY: forwarded contract.
        unsafe { T::wire_read(r) }
    }
}

/// Bridge's codec of a field (see [`FieldProbe`]).
#[doc(hidden)]
pub trait BridgeFieldOut<T> {
    fn field_write(self, value: T, w: &mut WireBuf);
}

impl<T: WireOut> BridgeFieldOut<T> for &&&&FieldProbe<T> {
    #[inline(always)]
    fn field_write(self, value: T, w: &mut WireBuf) {
        value.wire_write(w)
    }
}

/// Bridge's codec of a field (see [`FieldProbe`]).
#[doc(hidden)]
pub trait BridgeFieldIn<T> {
    /// # Safety
    /// As [`WireIn::wire_read`].
    unsafe fn field_read(self, r: &mut WireReader) -> Result<T>;
}

impl<T: WireIn> BridgeFieldIn<T> for &&&&FieldProbe<T> {
    #[inline(always)]
    unsafe fn field_read(self, r: &mut WireReader) -> Result<T> {
        // SAFETY: forwarded contract.
        unsafe { T::wire_read(r) }
    }
}
