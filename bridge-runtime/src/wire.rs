//! The wire: compound values (vectors of strings or options, options of vectors, and
//! later records and enums with data) cross in one buffer each way instead of one wasm
//! value or call per piece. Generated code on both sides writes and reads the fields in
//! order, with no JSON and no per-field calls.
//!
//! Format (`templates/wire.js.j2` is the other side), little-endian, each scalar at its
//! natural alignment relative to the 8-aligned buffer start (its size, from the lowering
//! table `bridge_schema::lowering::Scalar::wire_size`, asserted below):
//! - `bool`, `i8`, `u8`: 1 byte; `i16`, `u16`: 2; `i32`, `u32`, `f32`, `usize`, `isize`,
//!   `char` (code point), class address: 4; `f64`, `i64`, `u64`: 8;
//! - `String`: `u32` byte length, then the UTF-8 bytes (unaligned);
//! - `Option<T>`: `u8` 0 (`None`) or 1 followed by `T`;
//! - `Vec<T>`: `u32` count, then the elements;
//! - a tuple `(A, B, ..)`: its elements in order (a JS array of that length);
//! - a map or set: `u32` count, then each key and value, or element (`maps.rs`);
//! - `JsValue`: `u32` index of its entry in the glue's value table (the entry moves with
//!   the value: the receiving side owns it).
//!
//! Two buffers live in linear memory for the whole run: **in** (JS writes a call's
//! wire parameters, the thunk decodes all of them before calling user code) and **out**
//! (a thunk writes its result after user code returned; JS decodes it before its next
//! call). Neither is touched while user code runs, so calls from user code back into
//! JS and on into other exports cannot clobber a value in flight.
//!
//! Records and enums are wire types (their `#[bridge]` expansion implements the traits);
//! class handles inside lower through the identity hook like any class return. `i128`/`u128`
//! are wire values at every site, alone too (two 64-bit halves, low first, each 8-aligned),
//! so one codec serves parameters, results, fields, elements and calls into JS; they are not
//! lowering-table `Scalar`s (those are one wasm value each). Calls into JS use the same
//! buffers the other way round: `WireArgs` encodes an import's or callback's compound
//! arguments into the out-buffer (each passed as its offset; the glue decodes them all before
//! the JS function runs), and the glue writes a compound result into the in-buffer, read by
//! Rust right after the call (`IntoJs::into_js_arg`).

use crate::error::{BridgeError, Result};
use bridge_schema::lowering::Scalar;
use std::cell::UnsafeCell;

/// A growable, 8-aligned byte buffer.
pub struct WireBuf {
    words: Vec<u64>,
    len: usize,
}

impl WireBuf {
    const fn new() -> Self {
        WireBuf {
            words: Vec::new(),
            len: 0,
        }
    }

    fn base(&mut self) -> *mut u8 {
        self.words.as_mut_ptr().cast()
    }

    /// Make room for `bytes` more bytes after the current length.
    #[inline]
    fn reserve(&mut self, bytes: usize) {
        let words = (self.len + bytes).div_ceil(8);
        if words > self.words.len() {
            self.grow(words);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, words: usize) {
        let target = words.max(self.words.len() * 2).max(8);
        self.words.resize(target, 0);
    }

    /// Append one scalar of `N` bytes at its natural alignment.
    #[inline(always)]
    pub fn put<const N: usize>(&mut self, bytes: [u8; N]) {
        let at = (self.len + N - 1) & !(N - 1);
        self.reserve(at + N - self.len);
        // SAFETY: `reserve` made `at + N` bytes available.
        unsafe {
            self.base()
                .add(at)
                .copy_from_nonoverlapping(bytes.as_ptr(), N)
        };
        self.len = at + N;
    }

    /// Append raw bytes, unaligned.
    #[inline]
    pub fn put_bytes(&mut self, bytes: &[u8]) {
        self.reserve(bytes.len());
        // SAFETY: `reserve` made the bytes available.
        unsafe {
            self.base()
                .add(self.len)
                .copy_from_nonoverlapping(bytes.as_ptr(), bytes.len())
        };
        self.len += bytes.len();
    }
}

/// A cursor over the bytes JS wrote into the in-buffer for one call.
pub struct WireReader {
    at: usize,
    end: usize,
}

#[cold]
#[inline(never)]
fn truncated() -> BridgeError {
    BridgeError::new(
        "bridge wire: a parameter's encoding ended early (the glue and the wasm disagree: \
         rebuild both with the same cargo-bridge)"
            .to_string(),
    )
}

impl WireReader {
    /// One scalar of `N` bytes at its natural alignment.
    #[inline(always)]
    pub fn take<const N: usize>(&mut self) -> Result<[u8; N]> {
        let at = (self.at + N - 1) & !(N - 1);
        if at + N > self.end {
            return Err(truncated());
        }
        let mut out = [0u8; N];
        // SAFETY: `[at, at + N)` lies in the buffer JS wrote (checked above).
        unsafe { (at as *const u8).copy_to_nonoverlapping(out.as_mut_ptr(), N) };
        self.at = at + N;
        Ok(out)
    }

