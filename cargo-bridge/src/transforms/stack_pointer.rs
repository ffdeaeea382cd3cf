//! Exports the shadow-stack pointer (`__stack_pointer`, the global rustc's wasm32 code
//! keeps its stack frames in linear memory with) as
//! `bridge_schema::STACK_POINTER_EXPORT`. A wasm trap (a Rust panic) or a JS exception
//! thrown through an import leaves wasm without running the epilogues of the frames it
//! skips, so the pointer stays lowered; the glue puts it back to its base after every
//! exception out of a call. Without that, each panic leaks stack until the stack runs
//! into static data and the heap (found by the model fuzz: memory corruption after ~1000
//! panics).
//!
//! A module without the global's name (a stripped name section) gets no export; its
//! glue then skips the reset.

use walrus::Module;

pub fn run(module: &mut Module) {
    let Some(global) = module
        .globals
        .iter()
        .find(|g| g.name.as_deref() == Some("__stack_pointer"))
        .map(|g| g.id())
    else {
        return;
    };
    if module.exports.get_exported_global(global).is_none() {
        module
            .exports
            .add(bridge_schema::STACK_POINTER_EXPORT, global);
    }
}
