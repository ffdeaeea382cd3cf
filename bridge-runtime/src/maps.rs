//! Maps and sets on the wire (`HashMap`/`BTreeMap` ↔ JS `Map`, `HashSet`/`BTreeSet` ↔
//! `Set`): a `u32` count, then each key and value (each element) in the map's iteration
//! order (a `BTreeMap`'s is its key order, kept in JS; a `HashMap`'s is Rust's). Keys are
//! [`MapKey`]s: the types whose JS values compare as Rust's do (strings, integers, `char`,
//! fieldless enums' names), so a JS `Map` and a Rust map hold the same entries. The glue
//! refuses a `Map` whose distinct JS keys would become one Rust key before anything is
//! written for Rust; a duplicate here means the two disagree.

use crate::error::{BridgeError, Result};
use crate::wire::{WireBuf, WireIn, WireOut, WireReader};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{BuildHasher, Hash};

/// A type a map crossing to or from JS may have as its key (or a set as its element).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the key of a map (or the element of a set) that crosses to JS",
    label = "not a map key",
    note = "keys are String, integers (i8..i64, u8..u64, usize, isize), char or fieldless \
            #[bridge] enums: the values a JS Map compares as Rust does; for other keys cross a \
            Vec<(K, V)> of tuples"
)]
pub trait MapKey {}

macro_rules! keys {
    ($($t:ty),*) => {$(impl MapKey for $t {})*};
}
keys!(
    String, char, i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize
);

#[cold]
#[inline(never)]
fn duplicate() -> BridgeError {
    BridgeError::new(
        "bridge wire: a map or set from JS repeats a key (the glue checks keys stay distinct: \
         the glue and the wasm disagree, rebuild both with the same cargo-bridge)"
            .to_string(),
    )
}

fn put_count(w: &mut WireBuf, len: usize) {
    w.put((len as u32).to_le_bytes());
}

impl<K: MapKey + WireOut, V: WireOut, S> WireOut for HashMap<K, V, S> {
    #[inline]
    fn wire_write(self, w: &mut WireBuf) {
        put_count(w, self.len());
        for (k, v) in self {
            k.wire_write(w);
            v.wire_write(w);
        }
    }
}
// SAFETY: each key and value is read under the caller's contract.
unsafe impl<K, V, S> WireIn for HashMap<K, V, S>
where
    K: MapKey + WireIn + Eq + Hash,
    V: WireIn,
    S: BuildHasher + Default,
{
    #[inline]
    unsafe fn wire_read(r: &mut WireReader) -> Result<Self> {
        let declared = u32::from_le_bytes(r.take()?) as usize;
        let mut out = HashMap::with_capacity_and_hasher(declared.min(r.remaining()), S::default());
        for _ in 0..declared {
            // SAFETY: forwarded contract.
            let (k, v) = unsafe { (K::wire_read(r)?, V::wire_read(r)?) };
            if out.insert(k, v).is_some() {
                return Err(duplicate());
            }
        }
        Ok(out)
    }
}

impl<K: MapKey + WireOut, V: WireOut> WireOut for BTreeMap<K, V> {
    #[inline]
    fn wire_write(self, w: &mut WireBuf) {
        put_count(w, self.len());
        for (k, v) in self {
            k.wire_write(w);
            v.wire_write(w);
        }
    }
}
// SAFETY: as for `HashMap`.
unsafe impl<K: MapKey + WireIn + Ord, V: WireIn> WireIn for BTreeMap<K, V> {
    #[inline]
    unsafe fn wire_read(r: &mut WireReader) -> Result<Self> {
        let declared = u32::from_le_bytes(r.take()?) as usize;
        let mut out = BTreeMap::new();
        for _ in 0..declared {
            // SAFETY: forwarded contract.
            let (k, v) = unsafe { (K::wire_read(r)?, V::wire_read(r)?) };
            if out.insert(k, v).is_some() {
                return Err(duplicate());
            }
        }
        Ok(out)
    }
}

impl<T: MapKey + WireOut, S> WireOut for HashSet<T, S> {
    #[inline]
    fn wire_write(self, w: &mut WireBuf) {
        put_count(w, self.len());
        for item in self {
            item.wire_write(w);
        }
    }
}
// SAFETY: as for `HashMap`.
unsafe impl<T, S> WireIn for HashSet<T, S>
where
    T: MapKey + WireIn + Eq + Hash,
    S: BuildHasher + Default,
{
    #[inline]
    unsafe fn wire_read(r: &mut WireReader) -> Result<Self> {
        let declared = u32::from_le_bytes(r.take()?) as usize;
        let mut out = HashSet::with_capacity_and_hasher(declared.min(r.remaining()), S::default());
        for _ in 0..declared {
            // SAFETY: forwarded contract.
            if !out.insert(unsafe { T::wire_read(r) }?) {
                return Err(duplicate());
            }
        }
        Ok(out)
    }
}

impl<T: MapKey + WireOut> WireOut for BTreeSet<T> {
    #[inline]
    fn wire_write(self, w: &mut WireBuf) {
        put_count(w, self.len());
        for item in self {
            item.wire_write(w);
        }
    }
}
// SAFETY: as for `HashMap`.
unsafe impl<T: MapKey + WireIn + Ord> WireIn for BTreeSet<T> {
    #[inline]
    unsafe fn wire_read(r: &mut WireReader) -> Result<Self> {
        let declared = u32::from_le_bytes(r.take()?) as usize;
        let mut out = BTreeSet::new();
        for _ in 0..declared {
            // SAFETY: forwarded contract.
            if !out.insert(unsafe { T::wire_read(r) }?) {
                return Err(duplicate());
            }
        }
        Ok(out)
    }
}
