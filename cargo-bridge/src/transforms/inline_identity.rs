//! Inlines the identity hooks `identity.rs` installed at every call site: each class
//! value handed to JS goes through its class's hook, so the call itself is on the hot
//! path (a roundtrip, each element of a `Vec`).
//! - `none`: the hook returns its argument, so the call is removed.
//! - `pointer`/`rust`: `call $hook` becomes
//!   `local.tee $addr; i32.load slot; if (result i32) <hit> else <miss> end`: a hit (slot
//!   set) drops the extra reference in place, a miss takes the hook's miss path in place
//!   too (`identity::MissPath`: no call unless a fast pool records; a call was ~1 ns of
//!   a create). `$addr` is one fresh local per function. In `rust` mode the slot is kept
//!   (`local.tee $slot` before the `if`) for the hit's result, the tagged slot
//!   (`identity::hit`); `$slot` is one more fresh local per function.

use crate::settings::identity::IdentityMode;
use crate::transforms::identity::{self, Hook, MissPath};
use anyhow::Result;
use bridge_schema::header;
use std::collections::HashMap;
use walrus::ir::{Call, Instr, InstrSeq, InstrSeqId, Load, LoadKind, LocalTee, Visitor};
use walrus::{FunctionId, LocalFunction, LocalId, MemoryId, Module, ValType};

pub fn run(module: &mut Module, hooks: &[Hook]) -> Result<()> {
    if hooks.is_empty() {
        return Ok(());
    }
    let memory = identity::main_memory(module)?;
    let modes: HashMap<FunctionId, (IdentityMode, MissPath)> =
        hooks.iter().map(|h| (h.func, (h.mode, h.miss))).collect();
    for (_, func) in module.funcs.iter_local_mut() {
        let mut addr = None;
        let mut slot = None;
        // Back to front, so that splicing never moves a site still to do.
        for site in call_sites(func, &modes).into_iter().rev() {
            if site.mode == IdentityMode::None {
                // The identity function: the address stays on the stack as it is.
                func.builder_mut()
                    .instr_seq(site.seq)
                    .instrs_mut()
                    .remove(site.pos);
            } else {
                let addr = *addr.get_or_insert_with(|| module.locals.add(ValType::I32));
                let slot = (site.mode == IdentityMode::Rust)
                    .then(|| *slot.get_or_insert_with(|| module.locals.add(ValType::I32)));
                inline_hook(func, &site, memory, addr, slot);
            }
        }
    }
    Ok(())
}

/// A `call $hook` at `pos` in `seq`.
struct Site {
    seq: InstrSeqId,
    pos: usize,
    mode: IdentityMode,
    miss: MissPath,
}

/// Every hook call in `func`, each sequence's in order.
fn call_sites(
    func: &LocalFunction,
    modes: &HashMap<FunctionId, (IdentityMode, MissPath)>,
) -> Vec<Site> {
    struct Sites<'a> {
        modes: &'a HashMap<FunctionId, (IdentityMode, MissPath)>,
        found: Vec<Site>,
    }
    impl<'instr> Visitor<'instr> for Sites<'_> {
        fn start_instr_seq(&mut self, seq: &'instr InstrSeq) {
            for (pos, (instr, _)) in seq.instrs.iter().enumerate() {
                if let Instr::Call(Call { func }) = instr
                    && let Some(&(mode, miss)) = self.modes.get(func)
                {
                    self.found.push(Site {
                        seq: seq.id(),
                        pos,
                        mode,
                        miss,
                    });
                }
            }
        }
    }
    let mut sites = Sites {
        modes,
        found: Vec::new(),
    };
    walrus::ir::dfs_in_order(&mut sites, func, func.entry_block());
    sites.found
}

