//! The views of calls: an export function (`FnView`, its parameters and result), and a
//! Rust closure JS holds (`ClosureView`: its call is a function view of its own). Built
//! here for exports (`model.rs`) and for closures passed to JS (`js.rs`).

use super::ts;
use super::type_names::TypeNames;
use super::types::{self, TyView};
use bridge_schema::Scalar;
use bridge_schema::lowering::{Site, TrappingBorrow};
use bridge_schema::{Function, FunctionKind, Receiver, Ty};
use serde::Serialize;

/// A wasm export name as a JS string literal, for `wasm[...]` (export names are
/// arbitrary strings, see `bridge_schema::member_symbol`).
pub fn js_string(name: &str) -> String {
    serde_json::to_string(name).expect("strings serialize")
}

#[derive(Serialize, Clone)]
pub struct FnView {
    pub js_name: String,
    /// `js_name` can be the function expression's own name (free functions are bound as
    /// `<js_name>$fn` and exported under `js_name`).
    pub bindable: bool,
    /// The wasm export, as a JS string literal (`wasm[{{ f.symbol }}]`).
    pub symbol: String,
    /// The module binding that holds the export's function (`$export<N>`, see
    /// [`GlueModel::exports`]); `None` until the model numbers it (the call then looks
    /// the export up by name).
    pub export_var: Option<String>,
    /// The class index the call passes as its last argument, a JS expression: the export
    /// notes that class's objects for a fast pool (`transforms/class_arg.rs`).
    pub class_arg: Option<String>,
    /// `Class.member` or `function`, for error messages.
    pub label: String,
    pub has_self: bool,
    /// The receiver's address goes to the thunk as the wrapper holds it (`this.#addr`,
    /// 0 once released): the thunk refuses a released one itself
    /// (`Function::refuses_released`), and the catch names a `this` that is no wrapper.
    pub unchecked_self: bool,
    pub params: Vec<ParamView>,
    /// How many arguments a call must pass (debug glue checks): the parameters up to the
    /// last one that is not an `Option` or a `JsValue` (both take `undefined`).
    pub required: usize,
    /// Some parameter is written into the wire's in-buffer (passed as its offset).
    pub wire_session: bool,
    pub ret: TyView,
    pub doc: Vec<String>,
    /// The objects the thunk borrows (`this`, `&C`, `&mut C` and `Option<&C>`
    /// parameters), in the order it takes the guards (the macro numbers them so): what to
    /// undo when a panic or a JS exception skips its guards.
    pub borrows: Vec<BorrowView>,
    /// Where the thunk's first borrow is, when it may refuse it by trapping (see
    /// [`RefusalSite`]).
    pub refusal: Option<RefusalSite>,
    /// `self` by value: the object moves out of JS, so the call releases `this` (a
    /// `ParamView::moves` parameter likewise) once it returns, or once it failed after the
    /// move (the box's flag says `BORROW_MOVED`).
    pub moves_self: bool,
    /// Some parameter moves out of JS, or `this` does.
    pub moves: bool,
    /// The function returns a Rust closure (see [`ClosureView`]).
    pub closure: Option<Box<ClosureView>>,
    /// An `async fn`: this call starts its task (its `ret` is the task id) and the
    /// Promise settles with what `finish` returns.
    pub finish: Option<Box<FinishView>>,
}

/// The finish export of an async function: `(task) -> ret`, lifted as a sync export's
/// result; a module-level glue function (`var`, assigned by [`GlueModel::new`]).
#[derive(Serialize, Clone)]
pub struct FinishView {
    pub var: String,
    pub call: FnView,
}

/// One borrow guard of a thunk: the binding (`this` or a parameter) of the object.
#[derive(Serialize, Clone)]
pub struct BorrowView {
    pub name: String,
    pub exclusive: bool,
}

/// A thunk that owns nothing when it borrows its first object refuses that borrow by
/// trapping, and notes only why (`abi::refuse` in bridge-runtime): the glue words the
/// error (`$rethrow`, `$refusal`), with these, as the runtime words the refusals it
/// returns. So the module carries no class, member or parameter name for it.
#[derive(Serialize, Clone)]
pub struct RefusalSite {
    /// The glue name of the object's class: its `<class>$addr` names the class.
    pub class: String,
    /// `Class.member` as the thunk names the member where that is not the call's `label`
    /// (a constructor's: `Class.constructor`).
    pub label: Option<String>,
    /// The parameter as the thunk names it (the record's name; `self` for the receiver).
    pub name: String,
}

