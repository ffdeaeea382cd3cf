//! Compile errors of `#[bridge]` from issue 19: each message is checked by its text and
//! by where it points (the `-->` line rustc prints under it). One crate holds every bad
//! item, so the test costs one build (a `#[bridge] impl` stops at its first bad member,
//! and each bad member has an impl block of its own).

mod support;

use support::Project;

/// The lines of `stderr` from `error: <message>` to its `-->` location.
#[track_caller]
fn assert_error_at(stderr: &str, message: &str, location: &str) {
    let lines: Vec<&str> = stderr.lines().collect();
    let found = lines.iter().enumerate().any(|(i, line)| {
        line.starts_with("error") && line.contains(message) && {
            let at = lines[i + 1..]
                .iter()
                .find(|l| l.trim_start().starts_with("-->"))
                .map(|l| l.trim_start().trim_start_matches("--> "));
            at.is_some_and(|at| at.ends_with(location))
        }
    });
    assert!(
        found,
        "no error {message:?} at {location}\n--- stderr:\n{stderr}"
    );
}

const LIB: &str = r#"use bridge_runtime::bridge;

#[bridge]
pub struct Widget {
    value: u32,
}

#[bridge]
impl Widget {
    #[bridge(getter = "a", js_name = "b")]
    pub fn two_names(&self) -> u32 {
        self.value
    }
}

#[bridge]
impl Widget {
    #[bridge(getter, setter)]
    pub fn two_roles(&self) -> u32 {
        self.value
    }
}

#[bridge]
impl Widget {
    #[cfg_attr(all(), bridge(js_name = "c"))]
    #[bridge(js_name = "d")]
    pub fn conditional_names(&self) -> u32 {
        self.value
    }
}

#[bridge(js_name = "A", js_name = "B")]
pub struct Gadget {
    value: u32,
}

#[bridge]
extern "C" {
    #[bridge(js_namespace = "Math", js_name = "max", js_name = "min")]
    fn two_import_names(a: f64, b: f64) -> f64;

    #[bridge(js_namespace = "Math")]
    fn destructured((a, b): (f64, f64)) -> f64;
}

#[bridge(record)]
#[allow(non_snake_case)]
pub struct Clash {
    pub foo_bar: u32,
    pub fooBar: u32,
}

#[bridge]
#[allow(non_snake_case)]
pub enum VariantClash {
    Both { left_side: u32, leftSide: u32 },
}

#[bridge(record)]
pub struct Proto {
    #[bridge(js_name = "__proto__")]
    pub parent: u32,
}

#[bridge(record)]
pub struct UnknownFieldArg {
    #[bridge(skip)]
    pub hidden: u32,
}

#[bridge]
pub enum Tagged {
    Item {
        #[bridge(js_name = "kind")]
        sort: u32,
    },
}
"#;

#[test]
fn issue_19_compile_errors_say_what_and_where() {
    let project = Project::workspace(&["bad"], "");
    project.bridge_crate("bad", "macro-errors-19", "\"cdylib\"", "", LIB);
    let run = project.build(&[]);
    run.fails();
    let e = &run.stderr;
    // item 16
    assert_error_at(
        e,
        r#"two JS names for one item: `getter = "a"` and `js_name = "b"`: give one of them"#,
        "src/lib.rs:10:28",
    );
    assert_error_at(
        e,
        "a member is one of constructor, getter and setter, but this one is marked both `getter` and `setter`: keep one",
        "src/lib.rs:18:22",
    );
    // Under `cfg_attr`: the conflict exists where the predicate holds.
    assert_error_at(
        e,
        r#"two JS names for one item: `js_name = "c"` and `js_name = "d"`: give one of them"#,
        "src/lib.rs:27:14",
    );
    assert_error_at(
        e,
        r#"two JS names for one item: `js_name = "A"` and `js_name = "B"`: give one of them"#,
        "src/lib.rs:33:25",
    );
    assert_error_at(
        e,
        r#"two `js_name`s for one JS import: `js_name = "max"` and `js_name = "min"`: give one"#,
        "src/lib.rs:40:54",
    );
    // item 19
    assert_error_at(
        e,
        "a JS import's parameter is a name or `_`, not the pattern `(a, b)`: the value goes to JS whole, so there is nothing to destructure; name the parameter",
        "src/lib.rs:44:21",
    );
    // item 8
    assert_error_at(
        e,
        r#"fields `foo_bar` and `fooBar` of record `Clash` are both `fooBar` in JS: give one of them another JS name with #[bridge(js_name = "...")]"#,
        "src/lib.rs:51:9",
    );
    assert_error_at(
        e,
        r#"fields `left_side` and `leftSide` of variant `VariantClash::Both` are both `leftSide` in JS: give one of them another JS name with #[bridge(js_name = "...")]"#,
        "src/lib.rs:57:28",
    );
    // item 10
    assert_error_at(
        e,
        "field `parent` of record `Proto` cannot be `__proto__` in JS: a plain object's `__proto__` is its prototype, not a field; give it another JS name",
        "src/lib.rs:63:9",
    );
    assert_error_at(
        e,
        r#"unknown #[bridge] argument on field `hidden`: the valid argument is `js_name = "name"`"#,
        "src/lib.rs:68:14",
    );
    assert_error_at(
        e,
        "`Tagged::Item` has a field `sort` named `kind` in JS, but `kind` is the tag of a JS enum object",
        "src/lib.rs:76:9",
    );
    assert!(
        !project.path("bad/pkg").exists(),
        "no package from a failed build"
    );
}

