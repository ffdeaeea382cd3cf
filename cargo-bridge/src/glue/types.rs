//! How each boundary type is marshalled in JS: a `kind` the templates switch on, plus
//! its TypeScript spelling (printed by `ts.rs`) and, for vectors, the typed array that
//! holds it (`numbers.rs`).
//!
//! `Kind` is a `Base` (one `Scalar(Scalar)` arm for every scalar of the lowering table),
//! alone or as an `Option`'s value, serialized as the tag the templates switch on (every
//! switch ends in `fail(...)`). Questions about a kind (`optional`, `on_wire`, `is_vec`,
//! `base`, `to_number`, `bigint`, `checked`, `pass`) read the base and, for a scalar, its
//! facts in the table, never a list of scalars; the view carries their answers and, placed at its site by
//! `types::at`, its wasm values from the lowering table (`wasm`: role, wasm type and, for an
//! export's parameter, the `Pass` tag), which `abi.js.j2`'s `arg` and `js/marshal.js.j2`'s
//! `wasm_params` walk in order.

use super::flat;
use super::numbers::{self, NumberView, ScalarView};
use super::ts;
use super::type_names::TypeNames;
use super::wire;
use bridge_schema::Ty;
use bridge_schema::lowering::{self, JsType, Role, Scalar, Site, Wasm};
use serde::Serialize;

/// How a boundary type is marshalled: a [`Base`], alone or as an `Option`'s value. It is
/// serialized as the tag the templates switch on (`templates/abi.js.j2` for exports,
/// `templates/js/marshal.js.j2` for calls into JS): the base's tag (a scalar's is its Rust
/// name, `u32`; the others' their snake_case name, `js_value`), `opt_` before it in an
/// `Option` (`opt_u32`). Every template switch ends in an error for a tag it does not
/// handle, so a kind added here without its template code fails the build with a message
/// instead of emitting broken JS (tests in `glue/mod.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kind {
    pub base: Base,
    /// An `Option` of `base` (only for the bases [`Kind::optional`] allows).
    pub option: bool,
}

/// What a [`Kind`] marshals (an `Option`'s value, for an optional kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    /// `()` (results only).
    Unit,
    /// One of the lowering table's scalars: what the glue does with it are its facts.
    Scalar(Scalar),
    /// `String` and `&str`.
    String,
    /// A fieldless enum (its variant index).
    Enum,
    /// A class by value, `&C` or `&mut C` (its address).
    Class,
    JsValue,
    /// `&JsValue` (parameters only).
    JsValueRef,
    /// A JS function (parameters) or a Rust closure (results); in an `Option`,
    /// `null`/`undefined` is `None` (its one value is 0).
    Callback,
    /// `Vec` of numbers (a typed array).
    NumVec,
    /// `Vec` of classes (an address array).
    ClassVec,
    /// Compound values on the wire (`wire.js.j2`).
    Wire,
    /// A record or tagged enum, on the wire.
    Data,
    DataVec,
    /// `&[T]` of numbers returned borrowed (results only): a typed array over wasm
    /// memory (debug glue: a checked view, `runtime.js.j2`'s `$takeView`).
    View,
    /// `&mut [T]` of numbers (parameters only): copied in, copied back after the call.
    MutSlice,
}

impl Base {
    /// The bases that are not scalars ([`Kind::all`] adds one per scalar).
    const OTHERS: [Base; 14] = [
        Base::Unit,
        Base::String,
        Base::Enum,
        Base::Class,
        Base::JsValue,
        Base::JsValueRef,
        Base::Callback,
        Base::NumVec,
        Base::ClassVec,
        Base::Wire,
        Base::Data,
        Base::DataVec,
        Base::View,
        Base::MutSlice,
    ];