/// A Rust closure an export returns: the glue's function object calls `call` (a glue
/// function taking the closure's address, then its arguments) and frees it through `drop`.
#[derive(Serialize, Clone)]
pub struct ClosureView {
    /// The glue binding of `call` (`$closure<n>`), assigned by [`GlueModel::new`].
    pub var: String,
    pub call: FnView,
    /// The `#closure-drop` export, as a JS string literal.
    pub drop: String,
    /// Names the closure in errors.
    pub label: String,
    /// `Box<dyn FnOnce>`: its first call consumes it (`$makeOnce`).
    pub once: bool,
    /// `&dyn Fn`/`&mut dyn FnMut` passed to JS: valid until the call it was lent to
    /// returns (`$lend`); it has no `#closure-drop`.
    pub lent: bool,
    /// The closure behind a returned iterator (`$makeIterator`): each `next()` calls it
    /// for one item, `Option<T>`, and `null` ends the iteration.
    pub iterator: bool,
    /// An iterator whose pull cannot run JS (`postprocess/reach.rs`): nothing can call
    /// its `next()`, `return()` or `release()` while Rust runs it, so its `next()` keeps
    /// no running phase (`$SealedIterator_<var>`). Set by [`GlueModel::seal_iterators`].
    ///
    /// [`GlueModel::seal_iterators`]: crate::glue::GlueModel::seal_iterators
    pub sealed: bool,
    /// The `#closure-call` export, as the module names it (`call.symbol` unquoted).
    #[serde(skip)]
    pub call_export: String,
}

#[derive(Serialize, Clone)]
pub struct ParamView {
    /// The parameter's JS binding: its name, escaped with `_` if that is a reserved word
    /// or repeats an earlier parameter's.
    pub name: String,
    pub ty: TyView,
    pub ts: String,
    /// One of the trailing parameters the glue lets a caller leave out (`Option`,
    /// `JsValue`: `undefined` is `None`): `name?:` in the `.d.ts`.
    pub optional: bool,
    /// A class taken by value (`Ty::ByValue`): its object moves out of JS, and the call
    /// releases its wrapper.
    pub moves: bool,
    /// The JS `this` of the call (`#[bridge(this)]`, the first parameter of a free
    /// function): bound from `this`, not an argument; `this:` in the `.d.ts`.
    pub from_this: bool,
    /// How errors name the parameter: `name`, or `this` for the JS `this`.
    pub label: String,
}

/// Each parameter's JS binding: its name, with `_` appended while it is a reserved word
/// or an earlier parameter's binding (Rust's `new` and `new_` are both `new` in camelCase).
pub fn bindings<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in names {
        let mut name = name.to_string();
        while !bridge_schema::js::is_bindable(&name) || out.contains(&name) {
            name.push('_');
        }
        out.push(name);
    }
    out
}

fn param_bindings(params: &[bridge_schema::Param]) -> Vec<String> {
    bindings(params.iter().map(|p| p.name.as_str()))
}

pub fn doc_lines(doc: &str) -> Vec<String> {
    if doc.is_empty() {
        Vec::new()
    } else {
        doc.lines().map(str::to_string).collect()
    }
}

