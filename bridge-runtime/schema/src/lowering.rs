//! The lowering table: how each type that crosses is lowered to wasm values, and how JS
//! and TypeScript spell its scalars. Written once, here; the macro's thunks and calls into
//! JS, the runtime's wire, the glue model (and through it the templates) and the
//! post-process check (an export's wasm signature against its record) read it.
//!
//! Two layers:
//! - [`Scalar`] (`scalar.rs`, re-exported here): the Rust types that cross as one wasm
//!   value and their facts, one [`Row`] each (wasm type, the Rust type the value is
//!   declared as in generated code, wire size, JS value, typed array, range, how JS makes
//!   its value), all `const fn`, so the runtime can assert its layouts against it at
//!   compile time; [`Scalar::of`] is how a [`Ty`] is one.
//! - [`parts`]: the wasm values a [`Ty`] crosses as at a [`Site`] (an export's parameter
//!   or result, a call into JS's argument or result), in the order the generated code
//!   declares them. [`export_signature`] and [`closure_call_signature`] put them together
//!   into an export's wasm function type.

use crate::{Callback, Function, Receiver, Ty};

pub use crate::scalar::{Abi, FromWasm, JsType, Row, Scalar, Wasm};

impl Scalar {
    /// The scalar `ty` is, if it is one.
    pub fn of(ty: &Ty) -> Option<Scalar> {
        match ty {
            Ty::Scalar(s) => Some(*s),
            _ => None,
        }
    }

    /// The schema type of this scalar.
    pub const fn ty(self) -> Ty {
        Ty::Scalar(self)
    }
}

/// What one wasm value of a lowered type carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The value: a scalar's ([`Scalar::abi`]), a class's box address, a fieldless enum's
    /// variant index, a record's or data enum's wire offset (user types: their `FromJs` /
    /// `IntoJs` `Abi`, a `u32`), a `JsValue`'s table index, a closure's address.
    Value,
    /// 1 when an `Option` is `Some` (before its value).
    IsSome,
    /// A buffer's address (0: `None` of an optional string).
    Ptr,
    /// A buffer's length (bytes of a string, elements of a vector).
    Len,
    /// A buffer's capacity in bytes (strings JS allocated: what Rust frees).
    Cap,
    /// Where a compound value starts on the wire (`bridge_runtime::wire`).
    WireOffset,
}

impl Role {
    /// How generated code names the value of the parameter `x`: `x`, `x_is_some`,
    /// `x_len`, `x_cap` (the glue's `x`, `x$some`, `x$len`, `x$cap`).
    pub const fn suffix(self) -> &'static str {
        match self {
            Role::Value | Role::Ptr | Role::WireOffset => "",
            Role::IsSome => "is_some",
            Role::Len => "len",
            Role::Cap => "cap",
        }
    }
}

/// One wasm value of a lowered type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Part {
    pub role: Role,
    pub wasm: Wasm,
}

impl Part {
    const fn i32(role: Role) -> Part {
        Part {
            role,
            wasm: Wasm::I32,
        }
    }
}

/// Where a value crosses: each site lowers some types its own way (a string JS passes
/// brings its capacity, one Rust passes does not; results that are not one scalar come
/// back through the return area).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Site {
    /// A parameter of an export (JS → Rust; also a Rust closure's parameter).
    ExportParam,
    /// An export's result (Rust → JS).
    ExportResult,
    /// An argument of a call into JS: an import's or a callback's (Rust → JS).
    JsArg,
    /// The result of a call into JS (JS → Rust).
    JsResult,
}

/// A record's flat layout, if it has one: the wasm value of each field (its slot of the
/// flat area, `abi::flat_area`, in declaration order) when every field is a [`Scalar`] and
/// there are at most `flat_area::SLOTS`. Such a record an export takes or returns (alone,
/// or as a `Result`'s `Ok`) crosses through the flat area instead of the wire. The macro
/// (the record's `IntoJs::into_ret`, `FromJs::from_param`) and the glue (its reader and
/// writer) both ask this of the same field types, the ones the record's schema holds.
pub fn flat_record<'a>(fields: impl IntoIterator<Item = &'a Ty>) -> Option<Vec<Abi>> {
    let abis = fields
        .into_iter()
        .map(|ty| Scalar::of(ty).map(Scalar::abi))
        .collect::<Option<Vec<Abi>>>()?;
    (abis.len() <= crate::abi::flat_area::SLOTS as usize).then_some(abis)
}

