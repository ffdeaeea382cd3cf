//! Rust-owned closures as JS functions: [`Closure`], typed as wasm-bindgen's
//! (`Closure<dyn Fn(u32) -> u32>`, `Closure<dyn FnMut(JsValue)>`; `Closure::once` gives a
//! `Closure<dyn FnMut(..)>` that runs once). Rust owns the closure: [`Closure::to_js`] is
//! the same JS function each time, dropping the `Closure` invalidates it (a later call
//! throws naming it; JS may keep it) and frees the closure, [`Closure::forget`] hands it
//! to JS (freed by the function's `release()` or the FinalizationRegistry).
//!
//! The closure crosses as a `JsValue`, so no `#[bridge]` signature describes it: its
//! arguments arrive as one JS array and each converts at run time ([`ClosureArg`]), its
//! result goes back as a value ([`ClosureReturn`]). One runtime export calls them all
//! (`__bridge_closure_call`), one frees them (`__bridge_closure_free`); the glue's half
//! is `templates/js/owned_closures.js.j2`.

use crate::Handle;
use crate::error::{BridgeError, throw};
use crate::js::{JsType, JsValue, host};
use crate::text::{concat, decimal};
use crate::types::BridgeClass;
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::panic::Location;

/// A Rust closure JS can call, owned by Rust (see the module docs).
///
/// ```ignore
/// let double: Closure<dyn Fn(u32) -> u32> = Closure::new(|x| x * 2);
/// set_handler(&double.to_js());
/// ```
pub struct Closure<T: ?Sized> {
    /// The JS function (its table entry keeps it alive while Rust owns the closure).
    js: JsValue,
    _sig: PhantomData<Box<T>>,
}

/// Why a call did not return a value.
#[doc(hidden)]
pub enum Thrown {
    /// Thrown as a JS `Error` with this message (an argument that does not convert).
    Message(String),
    /// Thrown as it is (an `Err(JsValue)` result).
    Value(JsValue),
}

/// A closure with its arguments converted from the JS array it is called with (dropped
/// before the closure runs, so a panic in it leaks no table entry), and its result
/// converted back; the `&str` is its label, for messages.
#[doc(hidden)]
pub type ErasedCall = Box<dyn FnMut(JsValue, &str) -> Result<JsValue, Thrown>>;

/// What the glue's function calls: the closure and its label. `throw_value` is reached
/// through the slot so that the two exports, which every module links, import nothing of
/// the glue's value table: a module that makes no `Closure` keeps a glue without it.
struct Slot {
    label: String,
    call: ErasedCall,
    throw_value: fn(JsValue) -> !,
}

fn throw_js_value(value: JsValue) -> ! {
    crate::js::throw_value(value.into_abi())
}

/// The closure at `slot`, called with the JS array `args` (its table entry is taken).
#[unsafe(export_name = bridge_schema::runtime_export!(closure_call))]
pub extern "C" fn __bridge_closure_call(slot: u32, args: u32) -> u32 {
    // SAFETY: the glue passes the address of a live slot, never calls a closure that is
    // running and frees none mid-call, so this `&mut` is unique.
    let slot = unsafe { &mut *(slot as usize as *mut Slot) };
    let outcome = (slot.call)(JsValue::from_abi(args), &slot.label);
    match outcome {
        Ok(value) => value.into_abi(),
        // Nothing of the call is live here: throwing skips no destructor.
        Err(Thrown::Message(message)) => throw(BridgeError::new(message)),
        Err(Thrown::Value(value)) => (slot.throw_value)(value),
    }
}

/// Frees the slot (the closure's captured state drops here).
#[unsafe(export_name = bridge_schema::runtime_export!(closure_free))]
pub extern "C" fn __bridge_closure_free(slot: u32) {
    // SAFETY: the glue frees each slot once, never while it runs.
    drop(unsafe { Box::from_raw(slot as usize as *mut Slot) });
}

impl<T: ?Sized> Closure<T> {
    /// A closure JS can call, of the signature `T` (`dyn Fn(..) -> R` or
    /// `dyn FnMut(..) -> R`): `Closure::<dyn Fn(u32) -> u32>::new(|x| x + 1)`.
    #[track_caller]
    pub fn new<F: IntoClosure<T>>(f: F) -> Closure<T> {
        Closure::make(f.into_call(), false, Location::caller())
    }

    /// As [`Closure::new`], from a boxed closure (wasm-bindgen's `Closure::wrap`).
    #[track_caller]
    pub fn wrap(f: Box<T>) -> Closure<T>
    where
        Box<T>: IntoClosure<T>,
    {
        Closure::make(f.into_call(), false, Location::caller())
    }

