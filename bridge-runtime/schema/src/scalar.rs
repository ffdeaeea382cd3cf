//! The scalar table: every Rust type that crosses as one wasm value, and its facts. A
//! leaf of the schema (imports nothing of it), re-exported by [`crate::lowering`], which
//! adds how a [`crate::Ty`] is one ([`Scalar::of`]).

/// A wasm value type (the MVP's numbers: everything the boundary passes is one of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Wasm {
    I32,
    I64,
    F32,
    F64,
}

impl Wasm {
    /// As the text format spells it (`i32`), for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Wasm::I32 => "i32",
            Wasm::I64 => "i64",
            Wasm::F32 => "f32",
            Wasm::F64 => "f64",
        }
    }
}

/// The JS value a scalar is (what `typeof` says of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JsType {
    Boolean,
    Number,
    BigInt,
    /// A `char`: a string of one code point.
    String,
}

/// A Rust type that crosses as one wasm value (alone, or as an `Option`'s value after its
/// flag) and sits in the wire at its natural alignment. Its facts are its [`Row`]
/// ([`Scalar::row`]): the one place that knows which scalar is which.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scalar {
    Bool,
    I8,
    I16,
    I32,
    U8,
    U16,
    U32,
    F32,
    F64,
    I64,
    U64,
    /// 32 bits on wasm32; a JS number, checked against its range in every build.
    Usize,
    Isize,
    /// Its code point; a one-code-point JS string.
    Char,
}

/// How JS makes a scalar's value of the wasm value it receives (an export's result, a
/// wire or flat-area element, a call into JS's argument).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FromWasm {
    /// The number itself (reinterpreted when [`Row::unsigned_wasm`]).
    Value,
    /// A `bool`: `v !== 0`.
    NonZero,
    /// A call of this function on the number (`char`: `String.fromCodePoint`), a
    /// builtin's (the glue may call it through its captured `$` binding).
    Call(&'static str),
}

/// Everything the boundary knows about one scalar. Adding a scalar is one [`Scalar`]
/// variant and its row here; the macro, the runtime, the glue and the templates read the
/// row (ARCHITECTURE.md, "Adding a scalar"; `every_row_has_its_facts` holds each row to
/// its facts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// The Rust type's name (`u32`): how macros and messages spell it, and its tag in the
    /// glue (`data.js.j2`'s `$data$<rust>` checks).
    pub rust: &'static str,
    /// The Rust type generated code declares the wasm value as: the narrow integers widen
    /// with their sign, `bool` and `char` are `u32`.
    pub abi: Abi,
    /// Bytes it takes on the wire, which is also its alignment there (`bool` is one byte,
    /// `usize`/`isize` are 32 bits, a `char` is its code point as a `u32`).
    pub wire_size: u32,
    /// Signed on the wire (the typed array that reads it there: `i8` … `u64`).
    pub signed: bool,
    /// The JS value it is.
    pub js: JsType,
    /// The typed array a `Vec` of it is in JS; `None` for the scalars whose vectors are
    /// not numbers (`bool`, `char`) or are checked element by element (`usize`, `isize`).
    pub typed_array: Option<&'static str>,
    /// An integer's range as JS literals (`-128`, `127`; BigInt literals for
    /// `i64`/`u64`); `None` for floats, `bool` and `char`.
    pub range: Option<(&'static str, &'static str)>,
    /// JS reads the wasm value as signed, and the type's values reach past the signed
    /// range of its wasm type: the glue reinterprets what it receives (`>>> 0`,
    /// `BigInt.asUintN(64, ..)`).
    pub unsigned_wasm: bool,
    /// How JS makes its value of the wasm number.
    pub from_wasm: FromWasm,
}

// The table: each scalar's row ([`Scalar::row`] picks it, matching every variant, so a
// scalar without a row does not build).
const BOOL: Row = Row {
    rust: "bool",
    abi: Abi::U32,
    wire_size: 1,
    signed: false,
    js: JsType::Boolean,
    typed_array: None,
    range: None,
    unsigned_wasm: false,
    from_wasm: FromWasm::NonZero,
};

