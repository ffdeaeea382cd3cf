//! The section decoder on hostile bytes: arbitrary input and mutated real encodings give
//! a `DecodeError` whose message says where and what, never a panic. (The whole
//! post-process on mutated modules is fuzzed in `cargo-bridge/src/postprocess/fuzz.rs`.)

use bridge_schema::{
    Class, DecodeError, Function, FunctionKind, Impl, Item, Param, Receiver, Record, Ty,
    decode_section, encode_record,
};
use proptest::prelude::*;

fn sample_records() -> Vec<Record> {
    let method = Function {
        is_async: false,
        refuses_released: false,
        as_written: None,
        js_this: false,
        kind: FunctionKind::Method,
        js_name: "add".into(),
        rust_name: "add".into(),
        symbol: "shelf::Shelf::add".into(),
        receiver: Receiver::Exclusive,
        params: vec![Param {
            name: "title".into(),
            ty: Ty::Str,
        }],
        ret: Ty::Option(Box::new(Ty::Named("shelf::Book".into()))),
        doc: "Adds a book.".into(),
        field: false,
    };
    vec![
        Record {
            crate_name: "shelf".into(),
            item: Item::Class(Class {
                type_id: "shelf::Shelf".into(),
                name: "Shelf".into(),
                rust_name: "Shelf".into(),
                identity_mode: Some("rust".into()),
                inspectable: false,
                doc: String::new(),
            }),
        },
        Record {
            crate_name: "shelf".into(),
            item: Item::Impl(Impl {
                class: "shelf::Shelf".into(),
                members: vec![method],
            }),
        },
    ]
}

fn encoded() -> Vec<u8> {
    sample_records().iter().flat_map(encode_record).collect()
}

/// The message of every error names the byte offset or the schema versions.
fn assert_explained(error: &DecodeError) {
    let message = error.to_string();
    assert!(
        message.contains("at byte") || message.contains("schema"),
        "unexplained: {message}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        if let Err(e) = decode_section(&bytes) {
            assert_explained(&e);
        }
    }

    #[test]
    fn mutated_sections_never_panic(
        flips in prop::collection::vec((any::<prop::sample::Index>(), 1u8..=255), 0..6),
        cut in any::<prop::sample::Index>(),
        truncate in any::<bool>(),
    ) {
        let mut bytes = encoded();
        for (at, xor) in flips {
            let i = at.index(bytes.len());
            bytes[i] ^= xor;
        }
        if truncate {
            bytes.truncate(cut.index(bytes.len()));
        }
        match decode_section(&bytes) {
            Ok(records) => prop_assert!(records.len() <= 2),
            Err(e) => assert_explained(&e),
        }
    }

    #[test]
    fn wrong_versions_are_named(version in any::<u32>()) {
        prop_assume!(version != bridge_schema::SCHEMA_VERSION);
        let mut bytes = encoded();
        bytes[4..8].copy_from_slice(&version.to_le_bytes());
        let message = decode_section(&bytes).unwrap_err().to_string();
        prop_assert!(message.contains(&format!("schema {version}")), "{}", message);
        prop_assert!(message.contains("crate `shelf`"), "{}", message);
    }
}

#[test]
fn the_unmutated_encoding_decodes() {
    assert_eq!(decode_section(&encoded()).unwrap(), sample_records());
}