pub fn fn_view(f: &Function, class: Option<&str>, names: &TypeNames) -> FnView {
    let label = match (class, f.kind) {
        (Some(c), FunctionKind::Constructor) => format!("new {c}"),
        (Some(c), _) => format!("{c}.{}", f.js_name),
        (None, _) => f.js_name.clone(),
    };
    let closure = closure_view(f, &label, names);
    let mut ret = types::export_result(&f.ret, names);
    if let Ty::Callback(cb) = &f.ret {
        ret.ts = ts::closure(cb, names);
    }
    let finish = f.is_async.then(|| finish_view(f, &label, names));
    if let Some(finish) = &finish {
        // The start returns the task id; JS gets a Promise of the result.
        ret = types::at(
            types::view(&Ty::Scalar(Scalar::U32), names),
            &Ty::Scalar(Scalar::U32),
            Site::ExportResult,
        );
        ret.ts = format!("Promise<{}>", finish.call.ret.ts);
    }
    // JS `this` is no argument: the arguments are the parameters after it.
    let this = usize::from(f.js_this);
    let required = ts::required_params(f.params.iter().skip(this).map(|p| &p.ty));
    let params = param_views(f, required, names);
    let refusal = refusal_site(f, class, &params);
    let moves_self = f.receiver == Receiver::Value;
    let moves = moves_self || params.iter().any(|p: &ParamView| p.moves);
    let doc = doc_with_moves(doc_with_throws(&f.doc, &f.ret, names), moves_self, &params);
    FnView {
        js_name: f.js_name.clone(),
        bindable: bridge_schema::js::is_bindable(&f.js_name),
        symbol: js_string(&f.symbol),
        export_var: None,
        class_arg: None,
        label,
        has_self: f.receiver != Receiver::None,
        unchecked_self: f.refuses_released
            && class.is_some()
            && matches!(f.receiver, Receiver::Shared | Receiver::Exclusive)
            && f.params.is_empty(),
        // A record passed flat is not on the wire.
        wire_session: params.iter().any(|p| p.ty.on_wire),
        params,
        required,
        ret,
        doc,
        borrows: borrows(f),
        refusal,
        moves_self,
        moves,
        closure,
        finish,
    }
}

/// An async export's finish: the call that reads its result once the task is done.
fn finish_view(f: &Function, label: &str, names: &TypeNames) -> Box<FinishView> {
    let call = Function {
        kind: FunctionKind::Free,
        js_name: "$finish".to_string(),
        rust_name: String::new(),
        symbol: bridge_schema::async_finish_export(&f.symbol),
        receiver: Receiver::None,
        params: vec![bridge_schema::Param {
            name: "task".to_string(),
            ty: Ty::Scalar(Scalar::U32),
        }],
        ret: f.ret.clone(),
        doc: String::new(),
        is_async: false,
        refuses_released: false,
        as_written: None,
        js_this: false,
        field: false,
    };
    let mut call = fn_view(&call, None, names);
    call.label = label.to_string();
    call.required = 0;
    Box::new(FinishView {
        var: String::new(),
        call,
    })
}

/// An export's parameters (the first `required` arguments not optional in TypeScript).
fn param_views(f: &Function, required: usize, names: &TypeNames) -> Vec<ParamView> {
    let mut flat_slots = 0;
    let this = usize::from(f.js_this);
    param_bindings(&f.params)
        .into_iter()
        .zip(&f.params)
        .enumerate()
        .map(|(i, (name, p))| ParamView {
            label: if i < this {
                "this".into()
            } else {
                name.clone()
            },
            name,
            ty: types::export_param(&p.ty, names, &mut flat_slots),
            ts: match ts::param(&p.ty, names) {
                // A plain call's `this` is `void` to TypeScript, which `None` takes.
                ts if i < this && matches!(p.ty, Ty::Option(_)) => format!("{ts} | void"),
                ts => ts,
            },
            // A setter's one parameter cannot be optional in TypeScript (TS1051).
            optional: i >= this + required && f.kind != FunctionKind::Setter,
            moves: match &p.ty {
                Ty::ByValue(_) => true,
                Ty::Option(inner) => matches!(**inner, Ty::ByValue(_)),
                _ => false,
            },
            from_this: i < this,
        })
        .collect()
}

fn closure_view(f: &Function, owner: &str, names: &TypeNames) -> Option<Box<ClosureView>> {
    // An iterator may be a `Result`'s `Ok` (its `Err` thrown by the call).
    match f.ret.ok() {
        Ty::Callback(cb) => {
            let label = format!("the closure returned by {owner}");
            Some(Box::new(closure_of(&f.symbol, cb, label, names)))
        }
        Ty::Iterator(item) => {
            let next = bridge_schema::iterator_next(item);
            let label = format!("the iterator returned by {owner}");
            let mut view = closure_of(&f.symbol, &next, label, names);
            view.iterator = true;
            Some(Box::new(view))
        }
        _ => None,
    }
}

