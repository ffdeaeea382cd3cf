//! Installs each class's identity mode: replaces the `__bridge_identity.<type id>` import
//! (called on every class value handed to JS) with the mode's lowering, and for `rust`
//! mode adds the identity-table size global `<type id>#identity_table_len` and the
//! `<type id>#release_wrapper` export (names from `bridge_schema`).
//!
//! The lowering reads the box header (`bridge_schema::header`): its identity slot is 0
//! until JS caches a wrapper for the object.
//! - `none`: hand the reference to JS unchanged.
//! - `pointer`/`rust`: if the slot is set, JS already holds a wrapper that owns a
//!   reference, so drop the extra one here (no call back from JS on a hit); else mark the
//!   slot pending (JS assigns it) and hand the reference over. In `rust` mode that
//!   reference becomes the identity table's, counted in the table-size global, and the
//!   object is noted for the fast release pool (`__bridge_pool_note(class index, addr)`).
//!
//! The installed hooks are returned: `inline_identity.rs` then inlines them at their
//! call sites.

use crate::config::IdentityMode;
use anyhow::{Context, Result, bail};
use bridge_schema::header;
use walrus::ir::{BinaryOp, LoadKind, MemArg, StoreKind, UnaryOp};
use walrus::{
    ConstExpr, FunctionBuilder, FunctionId, GlobalId, InstrSeqBuilder, LocalId, MemoryId, Module,
    ValType, ir::Value,
};

pub struct ClassMode<'a> {
    /// The class's type id (see `bridge_schema::type_id`).
    pub type_id: &'a str,
    pub mode: IdentityMode,
}

/// An installed identity hook: `(addr) -> addr`, now a local function.
pub struct Hook {
    pub func: FunctionId,
    pub mode: IdentityMode,
}

/// `classes` in glue order: a class's index is its position (the fast pool's class id).
pub fn run(module: &mut Module, classes: &[ClassMode]) -> Result<Vec<Hook>> {
    let memory = main_memory(module)?;
    let pool_note = match module.exports.get_func("__bridge_pool_note") {
        Ok(note) => {
            super::check_signature(
                module,
                note,
                &[ValType::I32, ValType::I32],
                &[],
                "export `__bridge_pool_note`",
            )?;
            Some(note)
        }
        Err(_) => None,
    };
    let mut hooks = Vec::new();
    for (index, ClassMode { type_id, mode }) in classes.iter().enumerate() {
        let class = *type_id;
        let hook = module
            .imports
            .get_func(
                bridge_schema::IDENTITY_IMPORT_MODULE,
                bridge_schema::identity_import(class),
            )
            .ok();
        let table_len = (*mode == IdentityMode::Rust).then(|| add_table_len_global(module, class));
        if let Some(hook) = hook {
            super::check_signature(
                module,
                hook,
                &[ValType::I32],
                &[ValType::I32],
                &format!("import `{}.{class}`", bridge_schema::IDENTITY_IMPORT_MODULE),
            )?;
            let note = table_len.and(pool_note).map(|f| (f, index as i32));
            install_lowering(module, hook, memory, *mode, table_len, note)?;
            hooks.push(Hook {
                func: hook,
                mode: *mode,
            });
        }
        if let Some(table_len) = table_len {
            add_release_wrapper(module, class, memory, table_len)?;
        }
    }
    if let Some(stray) = module.imports.iter().find(|i| {
        i.module == bridge_schema::IDENTITY_IMPORT_MODULE
            && i.name != bridge_schema::POOL_RELEASE_IMPORT
    }) {
        bail!(
            "the module imports an identity hook for `{}`, which no #[bridge] struct declares; \
             rebuild with matching bridge-runtime and cargo-bridge versions",
            stray.name
        );
    }
    Ok(hooks)
}

pub(super) fn main_memory(module: &Module) -> Result<MemoryId> {
    module
        .memories
        .iter()
        .next()
        .map(|m| m.id())
        .context("the module has no linear memory")
}

pub(super) fn i32_at(offset: u32) -> MemArg {
    MemArg {
        align: 4,
        offset: offset.into(),
    }
}

fn load(body: &mut InstrSeqBuilder, memory: MemoryId, addr: LocalId, offset: u32) {
    body.local_get(addr)
        .load(memory, LoadKind::I32 { atomic: false }, i32_at(offset));
}

fn add_table_len_global(module: &mut Module, class: &str) -> GlobalId {
    let global =
        module
            .globals
            .add_local(ValType::I32, true, false, ConstExpr::Value(Value::I32(0)));
    module
        .exports
        .add(&bridge_schema::identity_table_len_export(class), global);
    global
}

fn add_to_global(body: &mut InstrSeqBuilder, global: GlobalId, delta: i32) {
    body.global_get(global)
        .i32_const(delta)
        .binop(BinaryOp::I32Add)
        .global_set(global);
}

fn install_lowering(
    module: &mut Module,
    hook: FunctionId,
    memory: MemoryId,
    mode: IdentityMode,
    table_len: Option<GlobalId>,
    pool_note: Option<(FunctionId, i32)>,
) -> Result<()> {
    module.replace_imported_func(hook, |(body, args)| {
        let addr = args[0];
        if mode != IdentityMode::None {
            load(body, memory, addr, header::SLOT_OFFSET);
            body.if_else(
                None,
                |cached| drop_extra_reference(cached, memory, addr),
                |fresh| {
                    fresh.local_get(addr).i32_const(header::SLOT_PENDING).store(
                        memory,
                        StoreKind::I32 { atomic: false },
                        i32_at(header::SLOT_OFFSET),
                    );
                    if let Some(global) = table_len {
                        add_to_global(fresh, global, 1);
                    }
                    if let Some((note, class_index)) = pool_note {
                        fresh.i32_const(class_index).local_get(addr).call(note);
                    }
                },
            );
        }
        body.local_get(addr);
    })?;
    Ok(())
}

/// The hit path: strong -= 1, since JS's wrapper already owns a reference.
pub(super) fn drop_extra_reference(body: &mut InstrSeqBuilder, memory: MemoryId, addr: LocalId) {
    body.local_get(addr);
    load(body, memory, addr, header::STRONG_OFFSET);
    body.i32_const(1).binop(BinaryOp::I32Sub).store(
        memory,
        StoreKind::I32 { atomic: false },
        i32_at(header::STRONG_OFFSET),
    );
}

fn add_release_wrapper(
    module: &mut Module,
    class: &str,
    memory: MemoryId,
    table_len: GlobalId,
) -> Result<()> {
    let drop_ref = super::exported_func(
        module,
        &bridge_schema::drop_ref_export(class),
        &[ValType::I32],
    )?;
    let addr = module.locals.add(ValType::I32);
    let mut builder = FunctionBuilder::new(&mut module.types, &[ValType::I32], &[]);
    let mut body = builder.func_body();
    // Not in the table (never handed out, or already released): nothing to do.
    load(&mut body, memory, addr, header::SLOT_OFFSET);
    body.unop(UnaryOp::I32Eqz).if_else(
        None,
        |gone| {
            gone.return_();
        },
        |_| {},
    );
    body.local_get(addr).i32_const(0).store(
        memory,
        StoreKind::I32 { atomic: false },
        i32_at(header::SLOT_OFFSET),
    );
    add_to_global(&mut body, table_len, -1);
    body.local_get(addr).call(drop_ref);
    let func = builder.finish(vec![addr], &mut module.funcs);
    module
        .exports
        .add(&bridge_schema::release_wrapper_export(class), func);
    Ok(())
}