    /// Bytes left to read (a count JS wrote cannot make a decoder reserve more).
    #[inline]
    pub fn remaining(&self) -> usize {
        self.end.saturating_sub(self.at)
    }

    /// `len` raw bytes.
    #[inline]
    pub fn take_bytes(&mut self, len: usize) -> Result<&[u8]> {
        if self.at + len > self.end {
            return Err(truncated());
        }
        // SAFETY: in bounds (checked above); the buffer is not written while the thunk
        // decodes its parameters.
        let bytes = unsafe { std::slice::from_raw_parts(self.at as *const u8, len) };
        self.at += len;
        Ok(bytes)
    }
}

struct Shared(UnsafeCell<WireBuf>);
// SAFETY: wasm32-unknown-unknown is single-threaded; the host build never shares it.
unsafe impl Sync for Shared {}
static IN: Shared = Shared(UnsafeCell::new(WireBuf::new()));
static OUT: Shared = Shared(UnsafeCell::new(WireBuf::new()));

/// Bytes the two wire buffers keep allocated (their high-water capacity).
pub(crate) fn buffer_bytes() -> usize {
    // SAFETY: single-threaded; no reference into the buffers is live between calls.
    let (input, output) = unsafe { (&*IN.0.get(), &*OUT.0.get()) };
    (input.words.capacity() + output.words.capacity()) * size_of::<u64>()
}

/// Make the in-buffer hold at least `bytes` bytes (keeping what JS wrote so far) and
/// return its address. JS calls it before writing a call's wire parameters and when
/// they outgrow it; it may move the buffer and grow memory.
#[unsafe(export_name = bridge_schema::runtime_export!(wire_in))]
pub extern "C" fn __bridge_wire_in(bytes: u32) -> u32 {
    // SAFETY: single-threaded, and no reader of IN is live (JS calls this between calls).
    let buf = unsafe { &mut *IN.0.get() };
    buf.len = 0;
    let words = (bytes as usize).div_ceil(8);
    if words > buf.words.len() {
        buf.words.resize(words, 0);
    }
    buf.base() as usize as u32
}

/// Decode the value JS wrote into the in-buffer at `offset` for this call. Reads stay
/// inside the buffer.
///
/// # Safety
/// JS must have written a `T` at `offset` for this call.
pub unsafe fn read_at<T: WireIn>(offset: u32) -> Result<T> {
    // SAFETY: single-threaded; only the address and size are read.
    let buf = unsafe { &mut *IN.0.get() };
    let base = buf.base() as usize;
    let end = base + buf.words.len() * 8;
    let mut r = WireReader {
        at: (base + offset as usize).min(end),
        end,
    };
    // SAFETY: forwarded contract.
    unsafe { T::wire_read(&mut r) }
}

/// As [`read_at`], for conversions that cannot fail (`FromJs`): a value the glue wrote
/// always decodes, so failing here means glue and wasm disagree. That panics (a trap the
/// glue turns into an `Error`, clearing the call's borrows), never throws past a guard.
///
/// # Safety
/// As [`read_at`].
pub unsafe fn take_at<T: WireIn>(offset: u32) -> T {
    // SAFETY: forwarded contract.
    match unsafe { read_at(offset) } {
        Ok(v) => v,
        Err(_) => mismatch(),
    }
}

#[cold]
#[inline(never)]
fn mismatch() -> ! {
    panic!(
        "bridge wire: a parameter did not decode; the glue and the wasm disagree: rebuild \
         both with the same cargo-bridge"
    )
}

/// Encode a result into the out-buffer and describe it in the return area.
#[inline]
pub fn ret<T: WireOut>(value: T) {
    // SAFETY: single-threaded; JS decoded the previous result before this call, and
    // nothing below calls back into JS.
    let buf = unsafe { &mut *OUT.0.get() };
    buf.len = 0;
    value.wire_write(buf);
    crate::ret::describe_ret(buf.base() as usize as u32, buf.len as u32);
}

/// The wire arguments of one call into JS (an import or a callback): each compound
/// argument is encoded into the out-buffer and passed as its offset; [`WireArgs::finish`]
/// describes the buffer's start in the return area, where the glue reads it before it
/// decodes the arguments. The glue decodes every argument before it runs the JS function,
/// so exports that function calls (which write their results to the same buffer) cannot
/// clobber them. Nothing is touched until the first `put`: a call with only scalars or
/// class handles pays nothing.
pub struct WireArgs {
    started: bool,
}

impl WireArgs {
    #[inline(always)]
    pub fn new() -> Self {
        WireArgs { started: false }
    }