/// A tuple's flat layout: its elements as the fields of a record ([`flat_record`]), so a
/// tuple of scalars an export takes or returns crosses through the flat area as such a
/// record does. The macro (the thunk's lifting and lowering) and the glue ask it of the
/// same element types.
pub fn flat_tuple(ty: &Ty) -> Option<Vec<Abi>> {
    match ty {
        Ty::Tuple(elems) => flat_record(elems),
        _ => None,
    }
}

/// Whether `ty` crosses encoded on the wire (as its [`Role::WireOffset`]) at `site`: for
/// exports, [`Ty::travels_on_wire`] (tuples, most vectors); in a call into JS every vector
/// and tuple too, and every option of anything but scalars, strings and user types.
/// (Records and data enums decide themselves: their `FromJs`/`IntoJs` value is their wire
/// offset.)
pub fn on_wire(ty: &Ty, site: Site) -> bool {
    match site {
        Site::ExportParam | Site::ExportResult => ty.travels_on_wire(),
        Site::JsArg | Site::JsResult => match ty {
            Ty::Vec(_) => true,
            Ty::Option(inner) => {
                Scalar::of(inner).is_none()
                    && !matches!(
                        **inner,
                        Ty::Str | Ty::String | Ty::Named(_) | Ty::Callback(_)
                    )
            }
            // What is on the wire at every site (tuples, maps, sets, 128-bit integers):
            // a new wire type needs no line here.
            other => other.travels_on_wire(),
        },
    }
}

/// The wasm values `ty` crosses as at `site`, in the order generated code declares them;
/// `None` where it cannot cross there (`()` as a parameter, a borrow as a result, a
/// `Result` anywhere but an export's result, an `Option` of what cannot be optional).
/// Results that are not one value come back in the return area (empty parts).
pub fn parts(ty: &Ty, site: Site) -> Option<Vec<Part>> {
    use Role::*;
    let one = |role| Some(vec![Part::i32(role)]);
    let value = |s: Scalar| Part {
        role: Value,
        wasm: s.wasm(),
    };
    if on_wire(ty, site) {
        return match site {
            // An export's wire result is described in the return area.
            Site::ExportResult => Some(Vec::new()),
            Site::ExportParam | Site::JsArg | Site::JsResult => one(WireOffset),
        };
    }
    if let Some(s) = Scalar::of(ty) {
        return Some(vec![value(s)]);
    }
    off_wire_parts(ty, site)
}

