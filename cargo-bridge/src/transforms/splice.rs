//! A helper of the passes (walrus has no inliner): a function's body copied in place of a
//! call to it in tail position. `identity.rs` ends each `<type id>#release_wrapper` with the
//! class's `drop_ref` body this way: a wasm call costs about 1 ns, a few percent of a
//! create + release.

use std::collections::HashMap;
use walrus::ir::{Block, Br, BrIf, BrTable, IfElse, Instr, InstrSeqId, Loop};
use walrus::{InstrSeqBuilder, LocalFunction, LocalId, ModuleTypes};

/// Appends `callee(args...)` to `body`, for a callee that returns nothing, in a function
/// that returns nothing and ends right after (the callee's `return` then returns from the
/// caller). The copy uses the callee's locals (walrus numbers locals per function), its
/// parameters set from `args` first. Returns false, appending nothing, if the callee holds
/// an instruction the copy does not handle (exception handling, GC branches): the caller
/// then calls it instead.
pub fn tail_call(
    body: &mut InstrSeqBuilder,
    types: &ModuleTypes,
    callee: &LocalFunction,
    args: &[LocalId],
) -> bool {
    let entry = callee.entry_block();
    let returns_nothing = types.get(callee.ty()).results().is_empty();
    if !returns_nothing || callee.args.len() != args.len() || !copyable(callee, entry) {
        return false;
    }
    for (&arg, &param) in args.iter().zip(&callee.args) {
        body.local_get(arg).local_set(param);
    }
    let mut seqs = HashMap::new();
    // The entry's own type is the function's (with its parameters): the copy is a block
    // of no parameters and, as the callee returns nothing, no results.
    let mut block = body.dangling_instr_seq(None);
    copy(callee, entry, &mut block, &mut seqs);
    let seq = block.id();
    body.instr(Block { seq });
    true
}

/// Every instruction in `seq` and its nested sequences is one [`copy`] handles.
fn copyable(callee: &LocalFunction, seq: InstrSeqId) -> bool {
    callee
        .block(seq)
        .instrs
        .iter()
        .all(|(instr, _)| match instr {
            Instr::Block(Block { seq }) | Instr::Loop(Loop { seq }) => copyable(callee, *seq),
            Instr::IfElse(IfElse {
                consequent,
                alternative,
            }) => copyable(callee, *consequent) && copyable(callee, *alternative),
            Instr::BrOnNull(_)
            | Instr::BrOnNonNull(_)
            | Instr::BrOnCast(_)
            | Instr::BrOnCastFail(_)
            | Instr::TryTable(_)
            | Instr::Try(_)
            | Instr::Rethrow(_) => false,
            _ => true,
        })
}