    /// Encode `value`; returns its offset from the buffer's start.
    #[inline]
    pub fn put<T: WireOut>(&mut self, value: T) -> u32 {
        // SAFETY: single-threaded; nothing reads the out-buffer while Rust writes a call's
        // arguments (no JS runs: encoding calls only the identity hooks, which are wasm).
        let buf = unsafe { &mut *OUT.0.get() };
        if !self.started {
            self.started = true;
            buf.len = 0;
        }
        // Each value starts 8-aligned, so its natural alignment holds from its offset.
        buf.len = buf.len.next_multiple_of(8);
        let at = buf.len as u32;
        value.wire_write(buf);
        at
    }

    /// Describe the buffer for the glue, if anything was put.
    #[inline(always)]
    pub fn finish(self) {
        if self.started {
            // SAFETY: as in `put`.
            let buf = unsafe { &mut *OUT.0.get() };
            crate::ret::describe_ret(buf.base() as usize as u32, buf.len as u32);
        }
    }
}

impl Default for WireArgs {
    fn default() -> Self {
        Self::new()
    }
}

/// The error for an enum index JS should never have written.
#[cold]
#[inline(never)]
pub fn bad_variant(enum_name: &str, index: u32, count: usize) -> BridgeError {
    BridgeError::new(format!(
        "bridge wire: variant index {index} of enum `{enum_name}` is out of range (it has \
         {count}); the glue and the wasm disagree: rebuild both with the same cargo-bridge"
    ))
}

/// A value Rust encodes onto the wire for JS.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be sent to JS inside a record, enum or compound value",
    label = "not a bridge data type",
    note = "fields and elements may be numbers, bool, char, String, Option, Vec, tuples, \
            #[bridge(record)] structs, #[bridge] enums, class handles (`Handle<C>`) and JsValue; \
            with bridge-runtime's feature `wasm-bindgen`, wasm-bindgen types alone or in one \
            Option or Vec (deeper, a crate's own once named in `wasm_bindgen_fields!(..)`)"
)]
pub trait WireOut {
    fn wire_write(self, w: &mut WireBuf);
}