    /// A `FnOnce` JS can call once: the first call that returns frees it, a later call
    /// throws naming it. Typed `Closure<dyn FnMut(..) -> R>`, as in wasm-bindgen.
    #[track_caller]
    pub fn once<F: IntoOnce<T, M>, M>(f: F) -> Closure<T> {
        Closure::make(f.into_call(), true, Location::caller())
    }

    /// `Closure::once(f).into_js_value()`: a function JS owns, freed by its one call
    /// (or by `release()`, or the FinalizationRegistry, when it is never called).
    #[track_caller]
    pub fn once_into_js<F: IntoOnce<T, M>, M>(f: F) -> JsValue {
        Closure::once(f).into_js_value()
    }

    /// The JS function: the same one (`===`) each time.
    pub fn to_js(&self) -> JsValue {
        self.js.clone()
    }

    /// Hands the closure to JS: it lives until the function's `release()` or until JS
    /// collects the function (the FinalizationRegistry frees it then).
    pub fn forget(self) {
        drop(self.into_js_value());
    }

    /// [`Closure::forget`], keeping the function as a `JsValue`.
    pub fn into_js_value(self) -> JsValue {
        let this = ManuallyDrop::new(self);
        // SAFETY: a live table entry; the glue marks the function JS-owned.
        unsafe { host::closure_forget(this.js.abi()) };
        // SAFETY: `this` is never used again (and never dropped).
        unsafe { std::ptr::read(&this.js) }
    }

    fn make(call: ErasedCall, once: bool, at: &'static Location<'static>) -> Closure<T> {
        let label = concat(&[
            "the Rust Closure made at ",
            at.file(),
            ":",
            &decimal(at.line()),
            ":",
            &decimal(at.column()),
        ]);
        let slot = Box::into_raw(Box::new(Slot {
            label,
            call,
            throw_value: throw_js_value,
        }));
        // SAFETY: the slot stays put until `__bridge_closure_free`; JS copies the label.
        let idx = unsafe {
            let label = &(*slot).label;
            host::closure_new(
                slot as usize as u32,
                u32::from(once),
                label.as_ptr() as u32,
                label.len() as u32,
            )
        };
        Closure {
            js: JsValue::from_abi(idx),
            _sig: PhantomData,
        }
    }
}

/// A boxed closure as a JS function JS owns (wasm-bindgen's `JsValue::from(Closure)` in
/// one step): `JsValue::from(Box::new(|x: u32| x * 2) as Box<dyn Fn(u32) -> u32>)` is
/// `Closure::wrap(b).into_js_value()`. The function lives until its `release()` or until
/// JS collects it (the FinalizationRegistry frees the closure then); for a closure Rust
/// takes back later, keep a [`Closure`] instead. `Box<dyn FnOnce>` has no such conversion:
/// use [`Closure::once_into_js`].
impl<T: ?Sized> From<Box<T>> for JsValue
where
    Box<T>: IntoClosure<T>,
{
    #[track_caller]
    fn from(f: Box<T>) -> JsValue {
        Closure::<T>::make(f.into_call(), false, Location::caller()).into_js_value()
    }
}

impl<T: ?Sized> Drop for Closure<T> {
    /// Invalidates the JS function and frees the closure (at the end of its call, when it
    /// drops itself while JS calls it).
    fn drop(&mut self) {
        // SAFETY: a live table entry (`self.js` drops after this).
        unsafe { host::closure_drop(self.js.abi()) }
    }
}

impl<T: ?Sized> AsRef<JsValue> for Closure<T> {
    /// The JS function (wasm-bindgen's `closure.as_ref()`).
    fn as_ref(&self) -> &JsValue {
        &self.js
    }
}

impl<T: ?Sized> std::fmt::Debug for Closure<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Closure").field(&self.js).finish()
    }
}

/// A closure that can be a `Closure<T>` (implemented for `Fn`/`FnMut` closures of up to
/// six [`ClosureArg`] arguments returning a [`ClosureReturn`]).
#[diagnostic::on_unimplemented(
    message = "this closure cannot be held by a `Closure` (at most six arguments)",
    label = "a `Closure` cannot hold this closure",
    note = "a `Closure` takes at most six arguments, each a number, bool, String, JsValue, Handle<C> or an Option of one (`ClosureArg`), and returns (), such a value or a Result<_, JsValue> (`ClosureReturn`); for more, take one JsValue (an array or object) and read it"
)]
pub trait IntoClosure<T: ?Sized> {
    #[doc(hidden)]
    fn into_call(self) -> ErasedCall;
}

/// A `FnOnce` closure that can be a `Closure::once` of signature `T` (`M` is its
/// arguments' tuple, so the signature is inferred from the closure).
#[diagnostic::on_unimplemented(
    message = "this closure cannot be held by a `Closure::once` (at most six arguments)",
    label = "a `Closure::once` cannot hold this closure",
    note = "a `Closure` takes at most six arguments, each a number, bool, String, JsValue, Handle<C> or an Option of one (`ClosureArg`), and returns (), such a value or a Result<_, JsValue> (`ClosureReturn`); for more, take one JsValue (an array or object) and read it"
)]
pub trait IntoOnce<T: ?Sized, M> {
    #[doc(hidden)]
    fn into_call(self) -> ErasedCall;
}