/// Copies `from` into `to`, nested sequences into new ones; branch targets follow through
/// `seqs` (a branch only targets an enclosing sequence, which is mapped by then).
fn copy(
    callee: &LocalFunction,
    from: InstrSeqId,
    to: &mut InstrSeqBuilder,
    seqs: &mut HashMap<InstrSeqId, InstrSeqId>,
) {
    seqs.insert(from, to.id());
    for (instr, _) in &callee.block(from).instrs {
        let nested = |to: &mut InstrSeqBuilder, seq: InstrSeqId, seqs: &mut _| {
            let mut inner = to.dangling_instr_seq(callee.block(seq).ty);
            copy(callee, seq, &mut inner, seqs);
            inner.id()
        };
        let copied: Instr = match instr {
            Instr::Block(Block { seq }) => Block {
                seq: nested(to, *seq, seqs),
            }
            .into(),
            Instr::Loop(Loop { seq }) => Loop {
                seq: nested(to, *seq, seqs),
            }
            .into(),
            Instr::IfElse(IfElse {
                consequent,
                alternative,
            }) => IfElse {
                consequent: nested(to, *consequent, seqs),
                alternative: nested(to, *alternative, seqs),
            }
            .into(),
            Instr::Br(Br { block }) => Br { block: seqs[block] }.into(),
            Instr::BrIf(BrIf { block }) => BrIf { block: seqs[block] }.into(),
            Instr::BrTable(BrTable { blocks, default }) => BrTable {
                blocks: blocks.iter().map(|b| seqs[b]).collect(),
                default: seqs[default],
            }
            .into(),
            other => other.clone(),
        };
        to.instr(copied);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use walrus::ir::{BinaryOp, Value};
    use walrus::{FunctionBuilder, FunctionId, Module, ModuleConfig, ValType};

    /// `callee(x)`: a loop counting `x` down to 0 into a global, returning early for 7
    /// (a `br_if` out of the loop, a `br_table`, a `return`); `caller(x)` = `callee(x)`
    /// spliced (or called) in tail position.
    fn module(splice: bool) -> (Module, bool) {
        let mut module = Module::with_config(ModuleConfig::new());
        let count = module.globals.add_local(
            ValType::I32,
            true,
            false,
            walrus::ConstExpr::Value(Value::I32(0)),
        );
        module.exports.add("count", count);
        let x = module.locals.add(ValType::I32);
        let mut f = FunctionBuilder::new(&mut module.types, &[ValType::I32], &[]);
        let mut body = f.func_body();
        body.local_get(x)
            .i32_const(7)
            .binop(BinaryOp::I32Eq)
            .if_else(
                None,
                |seven| {
                    seven.i32_const(700).global_set(count).return_();
                },
                |_| {},
            );
        body.block(None, |done| {
            let done_id = done.id();
            done.loop_(None, |step| {
                let step_id = step.id();
                step.local_get(x)
                    .unop(walrus::ir::UnaryOp::I32Eqz)
                    .br_if(done_id);
                step.global_get(count)
                    .i32_const(1)
                    .binop(BinaryOp::I32Add)
                    .global_set(count);
                step.local_get(x)
                    .i32_const(1)
                    .binop(BinaryOp::I32Sub)
                    .local_set(x);
                // Always 0: back to the loop.
                step.i32_const(0).br_table(vec![step_id].into(), done_id);
            });
        });
        let callee = f.finish(vec![x], &mut module.funcs);
        let arg = module.locals.add(ValType::I32);
        let mut g = FunctionBuilder::new(&mut module.types, &[ValType::I32], &[]);
        let spliced = {
            let src = module.funcs.get(callee).kind.unwrap_local();
            let mut body = g.func_body();
            let spliced = splice && tail_call(&mut body, &module.types, src, &[arg]);
            if !spliced {
                body.local_get(arg).call(callee);
            }
            spliced
        };
        let caller = g.finish(vec![arg], &mut module.funcs);
        module.exports.add("caller", caller);
        (module, spliced)
    }

    fn calls(module: &Module, func: FunctionId) -> usize {
        let f = module.funcs.get(func).kind.unwrap_local();
        let mut n = 0;
        let mut todo = vec![f.entry_block()];
        while let Some(seq) = todo.pop() {
            for (instr, _) in &f.block(seq).instrs {
                match instr {
                    Instr::Call(_) => n += 1,
                    Instr::Block(Block { seq }) | Instr::Loop(Loop { seq }) => todo.push(*seq),
                    Instr::IfElse(IfElse {
                        consequent,
                        alternative,
                    }) => todo.extend([*consequent, *alternative]),
                    _ => {}
                }
            }
        }
        n
    }

    #[test]
    fn a_spliced_body_is_valid_and_has_no_call() {
        let (mut module, spliced) = module(true);
        assert!(spliced);
        // Re-parsed: the copy validates (branch targets, locals, block types).
        let module = Module::from_buffer(&module.emit_wasm()).unwrap();
        let caller = module.exports.get_func("caller").unwrap();
        assert_eq!(calls(&module, caller), 0);
        // The same loop, branches and early return as the callee's.
        let (mut called, _) = module_with_call();
        let called = Module::from_buffer(&called.emit_wasm()).unwrap();
        let callee = called.exports.get_func("caller").unwrap();
        assert_eq!(calls(&called, callee), 1);
    }

    fn module_with_call() -> (Module, bool) {
        module(false)
    }

    #[test]
    fn a_body_it_cannot_copy_is_left_to_a_call() {
        let mut module = Module::with_config(ModuleConfig::new());
        let x = module.locals.add(ValType::I32);
        let mut f = FunctionBuilder::new(&mut module.types, &[ValType::I32], &[]);
        f.func_body()
            .instr(walrus::ir::Rethrow { relative_depth: 0 });
        let callee = f.finish(vec![x], &mut module.funcs);
        let arg = module.locals.add(ValType::I32);
        let mut g = FunctionBuilder::new(&mut module.types, &[ValType::I32], &[]);
        let src = module.funcs.get(callee).kind.unwrap_local();
        let mut body = g.func_body();
        assert!(!tail_call(&mut body, &module.types, src, &[arg]));
        assert!(body.instrs().is_empty(), "nothing appended");
    }
}