/// A value Rust decodes from what JS wrote on the wire.
///
/// # Safety
/// Implementations may trust that class addresses on the wire are live objects of their
/// class that JS keeps alive during the call (the glue checks them before writing).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be taken by value from JS inside an Option, Vec, record or enum",
    label = "a class is not taken by value; other types need #[bridge(record)] or #[bridge]",
    note = "inside Option, Vec or a tuple, take a class as `Handle<{Self}>`; fields and elements \
            may be numbers, bool, char, String, Option, Vec, tuples, #[bridge(record)] structs, \
            #[bridge] enums, class handles and JsValue; wasm-bindgen types alone or in one \
            Option or Vec (deeper, a crate's own once named in `wasm_bindgen_fields!(..)`)"
)]
pub unsafe trait WireIn: Sized {
    /// # Safety
    /// The reader must cover bytes JS wrote for this type.
    unsafe fn wire_read(r: &mut WireReader) -> Result<Self>;
}

// Each scalar's bytes on the wire are what the lowering table says (the glue's readers
// and writers follow the table too).
macro_rules! scalar {
    ($($t:ty => $s:ident),*) => {
        /// The scalars with `WireIn`/`WireOut` impls: these, and the four written by hand
        /// below (`bool`, `usize`, `isize`, `char`); every one of the table's (asserted).
        const WIRE_SCALARS: &[Scalar] = &[
            $(Scalar::$s,)* Scalar::Bool, Scalar::Usize, Scalar::Isize, Scalar::Char
        ];
        $(
        const _: () = assert!(size_of::<$t>() == Scalar::$s.wire_size() as usize);
        impl WireOut for $t {
            #[inline(always)]
            fn wire_write(self, w: &mut WireBuf) {
                w.put(self.to_le_bytes());
            }
        }
        unsafe impl WireIn for $t {
            #[inline(always)]
            unsafe fn wire_read(r: &mut WireReader) -> Result<Self> {
                Ok(<$t>::from_le_bytes(r.take()?))
            }
        }
        )*
    };
}
// A scalar added to the lowering table without its impls stops the runtime's build here.
const _: () = assert!(
    Scalar::all_in(WIRE_SCALARS),
    "a scalar of bridge_schema::scalar has no WireIn/WireOut impl in bridge-runtime/src/wire.rs"
);
scalar!(i8 => I8, u8 => U8, i16 => I16, u16 => U16, i32 => I32, u32 => U32, f32 => F32, f64 => F64, i64 => I64, u64 => U64);
// 128-bit integers: two 64-bit halves, low first, each 8-aligned (the glue aligns to
// absolute addresses and the buffers are only 8-aligned, so 16 would not agree).
macro_rules! wide {
    ($($t:ty => $half:ty),*) => {$(
        impl WireOut for $t {
            #[inline(always)]
            fn wire_write(self, w: &mut WireBuf) {
                w.put((self as u64).to_le_bytes());
                w.put(((self >> 64) as $half).to_le_bytes());
            }
        }
        unsafe impl WireIn for $t {
            #[inline(always)]
            unsafe fn wire_read(r: &mut WireReader) -> Result<Self> {
                let low = u64::from_le_bytes(r.take()?);
                let high = <$half>::from_le_bytes(r.take()?);
                Ok(((high as $t) << 64) | low as $t)
            }
        }
    )*};
}
wide!(i128 => i64, u128 => u64);
// `bool` is one byte, `usize`/`isize` 32 bits, a `char` its code point as a `u32`.
const _: () = assert!(Scalar::Bool.wire_size() == 1);
const _: () = assert!(Scalar::Usize.wire_size() as usize == size_of::<u32>());
const _: () = assert!(Scalar::Isize.wire_size() as usize == size_of::<i32>());
const _: () = assert!(Scalar::Char.wire_size() as usize == size_of::<u32>());

impl WireOut for bool {
    #[inline(always)]
    fn wire_write(self, w: &mut WireBuf) {
        w.put([self as u8]);
    }
}
unsafe impl WireIn for bool {
    #[inline(always)]
    unsafe fn wire_read(r: &mut WireReader) -> Result<Self> {
        Ok(r.take::<1>()?[0] != 0)
    }
}