/// A Rust closure whose `#closure-call` and `#closure-drop` exports are named after
/// `symbol` (an export returning it, or `<import>#a<index>` for one passed to JS).
pub fn closure_of(
    symbol: &str,
    cb: &bridge_schema::Callback,
    label: String,
    names: &TypeNames,
) -> ClosureView {
    let params = std::iter::once(bridge_schema::Param {
        name: "$closure".to_string(),
        ty: Ty::Scalar(Scalar::U32),
    })
    // The `.d.ts`'s names (bindable, unique, no `$`: never `$closure` or a glue name), so a
    // refused argument's message names it as the type does.
    .chain(
        cb.params
            .iter()
            .zip(ts::fn_type_params(cb))
            .map(|(t, name)| bridge_schema::Param {
                name,
                ty: t.clone(),
            }),
    )
    .collect();
    let call = Function {
        is_async: false,
        refuses_released: false,
        as_written: None,
        js_this: false,
        kind: FunctionKind::Free,
        js_name: "$call".to_string(),
        rust_name: String::new(),
        symbol: bridge_schema::closure_call_export(symbol),
        receiver: Receiver::None,
        params,
        ret: (*cb.ret).clone(),
        doc: String::new(),
        field: false,
    };
    let mut call = fn_view(&call, None, names);
    call.label = label.clone();
    // The calling function passes the closure's address first: no arity check.
    call.required = 0;
    ClosureView {
        var: String::new(),
        call,
        drop: js_string(&bridge_schema::closure_drop_export(symbol)),
        label,
        once: cb.hold == bridge_schema::Hold::Once,
        lent: cb.hold == bridge_schema::Hold::Lent,
        iterator: false,
        sealed: false,
        call_export: bridge_schema::closure_call_export(symbol),
    }
}

fn borrows(f: &Function) -> Vec<BorrowView> {
    let this = match f.receiver {
        Receiver::Shared => Some(false),
        Receiver::Exclusive => Some(true),
        Receiver::None | Receiver::Handle | Receiver::Value => None,
    };
    let params = param_bindings(&f.params)
        .into_iter()
        .zip(&f.params)
        .filter_map(|(binding, p)| match &p.ty {
            Ty::ClassMut(_) => Some((binding, true)),
            Ty::ClassRef(_) => Some((binding, false)),
            Ty::Option(inner) => match **inner {
                Ty::ClassMut(_) => Some((binding, true)),
                Ty::ClassRef(_) => Some((binding, false)),
                _ => None,
            },
            _ => None,
        });
    this.map(|exclusive| ("this".to_string(), exclusive))
        .into_iter()
        .chain(params)
        .map(|(name, exclusive)| BorrowView { name, exclusive })
        .collect()
}

/// Where `f`'s thunk refuses a borrow by trapping, and so where the glue words the
/// refusal: `bridge_schema::lowering::trapping_borrow`, the rule the macro's thunks follow
/// (`Preludes` in its `generate/thunk.rs`), read from the record. A wasm-bindgen struct's
/// or an imported type's borrow is no bridge class's: its refusal throws in Rust.
fn refusal_site(f: &Function, class: Option<&str>, params: &[ParamView]) -> Option<RefusalSite> {
    let at = bridge_schema::lowering::trapping_borrow(
        f.receiver,
        f.refuses_released,
        f.params.iter().map(|p| &p.ty),
    )?;
    let index = match at {
        TrappingBorrow::Receiver => {
            return class.map(|c| RefusalSite {
                class: c.to_string(),
                label: None,
                name: "self".to_string(),
            });
        }
        TrappingBorrow::Param(index) => index,
    };
    let (record, view) = (&f.params[index], &params[index]);
    if view.ty.js_type || view.ty.wasm_bindgen {
        return None;
    }
    Some(RefusalSite {
        class: view.ty.class.clone()?,
        label: match (class, f.kind) {
            (Some(c), FunctionKind::Constructor) => Some(format!("{c}.{}", f.js_name)),
            _ => None,
        },
        name: record.name.clone(),
    })
}

/// The doc lines, plus what moves into Rust (`self`, class parameters by value).
fn doc_with_moves(mut lines: Vec<String>, moves_self: bool, params: &[ParamView]) -> Vec<String> {
    if moves_self {
        lines.push(
            "Moves this object into Rust: its wrapper is released by the call (a use after \
             it throws)"
                .to_string(),
        );
    }
    for p in params.iter().filter(|p| p.moves) {
        lines.push(format!(
            "@param {} moves into Rust: the wrapper passed is released by the call",
            p.name
        ));
    }
    lines
}

