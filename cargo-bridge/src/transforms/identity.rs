//! Installs each class's identity mode: replaces the `__bridge_identity.<type id>` import
//! (called on every class value handed to JS) with the mode's lowering, and for `rust`
//! mode adds the `<type id>#release_wrapper` export, which ends with the class's
//! `drop_ref` body spliced in (`splice.rs`), and, once for all `rust`-mode classes, the
//! identity table's size global (`bridge_schema::IDENTITY_TABLE_LEN_EXPORT`).
//!
//! The lowering reads the box header (`bridge_schema::header`): its identity slot is 0
//! until JS caches a wrapper for the object.
//! - `none`: hand the reference to JS unchanged.
//! - `pointer`/`rust`: if the slot is set, JS already holds a wrapper that owns a
//!   reference, so drop the extra one here (no call back from JS on a hit); else mark the
//!   slot pending (JS assigns it) and hand the reference over. In `rust` mode that
//!   reference becomes the identity table's, counted in the table-size global (one for the
//!   module: with it, the classes' release wrappers are the same code, which `wasm-opt`
//!   merges, as it merges their constructors when they also share the pool note), and, while
//!   a fast release pool records (the runtime's exported `__bridge_pool_active` byte, read
//!   in place), the object is noted for it (`__bridge_pool_note(class index, addr)`).
//! - `rust` hit: JS gets the wrapper's slot, `slot << 1 | header::HIT_TAG` (odd, so never
//!   a box address), instead of the address, so its lift reads `wrappers[v >>> 1]` and
//!   no memory (`getPoolRepeated_100`, docs/benchmark-analysis.md). A slot still pending
//!   (-1: the object crossed earlier in the same value and JS has not lifted it yet) is
//!   handed as the address, which the lift looks up in the header as before.
//!
//! The installed hooks are returned with their miss path ([`MissPath`]):
//! `inline_identity.rs` then inlines both paths at their call sites (a wasm call costs
//! about 1 ns, a fifth of this bookkeeping).

use crate::settings::identity::IdentityMode;
use anyhow::{Context, Result, bail};
use bridge_schema::abi::exports;
use bridge_schema::header;
use walrus::ir::{BinaryOp, ExtendedLoad, LoadKind, MemArg, StoreKind, UnaryOp};
use walrus::{
    ConstExpr, ExportItem, FunctionBuilder, FunctionId, GlobalId, GlobalKind, InstrSeqBuilder,
    LocalId, MemoryId, Module, ValType, ir::Value,
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
    /// What the hook does for an object JS has no wrapper of yet.
    pub miss: MissPath,
}

/// The miss path of a `pointer`/`rust` hook: mark the slot pending; in `rust` mode also
/// count the object in the identity table and note it for a recording fast pool.
#[derive(Clone, Copy)]
pub struct MissPath {
    memory: MemoryId,
    table_len: Option<GlobalId>,
    pool_note: Option<PoolNote>,
}

/// `__bridge_pool_note(class_index, addr)`, called only while the byte at `active` is set.
#[derive(Clone, Copy)]
struct PoolNote {
    func: FunctionId,
    class_index: i32,
    active: u32,
}

impl MissPath {
    /// Emits the miss path for the object at `addr`; leaves the stack as it was.
    pub fn emit(&self, body: &mut InstrSeqBuilder, addr: LocalId) {
        body.local_get(addr).i32_const(header::SLOT_PENDING).store(
            self.memory,
            StoreKind::I32 { atomic: false },
            i32_at(header::SLOT_OFFSET),
        );
        if let Some(global) = self.table_len {
            add_to_global(body, global, 1);
        }
        if let Some(note) = self.pool_note {
            body.i32_const(note.active as i32).load(
                self.memory,
                LoadKind::I32_8 {
                    kind: ExtendedLoad::ZeroExtend,
                },
                MemArg {
                    align: 1,
                    offset: 0,
                },
            );
            body.if_else(
                None,
                |recording| {
                    recording
                        .i32_const(note.class_index)
                        .local_get(addr)
                        .call(note.func);
                },
                |_| {},
            );
        }
    }
}