impl WireOut for usize {
    #[inline(always)]
    fn wire_write(self, w: &mut WireBuf) {
        // Lossless on wasm32, where usize is 32 bits.
        w.put((self as u32).to_le_bytes());
    }
}
unsafe impl WireIn for usize {
    #[inline(always)]
    unsafe fn wire_read(r: &mut WireReader) -> Result<Self> {
        Ok(u32::from_le_bytes(r.take()?) as usize)
    }
}

impl WireOut for isize {
    #[inline(always)]
    fn wire_write(self, w: &mut WireBuf) {
        w.put((self as i32).to_le_bytes());
    }
}
unsafe impl WireIn for isize {
    #[inline(always)]
    unsafe fn wire_read(r: &mut WireReader) -> Result<Self> {
        Ok(i32::from_le_bytes(r.take()?) as isize)
    }
}

impl WireOut for char {
    #[inline(always)]
    fn wire_write(self, w: &mut WireBuf) {
        w.put((self as u32).to_le_bytes());
    }
}
unsafe impl WireIn for char {
    #[inline(always)]
    unsafe fn wire_read(r: &mut WireReader) -> Result<Self> {
        crate::error::lift_char(u32::from_le_bytes(r.take()?))
    }
}

impl WireOut for String {
    #[inline]
    fn wire_write(self, w: &mut WireBuf) {
        w.put((self.len() as u32).to_le_bytes());
        w.put_bytes(self.as_bytes());
    }
}
unsafe impl WireIn for String {
    #[inline]
    unsafe fn wire_read(r: &mut WireReader) -> Result<Self> {
        let len = u32::from_le_bytes(r.take()?) as usize;
        let bytes = r.take_bytes(len)?;
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok(s.to_owned()),
            Err(e) => Err(BridgeError::new(format!(
                "bridge wire: a string is not valid UTF-8 ({e})"
            ))),
        }
    }
}

impl<T: WireOut> WireOut for Option<T> {
    #[inline]
    fn wire_write(self, w: &mut WireBuf) {
        match self {
            None => w.put([0]),
            Some(v) => {
                w.put([1]);
                v.wire_write(w);
            }
        }
    }
}
unsafe impl<T: WireIn> WireIn for Option<T> {
    #[inline]
    unsafe fn wire_read(r: &mut WireReader) -> Result<Self> {
        if r.take::<1>()?[0] == 0 {
            Ok(None)
        } else {
            // SAFETY: forwarded contract.
            Ok(Some(unsafe { T::wire_read(r) }?))
        }
    }
}

impl<T: WireOut> WireOut for Vec<T> {
    #[inline]
    fn wire_write(self, w: &mut WireBuf) {
        w.put((self.len() as u32).to_le_bytes());
        for item in self {
            item.wire_write(w);
        }
    }
}
unsafe impl<T: WireIn> WireIn for Vec<T> {
    #[inline]
    unsafe fn wire_read(r: &mut WireReader) -> Result<Self> {
        let len = u32::from_le_bytes(r.take()?) as usize;
        // Every element takes at least one byte: a bad count cannot over-allocate.
        let mut out = Vec::with_capacity(len.min(r.end.saturating_sub(r.at)));
        for _ in 0..len {
            // SAFETY: forwarded contract.
            out.push(unsafe { T::wire_read(r) }?);
        }
        Ok(out)
    }
}

/// A `&[number]` argument of a call into JS (copied; Rust keeps the slice).
impl<T: WireOut + Copy> WireOut for &[T] {
    #[inline]
    fn wire_write(self, w: &mut WireBuf) {
        w.put((self.len() as u32).to_le_bytes());
        for item in self {
            item.wire_write(w);
        }
    }
}