/// [`parts`] of what is neither on the wire at `site` nor a scalar.
fn off_wire_parts(ty: &Ty, site: Site) -> Option<Vec<Part>> {
    use Role::*;
    let one = |role| Some(vec![Part::i32(role)]);
    let param = matches!(site, Site::ExportParam | Site::JsArg);
    match (ty, site) {
        (Ty::Result(ok, _), Site::ExportResult) => parts(ok, site),
        (Ty::Result(..), _) => None,
        (Ty::Unit, _) => (!param).then(Vec::new),
        (Ty::String | Ty::Str, Site::ExportParam) => {
            Some(vec![Part::i32(Ptr), Part::i32(Len), Part::i32(Cap)])
        }
        (Ty::String | Ty::Str, Site::JsArg) => Some(vec![Part::i32(Ptr), Part::i32(Len)]),
        (Ty::String, Site::ExportResult | Site::JsResult) => Some(Vec::new()),
        (Ty::Str, Site::ExportResult | Site::JsResult) => None,
        (Ty::Named(_) | Ty::JsValue, _) => one(Value),
        (Ty::ClassRef(_) | Ty::ClassMut(_) | Ty::ByValue(_), Site::ExportParam) => one(Value),
        (Ty::ClassRef(_) | Ty::ClassMut(_) | Ty::ByValue(_), _) => None,
        (Ty::JsValueRef, Site::ExportParam | Site::JsArg) => one(Value),
        (Ty::JsValueRef, _) => None,
        // A JS function passed to an export (its `JsValue` index); a Rust closure
        // returned by an export or passed to JS (its address).
        (Ty::Callback(_), Site::ExportParam | Site::ExportResult | Site::JsArg) => one(Value),
        (Ty::Callback(_), Site::JsResult) => None,
        // Not on the wire: numbers (a typed array JS allocated) and user types (an
        // address array; records and data enums pass their wire offset and a zero).
        (Ty::Vec(_), Site::ExportParam) => Some(vec![Part::i32(Ptr), Part::i32(Len)]),
        (Ty::Vec(_), Site::ExportResult) => Some(Vec::new()),
        (Ty::Vec(_), Site::JsArg | Site::JsResult) => None,
        // A view is described in the return area (address, length), never freed by JS.
        // Of a numeric enum (`Named`): its `#[repr]` number, resolved by `cargo bridge`.
        (Ty::View(inner), Site::ExportResult)
            if inner.is_number() || matches!(**inner, Ty::Named(_)) =>
        {
            Some(Vec::new())
        }
        (Ty::View(_), _) => None,
        // A buffer JS allocated and copies back from (and frees) after the call.
        (Ty::SliceMut(inner), Site::ExportParam) if inner.is_number() => {
            Some(vec![Part::i32(Ptr), Part::i32(Len)])
        }
        (Ty::SliceMut(_), _) => None,
        // The address of the Rust closure pulling its items (results only).
        (Ty::Iterator(_), Site::ExportResult) => one(Value),
        (Ty::Iterator(_), _) => None,
        (Ty::Option(inner), _) => option_parts(inner, site),
        (Ty::Tuple(_) | Ty::Map(..) | Ty::Set(_) | Ty::I128 | Ty::U128, _) => {
            unreachable!("tuples, maps, sets and 128-bit integers are on the wire at every site")
        }
        (Ty::Scalar(_), _) => unreachable!("scalars are lowered above"),
    }
}

/// [`parts`] of `Option<inner>` (not on the wire): a parameter passes its flag and then
/// its value (strings: a null address), a result its value with the flag in the return
/// area.
fn option_parts(inner: &Ty, site: Site) -> Option<Vec<Part>> {
    use Role::*;
    let param = matches!(site, Site::ExportParam | Site::JsArg);
    let value = match inner {
        // A function's table index or a closure's address: 0 is `None` (no flag).
        Ty::Callback(_) => {
            return matches!(site, Site::ExportParam | Site::JsArg).then(|| vec![Part::i32(Value)]);
        }
        Ty::String | Ty::Str => {
            return match site {
                Site::ExportParam => parts(&Ty::String, site),
                Site::JsArg => parts(&Ty::String, site),
                Site::ExportResult | Site::JsResult => (*inner == Ty::String).then(Vec::new),
            };
        }
        t => match Scalar::of(t) {
            Some(s) => s.wasm(),
            None => match (t, site) {
                (Ty::Named(_), _)
                | (Ty::ClassRef(_) | Ty::ClassMut(_) | Ty::ByValue(_), Site::ExportParam) => {
                    Wasm::I32
                }
                _ => return None,
            },
        },
    };
    let value = Part {
        role: Value,
        wasm: value,
    };
    Some(if param {
        vec![Part::i32(IsSome), value]
    } else {
        vec![value]
    })
}

/// A wasm function type.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Signature {
    pub params: Vec<Wasm>,
    pub results: Vec<Wasm>,
}

impl std::fmt::Display for Signature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |tys: &[Wasm]| tys.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ");
        write!(f, "({}) -> ({})", list(&self.params), list(&self.results))
    }
}

fn values(parts: Vec<Part>) -> impl Iterator<Item = Wasm> {
    parts.into_iter().map(|p| p.wasm)
}

