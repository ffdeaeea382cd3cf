//! Replaces the runtime's `__bridge_identity.__pool_release(class, addr, release_wrapper)`
//! import with a dispatch over the module's `rust`-mode classes (by class index, the
//! order the glue uses): optionally `<type id>#release_wrapper(addr)`, then
//! `<type id>#drop_ref(addr)` for the pool entry's own reference.
//!
//! A module without `rust`-mode classes has nothing to record, so its fast-pool exports
//! are removed: its glue then uses the JS pool implementation.

use super::exported_func;
use crate::settings::identity::IdentityMode;
use crate::transforms::identity::ClassMode;
use anyhow::Result;
use walrus::ir::BinaryOp;
use walrus::{Module, ValType};

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
        for (index, release, drop_ref) in targets {
            body.local_get(class)
                .i32_const(index)
                .binop(BinaryOp::I32Eq)
                .if_else(
                    None,
                    |hit| {
                        hit.local_get(release_wrapper).if_else(
                            None,
                            |yes| {
                                yes.local_get(addr).call(release);
                            },
                            |_| {},
                        );
                        hit.local_get(addr).call(drop_ref).return_();
                    },
                    |_| {},
                );
        }
    })?;
    if !has_fast_path {
        remove_pool_exports(module);
    }
    Ok(())
}

/// The `rust`-mode classes: (class index, its release wrapper, its drop-ref export).
fn targets(
    module: &Module,
    classes: &[ClassMode],
) -> Result<Vec<(i32, walrus::FunctionId, walrus::FunctionId)>> {
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