/// The doc lines, plus what a `Result`-returning export throws.
fn doc_with_throws(doc: &str, ret: &bridge_schema::Ty, names: &TypeNames) -> Vec<String> {
    let mut lines = doc_lines(doc);
    // Items `Result<T, E>`: what each `next()` throws (not the call: no `@throws`;
    // before the call's `@throws`, which would take the line as its own).
    if let bridge_schema::Ty::Iterator(item) = ret.ok()
        && let bridge_schema::Ty::Result(_, err) = &**item
    {
        lines.push(if err.is_empty() {
            "Each `next()` throws an Error when the Rust iterator yields `Err(e)` (`message` is \
             `e`'s `Display` text), and the iterator ends."
                .to_string()
        } else {
            format!(
                "Each `next()` throws an `Error & {{ data: {} }}` when the Rust iterator yields \
                 `Err(e)` (`message` is `e`'s `Display` text, `data` is `e`), and the iterator \
                 ends.",
                names.js_name(err)
            )
        });
    }
    if let bridge_schema::Ty::Result(_, err) = ret {
        lines.push(if err.is_empty() {
            "@throws {Error} when Rust returns `Err(e)`: `message` is `e`'s `Display` text"
                .to_string()
        } else {
            format!(
                "@throws {{Error & {{ data: {} }}}} when Rust returns `Err(e)`: `message` is \
                 `e`'s `Display` text, `data` is `e`",
                names.js_name(err)
            )
        });
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use bridge_schema::Ty;

    #[test]
    fn a_returned_closure_binds_its_parameters_by_the_names_its_ts_type_gives_them() {
        let exports = crate::postprocess::exports::Exports::default();
        let names = TypeNames::new(&exports);
        // A reserved word, a plain name, none (a pattern), one meeting the fallback `a<i>`,
        // one that is no JS identifier (glue names have `$`), a repeat.
        let given = ["delete", "value", "", "a2", "x$y", "value"];
        let cb = bridge_schema::Callback {
            params: vec![Ty::Scalar(Scalar::U32); given.len()],
            ret: Box::new(Ty::String),
            catch: false,
            names: given.iter().map(|n| n.to_string()).collect(),
            hold: bridge_schema::Hold::Owned,
        };
        let f = Function {
            kind: FunctionKind::Free,
            js_name: "make".into(),
            rust_name: "make".into(),
            symbol: "a::make".into(),
            receiver: Receiver::None,
            params: Vec::new(),
            ret: Ty::Callback(cb),
            doc: String::new(),
            is_async: false,
            refuses_released: false,
            as_written: None,
            js_this: false,
            field: false,
        };
        let view = fn_view(&f, None, &names);
        let closure = view.closure.expect("a closure view");
        let bound: Vec<&str> = closure
            .call
            .params
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        let expected = ["delete_", "value", "a2", "a2_", "a4", "value_"];
        assert_eq!(bound[0], "$closure");
        assert_eq!(bound[1..], expected);
        let ts: Vec<String> = expected.iter().map(|n| format!("{n}: number")).collect();
        assert_eq!(
            view.ret.ts,
            format!("(({}) => string) & {{ release(): void }}", ts.join(", "))
        );
    }

    #[test]
    fn an_iterator_of_results_says_what_next_throws_before_the_calls_throws() {
        let exports = crate::postprocess::exports::Exports::default();
        let names = TypeNames::new(&exports);
        let items = Ty::Iterator(Box::new(Ty::Result(
            Box::new(Ty::Scalar(Scalar::U32)),
            String::new(),
        )));
        let lines = doc_with_throws("Doc.", &items, &names);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[1].starts_with("Each `next()` throws an Error"),
            "{lines:?}"
        );
        let both = Ty::Result(Box::new(items), String::new());
        let lines = doc_with_throws("Doc.", &both, &names);
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines[1].starts_with("Each `next()`"), "{lines:?}");
        assert!(lines[2].starts_with("@throws {Error}"), "{lines:?}");
        let plain = Ty::Iterator(Box::new(Ty::Scalar(Scalar::U32)));
        assert_eq!(
            doc_with_throws("Doc.", &plain, &names),
            vec!["Doc.".to_string()]
        );
    }
}