/// An argument of a [`Closure`], converted from the JS value it is called with.
pub trait ClosureArg: Sized + 'static {
    /// The value, or what it must be and what it is (`must be a string, got 5`).
    fn from_arg(value: JsValue) -> Result<Self, String>;
}

/// What a [`Closure`] returns to JS (`Err` of a `Result<T, JsValue>` is thrown).
pub trait ClosureReturn {
    fn into_return(self) -> Result<JsValue, JsValue>;
}

/// Argument `i` of `args`, converted, or the error naming the closure and the argument.
fn arg<A: ClosureArg>(args: &JsValue, i: &str, label: &str) -> Result<A, Thrown> {
    A::from_arg(args.get(i))
        .map_err(|why| Thrown::Message(concat(&[label, ": argument ", i, " ", &why])))
}

/// The error text of a conversion: `must be <expected>, got <what the value is>`.
fn refused(expected: &str, value: &JsValue) -> String {
    let got = match value.type_of() {
        JsType::Number | JsType::Boolean => value.to_js_string(),
        JsType::String => "a string".into(),
        JsType::Undefined => "undefined".into(),
        JsType::Null => "null".into(),
        JsType::BigInt => "a bigint".into(),
        JsType::Symbol => "a symbol".into(),
        JsType::Function => "a function".into(),
        JsType::Object => "an object".into(),
    };
    concat(&["must be ", expected, ", got ", &got])
}

macro_rules! integer_args {
    ($($t:ty: $expected:literal),*) => {$(
        impl ClosureArg for $t {
            /// A number that is an integer in the type's range (anything else is refused,
            /// never wrapped).
            fn from_arg(value: JsValue) -> Result<$t, String> {
                match value.as_f64() {
                    Some(n) if n.fract() == 0.0 && n >= <$t>::MIN as f64 && n <= <$t>::MAX as f64 => {
                        Ok(n as $t)
                    }
                    _ => Err(refused($expected, &value)),
                }
            }
        }
    )*};
}
integer_args!(
    u8: "a u8 (an integer from 0 to 255)",
    u16: "a u16 (an integer from 0 to 65535)",
    u32: "a u32 (an integer from 0 to 4294967295)",
    i8: "an i8 (an integer from -128 to 127)",
    i16: "an i16 (an integer from -32768 to 32767)",
    i32: "an i32 (an integer from -2147483648 to 2147483647)"
);

impl ClosureArg for f64 {
    fn from_arg(value: JsValue) -> Result<f64, String> {
        value.as_f64().ok_or_else(|| refused("a number", &value))
    }
}

impl ClosureArg for f32 {
    fn from_arg(value: JsValue) -> Result<f32, String> {
        Ok(f64::from_arg(value)? as f32)
    }
}

impl ClosureArg for bool {
    fn from_arg(value: JsValue) -> Result<bool, String> {
        value.as_bool().ok_or_else(|| refused("a boolean", &value))
    }
}

impl ClosureArg for String {
    fn from_arg(value: JsValue) -> Result<String, String> {
        value.as_string().ok_or_else(|| refused("a string", &value))
    }
}

impl ClosureArg for JsValue {
    fn from_arg(value: JsValue) -> Result<JsValue, String> {
        Ok(value)
    }
}

impl<A: ClosureArg> ClosureArg for Option<A> {
    /// `null` and `undefined` are `None`.
    fn from_arg(value: JsValue) -> Result<Option<A>, String> {
        match value.type_of() {
            JsType::Null | JsType::Undefined => Ok(None),
            _ => A::from_arg(value).map(Some),
        }
    }
}

impl<C: BridgeClass> ClosureArg for Handle<C> {
    /// A live wrapper of `C` (its object, with Rust's own reference).
    fn from_arg(value: JsValue) -> Result<Handle<C>, String> {
        Handle::<C>::try_from(&value)
            .map_err(|e| concat(&["must be a live ", e.class, " object, got ", &e.got]))
    }
}

impl ClosureReturn for () {
    fn into_return(self) -> Result<JsValue, JsValue> {
        Ok(JsValue::undefined())
    }
}

macro_rules! value_returns {
    ($($t:ty),*) => {$(
        impl ClosureReturn for $t {
            fn into_return(self) -> Result<JsValue, JsValue> {
                Ok(JsValue::from(self))
            }
        }
    )*};
}
value_returns!(
    u8,
    u16,
    u32,
    i8,
    i16,
    i32,
    f32,
    f64,
    bool,
    String,
    &'static str,
    JsValue
);