/// Replaces the `call $hook` at `site` with the hook's body: the hit and miss paths
/// (`slot`: where a `rust`-mode hit keeps the header's slot).
fn inline_hook(
    func: &mut LocalFunction,
    site: &Site,
    memory: MemoryId,
    addr: LocalId,
    slot: Option<LocalId>,
) {
    let miss = site.miss;
    let mut body = func.builder_mut().instr_seq(site.seq);
    body.instrs_mut()[site.pos].0 = LocalTee { local: addr }.into();
    body.instr_at(
        site.pos + 1,
        Load {
            memory,
            kind: LoadKind::I32 { atomic: false },
            arg: identity::i32_at(header::SLOT_OFFSET),
        },
    );
    let mut at = site.pos + 2;
    if let Some(slot) = slot {
        body.instr_at(at, LocalTee { local: slot });
        at += 1;
    }
    body.if_else_at(
        at,
        ValType::I32,
        |hit| identity::hit(hit, memory, addr, slot),
        |fresh| {
            miss.emit(fresh, addr);
            fresh.local_get(addr);
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transforms::identity::ClassMode;
    use bridge_schema::abi::exports;
    use walrus::ir::{BinaryOp, IfElse, Value};
    use walrus::{ConstExpr, FunctionBuilder};

    /// Where the test modules' recording byte lives.
    const POOL_ACTIVE_AT: i32 = 1024;

    fn class(mode: IdentityMode) -> ClassMode<'static> {
        ClassMode {
            type_id: "t::C",
            mode,
        }
    }

    /// A module with `f(addr) = hook(addr)` for class `C` and its `drop_ref`; `pools`: also
    /// the runtime's `__bridge_pool_note` and `__bridge_pool_active` exports.
    fn hook_module(pools: bool) -> Module {
        let mut module = Module::default();
        module.memories.add_local(false, false, 1, None, None);
        let ty = module.types.add(&[ValType::I32], &[ValType::I32]);
        let (hook, _) = module.add_import_func(
            bridge_schema::IDENTITY_IMPORT_MODULE,
            &bridge_schema::identity_import("t::C"),
            ty,
        );
        let arg = module.locals.add(ValType::I32);
        let mut f = FunctionBuilder::new(&mut module.types, &[ValType::I32], &[ValType::I32]);
        f.func_body().local_get(arg).call(hook);
        let f = f.finish(vec![arg], &mut module.funcs);
        module.exports.add("f", f);
        // `rust` mode's release wrapper calls it.
        let drop_ref = FunctionBuilder::new(&mut module.types, &[ValType::I32], &[]);
        let drop_ref = drop_ref.finish(vec![module.locals.add(ValType::I32)], &mut module.funcs);
        module
            .exports
            .add(&bridge_schema::drop_ref_export("t::C"), drop_ref);
        if pools {
            let note = FunctionBuilder::new(&mut module.types, &[ValType::I32, ValType::I32], &[]);
            let params = vec![
                module.locals.add(ValType::I32),
                module.locals.add(ValType::I32),
            ];
            let note = note.finish(params, &mut module.funcs);
            module.exports.add(exports::POOL_NOTE, note);
            let at = ConstExpr::Value(Value::I32(POOL_ACTIVE_AT));
            let active = module.globals.add_local(ValType::I32, false, false, at);
            module.exports.add(exports::POOL_ACTIVE, active);
        }
        module
    }

    /// Runs both identity passes on [`hook_module`] for class `C` in `mode`; returns the
    /// re-parsed (so validated) module and `f`'s entry block, with its arms inlined.
    fn inline(mode: IdentityMode, pools: bool) -> (Module, Vec<Instr>) {
        let mut module = hook_module(pools);
        let hooks = identity::run(&mut module, &[class(mode)]).unwrap();
        run(&mut module, &hooks).unwrap();
        walrus::passes::gc::run(&mut module);
        let module = Module::from_buffer(&module.emit_wasm()).unwrap();

        let f = module.funcs.get(module.exports.get_func("f").unwrap());
        let f = f.kind.unwrap_local();
        let mut instrs = Vec::new();
        for (instr, _) in &f.block(f.entry_block()).instrs {
            instrs.push(instr.clone());
            if let Instr::IfElse(IfElse {
                consequent,
                alternative,
            }) = instr
            {
                for arm in [consequent, alternative] {
                    instrs.extend(f.block(*arm).instrs.iter().map(|(i, _)| i.clone()));
                }
            }
        }
        (module, instrs)
    }

    fn is_call(instr: &Instr) -> bool {
        matches!(instr, Instr::Call(_))
    }

    #[test]
    fn none_mode_removes_the_call_and_the_hook() {
        let (module, instrs) = inline(IdentityMode::None, false);
        assert!(matches!(instrs[..], [Instr::LocalGet(_)]), "{instrs:?}");
        // `f` and the unused `drop_ref`.
        assert_eq!(module.funcs.iter_local().count(), 2);
    }

    #[test]
    fn caching_modes_inline_the_hit_and_the_miss() {
        for mode in [IdentityMode::Pointer, IdentityMode::Rust] {
            let (module, instrs) = inline(mode, false);
            assert!(
                matches!(
                    instrs[..3],
                    [Instr::LocalGet(_), Instr::LocalTee(_), Instr::Load(_)]
                ),
                "{mode}: {instrs:?}"
            );
            // `rust` mode keeps the slot for the hit's result.
            let branch = if mode == IdentityMode::Rust { 4 } else { 3 };
            if mode == IdentityMode::Rust {
                assert!(matches!(instrs[3], Instr::LocalTee(_)), "{instrs:?}");
            }
            assert!(
                matches!(instrs[branch], Instr::IfElse(_)),
                "{mode}: {instrs:?}"
            );
            // Hit arm: strong -= 1; miss arm: slot pending (and the table count): no call.
            assert_eq!(instrs.iter().filter(|i| is_call(i)).count(), 0, "{mode}");
            assert!(
                instrs.iter().any(|i| matches!(i, Instr::Store(_))),
                "{mode}: the miss marks the slot pending: {instrs:?}"
            );
            let counts = instrs.iter().any(|i| matches!(i, Instr::GlobalSet(_)));
            assert_eq!(counts, mode == IdentityMode::Rust, "{mode}: {instrs:?}");
            // `f`, `release_wrapper` (rust) and the unused `drop_ref`: the hook is gone.
            let funcs = module.funcs.iter_local().count();
            assert_eq!(
                funcs,
                if mode == IdentityMode::Rust { 3 } else { 2 },
                "{mode}"
            );
        }
    }

    /// The hit arm's result: `pointer` mode the address; `rust` mode
    /// `select(slot << 1 | HIT_TAG, addr, slot > 0)`, the slot being the one the `if` tested.
    #[test]
    fn a_rust_mode_hit_hands_the_tagged_slot_unless_pending() {
        for mode in [IdentityMode::Pointer, IdentityMode::Rust] {
            let (module, instrs) = inline(mode, false);
            let f = module.funcs.get(module.exports.get_func("f").unwrap());
            let f = f.kind.unwrap_local();
            let Some(Instr::IfElse(IfElse { consequent, .. })) =
                instrs.iter().find(|i| matches!(i, Instr::IfElse(_)))
            else {
                panic!("{mode}: no hit/miss branch: {instrs:?}");
            };
            let hit: Vec<&Instr> = f.block(*consequent).instrs.iter().map(|(i, _)| i).collect();
            let Instr::LocalTee(LocalTee { local: addr }) = instrs[1] else {
                panic!("{instrs:?}");
            };
            if mode == IdentityMode::Pointer {
                assert!(
                    matches!(hit.last(), Some(Instr::LocalGet(g)) if g.local == addr),
                    "{hit:?}"
                );
                continue;
            }
            let Instr::LocalTee(LocalTee { local: slot }) = instrs[3] else {
                panic!("{instrs:?}");
            };
            let tail = &hit[hit.len() - 10..];
            let get = |i: &Instr, l: LocalId| matches!(i, Instr::LocalGet(g) if g.local == l);
            let int = |i: &Instr, v: i32| matches!(i, Instr::Const(c) if matches!(c.value, Value::I32(x) if x == v));
            let op = |i: &Instr| match i {
                Instr::Binop(b) => Some(b.op),
                _ => None,
            };
            assert!(
                get(tail[0], slot)
                    && int(tail[1], 1)
                    && matches!(op(tail[2]), Some(BinaryOp::I32Shl))
                    && int(tail[3], header::HIT_TAG)
                    && matches!(op(tail[4]), Some(BinaryOp::I32Or))
                    && get(tail[5], addr)
                    && get(tail[6], slot)
                    && int(tail[7], 0)
                    && matches!(op(tail[8]), Some(BinaryOp::I32GtS))
                    && matches!(tail[9], Instr::Select(_)),
                "{hit:?}"
            );
        }
    }

    /// With fast pools in the module, a `rust`-mode miss calls `__bridge_pool_note` only
    /// under a test of the runtime's recording byte, read at its exported address.
    #[test]
    fn rust_mode_notes_a_miss_only_while_a_pool_records() {
        let (module, instrs) = inline(IdentityMode::Rust, true);
        let flag = instrs
            .iter()
            .position(
                |i| matches!(i, Instr::Const(c) if matches!(c.value, Value::I32(POOL_ACTIVE_AT))),
            )
            .unwrap_or_else(|| panic!("no read of the recording byte: {instrs:?}"));
        assert!(
            matches!(&instrs[flag + 1], Instr::Load(l) if matches!(l.kind, LoadKind::I32_8 { .. })),
            "{instrs:?}"
        );
        let Instr::IfElse(IfElse { consequent, .. }) = &instrs[flag + 2] else {
            panic!("the note is not conditional: {instrs:?}");
        };
        let f = module.funcs.get(module.exports.get_func("f").unwrap());
        let recording = &f.kind.unwrap_local().block(*consequent).instrs;
        let note = module.exports.get_func(exports::POOL_NOTE).unwrap();
        assert!(
            matches!(recording.last(), Some((Instr::Call(Call { func }), _)) if *func == note),
            "{recording:?}"
        );
    }

    #[test]
    fn a_pool_note_without_the_recording_byte_is_an_error() {
        let mut module = hook_module(true);
        let active = module
            .exports
            .iter()
            .find(|e| e.name == exports::POOL_ACTIVE)
            .unwrap()
            .id();
        module.exports.delete(active);
        let err = identity::run(&mut module, &[class(IdentityMode::Rust)])
            .err()
            .expect("a module with the note but no recording byte");
        let message = format!("{err:#}");
        assert!(message.contains(exports::POOL_ACTIVE), "{message}");
        assert!(message.contains("matching bridge-runtime"), "{message}");
    }
}