    /// Its tag in the templates (`u32`, `js_value`).
    pub fn tag(self) -> &'static str {
        match self {
            Base::Scalar(s) => s.rust(),
            Base::Unit => "unit",
            Base::String => "string",
            Base::Enum => "enum",
            Base::Class => "class",
            Base::JsValue => "js_value",
            Base::JsValueRef => "js_value_ref",
            Base::Callback => "callback",
            Base::NumVec => "num_vec",
            Base::ClassVec => "class_vec",
            Base::Wire => "wire",
            Base::Data => "data",
            Base::DataVec => "data_vec",
            Base::View => "view",
            Base::MutSlice => "mut_slice",
        }
    }

    /// Whether an `Option` of it is a kind: a value that does not travel on the wire
    /// (`Ty::travels_on_wire` sends the others): scalars, strings, fieldless enums,
    /// classes, data and functions. Not `()`, a vector, a `&JsValue` (the macro and the
    /// post-process check refuse them) nor a `JsValue` (its `Option` is on the wire).
    fn optional(self) -> bool {
        match self {
            Base::Scalar(_)
            | Base::String
            | Base::Enum
            | Base::Class
            | Base::Data
            | Base::Callback => true,
            Base::Unit
            | Base::JsValue
            | Base::JsValueRef
            | Base::NumVec
            | Base::ClassVec
            | Base::Wire
            | Base::DataVec
            | Base::View
            | Base::MutSlice => false,
        }
    }

    /// The scalar it is, if it is one.
    fn scalar(self) -> Option<Scalar> {
        match self {
            Base::Scalar(s) => Some(s),
            _ => None,
        }
    }
}

impl Serialize for Kind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.tag())
    }
}

impl Kind {
    /// A kind that is not an `Option`.
    pub const fn of(base: Base) -> Kind {
        Kind {
            base,
            option: false,
        }
    }

    /// An `Option` of `base` (one [`Kind::optional`] allows).
    pub const fn opt(base: Base) -> Kind {
        Kind { base, option: true }
    }

    /// The kind of a scalar.
    pub const fn scalar(s: Scalar) -> Kind {
        Kind::of(Base::Scalar(s))
    }

    /// Its tag in the templates (`u32`, `opt_u32`).
    pub fn tag(self) -> String {
        let prefix = if self.option { "opt_" } else { "" };
        format!("{prefix}{}", self.base.tag())
    }

    /// Every kind: the templates' `kinds` (a switch that has nothing to do for a kind
    /// checks it is one of them), and the tests render each through the templates.
    pub fn all() -> Vec<Kind> {
        let bases = Base::OTHERS
            .into_iter()
            .chain(Scalar::ALL.into_iter().map(Base::Scalar));
        bases
            .flat_map(|base| [Some(Kind::of(base)), Kind::of(base).optional()])
            .flatten()
            .collect()
    }

    /// The kind of `Option<T>` for a `T` of this kind ([`Base::optional`]); None for what
    /// cannot be optional, and for an `Option` already.
    pub fn optional(self) -> Option<Kind> {
        (!self.option && self.base.optional()).then_some(Kind {
            option: true,
            ..self
        })
    }

    /// Whether a value of this kind is written on the wire (a parameter of it opens a
    /// wire session: its in-buffer offset is passed).
    pub fn on_wire(self) -> bool {
        matches!(self.base, Base::Wire | Base::Data | Base::DataVec)
    }

    /// Whether this is a vector that an export passes outside the wire (a typed array,
    /// an address array, records on the wire as a whole); a call into JS sends every
    /// vector on the wire.
    pub fn is_vec(self) -> bool {
        matches!(self.base, Base::NumVec | Base::ClassVec | Base::DataVec)
    }

    /// The kind an `Option`'s value has (`opt_u32` → `u32`); other kinds are their own.
    pub fn base(self) -> Kind {
        Kind::of(self.base)
    }

    /// An `Option` (of [`Kind::base`]).
    pub fn is_option(self) -> bool {
        self.option
    }

    /// A JS number the glue converts with ToNumber (`+x`) and wasm takes as it is (the
    /// checked scalars `usize`/`isize` convert in `data.js.j2` instead); in an `Option` too.
    pub fn to_number(self) -> bool {
        self.base
            .scalar()
            .is_some_and(|s| s.js() == JsType::Number && !s.checked())
    }

    /// A BigInt (`i64`, `u64`); in an `Option` too.
    pub fn bigint(self) -> bool {
        self.base.scalar().is_some_and(|s| s.js() == JsType::BigInt)
    }

    /// A checked scalar (`Scalar::checked`): `data.js.j2`'s `$data$<base>` converts and
    /// checks it (`usize`, `isize`, `char`); in an `Option` too.
    pub fn checked(self) -> bool {
        self.base.scalar().is_some_and(Scalar::checked)
    }

