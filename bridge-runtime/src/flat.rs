//! The flat area: a record of scalars (`bridge_schema::lowering::flat_record`) an export
//! takes or returns crosses here instead of on the wire. As a result, its thunk writes
//! each field's wasm value into the field's slot after user code returned and the glue
//! reads them right after the call; as a parameter, the glue writes the slots after the
//! call's last user code (getters) and the thunk reads them before user code runs. The
//! glue's views of the area are re-taken when memory grew. No buffer is begun, ended or
//! described, and nothing is allocated. Layout: `bridge_schema::abi::flat_area`. A layer
//! beside `ret.rs`: it imports nothing of the runtime.

use bridge_schema::abi::flat_area;
#[cfg(test)]
use bridge_schema::lowering::Abi;
use bridge_schema::lowering::Scalar;
use std::cell::Cell;

#[repr(C, align(8))]
struct FlatArea([Cell<u64>; flat_area::SLOTS as usize]);
// SAFETY: wasm32-unknown-unknown is single-threaded; the host build never shares it.
unsafe impl Sync for FlatArea {}
static FLAT: FlatArea = FlatArea([const { Cell::new(0) }; flat_area::SLOTS as usize]);

const _: () = assert!(size_of::<FlatArea>() == flat_area::SIZE as usize);

/// Address of the flat area, read by the glue when it (re)takes its views.
#[unsafe(export_name = bridge_schema::runtime_export!(flat_area))]
pub extern "C" fn __bridge_flat_area() -> u32 {
    &FLAT as *const FlatArea as usize as u32
}

/// A scalar field of a flat record: how it sits in its slot (its wasm value,
/// [`Scalar::abi`], in the slot's low bytes).
pub trait FlatField: Copy {
    /// Its scalar in the lowering table (the tests hold `put` to its `abi`).
    const SCALAR: Scalar;
    /// Write the value into slot `slot` (< `flat_area::SLOTS`: the macro numbers the
    /// fields of records `flat_record` accepts).
    fn put(self, slot: usize);
    /// The value the glue wrote into slot `slot` (a narrow integer wraps as `as` does;
    /// the glue checked a `char`'s code point).
    fn get(slot: usize) -> Self;
}

/// The first slot of a flat record parameter, if the glue passed it flat
/// (`flat_area::TAG`), else `None`: `abi` is its wire offset.
#[inline(always)]
pub fn param_slot(abi: u32) -> Option<usize> {
    (abi & flat_area::TAG != 0).then_some((abi & !flat_area::TAG) as usize)
}

#[inline(always)]
fn set(slot: usize, bits: u64) {
    FLAT.0[slot].set(bits);
}

#[inline(always)]
fn bits(slot: usize) -> u64 {
    FLAT.0[slot].get()
}

macro_rules! flat_fields {
    ($($t:ty => $scalar:ident, |$v:ident| $put:expr, |$b:ident| $get:expr;)*) => {
        /// The scalars with a `FlatField` impl: every one of the table's (asserted below).
        const FLAT_SCALARS: &[Scalar] = &[$(Scalar::$scalar),*];
        $(
        impl FlatField for $t {
            const SCALAR: Scalar = Scalar::$scalar;
            #[inline(always)]
            fn put(self, slot: usize) {
                let $v = self;
                set(slot, $put);
            }
            #[inline(always)]
            fn get(slot: usize) -> Self {
                let $b = bits(slot);
                $get
            }
        }
        )*
    };
}

// Each as its `Scalar::abi`: the narrow integers widen with their sign to 32 bits, `bool`
// and `char` are `u32`, and a 32-bit value fills the slot's low half (of which a read
// takes the low bits, wrapping as the wire's typed arrays wrap what JS writes).
flat_fields! {
    bool => Bool, |v| v as u64, |b| b as u32 != 0;
    i8 => I8, |v| v as i32 as u32 as u64, |b| b as i8;
    i16 => I16, |v| v as i32 as u32 as u64, |b| b as i16;
    i32 => I32, |v| v as u32 as u64, |b| b as i32;
    isize => Isize, |v| v as i32 as u32 as u64, |b| b as i32 as isize;
    u8 => U8, |v| v as u64, |b| b as u8;
    u16 => U16, |v| v as u64, |b| b as u16;
    u32 => U32, |v| v as u64, |b| b as u32;
    usize => Usize, |v| v as u32 as u64, |b| b as u32 as usize;
    char => Char, |v| v as u32 as u64, |b| match char::from_u32(b as u32) {
        Some(c) => c,
        None => mismatch(),
    };
    f32 => F32, |v| v.to_bits() as u64, |b| f32::from_bits(b as u32);
    f64 => F64, |v| v.to_bits(), |b| f64::from_bits(b);
    i64 => I64, |v| v as u64, |b| b as i64;
    u64 => U64, |v| v, |b| b;
}

// Every scalar of the lowering table is a flat field: a scalar added to the table
// without its impl above stops the runtime's build here.
const _: () = assert!(
    Scalar::all_in(FLAT_SCALARS),
    "a scalar of bridge_schema::scalar has no FlatField impl in bridge-runtime/src/flat.rs"
);

/// A tuple of scalars (`lowering::flat_tuple`): its elements in consecutive slots, as the
/// fields of a flat record. The thunk of an export taking or returning one calls these
/// (a tuple parameter the glue did not pass flat is a wire offset: `param_slot`).
pub trait FlatTuple: Sized {
    /// Write the elements from slot `at` on (an export's result: `at` is 0).
    fn put(self, at: usize);
    /// The elements the glue wrote from slot `at` on.
    fn get(at: usize) -> Self;
}

