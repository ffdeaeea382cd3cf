//! Replaces the runtime's `__bridge_identity.__pool_release(class, addr, release_wrapper)`
//! import with a dispatch over the module's `rust`-mode classes (by class index, the
//! order the glue uses): optionally `<type id>#release_wrapper(addr)`, then
//! `<type id>#drop_ref(addr)` for the pool entry's own reference.
//!
//! The dispatch is one `br_table` on the class index into one arm per class (an index
//! that is no `rust`-mode class's does nothing, as before): a chain of compares cost each
//! class a block with its own constant, ~12 B gz of module per class, and a drain entry
//! of the last class one compare per class before it; the arms are the same code when
//! `wasm-opt` has merged the classes' functions, so gzip copies them (issue 48).
//!
//! A module without `rust`-mode classes has nothing to record, so its fast-pool exports
//! are removed: its glue then uses the JS pool implementation.

use super::exported_func;
use crate::settings::identity::IdentityMode;
use crate::transforms::identity::ClassMode;
use anyhow::Result;
use walrus::ir::InstrSeqId;
use walrus::{FunctionId, InstrSeqBuilder, LocalId, Module, ValType};

pub fn run(module: &mut Module, classes: &[ClassMode]) -> Result<()> {
    let Ok(import) = module.imports.get_func(
        bridge_schema::IDENTITY_IMPORT_MODULE,
        bridge_schema::POOL_RELEASE_IMPORT,
    ) else {
        return Ok(());
    };
    super::check_signature(
        module,
        import,
        &[ValType::I32; 3],
        &[],
        &format!(
            "import `{}.{}`",
            bridge_schema::IDENTITY_IMPORT_MODULE,
            bridge_schema::POOL_RELEASE_IMPORT
        ),
    )?;
    let targets = targets(module, classes)?;
    let has_fast_path = !targets.is_empty();
    module.replace_imported_func(import, |(body, args)| {
        let (class, addr, release_wrapper) = (args[0], args[1], args[2]);
        if targets.is_empty() {
            return;
        }
        body.block(None, |unknown| {
            let mut labels = Vec::with_capacity(targets.len());
            arms(
                unknown,
                &targets,
                &mut labels,
                &|table, labels| {
                    let default = unknown_label(labels);
                    table
                        .local_get(class)
                        .br_table(branch_targets(&targets, labels, default), default);
                },
                (addr, release_wrapper),
            );
        });
    })?;
    if !has_fast_path {
        remove_pool_exports(module);
    }
    Ok(())
}

/// A `rust`-mode class's arm: (class index, its release wrapper, its drop-ref export).
type Arm = (i32, FunctionId, FunctionId);

/// Nests one block per arm inside `outer`, innermost first in `targets` order, with
/// `table` (the `br_table`) in the innermost; after each block's `end` comes its arm:
/// optionally release the wrapper, drop the entry's reference, return. `labels` collects
/// the blocks' ids, outermost (`outer` itself, the unknown-class exit) first.
fn arms(
    outer: &mut InstrSeqBuilder,
    targets: &[Arm],
    labels: &mut Vec<InstrSeqId>,
    table: &dyn Fn(&mut InstrSeqBuilder, &[InstrSeqId]),
    (addr, release_wrapper): (LocalId, LocalId),
) {
    labels.push(outer.id());
    let Some((&(_, release, drop_ref), inner)) = targets.split_last() else {
        table(outer, labels);
        return;
    };
    outer.block(None, |block| {
        arms(block, inner, labels, table, (addr, release_wrapper));
    });
    outer
        .local_get(release_wrapper)
        .if_else(
            None,
            |yes| {
                yes.local_get(addr).call(release);
            },
            |_| {},
        )
        .local_get(addr)
        .call(drop_ref)
        .return_();
}

/// The block a class index that is no `rust`-mode class's branches to: the outermost.
fn unknown_label(labels: &[InstrSeqId]) -> InstrSeqId {
    labels[0]
}

/// The `br_table`'s targets, by class index: the block whose end starts that class's arm
/// (`targets[k]`'s is `labels[len - 1 - k]`: the first target's arm follows the innermost
/// block), else `default`.
fn branch_targets(
    targets: &[Arm],
    labels: &[InstrSeqId],
    default: InstrSeqId,
) -> Box<[InstrSeqId]> {
    let len = targets.iter().map(|t| t.0 + 1).max().unwrap_or(0) as usize;
    let mut table = vec![default; len];
    for (k, (index, ..)) in targets.iter().enumerate() {
        table[*index as usize] = labels[labels.len() - 1 - k];
    }
    table.into_boxed_slice()
}

/// The `rust`-mode classes: (class index, its release wrapper, its drop-ref export).
fn targets(module: &Module, classes: &[ClassMode]) -> Result<Vec<Arm>> {
    let exports = super::by_name::FuncExports::of(module);
    let mut targets = Vec::new();
    for (index, c) in classes.iter().enumerate() {
        if c.mode != IdentityMode::Rust {
            continue;
        }
        let release = exported_func(
            module,
            &exports,
            &bridge_schema::release_wrapper_export(c.type_id),
            &[ValType::I32],
        )?;
        let drop_ref = exported_func(
            module,
            &exports,
            &bridge_schema::drop_ref_export(c.type_id),
            &[ValType::I32],
        )?;
        targets.push((index as i32, release, drop_ref));
    }
    Ok(targets)
}

fn remove_pool_exports(module: &mut Module) {
    let pool_exports: Vec<_> = module
        .exports
        .iter()
        .filter(|e| e.name.starts_with("__bridge_pool_"))
        .map(|e| e.id())
        .collect();
    for id in pool_exports {
        module.exports.delete(id);
    }
}