/// The borrow a thunk refuses by trapping: its first step, where it owns and borrows
/// nothing yet (a trap runs no destructors). Its hot path then calls nothing (V8 gives a
/// call-free wasm function no stack check); the runtime notes why
/// ([`crate::abi::refusal`]) and the glue words the error from its refusal site. The one
/// rule both sides follow: the macro's thunks (`Preludes` in `generate/thunk.rs`) trap
/// exactly here, and the glue (`glue/calls.rs` `refusal_site`) has a site exactly here. A
/// trap the glue had no site for would surface as a bare `RuntimeError: unreachable`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrappingBorrow {
    /// The borrowed receiver (`&self`, `&mut self`).
    Receiver,
    /// The parameter at this index of the thunk's own list: a class borrowed outright
    /// (`&C`, `&mut C`; a wasm-bindgen struct's refusal throws instead, `WbgArgBorrow`).
    Param(usize),
}

/// Where the thunk of a function taking `receiver` and `params` traps on a refused borrow
/// ([`TrappingBorrow`]): a borrowed receiver, or else the first class borrowed outright,
/// when every parameter is a scalar or a class borrowed outright (nothing owned: no
/// string, `Option`, callback or value the trap would leak); a receiver the thunk refuses
/// when released (`refuses_released`, then the only argument) always.
pub fn trapping_borrow<'a>(
    receiver: Receiver,
    refuses_released: bool,
    params: impl IntoIterator<Item = &'a Ty>,
) -> Option<TrappingBorrow> {
    let params: Vec<&Ty> = params.into_iter().collect();
    let borrows = |ty: &Ty| matches!(ty, Ty::ClassRef(_) | Ty::ClassMut(_));
    let owns_nothing = params
        .iter()
        .all(|ty| Scalar::of(ty).is_some() || borrows(ty));
    match receiver {
        Receiver::Handle | Receiver::Value => None,
        Receiver::Shared | Receiver::Exclusive => {
            (refuses_released || owns_nothing).then_some(TrappingBorrow::Receiver)
        }
        Receiver::None if owns_nothing => params
            .iter()
            .position(|ty| borrows(ty))
            .map(TrappingBorrow::Param),
        Receiver::None => None,
    }
}

/// What the export thunk of `function` is as a wasm function: the receiver's box address
/// (any receiver), each parameter's [`Site::ExportParam`] parts, the result's
/// [`Site::ExportResult`] parts. `None` when a type cannot sit where the record puts it.
pub fn export_signature(function: &Function) -> Option<Signature> {
    let receiver = match function.receiver {
        Receiver::None => None,
        Receiver::Shared | Receiver::Exclusive | Receiver::Handle | Receiver::Value => {
            Some(Wasm::I32)
        }
    };
    // An async export returns its task's id; the output comes from its finish export.
    let ret = if function.is_async {
        &Ty::Scalar(Scalar::U32)
    } else {
        &function.ret
    };
    signature(receiver, function.params.iter().map(|p| &p.ty), ret)
}

/// The finish export of an async export (`bridge_schema::async_finish_export`): the task
/// id, then the function's result as a sync export returns it.
pub fn async_finish_signature(function: &Function) -> Option<Signature> {
    signature(None, [Ty::Scalar(Scalar::U32)].iter(), &function.ret)
}

/// The `#closure-call` export of a Rust closure of type `callback` (returned by an export
/// or passed to JS): the closure's address, then its parameters as an export's.
pub fn closure_call_signature(callback: &Callback) -> Option<Signature> {
    signature(Some(Wasm::I32), callback.params.iter(), &callback.ret)
}

/// The `#closure-drop` export of a Rust closure: its address.
pub fn closure_drop_signature() -> Signature {
    Signature {
        params: vec![Wasm::I32],
        results: Vec::new(),
    }
}