    /// A parameter whose buffer JS copies back into the caller's array after the call
    /// (and then frees): `&mut [T]`.
    pub fn writes_back(self) -> bool {
        self.base == Base::MutSlice
    }

    /// What an export call passes (`abi.js.j2`'s `arg`) for the wasm value of role `role`
    /// of a parameter of this kind; `None` for a role the kind has no value of.
    pub fn pass(self, role: Role) -> Option<Pass> {
        // The one value of the kind (an `Option`'s after its flag).
        let value = match (self.base, self.option) {
            (Base::Scalar(s), _) if s.js() == JsType::Boolean => Some(Pass::Bool),
            (Base::Scalar(_) | Base::Enum, false) => Some(Pass::Name),
            (Base::Scalar(s), true) if s.js() == JsType::BigInt => Some(Pass::OrZeroBig),
            (Base::Scalar(_) | Base::Enum, true) => Some(Pass::OrZero),
            (Base::Class, _) => Some(Pass::Addr),
            (Base::JsValue | Base::JsValueRef | Base::Callback, false) => Some(Pass::Heap),
            (Base::Callback, true) => Some(Pass::HeapOrZero),
            (Base::Wire | Base::Data, _) => Some(Pass::At),
            (Base::JsValue | Base::JsValueRef, true)
            | (
                Base::Unit
                | Base::String
                | Base::NumVec
                | Base::ClassVec
                | Base::DataVec
                | Base::View
                | Base::MutSlice,
                _,
            ) => None,
        };
        // Records in a vector are on the wire as a whole: its offset is the buffer's
        // address, and there is no length.
        let wire = self.on_wire();
        Some(match role {
            Role::Value => value?,
            Role::IsSome => Pass::IsSome,
            Role::Ptr if wire => Pass::At,
            Role::Ptr => Pass::Ptr,
            Role::Len if wire => Pass::Zero,
            Role::Len => Pass::Len,
            Role::Cap => Pass::Cap,
            Role::WireOffset => Pass::At,
        })
    }
}

/// What an export call passes for one wasm value of its parameter `x` (the tag of
/// `abi.js.j2`'s `arg`): `x`, `x ? 1 : 0`, `x == null ? 0 : 1`, `x ?? 0`, `x ?? 0n`,
/// `x$ptr`, `x$len`, `x$cap`, `x$addr`, `$addHeap(x)`, `<type>$in(x)`, `<type>$lend(x)`, `x$at`, `0`.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Pass {
    Name,
    Bool,
    IsSome,
    OrZero,
    OrZeroBig,
    Ptr,
    Len,
    Cap,
    Addr,
    Heap,
    /// `null`/`undefined` as 0, else the value's new table entry.
    HeapOrZero,
    /// A wasm-bindgen type's word (`<type>$in`: a struct's pointer, a numeric enum's
    /// number, else a table entry; bridge-runtime's `js/wbg_types.rs` reads it).
    Wbg,
    /// `null`/`undefined` as 0, else [`Pass::Wbg`].
    WbgOrZero,
    /// A wasm-bindgen struct lent to the call (`&T`, `&mut T`): `<type>$lend(x)`, its
    /// pointer, which JS keeps.
    WbgLend,
    /// `null`/`undefined` as 0, else [`Pass::WbgLend`] (`Option<&T>`, `Option<&mut T>`).
    WbgLendOrZero,
    At,
    Zero,
}

/// One wasm value a boundary type crosses as at its site (from the lowering table,
/// `bridge_schema::lowering::parts`), in the order the wasm function takes them.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct PartView {
    pub role: Role,
    pub wasm: Wasm,
    /// What the glue passes for it, for a parameter of an export.
    pub pass: Option<Pass>,
}

