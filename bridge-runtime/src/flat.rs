//! The flat area: a record of scalars (`bridge_schema::lowering::flat_record`) an export
//! returns crosses here instead of on the wire. Its thunk writes each field's wasm value
//! into the field's slot after user code returned; the glue reads them right after the
//! call through views it keeps (re-taken when memory grew). No buffer is begun, ended or
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
}

#[inline(always)]
fn set(slot: usize, bits: u64) {
    FLAT.0[slot].set(bits);
}

macro_rules! flat_fields {
    ($($t:ty => $scalar:ident, |$v:ident| $bits:expr;)*) => {$(
        impl FlatField for $t {
            const SCALAR: Scalar = Scalar::$scalar;
            #[inline(always)]
            fn put(self, slot: usize) {
                let $v = self;
                set(slot, $bits);
            }
        }
    )*};
}

// Each as its `Scalar::abi`: the narrow integers widen with their sign to 32 bits, `bool`
// and `char` are `u32`, and a 32-bit value fills the slot's low half.
flat_fields! {
    bool => Bool, |v| v as u64;
    i8 => I8, |v| v as i32 as u32 as u64;
    i16 => I16, |v| v as i32 as u32 as u64;
    i32 => I32, |v| v as u32 as u64;
    isize => Isize, |v| v as i32 as u32 as u64;
    u8 => U8, |v| v as u64;
    u16 => U16, |v| v as u64;
    u32 => U32, |v| v as u64;
    usize => Usize, |v| v as u32 as u64;
    char => Char, |v| v as u32 as u64;
    f32 => F32, |v| v.to_bits() as u64;
    f64 => F64, |v| v.to_bits();
    i64 => I64, |v| v as u64;
    u64 => U64, |v| v;
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
}