fn signature<'a>(
    leading: Option<Wasm>,
    params: impl Iterator<Item = &'a Ty>,
    ret: &Ty,
) -> Option<Signature> {
    let mut sig = Signature {
        params: leading.into_iter().collect(),
        results: values(parts(ret, Site::ExportResult)?).collect(),
    };
    for ty in params {
        sig.params.extend(values(parts(ty, Site::ExportParam)?));
    }
    Some(sig)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FunctionKind, Param};

    #[test]
    fn a_thunk_traps_at_its_first_borrow_only_where_it_owns_nothing() {
        use TrappingBorrow::Param as At;
        let class = || Ty::ClassRef("c::C".into());
        let class_mut = || Ty::ClassMut("c::C".into());
        let n = || Ty::Scalar(Scalar::U32);
        let traps = |receiver, params: &[Ty]| trapping_borrow(receiver, false, params);
        // Receivers: borrowed, with nothing owned after them.
        for r in [Receiver::Shared, Receiver::Exclusive] {
            assert_eq!(traps(r, &[]), Some(TrappingBorrow::Receiver));
            assert_eq!(traps(r, &[n(), class()]), Some(TrappingBorrow::Receiver));
            assert_eq!(traps(r, &[Ty::String]), None, "a String is owned first");
            assert_eq!(
                trapping_borrow(r, true, &[]),
                Some(TrappingBorrow::Receiver)
            );
        }
        for r in [Receiver::Handle, Receiver::Value] {
            assert_eq!(traps(r, &[class()]), None, "a Handle or a take is owned");
        }
        // No receiver: the first class borrowed outright, after scalars too.
        assert_eq!(traps(Receiver::None, &[class_mut()]), Some(At(0)));
        assert_eq!(
            traps(Receiver::None, &[n(), n(), class(), class_mut()]),
            Some(At(2))
        );
        assert_eq!(traps(Receiver::None, &[n()]), None, "nothing borrowed");
        for owned in [
            Ty::String,
            Ty::Str,
            Ty::JsValueRef,
            Ty::Option(Box::new(class())),
            Ty::ByValue("c::C".into()),
            Ty::Vec(Box::new(n())),
        ] {
            assert_eq!(
                traps(Receiver::None, &[class(), owned.clone()]),
                None,
                "{owned:?}"
            );
            assert_eq!(
                traps(Receiver::None, &[owned.clone(), class()]),
                None,
                "{owned:?}"
            );
        }
    }

    fn boxed(ty: Ty) -> Box<Ty> {
        Box::new(ty)
    }

    fn wasm_of(ty: &Ty, site: Site) -> Vec<(Role, Wasm)> {
        parts(ty, site)
            .unwrap_or_else(|| panic!("{ty:?} crosses at {site:?}"))
            .into_iter()
            .map(|p| (p.role, p.wasm))
            .collect()
    }

    #[test]
    fn flat_records_are_scalars_up_to_the_slots() {
        let all: Vec<Ty> = Scalar::ALL.iter().map(|s| s.ty()).collect();
        let abis = flat_record(&all).expect("every scalar is flat");
        assert_eq!(abis, Scalar::ALL.map(Scalar::abi));
        assert_eq!(flat_record(&[]), Some(Vec::new()));
        // Anything else, anywhere, keeps the record on the wire.
        assert_eq!(flat_record(&[Ty::Scalar(Scalar::F64), Ty::String]), None);
        assert_eq!(
            flat_record(&[Ty::I128]),
            None,
            "two halves are not one slot"
        );
        assert_eq!(
            flat_record(&[Ty::Option(boxed(Ty::Scalar(Scalar::F64)))]),
            None
        );
        assert_eq!(flat_record(&[Ty::Named("a::Point".into())]), None);
        let slots = crate::abi::flat_area::SLOTS as usize;
        assert!(flat_record(&vec![Ty::Scalar(Scalar::F64); slots]).is_some());
        assert_eq!(flat_record(&vec![Ty::Scalar(Scalar::F64); slots + 1]), None);
        // A tuple is flat as a record of its elements would be (and never too long).
        let pair = Ty::Tuple(vec![Ty::Scalar(Scalar::U32), Ty::Scalar(Scalar::F64)]);
        assert_eq!(flat_tuple(&pair), Some(vec![Abi::U32, Abi::F64]));
        assert_eq!(
            flat_tuple(&Ty::Tuple(vec![Ty::Scalar(Scalar::U32), Ty::String])),
            None
        );
        assert_eq!(flat_tuple(&Ty::Tuple(vec![pair.clone()])), None, "nested");
        assert_eq!(flat_tuple(&Ty::Option(boxed(pair))), None);
        assert_eq!(flat_tuple(&Ty::Scalar(Scalar::F64)), None);
        assert!(crate::MAX_TUPLE <= slots);
        // Every slot holds the widest wasm value.
        for s in Scalar::ALL {
            assert!(s.abi().size() <= crate::abi::flat_area::SLOT_SIZE, "{s:?}");
        }
    }

    #[test]
    fn every_scalar_is_its_own_type_and_one_value() {
        for s in Scalar::ALL {
            assert_eq!(Scalar::of(&s.ty()), Some(s));
            assert_eq!(s.ty().is_number(), s.is_number(), "{s:?}");
            assert_eq!(s.is_number(), s.typed_array().is_some(), "{s:?}");
            // The wasm type holds the abi type; the wire holds the Rust value.
            assert!(s.abi().size() >= s.wire_size(), "{s:?}");
            for site in [
                Site::ExportParam,
                Site::ExportResult,
                Site::JsArg,
                Site::JsResult,
            ] {
                assert_eq!(wasm_of(&s.ty(), site), [(Role::Value, s.wasm())]);
            }
        }
        for other in [
            Ty::String,
            Ty::Str,
            Ty::Unit,
            Ty::JsValue,
            Ty::Named("a::C".into()),
        ] {
            assert!(
                Scalar::of(&other).is_none() && !other.is_number(),
                "{other:?}"
            );
        }
        assert_eq!(Scalar::U8.wasm(), Wasm::I32);
        assert_eq!(Scalar::U64.abi(), Abi::U64);
        assert_eq!(Scalar::U64.wasm(), Wasm::I64);
        assert_eq!(Scalar::Char.wire_size(), 4);
        assert_eq!(Scalar::Usize.typed_array(), None);
        assert_eq!(Scalar::I16.range(), Some(("-32768", "32767")));
        assert_eq!(Scalar::I64.ts(), "bigint");
    }

    #[test]
    fn strings_bring_their_capacity_into_exports_only() {
        use Role::*;
        assert_eq!(
            wasm_of(&Ty::Str, Site::ExportParam),
            [(Ptr, Wasm::I32), (Len, Wasm::I32), (Cap, Wasm::I32)]
        );
        assert_eq!(
            wasm_of(&Ty::Str, Site::JsArg),
            [(Ptr, Wasm::I32), (Len, Wasm::I32)]
        );
        assert_eq!(wasm_of(&Ty::String, Site::ExportResult), []);
        assert_eq!(parts(&Ty::Str, Site::ExportResult), None);
        let opt = Ty::Option(boxed(Ty::String));
        assert_eq!(wasm_of(&opt, Site::ExportParam).len(), 3);
        assert_eq!(wasm_of(&opt, Site::JsResult), []);
    }

    #[test]
    fn options_pass_a_flag_and_return_only_their_value() {
        use Role::*;
        let opt = Ty::Option(boxed(Ty::Scalar(Scalar::F64)));
        assert_eq!(
            wasm_of(&opt, Site::ExportParam),
            [(IsSome, Wasm::I32), (Value, Wasm::F64)]
        );
        assert_eq!(wasm_of(&opt, Site::ExportResult), [(Value, Wasm::F64)]);
        let class = Ty::Option(boxed(Ty::ClassRef("a::C".into())));
        assert_eq!(wasm_of(&class, Site::ExportParam).len(), 2);
        let exclusive = Ty::Option(boxed(Ty::ClassMut("a::C".into())));
        assert_eq!(wasm_of(&exclusive, Site::ExportParam).len(), 2);
        assert_eq!(parts(&Ty::Option(boxed(Ty::Unit)), Site::ExportParam), None);
    }

    #[test]
    fn vectors_are_buffers_for_exports_and_wire_values_into_js() {
        use Role::*;
        let v = Ty::Vec(boxed(Ty::Scalar(Scalar::U8)));
        assert_eq!(
            wasm_of(&v, Site::ExportParam),
            [(Ptr, Wasm::I32), (Len, Wasm::I32)]
        );
        assert_eq!(wasm_of(&v, Site::ExportResult), []);
        assert_eq!(wasm_of(&v, Site::JsArg), [(WireOffset, Wasm::I32)]);
        let strings = Ty::Vec(boxed(Ty::String));
        assert_eq!(
            wasm_of(&strings, Site::ExportParam),
            [(WireOffset, Wasm::I32)]
        );
        assert_eq!(wasm_of(&strings, Site::ExportResult), []);
        assert!(on_wire(&Ty::Option(boxed(Ty::JsValue)), Site::JsArg));
        assert!(!on_wire(
            &Ty::Option(boxed(Ty::Named("a::R".into()))),
            Site::JsArg
        ));
    }

    #[test]
    fn wide_integers_are_wire_values_at_every_site() {
        use Role::*;
        for ty in [Ty::I128, Ty::U128] {
            assert_eq!(Scalar::of(&ty), None, "two halves are not one wasm value");
            for site in [Site::ExportParam, Site::JsArg, Site::JsResult] {
                assert_eq!(wasm_of(&ty, site), [(WireOffset, Wasm::I32)], "{site:?}");
                let opt = Ty::Option(boxed(ty.clone()));
                assert_eq!(wasm_of(&opt, site), [(WireOffset, Wasm::I32)], "{site:?}");
            }
            assert_eq!(wasm_of(&ty, Site::ExportResult), []);
            assert!(Ty::Vec(boxed(ty.clone())).travels_on_wire() && !ty.is_number());
        }
    }

    #[test]
    fn tuples_are_wire_values_at_every_site() {
        use Role::*;
        let pair = Ty::Tuple(vec![Ty::Scalar(Scalar::U32), Ty::Named("a::C".into())]);
        for site in [Site::ExportParam, Site::JsArg, Site::JsResult] {
            assert_eq!(wasm_of(&pair, site), [(WireOffset, Wasm::I32)], "{site:?}");
            let opt = Ty::Option(boxed(pair.clone()));
            assert_eq!(wasm_of(&opt, site), [(WireOffset, Wasm::I32)], "{site:?}");
        }
        assert_eq!(wasm_of(&pair, Site::ExportResult), []);
        assert!(Ty::Vec(boxed(pair.clone())).travels_on_wire());
        assert_eq!(pair.type_ids(), ["a::C"]);
        let map = Ty::Map(boxed(Ty::Named("a::E".into())), boxed(pair));
        let set = Ty::Set(boxed(Ty::String));
        for site in [Site::ExportParam, Site::JsArg, Site::JsResult] {
            assert_eq!(wasm_of(&map, site), [(WireOffset, Wasm::I32)], "{site:?}");
            assert_eq!(wasm_of(&set, site), [(WireOffset, Wasm::I32)], "{site:?}");
        }
        assert!(Ty::Option(boxed(set)).travels_on_wire());
        assert_eq!(map.type_ids(), ["a::E", "a::C"]);
    }

    #[test]
    fn an_export_signature_is_its_receiver_params_and_result() {
        let f = Function {
            is_async: false,
            refuses_released: false,
            as_written: None,
            js_this: false,
            kind: FunctionKind::Method,
            js_name: "f".into(),
            rust_name: "f".into(),
            symbol: "a::C::f".into(),
            receiver: Receiver::Exclusive,
            params: vec![
                Param {
                    name: "s".into(),
                    ty: Ty::Str,
                },
                Param {
                    name: "n".into(),
                    ty: Ty::Option(boxed(Ty::Scalar(Scalar::I64))),
                },
            ],
            ret: Ty::Result(boxed(Ty::Scalar(Scalar::F32)), String::new()),
            doc: String::new(),
            field: false,
        };
        let sig = export_signature(&f).unwrap();
        assert_eq!(sig.to_string(), "(i32, i32, i32, i32, i32, i64) -> (f32)");
        let cb = Callback {
            params: vec![Ty::Scalar(Scalar::Bool)],
            ret: boxed(Ty::Unit),
            catch: false,
            names: Vec::new(),
            hold: crate::Hold::Owned,
        };
        assert_eq!(
            closure_call_signature(&cb).unwrap().to_string(),
            "(i32, i32) -> ()"
        );
        let bad = Function {
            params: vec![Param {
                name: "u".into(),
                ty: Ty::Unit,
            }],
            ..f
        };
        assert_eq!(export_signature(&bad), None);
    }
}