#[derive(Serialize, Debug, Clone)]
pub struct TyView {
    /// Marshalling kind.
    pub kind: Kind,
    /// The glue name of the class carried, for class kinds (its helpers `<class>$addr`,
    /// `$lift`, `$peek`).
    pub class: Option<String>,
    /// The class is an imported JS class: its value is a `JsValue` table index (taken by
    /// Rust, `$addHeap`, where an exported class passes its address), checked with
    /// `<class>$check` (`instanceof`).
    pub js_type: bool,
    /// The imported JS type is a wasm-bindgen type: an export's parameter passes its
    /// word ([`Pass::Wbg`]).
    pub wasm_bindgen: bool,
    /// A `class_vec` result (or a returned iterator's `opt_class` item) whose class is in
    /// `rust` mode: its hits are read from the class's wrapper table
    /// (`$takeCachedClassArray`, `$cachedWrapper`). Set by the glue model, which knows
    /// the modes.
    pub cached_wrappers: bool,
    /// Typed array constructor for number vectors.
    pub array: Option<&'static str>,
    /// TypeScript type.
    pub ts: String,
    /// The wire codec (`templates/wire.js.j2`) of the `wire`, `data`, `opt_data` and
    /// `data_vec` kinds.
    pub codec: Option<String>,
    /// An export's result that is a record of scalars (alone or a `Result`'s `Ok`): read
    /// from the flat area with its codec's `$flat$read_<codec>` (`templates/flat.js.j2`),
    /// where the macro's `IntoJs::into_ret` wrote it. Set by [`export_result`].
    pub flat: bool,
    /// An export's parameter that is a record of scalars passed through the flat area
    /// (`templates/flat_params.js.j2`; the macro's `FromJs::from_param` reads it there);
    /// it is then not `on_wire`. Set by [`export_param`].
    pub flat_param: Option<FlatParamView>,
    /// The JS name of the fieldless enum of the `enum` and `opt_enum` kinds.
    #[serde(rename = "enum")]
    pub enum_name: Option<String>,
    /// A `Result` return: `Err` throws.
    pub throws: bool,
    /// The codec of a `Result`'s error type when it is a record or enum (the thrown
    /// `Error`'s `data`), and its TypeScript type.
    pub error_codec: Option<String>,
    pub error_ts: Option<String>,
    /// The Rust number type of a scalar number kind (also inside `Option`) or of a number
    /// vector's elements, for the debug glue's argument checks (`templates/debug/args.js.j2`).
    pub number: Option<NumberView>,
    /// A scalar kind's facts (also inside `Option`): how JS makes its value of the wasm
    /// number (`abi.js.j2`'s `lift_value`).
    pub scalar: Option<ScalarView>,
    /// The wasm values it crosses as where it is viewed (an export's parameter or result,
    /// a call into JS's argument or result): the lowering table's parts. Empty until
    /// [`at`] places it; a result in the return area has none.
    pub wasm: Vec<PartView>,
    /// An export's parameter that gets a buffer in wasm memory (`x$ptr`, `x$len`), and
    /// one that brings its capacity (`x$cap`).
    pub buffer: bool,
    pub cap: bool,
    /// The kind's answers (exhaustive `Kind` methods), for the templates: no template
    /// lists kinds or slices their names.
    pub base: Kind,
    pub option: bool,
    pub on_wire: bool,
    pub to_number: bool,
    pub bigint: bool,
    pub checked: bool,
    pub write_back: bool,
    /// JS reads the wasm value as signed and must reread it as unsigned (`u32`, `usize`,
    /// `u64`, also inside `Option`): from the lowering table.
    pub unsigned: bool,
}

fn number_view(ty: &Ty) -> Option<NumberView> {
    numbers::of(ty).map(|n| n.view)
}

/// How `ty` crosses between JS and an export, without its wasm values ([`at`] adds
/// them).
pub fn view(ty: &Ty, names: &TypeNames) -> TyView {
    with_kind(TyView {
        ts: ts::of(ty, names),
        ..parts(ty, names)
    })
}

/// `view` with the answers about its kind (again, after its kind changed).
pub fn with_kind(view: TyView) -> TyView {
    let kind = view.kind;
    TyView {
        base: kind.base(),
        option: kind.is_option(),
        on_wire: kind.on_wire(),
        to_number: kind.to_number(),
        bigint: kind.bigint(),
        checked: kind.checked(),
        write_back: kind.writes_back(),
        ..view
    }
}