const TYPES_LIB: &str = r#"use bridge_runtime::{JsValue, bridge};

#[bridge]
pub struct Widget {
    data: Vec<u8>,
}

#[bridge]
impl Widget {
    pub fn data(&self) -> &[u8] {
        &self.data
    }
}

#[bridge]
impl Widget {
    pub fn name(&self) -> &str {
        "w"
    }
}

#[bridge]
impl Widget {
    pub fn me(&self) -> &Widget {
        self
    }
}

#[bridge]
pub fn maybe_bytes(b: Option<&[u8]>) -> u32 {
    b.map_or(0, |b| b.len() as u32)
}

#[bridge]
pub fn unit_option(u: Option<()>) -> bool {
    u.is_some()
}

#[bridge]
pub fn text_ref(s: &String) -> u32 {
    s.len() as u32
}

#[bridge]
pub fn vec_ref(v: &Vec<u32>) -> u32 {
    v.len() as u32
}

pub struct Opaque;

#[bridge]
pub fn opaque_error() -> Result<u32, Opaque> {
    Err(Opaque)
}

#[bridge]
pub fn value_ref_return(_v: &JsValue) -> Option<&str> {
    None
}
"#;

/// Items 20 and 23: each unsupported shape names itself and what to write instead; an
/// unfit `Result` error type gets the runtime trait's message, at the type.
#[test]
fn issue_19_unsupported_shapes_say_what_to_write_instead() {
    let project = Project::workspace(&["bad"], "");
    project.bridge_crate("bad", "macro-errors-19-types", "\"cdylib\"", "", TYPES_LIB);
    let run = project.build(&[]);
    run.fails();
    let e = &run.stderr;
    assert_error_at(
        e,
        r#"a borrowed value cannot be returned to JS (the borrow ends with the call, and JS may keep what it gets): return `Vec<T>` (a copy; `.to_vec()`)"#,
        "src/lib.rs:10:27",
    );
    assert_error_at(
        e,
        r#"a borrowed value cannot be returned to JS (the borrow ends with the call, and JS may keep what it gets): return `String` (`.to_string()`)"#,
        "src/lib.rs:17:27",
    );
    assert_error_at(
        e,
        r#"a borrowed value cannot be returned to JS (the borrow ends with the call, and JS may keep what it gets): return `Handle<C>` (the same object: take `this: &Handle<Self>` and return a clone of it, or keep `Handle`s in the struct) or an owned `C`"#,
        "src/lib.rs:24:25",
    );
    assert_error_at(
        e,
        r#"an optional slice is not supported: take `Option<Vec<T>>` (copied in, null for None), or a `&[T]` that may be empty"#,
        "src/lib.rs:30:23",
    );
    assert_error_at(
        e,
        r#"`Option<()>` is not supported: take a `bool`"#,
        "src/lib.rs:35:23",
    );
    assert_error_at(
        e,
        r#"type `& String` cannot cross the JS boundary: take `&str` (or an owned `String`)"#,
        "src/lib.rs:40:20",
    );
    assert_error_at(
        e,
        r#"type `& Vec < u32 >` cannot cross the JS boundary: take `&[T]` for numbers, or an owned `Vec<T>`"#,
        "src/lib.rs:45:19",
    );
    assert_error_at(
        e,
        r#"`Opaque` cannot be the error type of a `Result` returned to JS"#,
        "src/lib.rs:52:38",
    );
    assert_error_at(
        e,
        r#"a borrowed value cannot be returned to JS (the borrow ends with the call, and JS may keep what it gets): return `Option<..>` of `String` (`.to_string()`)"#,
        "src/lib.rs:57:42",
    );
    assert!(
        e.contains("JS gets `Err(e)` as a thrown `Error` whose message is `e`'s `Display` text"),
        "{e}"
    );
    // The old, misleading messages are gone.
    run.stderr_lacks(&[
        "ErrProbe",
        "E0599",
        "E0308",
        "Option of Option or ()",
        "exported types are not generic",
    ]);
}