macro_rules! flat_tuples {
    ($(($($t:ident $v:ident $i:tt),+)),*) => {$(
        impl<$($t: FlatField),+> FlatTuple for ($($t,)+) {
            #[inline(always)]
            fn put(self, at: usize) {
                let ($($v,)+) = self;
                $($v.put(at + $i);)+
            }
            #[inline(always)]
            fn get(at: usize) -> Self {
                ($($t::get(at + $i),)+)
            }
        }
    )*};
}
// Every length a tuple crosses with (`bridge_schema::MAX_TUPLE`, within the slots).
flat_tuples!(
    (A a 0),
    (A a 0, B b 1),
    (A a 0, B b 1, C c 2),
    (A a 0, B b 1, C c 2, D d 3),
    (A a 0, B b 1, C c 2, D d 3, E e 4),
    (A a 0, B b 1, C c 2, D d 3, E e 4, F f 5),
    (A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6),
    (A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7)
);
const _: () = assert!(bridge_schema::MAX_TUPLE == 8 && 8 <= flat_area::SLOTS as usize);

#[cold]
#[inline(never)]
fn mismatch() -> ! {
    panic!(
        "bridge flat area: a char parameter is not a Unicode scalar value; the glue and the \
         wasm disagree: rebuild both with the same cargo-bridge"
    )
}

/// What slot `slot` holds, as the glue's view of its `abi` reads it (for the tests).
#[cfg(test)]
fn read(slot: usize, abi: Abi) -> f64 {
    let bits = FLAT.0[slot].get();
    match abi {
        Abi::U32 => bits as u32 as f64,
        Abi::I32 => bits as u32 as i32 as f64,
        Abi::F32 => f32::from_bits(bits as u32) as f64,
        Abi::F64 => f64::from_bits(bits),
        Abi::U64 => bits as f64,
        Abi::I64 => bits as i64 as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put_read<T: FlatField>(v: T) -> f64 {
        v.put(3);
        read(3, T::SCALAR.abi())
    }

    #[test]
    fn each_field_sits_as_its_wasm_value() {
        assert_eq!(put_read(true), 1.0);
        assert_eq!(put_read(-5i8), -5.0);
        assert_eq!(put_read(-300i16), -300.0);
        assert_eq!(put_read(i32::MIN), i32::MIN as f64);
        assert_eq!(put_read(-7isize), -7.0);
        assert_eq!(put_read(255u8), 255.0);
        assert_eq!(put_read(65535u16), 65535.0);
        assert_eq!(put_read(u32::MAX), u32::MAX as f64);
        assert_eq!(put_read(u32::MAX as usize), u32::MAX as f64);
        assert_eq!(put_read('é'), 'é' as u32 as f64);
        assert_eq!(put_read(1.5f32), 1.5);
        assert_eq!(put_read(-2.25f64), -2.25);
        assert_eq!(put_read(-9i64), -9.0);
        assert_eq!(put_read(1u64 << 40), (1u64 << 40) as f64);
        // A 32-bit value clears the slot's high half (a wider value was there before).
        u64::MAX.put(3);
        (-1i32).put(3);
        assert_eq!(FLAT.0[3].get(), u32::MAX as u64);
    }

    fn round_trip<T: FlatField + PartialEq + std::fmt::Debug>(v: T) {
        v.put(5);
        assert_eq!(T::get(5), v);
    }

    #[test]
    fn each_field_reads_back_and_narrow_integers_wrap() {
        round_trip(true);
        round_trip(false);
        round_trip(i8::MIN);
        round_trip(i16::MIN);
        round_trip(i32::MIN);
        // 32 bits on wasm32 (the host build is wider).
        round_trip(i32::MIN as isize);
        round_trip(u8::MAX);
        round_trip(u16::MAX);
        round_trip(u32::MAX);
        round_trip(u32::MAX as usize);
        round_trip('\u{10FFFF}');
        round_trip(f32::MIN_POSITIVE);
        round_trip(-0.0f64);
        round_trip(i64::MIN);
        round_trip(u64::MAX);
        // What JS writes through its Int32Array/Uint32Array views: 200 into an i8 field,
        // 300 into a u8 field, as the wire's Int8Array/Uint8Array would wrap them.
        set(5, 200);
        assert_eq!(i8::get(5), -56);
        set(5, 300);
        assert_eq!(u8::get(5), 44);
        // A bool is any non-zero 32-bit value; the high half is not read.
        set(5, 1 << 32);
        assert!(!bool::get(5));
    }

    #[test]
    fn a_tuple_sits_as_the_record_of_its_elements() {
        // Slots 6 and up: the other tests (other threads) use 3 and 5.
        (7u32, -1.5f64, 'x').put(6);
        assert_eq!(read(6, Abi::U32), 7.0);
        assert_eq!(read(7, Abi::F64), -1.5);
        assert_eq!(read(8, Abi::U32), 'x' as u32 as f64);
        assert_eq!(<(u32, f64, char)>::get(6), (7, -1.5, 'x'));
        let eight = (true, 1i8, 2u16, 3i32, 4u64, 5.0f32, 6usize, -7i64);
        eight.put(8);
        assert_eq!(<(bool, i8, u16, i32, u64, f32, usize, i64)>::get(8), eight);
        assert_eq!(<(u8,)>::get(12), (4,));
    }

    #[test]
    fn a_tagged_parameter_names_its_first_slot() {
        assert_eq!(param_slot(flat_area::TAG | 3), Some(3));
        assert_eq!(param_slot(flat_area::TAG), Some(0));
        assert_eq!(param_slot(96), None);
    }
}
