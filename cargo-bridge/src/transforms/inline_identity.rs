//! Inlines the identity hooks `identity.rs` installed at every call site: each class
//! value handed to JS goes through its class's hook, so the call itself is on the hot
//! path (a roundtrip, each element of a `Vec`).
//! - `none`: the hook returns its argument, so the call is removed.
//! - `pointer`/`rust`: `call $hook` becomes
//!   `local.tee $addr; i32.load slot; if (result i32) <hit> else local.get $addr;
//!   call $hook end`: a hit (slot set) drops the extra reference in place, a miss calls
//!   the hook, which takes its own miss path. `$addr` is one fresh local per function.

use crate::config::IdentityMode;
use crate::transforms::identity::{self, Hook};
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
    let modes: HashMap<FunctionId, IdentityMode> = hooks.iter().map(|h| (h.func, h.mode)).collect();
    for (_, func) in module.funcs.iter_local_mut() {
        let mut addr = None;
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
                inline_hit_path(func, &site, memory, addr);
            }
        }
    }
    Ok(())
}

/// A `call $hook` at `pos` in `seq`.
struct Site {
    seq: InstrSeqId,
    pos: usize,
    hook: FunctionId,
    mode: IdentityMode,
}

/// Every hook call in `func`, each sequence's in order.
fn call_sites(func: &LocalFunction, modes: &HashMap<FunctionId, IdentityMode>) -> Vec<Site> {
    struct Sites<'a> {
        modes: &'a HashMap<FunctionId, IdentityMode>,
        found: Vec<Site>,
    }
    impl<'instr> Visitor<'instr> for Sites<'_> {
        fn start_instr_seq(&mut self, seq: &'instr InstrSeq) {
            for (pos, (instr, _)) in seq.instrs.iter().enumerate() {
                if let Instr::Call(Call { func }) = instr
                    && let Some(&mode) = self.modes.get(func)
                {
                    self.found.push(Site {
                        seq: seq.id(),
                        pos,
                        hook: *func,
                        mode,
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

/// Replaces the `call $hook` at `site` with the hit path, keeping the call for a miss.
fn inline_hit_path(func: &mut LocalFunction, site: &Site, memory: MemoryId, addr: LocalId) {
    let hook = site.hook;
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
    body.if_else_at(
        site.pos + 2,
        ValType::I32,
        |hit| {
            identity::drop_extra_reference(hit, memory, addr);
            hit.local_get(addr);
        },
        |miss| {
            miss.local_get(addr).call(hook);
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transforms::identity::ClassMode;
    use walrus::FunctionBuilder;
    use walrus::ir::IfElse;

    /// Runs both identity passes on `f(addr) = hook(addr)` for class `C` in `mode`; returns
    /// the re-parsed (so validated) module and `f`'s entry block, with its arms inlined.
    fn inline(mode: IdentityMode) -> (Module, Vec<Instr>) {
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

        let hooks = identity::run(
            &mut module,
            &[ClassMode {
                type_id: "t::C",
                mode,
            }],
        )
        .unwrap();
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
        let (module, instrs) = inline(IdentityMode::None);
        assert!(matches!(instrs[..], [Instr::LocalGet(_)]), "{instrs:?}");
        // `f` and the unused `drop_ref`.
        assert_eq!(module.funcs.iter_local().count(), 2);
    }

    #[test]
    fn caching_modes_inline_the_hit_and_call_the_hook_on_a_miss() {
        for mode in [IdentityMode::Pointer, IdentityMode::Rust] {
            let (_, instrs) = inline(mode);
            assert!(
                matches!(
                    instrs[..3],
                    [Instr::LocalGet(_), Instr::LocalTee(_), Instr::Load(_)]
                ),
                "{mode}: {instrs:?}"
            );
            assert!(matches!(instrs[3], Instr::IfElse(_)), "{mode}: {instrs:?}");
            // Hit arm: strong -= 1, no call; miss arm: `local.get; call $hook`.
            assert_eq!(instrs.iter().filter(|i| is_call(i)).count(), 1, "{mode}");
            assert!(is_call(instrs.last().unwrap()), "{mode}: {instrs:?}");
        }
    }
}
