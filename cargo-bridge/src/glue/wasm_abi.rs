//! The names and offsets of the wasm ABI that the templates use, taken from
//! `bridge-schema` (the one source the macro, the runtime and the passes share), so no
//! template spells them by hand. Templates read it as `wasm_abi`.

use serde::Serialize;

#[derive(Serialize)]
pub struct WasmAbi {
    /// Exported shadow-stack pointer global (see `transforms/stack_pointer.rs`).
    pub stack_pointer: &'static str,
}

impl WasmAbi {
    pub fn new() -> Self {
        WasmAbi {
            stack_pointer: bridge_schema::STACK_POINTER_EXPORT,
        }
    }
}