// Tuples of 1 to `bridge_schema::MAX_TUPLE` elements: the elements in order. A decode
// that fails half-way drops the elements it made.
macro_rules! tuple {
    ($(($($t:ident $v:ident),+)),*) => {$(
        impl<$($t: WireOut),+> WireOut for ($($t,)+) {
            #[inline]
            fn wire_write(self, w: &mut WireBuf) {
                let ($($v,)+) = self;
                $($v.wire_write(w);)+
            }
        }
        unsafe impl<$($t: WireIn),+> WireIn for ($($t,)+) {
            #[inline]
            unsafe fn wire_read(r: &mut WireReader) -> Result<Self> {
                // SAFETY: forwarded contract, element by element.
                Ok(($(unsafe { $t::wire_read(r) }?,)+))
            }
        }
    )*};
}
tuple!(
    (A a),
    (A a, B b),
    (A a, B b, C c),
    (A a, B b, C c, D d),
    (A a, B b, C c, D d, E e),
    (A a, B b, C c, D d, E e, F f),
    (A a, B b, C c, D d, E e, F f, G g),
    (A a, B b, C c, D d, E e, F f, G g, H h)
);
const _: () = assert!(bridge_schema::MAX_TUPLE == 8);

impl WireOut for crate::JsValue {
    /// Its table index; JS takes the entry when it reads the value.
    #[inline]
    fn wire_write(self, w: &mut WireBuf) {
        w.put(self.into_abi().to_le_bytes());
    }
}
unsafe impl WireIn for crate::JsValue {
    /// A table entry the glue made for this value (it adds entries only once every
    /// argument converted, so a failed conversion takes none).
    #[inline]
    unsafe fn wire_read(r: &mut WireReader) -> Result<Self> {
        Ok(crate::JsValue::from_abi(u32::from_le_bytes(r.take()?)))
    }
}

// A field's codec, picked by method lookup (the macro's feature `wasm-bindgen`).
#[doc(hidden)]
pub mod field;

#[cfg(test)]
mod tests {
    use super::*;

    /// Encode with the writer, decode with the reader: the two halves agree.
    fn roundtrip<T: WireOut + WireIn>(value: T) -> T {
        let mut buf = WireBuf::new();
        value.wire_write(&mut buf);
        let at = buf.base() as usize;
        let mut r = WireReader {
            at,
            end: at + buf.len,
        };
        // SAFETY: the bytes were written by `wire_write` of the same type.
        let out = unsafe { T::wire_read(&mut r) }.expect("decodes");
        assert_eq!(r.at, r.end, "every byte consumed");
        out
    }

    #[test]
    fn compound_values_roundtrip() {
        let v = vec![Some("héllo".to_string()), None, Some(String::new())];
        assert_eq!(roundtrip(v.clone()), v);
        let v = Some(vec![1.5f64, -2.0]);
        assert_eq!(roundtrip(v.clone()), v);
        assert_eq!(roundtrip(vec![true, false]), vec![true, false]);
        assert_eq!(roundtrip(vec!['é', '𝄞']), vec!['é', '𝄞']);
        assert_eq!(roundtrip(vec![7usize]), vec![7]);
        assert_eq!(roundtrip(vec![-3isize]), vec![-3]);
        let t = (7u32, 2.5f64, "x".to_string(), Some('é'), vec![(1u8, true)]);
        assert_eq!(roundtrip(t.clone()), t);
        let eight = (1u8, 2u16, 3u32, 4u64, 5i8, 6i16, 7i32, 8i64);
        assert_eq!(roundtrip(eight), eight);
        let wide = vec![i128::MIN, -1, 0, 1, i128::MAX, 1 << 64, -(1 << 64) - 3];
        assert_eq!(roundtrip(wide.clone()), wide);
        let wide = (1u8, u128::MAX, Some((1u128 << 64) + 5), 0u128);
        assert_eq!(roundtrip(wide), wide);
    }

    #[test]
    fn wide_integers_are_two_halves_low_first() {
        let mut buf = WireBuf::new();
        7u8.wire_write(&mut buf);
        (-2i128).wire_write(&mut buf);
        assert_eq!(buf.len, 24, "8-aligned, 16 bytes");
        // SAFETY: 24 bytes were written.
        let bytes = unsafe { std::slice::from_raw_parts(buf.base(), 24) };
        assert_eq!(bytes[8..16], (-2i64 as u64).to_le_bytes());
        assert_eq!(bytes[16..24], (-1i64).to_le_bytes());
    }