const I8: Row = int("i8", Abi::I32, 1, true, "Int8Array", ("-128", "127"));

const I16: Row = int("i16", Abi::I32, 2, true, "Int16Array", ("-32768", "32767"));

const I32: Row = int(
    "i32",
    Abi::I32,
    4,
    true,
    "Int32Array",
    ("-2147483648", "2147483647"),
);

const U8: Row = int("u8", Abi::U32, 1, false, "Uint8Array", ("0", "255"));

const U16: Row = int("u16", Abi::U32, 2, false, "Uint16Array", ("0", "65535"));

const U32: Row = Row {
    unsigned_wasm: true,
    ..int(
        "u32",
        Abi::U32,
        4,
        false,
        "Uint32Array",
        ("0", "4294967295"),
    )
};

const F32: Row = Row {
    range: None,
    ..int("f32", Abi::F32, 4, true, "Float32Array", ("", ""))
};

const F64: Row = Row {
    range: None,
    ..int("f64", Abi::F64, 8, true, "Float64Array", ("", ""))
};

const I64: Row = Row {
    js: JsType::BigInt,
    ..int(
        "i64",
        Abi::I64,
        8,
        true,
        "BigInt64Array",
        ("-9223372036854775808n", "9223372036854775807n"),
    )
};

const U64: Row = Row {
    js: JsType::BigInt,
    unsigned_wasm: true,
    ..int(
        "u64",
        Abi::U64,
        8,
        false,
        "BigUint64Array",
        ("0n", "18446744073709551615n"),
    )
};

const USIZE: Row = Row {
    typed_array: None,
    unsigned_wasm: true,
    ..int("usize", Abi::U32, 4, false, "", ("0", "4294967295"))
};

const ISIZE: Row = Row {
    typed_array: None,
    ..int(
        "isize",
        Abi::I32,
        4,
        true,
        "",
        ("-2147483648", "2147483647"),
    )
};

const CHAR: Row = Row {
    rust: "char",
    abi: Abi::U32,
    wire_size: 4,
    signed: false,
    js: JsType::String,
    typed_array: None,
    range: None,
    unsigned_wasm: false,
    from_wasm: FromWasm::Call("String.fromCodePoint"),
};

/// An integer's row: a JS number, read by a typed array, checked against its range.
const fn int(
    rust: &'static str,
    abi: Abi,
    wire_size: u32,
    signed: bool,
    typed_array: &'static str,
    range: (&'static str, &'static str),
) -> Row {
    Row {
        rust,
        abi,
        wire_size,
        signed,
        js: JsType::Number,
        typed_array: Some(typed_array),
        range: Some(range),
        unsigned_wasm: false,
        from_wasm: FromWasm::Value,
    }
}

impl Scalar {
    pub const ALL: [Scalar; 14] = [
        Scalar::Bool,
        Scalar::I8,
        Scalar::I16,
        Scalar::I32,
        Scalar::U8,
        Scalar::U16,
        Scalar::U32,
        Scalar::F32,
        Scalar::F64,
        Scalar::I64,
        Scalar::U64,
        Scalar::Usize,
        Scalar::Isize,
        Scalar::Char,
    ];