/// `classes` in glue order: a class's index is its position (the fast pool's class id).
pub fn run(module: &mut Module, classes: &[ClassMode]) -> Result<Vec<Hook>> {
    let memory = main_memory(module)?;
    let pool_note = pool_note(module)?;
    // Indexed before the loop adds its own exports (none of which it looks up).
    let exports = super::by_name::FuncExports::of(module);
    let imports = super::by_name::func_imports(module, bridge_schema::IDENTITY_IMPORT_MODULE);
    let mut hooks = Vec::new();
    let table_len = classes
        .iter()
        .any(|c| c.mode == IdentityMode::Rust)
        .then(|| add_table_len_global(module));
    for (index, ClassMode { type_id, mode }) in classes.iter().enumerate() {
        let class = *type_id;
        let hook = imports
            .get(bridge_schema::identity_import(class).as_str())
            .copied();
        let table_len = table_len.filter(|_| *mode == IdentityMode::Rust);
        if let Some(hook) = hook {
            super::check_signature(
                module,
                hook,
                &[ValType::I32],
                &[ValType::I32],
                &format!("import `{}.{class}`", bridge_schema::IDENTITY_IMPORT_MODULE),
            )?;
            let miss = MissPath {
                memory,
                table_len,
                pool_note: table_len.and(pool_note).map(|(func, active)| PoolNote {
                    func,
                    class_index: index as i32,
                    active,
                }),
            };
            install_lowering(module, hook, *mode, miss)?;
            hooks.push(Hook {
                func: hook,
                mode: *mode,
                miss,
            });
        }
        if let Some(table_len) = table_len {
            add_release_wrapper(module, &exports, class, memory, table_len)?;
        }
    }
    check_no_stray_hook(module)?;
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

fn add_table_len_global(module: &mut Module) -> GlobalId {
    let global =
        module
            .globals
            .add_local(ValType::I32, true, false, ConstExpr::Value(Value::I32(0)));
    module
        .exports
        .add(bridge_schema::IDENTITY_TABLE_LEN_EXPORT, global);
    global
}

fn add_to_global(body: &mut InstrSeqBuilder, global: GlobalId, delta: i32) {
    body.global_get(global)
        .i32_const(delta)
        .binop(BinaryOp::I32Add)
        .global_set(global);
}

/// The runtime's pool-note export, if the module has one, and the address of its
/// "a pool is active" flag.
fn pool_note(module: &Module) -> Result<Option<(FunctionId, u32)>> {
    Ok(match module.exports.get_func(exports::POOL_NOTE) {
        Ok(note) => {
            super::check_signature(
                module,
                note,
                &[ValType::I32, ValType::I32],
                &[],
                &format!("export `{}`", exports::POOL_NOTE),
            )?;
            Some((note, pool_active_address(module)?))
        }
        Err(_) => None,
    })
}

/// Every identity import is a class's hook (or the pool release): anything else is a
/// runtime the CLI does not match.
fn check_no_stray_hook(module: &Module) -> Result<()> {
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
    Ok(())
}

/// The address of the runtime's pool-recording byte: the exported static
/// `__bridge_pool_active`, which the linker exports as a constant global holding it.
fn pool_active_address(module: &Module) -> Result<u32> {
    let name = exports::POOL_ACTIVE;
    let global = module
        .exports
        .iter()
        .find(|e| e.name == name)
        .and_then(|e| match e.item {
            ExportItem::Global(global) => Some(global),
            _ => None,
        })
        .with_context(|| {
            format!(
                "the module exports `{}` but not the static `{name}` it reads; rebuild with \
                 matching bridge-runtime and cargo-bridge versions",
                exports::POOL_NOTE
            )
        })?;
    match &module.globals.get(global).kind {
        GlobalKind::Local(ConstExpr::Value(Value::I32(address))) => Ok(*address as u32),
        _ => bail!("export `{name}` is not the address of a static (a constant i32 global)"),
    }
}

fn install_lowering(
    module: &mut Module,
    hook: FunctionId,
    mode: IdentityMode,
    miss: MissPath,
) -> Result<()> {
    let slot = hit_slot_local(module, mode);
    module.replace_imported_func(hook, |(body, args)| {
        let addr = args[0];
        if mode == IdentityMode::None {
            body.local_get(addr);
            return;
        }
        load(body, miss.memory, addr, header::SLOT_OFFSET);
        if let Some(slot) = slot {
            body.local_tee(slot);
        }
        body.if_else(
            ValType::I32,
            |cached| hit(cached, miss.memory, addr, slot),
            |fresh| {
                miss.emit(fresh, addr);
                fresh.local_get(addr);
            },
        );
    })?;
    Ok(())
}

/// The local a `rust`-mode hook keeps the header's slot in (its hit hands JS the slot);
/// `None` for the other modes, whose hit hands the address.
fn hit_slot_local(module: &mut Module, mode: IdentityMode) -> Option<LocalId> {
    (mode == IdentityMode::Rust).then(|| module.locals.add(ValType::I32))
}

/// The hit path: strong -= 1, since JS's wrapper already owns a reference; then the value
/// JS gets. With `slot` (`rust` mode: the header's slot, loaded into it by the caller) that
/// is `slot << 1 | HIT_TAG` while the slot is assigned (> 0), else (pending) the address.
pub(super) fn hit(
    body: &mut InstrSeqBuilder,
    memory: MemoryId,
    addr: LocalId,
    slot: Option<LocalId>,
) {
    body.local_get(addr);
    load(body, memory, addr, header::STRONG_OFFSET);
    body.i32_const(1).binop(BinaryOp::I32Sub).store(
        memory,
        StoreKind::I32 { atomic: false },
        i32_at(header::STRONG_OFFSET),
    );
    let Some(slot) = slot else {
        body.local_get(addr);
        return;
    };
    body.local_get(slot)
        .i32_const(1)
        .binop(BinaryOp::I32Shl)
        .i32_const(header::HIT_TAG)
        .binop(BinaryOp::I32Or)
        .local_get(addr)
        .local_get(slot)
        .i32_const(0)
        .binop(BinaryOp::I32GtS)
        .select(None);
}

fn add_release_wrapper(
    module: &mut Module,
    exports: &super::by_name::FuncExports,
    class: &str,
    memory: MemoryId,
    table_len: GlobalId,
) -> Result<()> {
    let drop_ref = super::exported_func(
        module,
        exports,
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
    // drop_ref's body in place of the call (see splice.rs); a body it cannot copy is called.
    let callee = module.funcs.get(drop_ref).kind.unwrap_local();
    if !super::splice::tail_call(&mut body, &module.types, callee, &[addr]) {
        body.local_get(addr).call(drop_ref);
    }
    let func = builder.finish(vec![addr], &mut module.funcs);
    module
        .exports
        .add(&bridge_schema::release_wrapper_export(class), func);
    Ok(())
}
