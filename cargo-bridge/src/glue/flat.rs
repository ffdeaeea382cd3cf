//! A flat record's reader, as `templates/flat.js.j2` renders it: each field's slot of the
//! flat area (`bridge_schema::abi::flat_area`) as an element of the typed array over the
//! area that holds its wasm value (`lowering::flat_record`). Imports only the leaf
//! `numbers.rs` of `glue/`.

use super::numbers::{self, ScalarView};
use bridge_schema::Field;
use bridge_schema::abi::flat_area;
use bridge_schema::lowering::{Abi, Scalar};
use serde::Serialize;

#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct FlatSlotView {
    /// Property name in JS.
    pub name: String,
    /// The view it is read through (`$flat.<view>`): `i32`, `u32`, `f32`, `f64`, `i64`,
    /// `u64`.
    pub view: &'static str,
    /// Its element in that view (a slot holds one 64-bit value or, in its low half, one
    /// 32-bit value).
    pub index: u32,
    /// Elements of that view per slot (2 for a 32-bit view): where a record whose first
    /// slot is not 0 has its fields.
    pub per_slot: u32,
    /// Its scalar's facts: what JS makes of the number (`bool`: `!== 0`, `char`:
    /// `String.fromCodePoint`).
    pub scalar: ScalarView,
}

/// The slots of a record's `fields`, given their wasm values (`abis`, from
/// `TypeNames::flat_record`).
pub fn slots(fields: &[Field], abis: &[Abi]) -> Vec<FlatSlotView> {
    let per_slot = |bytes: u32| flat_area::SLOT_SIZE / bytes;
    fields
        .iter()
        .zip(abis)
        .enumerate()
        .map(|(slot, (f, abi))| {
            let view = match abi {
                Abi::I32 => "i32",
                Abi::U32 => "u32",
                Abi::F32 => "f32",
                Abi::F64 => "f64",
                Abi::I64 => "i64",
                Abi::U64 => "u64",
            };
            FlatSlotView {
                name: f.name.clone(),
                view,
                index: slot as u32 * per_slot(abi.size()),
                per_slot: per_slot(abi.size()),
                scalar: numbers::scalar_view(
                    Scalar::of(&f.ty).expect("a flat record's fields are scalars"),
                ),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bridge_schema::Scalar;
    use bridge_schema::Ty;

    #[test]
    fn each_field_is_an_element_of_its_slot() {
        let field = |name: &str, ty: Ty| Field {
            name: name.into(),
            ty,
            as_written: None,
        };
        let fields = [
            field("x", Ty::Scalar(Scalar::F64)),
            field("on", Ty::Scalar(Scalar::Bool)),
            field("c", Ty::Scalar(Scalar::Char)),
            field("n", Ty::Scalar(Scalar::I8)),
            field("big", Ty::Scalar(Scalar::U64)),
        ];
        let tys: Vec<Ty> = fields.iter().map(|f| f.ty.clone()).collect();
        let abis = bridge_schema::lowering::flat_record(&tys).unwrap();
        let got: Vec<_> = slots(&fields, &abis)
            .into_iter()
            .map(|s| (s.view, s.index, s.scalar.non_zero, s.scalar.call))
            .collect();
        assert_eq!(
            got,
            [
                ("f64", 0, false, None),
                ("u32", 2, true, None),
                ("u32", 4, false, Some("String.fromCodePoint")),
                ("i32", 6, false, None),
                ("u64", 4, false, None),
            ]
        );
    }
}