    /// Whether `list` holds every scalar: the runtime asserts at compile time that its
    /// impls of a scalar trait cover the table (`flat.rs`, `wire.rs`).
    pub const fn all_in(list: &[Scalar]) -> bool {
        let mut i = 0;
        while i < Scalar::ALL.len() {
            let mut j = 0;
            while j < list.len() && list[j] as u8 != Scalar::ALL[i] as u8 {
                j += 1;
            }
            if j == list.len() {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The scalar's facts: its row of the table.
    pub const fn row(self) -> Row {
        match self {
            Scalar::Bool => BOOL,
            Scalar::I8 => I8,
            Scalar::I16 => I16,
            Scalar::I32 => I32,
            Scalar::U8 => U8,
            Scalar::U16 => U16,
            Scalar::U32 => U32,
            Scalar::F32 => F32,
            Scalar::F64 => F64,
            Scalar::I64 => I64,
            Scalar::U64 => U64,
            Scalar::Usize => USIZE,
            Scalar::Isize => ISIZE,
            Scalar::Char => CHAR,
        }
    }

    /// The Rust type's name (`u32`), for messages and the debug glue's checks.
    pub const fn rust(self) -> &'static str {
        self.row().rust
    }

    /// The scalar whose Rust name is `name` (`u32`), as a macro reads a type's path.
    pub fn from_rust(name: &str) -> Option<Scalar> {
        Scalar::ALL.into_iter().find(|s| s.rust() == name)
    }

    /// The wasm value type it crosses as.
    pub const fn wasm(self) -> Wasm {
        match self.abi() {
            Abi::U32 | Abi::I32 => Wasm::I32,
            Abi::U64 | Abi::I64 => Wasm::I64,
            Abi::F32 => Wasm::F32,
            Abi::F64 => Wasm::F64,
        }
    }

    /// The Rust type generated code declares the wasm value as ([`Row::abi`]).
    pub const fn abi(self) -> Abi {
        self.row().abi
    }

    /// Bytes it takes on the wire ([`Row::wire_size`]).
    pub const fn wire_size(self) -> u32 {
        self.row().wire_size
    }

    /// The JS value it is.
    pub const fn js(self) -> JsType {
        self.row().js
    }

    /// Its TypeScript type.
    pub const fn ts(self) -> &'static str {
        match self.js() {
            JsType::Boolean => "boolean",
            JsType::Number => "number",
            JsType::BigInt => "bigint",
            JsType::String => "string",
        }
    }

    /// The typed array a `Vec` of it is in JS ([`Row::typed_array`]).
    pub const fn typed_array(self) -> Option<&'static str> {
        self.row().typed_array
    }

    /// A number type: one that crosses as a JS number or BigInt and fills a typed array.
    pub const fn is_number(self) -> bool {
        self.typed_array().is_some()
    }

    /// Converted and checked by the glue in every build, not only in debug glue (its
    /// JS values are not all valid: `usize`/`isize` out of range, a `char` of other than
    /// one code point): neither a number of a typed array nor a `bool`.
    pub const fn checked(self) -> bool {
        !self.is_number() && !matches!(self.js(), JsType::Boolean)
    }

    /// A map's key (a set's element): a JS `Map` compares its JS values as Rust compares
    /// it (integers and `char`; not floats, not `bool`).
    pub const fn map_key(self) -> bool {
        self.range().is_some() || matches!(self.js(), JsType::String)
    }

    /// An integer's range as JS literals ([`Row::range`]).
    pub const fn range(self) -> Option<(&'static str, &'static str)> {
        self.row().range
    }

    /// JS must reinterpret the wasm value it receives ([`Row::unsigned_wasm`]).
    pub const fn unsigned_wasm(self) -> bool {
        self.row().unsigned_wasm
    }

    /// The view of the wire's memory its value is read and written through (`i8` …
    /// `f64`; `bool` is a `u8`, `char` a `u32`).
    pub const fn wire_view(self) -> &'static str {
        let row = self.row();
        match (row.abi, row.wire_size, row.signed) {
            (Abi::F32, ..) => "f32",
            (Abi::F64, ..) => "f64",
            (_, 1, true) => "i8",
            (_, 1, false) => "u8",
            (_, 2, true) => "i16",
            (_, 2, false) => "u16",
            (_, 4, true) => "i32",
            (_, 4, false) => "u32",
            (_, _, true) => "i64",
            (_, _, false) => "u64",
        }
    }
}

/// The Rust type generated code declares a scalar's wasm value as ([`Scalar::abi`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Abi {
    U32,
    I32,
    U64,
    I64,
    F32,
    F64,
}