/// `view` (as its site takes it: a call into JS views some types otherwise) with the wasm
/// values it crosses as at `site`, from the lowering table.
pub fn at(mut view: TyView, ty: &Ty, site: Site) -> TyView {
    let parts = lowering::parts(ty, site).unwrap_or_default();
    let export_param = site == Site::ExportParam;
    view.wasm = parts
        .into_iter()
        .map(|p| PartView {
            role: p.role,
            wasm: p.wasm,
            pass: if export_param {
                // An imported JS class's value is a table entry Rust takes.
                match view.kind.pass(p.role) {
                    Some(Pass::Addr) if lent_struct(ty) && view.option => Some(Pass::WbgLendOrZero),
                    Some(Pass::Addr) if lent_struct(ty) => Some(Pass::WbgLend),
                    // `&T` of any other wasm-bindgen type crosses as by value (Rust converts
                    // it and lends its own value: bridge-runtime's `WbgLent`).
                    Some(Pass::Addr) if view.wasm_bindgen && view.option => Some(Pass::WbgOrZero),
                    Some(Pass::Addr) if view.wasm_bindgen => Some(Pass::Wbg),
                    Some(Pass::Addr) if view.js_type => Some(Pass::Heap),
                    pass => pass,
                }
            } else {
                None
            },
        })
        .collect();
    let passes = |pass| view.wasm.iter().any(|p| p.pass == Some(pass));
    view.buffer = passes(Pass::Ptr);
    view.cap = passes(Pass::Cap);
    view.unsigned = scalar_of(ty).is_some_and(Scalar::unsigned_wasm);
    view
}

/// `&T`/`&mut T` of a `#[wasm_bindgen]` struct, also in an `Option`: its pointer is lent,
/// JS keeps the object.
fn lent_struct(ty: &Ty) -> bool {
    match ty {
        Ty::ClassRef(id) | Ty::ClassMut(id) => bridge_schema::wasm_bindgen_type(id)
            .is_some_and(|t| t.kind == bridge_schema::WasmBindgenKind::Class),
        Ty::Option(inner) => lent_struct(inner),
        _ => false,
    }
}

/// An export's result: its view at [`Site::ExportResult`], read from the flat area when
/// it is a record or tuple of scalars (`TypeNames::flat`; the macro lowers the same
/// records with `into_ret` and tuples with `FlatTuple::put`, which write them there).
pub fn export_result(ty: &Ty, names: &TypeNames) -> TyView {
    let mut view = at(view(ty, names), ty, Site::ExportResult);
    let value = match ty {
        Ty::Result(ok, _) => &**ok,
        other => other,
    };
    view.flat = flat_kind(view.kind) && names.flat(value).is_some();
    view
}

/// The kinds a flat value is otherwise: a record's (`data`) or a tuple's (`wire`).
fn flat_kind(kind: Kind) -> bool {
    kind == Kind::of(Base::Data) || kind == Kind::of(Base::Wire)
}

/// A record or tuple of scalars an export takes through the flat area.
#[derive(Serialize, Debug, Clone)]
pub struct FlatParamView {
    /// The record's or tuple's name in messages (as its wire codec's).
    pub ts: String,
    /// What the call passes: `flat_area::TAG` and the first slot, as the `i32` wasm sees.
    pub arg: i32,
    /// A tuple: a JS array of `fields.len()` elements (checked as the wire's writer
    /// checks it), its elements' paths `[i]`; else a record's object, paths `.name`.
    pub tuple: bool,
    /// Its fields in declaration order, each at its slot (from the first one).
    pub fields: Vec<FlatFieldView>,
}

#[derive(Serialize, Debug, Clone)]
pub struct FlatFieldView {
    /// Its property (a tuple's element: the index).
    pub name: String,
    /// How messages name it and the glue reads it: `.name` or `[i]`.
    pub step: String,
    /// The wire's leaf of its type: the checks and messages of the wire's writers.
    pub leaf: wire::LeafView,
    /// The view of the flat area it is written through, and its element there.
    pub view: &'static str,
    pub index: u32,
}

