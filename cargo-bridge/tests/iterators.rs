//! The exports behind an iterator returned to JS (issue 23 item 5): each `next()` runs
//! the export's `#closure-call`, which pulls from the iterator in its own type, a direct
//! call into the iterator's `next` (inlined), never a `call_indirect` through a boxed
//! closure; and the released package pulls lazily, one item per `next()`.
//!
//! Crate names are unique per test (see `support`).

mod support;

use std::path::Path;
use support::{Project, run_node_module};
use walrus::ir::{Instr, InstrLocId, Visitor, dfs_in_order};

const LIB: &str = r#"
use bridge_runtime::{bridge, Handle};
use std::cell::Cell;

thread_local! {
    static PULLED: Cell<u32> = const { Cell::new(0) };
}

#[bridge(identity_mode = "rust")]
pub struct Bag {
    items: Vec<u32>,
}

#[bridge]
impl Bag {
    #[bridge(constructor)]
    pub fn new(n: u32) -> Bag {
        Bag { items: (1..=n).collect() }
    }

    /// A method's iterator (its source is the wrapper), over a copy of the items.
    pub fn each(&self) -> impl Iterator<Item = u32> + 'static {
        self.items.clone().into_iter().inspect(|_| PULLED.with(|p| p.set(p.get() + 1)))
    }

    /// Class handles, forever.
    pub fn again(this: &Handle<Self>) -> impl Iterator<Item = Handle<Bag>> + 'static {
        std::iter::repeat(this.clone())
    }
}

/// A free function's iterator with two arguments.
#[bridge]
pub fn evens(from: u32, to: u32) -> impl Iterator<Item = u32> + 'static {
    (from..to).filter(|i| i % 2 == 0)
}

/// An iterator whose pull calls JS: its `next()` keeps the running phase.
#[bridge]
pub fn calling(n: u32, during: Box<dyn Fn(u32)>) -> impl Iterator<Item = u32> + 'static {
    (0..n).inspect(move |&i| during(i))
}

#[bridge]
pub fn pulled() -> u32 {
    PULLED.with(|p| p.get())
}
"#;

/// Counts the `call_indirect`s of one function body (not of the functions it calls).
struct Indirect(usize);

impl<'instr> Visitor<'instr> for Indirect {
    fn visit_instr(&mut self, instr: &'instr Instr, _: &'instr InstrLocId) {
        if let Instr::CallIndirect(_) = instr {
            self.0 += 1;
        }
    }
}

/// Each `#closure-call` export of `wasm` with its body's `call_indirect` count.
fn pulls(wasm: &Path) -> Vec<(String, usize)> {
    let module = walrus::Module::from_file(wasm).unwrap();
    let mut found = Vec::new();
    for export in module.exports.iter() {
        let walrus::ExportItem::Function(id) = export.item else {
            continue;
        };
        if !export.name.ends_with("#closure-call") {
            continue;
        }
        let walrus::FunctionKind::Local(f) = &module.funcs.get(id).kind else {
            panic!("{} is not a local function", export.name);
        };
        let mut count = Indirect(0);
        dfs_in_order(&mut count, f, f.entry_block());
        found.push((export.name.clone(), count.0));
    }
    found.sort();
    found
}

#[test]
fn an_iterators_next_is_a_direct_call_and_pulls_one_item() {
    let project = Project::workspace(&["bag"], "");
    project.bridge_crate("bag", "iter-bag", "\"cdylib\"", "", LIB);
    let pkg = project.path("bag/pkg");
    project.build(&["--release"]).ok();

    let found = pulls(&pkg.join("iter_bag_bg.wasm"));
    let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "iter-bag::Bag::again#closure-call",
            "iter-bag::Bag::each#closure-call",
            "iter-bag::calling#closure-call",
            "iter-bag::evens#closure-call",
        ],
        "one pull export per iterator"
    );
    for (name, indirect) in &found {
        // `calling`'s iterator calls its `Box<dyn Fn>` (indirectly) in each pull.
        let expected = usize::from(name.ends_with("::calling#closure-call"));
        assert_eq!(*indirect, expected, "{name}'s call_indirects");
    }

    let out = run_node_module(
        &project.path("run.mjs"),
        &format!(
            "const m = await import({:?});
             const bag = new m.Bag(5);
             const it = bag.each();
             const first = it.next().value;
             const pulledOne = m.pulled();
             const rest = [...it];
             const again = bag.again();
             const same = again.next().value === bag && again.next().value === bag;
             again.return();
             let inner = null;
             const calls = m.calling(3, (i) => {{
               if (i === 1) try {{ calls.next(); }} catch (e) {{ inner = e.message; }}
             }});
             console.log(JSON.stringify([first, pulledOne, rest, m.pulled(), [...m.evens(3, 10)], same, [...calls], inner]));",
            pkg.join("iter_bag.js").display().to_string()
        ),
    );
    assert_eq!(
        out,
        "[1,1,[2,3,4,5],5,[4,6,8],true,[0,1,2],\
         \"the iterator returned by calling is already running: next() cannot be called from inside its own next()\"]"
    );
}

/// A pull that cannot run JS gets the sealed iterator (no running phase in `next()`),
/// one that can the guarded one: `cargo bridge` follows each pull's calls through the
/// module (`postprocess/reach.rs`), in debug and release builds alike.
#[test]
fn only_an_iterator_whose_pull_can_run_js_keeps_the_running_phase() {
    let project = Project::workspace(&["bag"], "");
    project.bridge_crate("bag", "seal-bag", "\"cdylib\"", "", LIB);
    for release in [false, true] {
        let args: &[&str] = if release { &["--release"] } else { &[] };
        project.build(args).ok();
        let glue = support::read(&project.path("bag/pkg/seal_bag.js"));
        for (pull, class) in [
            ("Bag::each", "$SealedIterator"),
            ("Bag::again", "$SealedIterator"),
            ("evens", "$SealedIterator"),
            ("calling", "$BridgeIterator"),
        ] {
            let call = format!("$makeIterator({class}_$closure");
            let line = glue
                .lines()
                .find(|l| l.contains(&format!("\"seal-bag::{pull}#closure-drop\"")))
                .unwrap_or_else(|| panic!("no $makeIterator for {pull} (release {release})"));
            assert!(
                line.contains(&call),
                "{pull} (release {release}) should be made by {call}: {line}"
            );
        }
    }
}