    #[test]
    fn maps_and_sets_roundtrip_in_iteration_order() {
        use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
        let m: BTreeMap<String, Vec<u32>> = [("b".into(), vec![2]), ("a".into(), vec![])]
            .into_iter()
            .collect();
        assert_eq!(roundtrip(m.clone()), m);
        let h: HashMap<char, (u8, bool)> = [('é', (1, true)), ('x', (2, false))].into();
        assert_eq!(roundtrip(h.clone()), h);
        let s: BTreeSet<i64> = [i64::MIN, 0, i64::MAX].into();
        assert_eq!(roundtrip(s.clone()), s);
        let hs: HashSet<usize> = [0, 7].into();
        assert_eq!(roundtrip(hs.clone()), hs);
        // A map is a count, then key and value after key and value.
        let mut buf = WireBuf::new();
        m.wire_write(&mut buf);
        let mut pairs = WireBuf::new();
        vec![("a".to_string(), Vec::<u32>::new()), ("b".into(), vec![2])].wire_write(&mut pairs);
        let words = buf.len.div_ceil(8);
        assert_eq!(buf.words[..words], pairs.words[..pairs.len.div_ceil(8)]);
    }

    #[test]
    fn a_repeated_key_from_js_is_an_error_not_a_lost_entry() {
        use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
        let decode = |bytes: &mut WireBuf| {
            let at = bytes.base() as usize;
            WireReader {
                at,
                end: at + bytes.len,
            }
        };
        // The glue never writes this (it refuses keys that merge); the wasm still checks.
        let mut buf = WireBuf::new();
        vec![("k".to_string(), 1u32), ("k".into(), 2)].wire_write(&mut buf);
        // SAFETY: the bytes are a count and (String, u32) pairs, the maps' encoding.
        unsafe {
            assert!(HashMap::<String, u32>::wire_read(&mut decode(&mut buf)).is_err());
            assert!(BTreeMap::<String, u32>::wire_read(&mut decode(&mut buf)).is_err());
        }
        let mut buf = WireBuf::new();
        vec![3u32, 3].wire_write(&mut buf);
        // SAFETY: the bytes are a count and u32s, the sets' encoding.
        unsafe {
            assert!(HashSet::<u32>::wire_read(&mut decode(&mut buf)).is_err());
            assert!(BTreeSet::<u32>::wire_read(&mut decode(&mut buf)).is_err());
        }
        assert!(
            crate::error::buffer_bytes() > 0,
            "the message waits to be thrown"
        );
    }

    #[test]
    fn js_values_cross_as_their_table_index_and_keep_it() {
        // The reserved entries need no JS (the host has none).
        let v = vec![
            Some(crate::JsValue::null()),
            None,
            Some(crate::JsValue::from_bool(false)),
        ];
        let out = roundtrip(v);
        let indices: Vec<_> = out.iter().map(|v| v.as_ref().map(|v| v.abi())).collect();
        assert_eq!(indices, [Some(1), None, Some(3)]);
        let mut buf = WireBuf::new();
        crate::JsValue::undefined().wire_write(&mut buf);
        assert_eq!(buf.len, 4, "a u32 index");
    }

    #[test]
    fn scalars_sit_at_natural_alignment() {
        let mut buf = WireBuf::new();
        true.wire_write(&mut buf);
        2.5f64.wire_write(&mut buf);
        assert_eq!(buf.len, 16, "1 byte, 7 padding, 8 for the f64");
        7u16.wire_write(&mut buf);
        1u32.wire_write(&mut buf);
        assert_eq!(buf.len, 24);
    }

    #[test]
    fn truncated_input_is_an_error_not_a_read_past_the_end() {
        let mut buf = WireBuf::new();
        vec![1u32, 2, 3].wire_write(&mut buf);
        let at = buf.base() as usize;
        let mut r = WireReader {
            at,
            end: at + buf.len - 1,
        };
        // SAFETY: reads stay inside the buffer (the reader is bounded).
        assert!(unsafe { Vec::<u32>::wire_read(&mut r) }.is_err());
    }
}