/// An export's parameter: its view at [`Site::ExportParam`], passed through the flat
/// area when it is a record or tuple of scalars (`TypeNames::flat`) and its fields fit in
/// the slots from `*used` on (the call's earlier flat parameters took those before);
/// otherwise it stays on the wire, which the macro's `from_param` (a tuple: the thunk)
/// tells by the tag.
pub fn export_param(ty: &Ty, names: &TypeNames, used: &mut u32) -> TyView {
    let mut view = at(view(ty, names), ty, Site::ExportParam);
    let Some((fields, abis)) = names.flat(ty).filter(|_| flat_kind(view.kind)) else {
        return view;
    };
    let first = *used;
    if first + abis.len() as u32 > bridge_schema::abi::flat_area::SLOTS {
        return view;
    }
    *used += abis.len() as u32;
    let tuple = matches!(ty, Ty::Tuple(_));
    let fields = flat::slots(&fields, &abis)
        .into_iter()
        .zip(&fields)
        .map(|(slot, field)| FlatFieldView {
            index: slot.index + first * slot.per_slot,
            view: slot.view,
            step: if tuple {
                format!("[{}]", slot.name)
            } else {
                format!(".{}", slot.name)
            },
            name: slot.name,
            leaf: wire::leaf(&field.ty, names),
        })
        .collect();
    view.flat_param = Some(FlatParamView {
        ts: ts::wire(ty, names),
        arg: (bridge_schema::abi::flat_area::TAG | first) as i32,
        tuple,
        fields,
    });
    view.on_wire = false;
    view
}

/// The scalar `ty` carries as its value: itself, an `Option`'s, a `Result`'s.
fn scalar_of(ty: &Ty) -> Option<Scalar> {
    match ty {
        Ty::Option(inner) | Ty::Result(inner, _) => scalar_of(inner),
        other => Scalar::of(other),
    }
}

/// A view of `kind` with nothing else set: `parts` fills in what its type needs.
fn simple(kind: Kind) -> TyView {
    TyView {
        kind,
        class: None,
        js_type: false,
        wasm_bindgen: false,
        cached_wrappers: false,
        array: None,
        // Set by `view`.
        ts: String::new(),
        codec: None,
        flat: false,
        flat_param: None,
        enum_name: None,
        throws: false,
        error_codec: None,
        error_ts: None,
        number: None,
        scalar: None,
        wasm: Vec::new(),
        buffer: false,
        cap: false,
        // Set by `with_kind` and `at`.
        base: kind,
        option: false,
        on_wire: false,
        to_number: false,
        bigint: false,
        checked: false,
        write_back: false,
        unsigned: false,
    }
}

/// [`simple`] for a type that travels through its codec.
fn coded(ty: &Ty, names: &TypeNames, kind: Kind) -> TyView {
    TyView {
        codec: Some(wire::codec_name(ty, names)),
        ..simple(kind)
    }
}

/// The type id `ty` names, if it is `Ty::Named`.
fn named(ty: &Ty) -> Option<String> {
    match ty {
        Ty::Named(id) => Some(id.clone()),
        _ => None,
    }
}

/// [`view`] but its TypeScript type.
fn parts(ty: &Ty, names: &TypeNames) -> TyView {
    if ty.travels_on_wire() {
        return coded(ty, names, Kind::of(Base::Wire));
    }
    match ty {
        Ty::Result(ok, err) => TyView {
            throws: true,
            error_codec: (!err.is_empty())
                .then(|| wire::codec_name(&Ty::Named(err.clone()), names)),
            error_ts: (!err.is_empty()).then(|| ts::data_ref(&names.js_name(err))),
            ..view(ok, names)
        },
        Ty::Named(id) if names.is_fieldless_enum(id) => TyView {
            enum_name: Some(names.js_name(id)),
            ..simple(Kind::of(Base::Enum))
        },
        Ty::Named(id) if names.is_data(id) => coded(ty, names, Kind::of(Base::Data)),
        Ty::Tuple(_) | Ty::Map(..) | Ty::Set(_) | Ty::I128 | Ty::U128 => {
            unreachable!("tuples, maps, sets and 128-bit integers travel on the wire (above)")
        }
        Ty::Option(inner) => option_parts(inner, names),
        Ty::Vec(inner) => vec_parts(ty, inner, names),
        Ty::Unit => simple(Kind::of(Base::Unit)),
        Ty::String | Ty::Str => simple(Kind::of(Base::String)),
        Ty::Named(id) | Ty::ClassRef(id) | Ty::ClassMut(id) | Ty::ByValue(id) => TyView {
            class: Some(names.glue_name(id)),
            js_type: names.is_js_type(id),
            wasm_bindgen: bridge_schema::wasm_bindgen_type(id).is_some(),
            ..simple(Kind::of(Base::Class))
        },
        Ty::JsValue => simple(Kind::of(Base::JsValue)),
        Ty::JsValueRef => simple(Kind::of(Base::JsValueRef)),
        // A Rust closure's address: a returned iterator is made from it (`FnView::closure`).
        Ty::Callback(_) | Ty::Iterator(_) => simple(Kind::of(Base::Callback)),
        Ty::View(inner) | Ty::SliceMut(inner) => {
            let n = numbers::of(inner).expect("views and mutable slices hold numbers");
            TyView {
                array: Some(n.array),
                number: Some(n.view),
                ..simple(if matches!(ty, Ty::View(_)) {
                    Kind::of(Base::View)
                } else {
                    Kind::of(Base::MutSlice)
                })
            }
        }
        // The debug glue checks a number's range.
        Ty::Scalar(scalar) => TyView {
            number: number_view(ty),
            scalar: Some(numbers::scalar_view(*scalar)),
            ..simple(Kind::scalar(*scalar))
        },
    }
}