impl<R: ClosureReturn> ClosureReturn for Option<R> {
    /// `None` is `undefined`.
    fn into_return(self) -> Result<JsValue, JsValue> {
        self.map_or(Ok(JsValue::undefined()), R::into_return)
    }
}

impl<C: BridgeClass> ClosureReturn for Handle<C> {
    /// The class's wrapper, with its identity mode (as `JsValue::from(handle)`).
    fn into_return(self) -> Result<JsValue, JsValue> {
        Ok(JsValue::from(self))
    }
}

impl<R: ClosureReturn> ClosureReturn for Result<R, JsValue> {
    /// `Err(value)` is thrown as it is.
    fn into_return(self) -> Result<JsValue, JsValue> {
        self.and_then(R::into_return)
    }
}

macro_rules! arities {
    ($($a:ident $v:ident $i:literal),*) => {
        impl<F, R, $($a),*> IntoClosure<dyn Fn($($a),*) -> R> for F
        where
            F: Fn($($a),*) -> R + 'static,
            R: ClosureReturn,
            $($a: ClosureArg,)*
        {
            fn into_call(self) -> ErasedCall {
                #[allow(unused_variables)]
                Box::new(move |args: JsValue, label: &str| {
                    $(let $v = arg::<$a>(&args, $i, label)?;)*
                    drop(args);
                    (self)($($v),*).into_return().map_err(Thrown::Value)
                })
            }
        }

        impl<F, R, $($a),*> IntoClosure<dyn FnMut($($a),*) -> R> for F
        where
            F: FnMut($($a),*) -> R + 'static,
            R: ClosureReturn,
            $($a: ClosureArg,)*
        {
            fn into_call(mut self) -> ErasedCall {
                #[allow(unused_variables)]
                Box::new(move |args: JsValue, label: &str| {
                    $(let $v = arg::<$a>(&args, $i, label)?;)*
                    drop(args);
                    (self)($($v),*).into_return().map_err(Thrown::Value)
                })
            }
        }

        impl<F, R, $($a),*> IntoOnce<dyn FnMut($($a),*) -> R, ($($a,)*)> for F
        where
            F: FnOnce($($a),*) -> R + 'static,
            R: ClosureReturn,
            $($a: ClosureArg,)*
        {
            fn into_call(self) -> ErasedCall {
                let mut once = Some(self);
                #[allow(unused_variables)]
                Box::new(move |args: JsValue, label: &str| {
                    // Arguments first: one that does not convert leaves it callable.
                    $(let $v = arg::<$a>(&args, $i, label)?;)*
                    drop(args);
                    let f = once.take().ok_or_else(|| {
                        Thrown::Message(concat(&[label, " was already called: a `Closure::once` closure runs once"]))
                    })?;
                    f($($v),*).into_return().map_err(Thrown::Value)
                })
            }
        }
    };
}
// One argument lent: `Closure<dyn Fn(&JsValue)>` / `<dyn FnMut(&JsValue)>` (wasm-bindgen
// writes event listeners so). The value JS passed is borrowed for the call, not cloned.
#[allow(coherence_leak_check)] // `dyn for<'a> Fn(&'a JsValue)` is not `dyn Fn(A0)`
impl<F, R> IntoClosure<dyn Fn(&JsValue) -> R> for F
where
    F: Fn(&JsValue) -> R + 'static,
    R: ClosureReturn,
{
    fn into_call(self) -> ErasedCall {
        Box::new(move |args: JsValue, label: &str| {
            let a0 = arg::<JsValue>(&args, "0", label)?;
            drop(args);
            (self)(&a0).into_return().map_err(Thrown::Value)
        })
    }
}

#[allow(coherence_leak_check)]
impl<F, R> IntoClosure<dyn FnMut(&JsValue) -> R> for F
where
    F: FnMut(&JsValue) -> R + 'static,
    R: ClosureReturn,
{
    fn into_call(mut self) -> ErasedCall {
        Box::new(move |args: JsValue, label: &str| {
            let a0 = arg::<JsValue>(&args, "0", label)?;
            drop(args);
            (self)(&a0).into_return().map_err(Thrown::Value)
        })
    }
}

arities!();
arities!(A0 a0 "0");
arities!(A0 a0 "0", A1 a1 "1");
arities!(A0 a0 "0", A1 a1 "1", A2 a2 "2");
arities!(A0 a0 "0", A1 a1 "1", A2 a2 "2", A3 a3 "3");
arities!(A0 a0 "0", A1 a1 "1", A2 a2 "2", A3 a3 "3", A4 a4 "4");
arities!(A0 a0 "0", A1 a1 "1", A2 a2 "2", A3 a3 "3", A4 a4 "4", A5 a5 "5");