impl Abi {
    /// The Rust type's name (`u32`), as generated code spells it.
    pub const fn rust(self) -> &'static str {
        match self {
            Abi::U32 => "u32",
            Abi::I32 => "i32",
            Abi::U64 => "u64",
            Abi::I64 => "i64",
            Abi::F32 => "f32",
            Abi::F64 => "f64",
        }
    }

    /// Its size in bytes (the runtime asserts `size_of` of the type against it).
    pub const fn size(self) -> u32 {
        match self {
            Abi::U32 | Abi::I32 | Abi::F32 => 4,
            Abi::U64 | Abi::I64 | Abi::F64 => 8,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The facts of one row agree with each other, so a row written with a fact missing
    /// or wrong (an integer without its range, a string without its conversion, a typed
    /// array of another element type) fails here, before any layer reads it.
    #[test]
    fn every_row_has_its_facts() {
        for (i, s) in Scalar::ALL.into_iter().enumerate() {
            let row = s.row();
            let what = format!("{s:?} ({})", row.rust);
            assert!(!Scalar::ALL[..i].contains(&s), "{what} is listed twice");
            assert_eq!(
                Scalar::from_rust(row.rust),
                Some(s),
                "{what}: its Rust name"
            );
            assert!(
                row.rust.chars().all(|c| c.is_ascii_alphanumeric()),
                "{what}: a primitive's name"
            );
            assert!(
                matches!(row.wire_size, 1 | 2 | 4 | 8) && row.wire_size <= row.abi.size(),
                "{what}: its wire size fits its abi type"
            );
            // How JS makes its value of the number follows the JS value it is.
            let from_wasm = match row.js {
                JsType::Boolean => matches!(row.from_wasm, FromWasm::NonZero),
                JsType::String => matches!(row.from_wasm, FromWasm::Call(f) if !f.is_empty()),
                JsType::Number | JsType::BigInt => row.from_wasm == FromWasm::Value,
            };
            assert!(from_wasm, "{what}: from_wasm {:?}", row.from_wasm);
            assert_eq!(
                row.js == JsType::BigInt,
                row.abi.size() == 8 && row.range.is_some(),
                "{what}: a 64-bit integer is a BigInt"
            );
            // An integer has its range, which is its wire size's (BigInt literals for a
            // BigInt); floats, `bool` and `char` have none.
            let float = matches!(row.abi, Abi::F32 | Abi::F64);
            let integer = matches!(row.js, JsType::Number | JsType::BigInt) && !float;
            assert_eq!(row.range.is_some(), integer, "{what}: its range");
            if let Some((min, max)) = row.range {
                let n = if row.js == JsType::BigInt { "n" } else { "" };
                let bits = 8 * row.wire_size;
                let (lo, hi) = if row.signed {
                    (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
                } else {
                    (0, (1i128 << bits) - 1)
                };
                assert_eq!(
                    (min, max),
                    (&*format!("{lo}{n}"), &*format!("{hi}{n}")),
                    "{what}"
                );
            }
            // A number of a typed array: the array's elements are its wire view's.
            if let Some(array) = row.typed_array {
                let view = s.wire_view();
                let element = match view.as_bytes()[0] {
                    b'i' if row.js == JsType::BigInt => format!("BigInt{}Array", &view[1..]),
                    b'u' if row.js == JsType::BigInt => format!("BigUint{}Array", &view[1..]),
                    b'i' => format!("Int{}Array", &view[1..]),
                    b'u' => format!("Uint{}Array", &view[1..]),
                    _ => format!("Float{}Array", &view[1..]),
                };
                assert_eq!(array, element, "{what}: its typed array");
            } else {
                assert!(
                    s.checked() || row.js == JsType::Boolean,
                    "{what}: a number without a typed array is checked"
                );
            }
            // The glue reinterprets exactly the values past the signed range of the wasm
            // value it reads.
            let past_signed = !row.signed && integer && row.wire_size == row.abi.size();
            assert_eq!(row.unsigned_wasm, past_signed, "{what}: unsigned_wasm");
            assert_eq!(s.wasm().name().len(), 3, "{what}");
        }
        assert!(Scalar::all_in(&Scalar::ALL));
        assert!(!Scalar::all_in(&Scalar::ALL[1..]), "one missing");
    }
}