/// [`parts`] of `Option<inner>` (one not on the wire).
fn option_parts(inner: &Ty, names: &TypeNames) -> TyView {
    if named(inner).is_some_and(|id| names.is_fieldless_enum(&id)) {
        return TyView {
            kind: Kind::opt(Base::Enum),
            ..view(inner, names)
        };
    }
    if named(inner).is_some_and(|id| names.is_data(&id)) {
        return TyView {
            kind: Kind::opt(Base::Data),
            ..view(inner, names)
        };
    }
    let inner = view(inner, names);
    TyView {
        kind: inner.kind.optional().unwrap_or_else(|| {
            panic!(
                "an Option of {:?} reached the glue (postprocess::check refuses it)",
                inner.kind
            )
        }),
        ..inner
    }
}

/// [`parts`] of `ty`, a `Vec<inner>` (one not on the wire).
fn vec_parts(ty: &Ty, inner: &Ty, names: &TypeNames) -> TyView {
    if named(inner).is_some_and(|id| names.is_data(&id)) {
        return coded(ty, names, Kind::of(Base::DataVec));
    }
    match numbers::of(inner) {
        Some(n) => TyView {
            array: Some(n.array),
            // The element type: debug glue checks a plain array's elements.
            number: Some(n.view),
            ..simple(Kind::of(Base::NumVec))
        },
        None => TyView {
            kind: Kind::of(Base::ClassVec),
            ..view(inner, names)
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::postprocess::exports::{ClassExport, Exports};

    #[test]
    fn kinds_and_ts_types() {
        let exports = Exports {
            classes: vec![ClassExport {
                crate_name: "a".into(),
                type_id: "a::Item".into(),
                name: "JsItem".into(),
                rust_name: "Item".into(),
                identity_mode: None,
                inspectable: false,
                doc: String::new(),
                members: Vec::new(),
            }],
            ..Exports::default()
        };
        let names = TypeNames::new(&exports);
        assert_eq!(
            view(&Ty::Scalar(Scalar::U32), &names).kind,
            Kind::scalar(Scalar::U32)
        );
        assert_eq!(
            view(&Ty::Option(Box::new(Ty::Scalar(Scalar::U64))), &names).kind,
            Kind::scalar(Scalar::U64).optional().unwrap()
        );
        let v = view(&Ty::Vec(Box::new(Ty::Named("a::Item".into()))), &names);
        assert_eq!(
            (v.kind, v.ts.as_str()),
            (Kind::of(Base::ClassVec), "JsItem[]")
        );
        let v = view(&Ty::Option(Box::new(Ty::Named("a::Item".into()))), &names);
        assert_eq!(
            (v.kind, v.ts.as_str()),
            (Kind::opt(Base::Class), "JsItem | undefined")
        );
        assert_eq!(
            ts::param(&Ty::Vec(Box::new(Ty::Scalar(Scalar::F64))), &names),
            "Float64Array | number[]"
        );
    }

    #[test]
    fn parameters_carry_their_wasm_values_from_the_lowering_table() {
        let exports = crate::glue::test_support::exports();
        let names = TypeNames::new(&exports);
        let param = |ty: Ty| at(view(&ty, &names), &ty, Site::ExportParam);
        let passes = |v: &TyView| v.wasm.iter().map(|p| p.pass).collect::<Vec<_>>();
        let v = param(Ty::Option(Box::new(Ty::Scalar(Scalar::I64))));
        assert_eq!(passes(&v), [Some(Pass::IsSome), Some(Pass::OrZeroBig)]);
        assert_eq!(v.wasm[1].wasm, Wasm::I64);
        assert!(v.option && v.bigint && !v.buffer && v.base == Kind::scalar(Scalar::I64));
        let v = param(Ty::Str);
        assert_eq!(
            passes(&v),
            [Some(Pass::Ptr), Some(Pass::Len), Some(Pass::Cap)]
        );
        assert!(v.buffer && v.cap);
        let v = param(Ty::Option(Box::new(Ty::Named("a::Node".into()))));
        assert_eq!(passes(&v), [Some(Pass::IsSome), Some(Pass::Addr)]);
        let v = param(Ty::Option(Box::new(Ty::Scalar(Scalar::Usize))));
        assert!(v.checked && v.option && v.unsigned && v.base == Kind::scalar(Scalar::Usize));
        let result = |ty: Ty| at(view(&ty, &names), &ty, Site::ExportResult);
        assert!(result(Ty::String).wasm.is_empty(), "in the return area");
        let v = result(Ty::Result(Box::new(Ty::Scalar(Scalar::U32)), String::new()));
        assert_eq!((v.wasm.len(), v.wasm[0].pass, v.unsigned), (1, None, true));
    }

    #[test]
    fn number_ranges_for_the_debug_checks() {
        let exports = Exports::default();
        let names = TypeNames::new(&exports);
        let range = |ty: Ty| {
            let n = view(&ty, &names).number.expect("a number type");
            (n.rust, n.int, n.big, n.min, n.max)
        };
        assert_eq!(
            range(Ty::Scalar(Scalar::U32)),
            ("u32", true, false, "0", "4294967295")
        );
        assert_eq!(
            range(Ty::Scalar(Scalar::I8)),
            ("i8", true, false, "-128", "127")
        );
        assert_eq!(
            range(Ty::Option(Box::new(Ty::Scalar(Scalar::I16)))),
            ("i16", true, false, "-32768", "32767")
        );
        assert_eq!(
            range(Ty::Scalar(Scalar::U64)),
            ("u64", true, true, "0n", "18446744073709551615n")
        );
        assert_eq!(
            range(Ty::Scalar(Scalar::F32)),
            ("f32", false, false, "", "")
        );
        assert!(
            view(&Ty::Scalar(Scalar::Usize), &names).number.is_none(),
            "checked in both builds"
        );
        assert_eq!(
            range(Ty::Vec(Box::new(Ty::Scalar(Scalar::U8)))),
            ("u8", true, false, "0", "255"),
            "a number vector's element type"
        );
    }

    #[test]
    fn new_scalars_results_and_wire_types() {
        let exports = Exports {
            classes: vec![ClassExport {
                crate_name: "a".into(),
                type_id: "a::Node".into(),
                name: "Node".into(),
                rust_name: "Node".into(),
                identity_mode: None,
                inspectable: false,
                doc: String::new(),
                members: Vec::new(),
            }],
            ..Exports::default()
        };
        let names = TypeNames::new(&exports);
        assert_eq!(
            view(&Ty::Scalar(Scalar::Usize), &names).kind,
            Kind::scalar(Scalar::Usize)
        );
        let v = view(&Ty::Option(Box::new(Ty::Scalar(Scalar::Char))), &names);
        assert_eq!(
            (v.kind, v.ts.as_str()),
            (
                Kind::scalar(Scalar::Char).optional().unwrap(),
                "string | undefined"
            )
        );
        let v = view(
            &Ty::Result(Box::new(Ty::Scalar(Scalar::U32)), String::new()),
            &names,
        );
        assert_eq!((v.kind, v.throws), (Kind::scalar(Scalar::U32), true));
        let v = view(
            &Ty::Vec(Box::new(Ty::Option(Box::new(Ty::Named("a::Node".into()))))),
            &names,
        );
        assert_eq!(v.kind, Kind::of(Base::Wire));
        assert_eq!(v.ts, "(Node | undefined)[]");
        assert_eq!(v.codec.as_deref(), Some("Vec_Option_C$Node"));
    }
}
