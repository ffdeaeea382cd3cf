//! wasm-bindgen in a bridge crate: found in the dependency graph (`detect.rs`), its CLI
//! of the same version found or installed (`cli.rs`) and run over the module first
//! (`run.rs`), its half then joined to the bridge glue (`merge.rs`, `js_exports.rs`). See
//! ARCHITECTURE.md, "Living with wasm-bindgen", and docs/wasm-bindgen.md.
//!
//! - **Detection** (`detect.rs`): `cargo metadata --filter-platform wasm32-unknown-unknown`
//!   (wasm-only dependency tables count), the crate's normal dependencies followed through
//!   the resolve graph; the `wasm-bindgen` package found there gives the locked version.
//!   None: nothing below runs, and the package is byte for byte what it was (the glue view
//!   is disabled and renders no text).
//! - **The CLI, not the library** (`cli.rs`): wasm-bindgen's schema changes with each
//!   release and its CLI refuses other versions. Linking `wasm-bindgen-cli-support` would
//!   fix one version into cargo-bridge; running the CLI of the crate's own version serves
//!   crates locked to any version. It is resolved before `cargo build`, so a failed install
//!   (offline) fails fast with the version and the command. Found as
//!   `$CARGO_BRIDGE_WASM_BINDGEN`, on `PATH`, or in the per-version cache of the bridge home
//!   (installed with `cargo install` under a lock file, landed by rename).
//! - **Order** (`pipeline.rs`): `cargo build` → `import_check` → wasm-bindgen's CLI (it
//!   interprets its descriptors, replaces `__wbindgen_placeholder__` imports, adds its
//!   externref table; it keeps unknown imports, every export and the `__bridge_exports`
//!   section) → `postprocess::run` on its output (the transforms find rustc's shapes: the
//!   CLI rewrites only its own functions and keeps the name section) → `wasm-opt`. The other
//!   order would hand the CLI a module whose identity imports and thunks were already
//!   rewritten. `unused_exports` also keeps what wasm-bindgen's JS names.
//! - **One instantiation** (`glue/wasm_bindgen.rs`, `templates/wasm_bindgen.js.j2`): the
//!   CLI's `--target bundler` JS ships as `<lib>_bg.js`, imported by the bridge glue;
//!   `$bridgeImports()` adds it and every other module the module imports from directly, so
//!   every target's loader gets both import sets, each import counted while it runs
//!   (`$wbgImportGuard`: a bridge call that throws inside one leaves the shadow stack alone)
//!   unless its text shows it runs no user code (`unguarded.rs`). After the bridge's own set-up,
//!   `$setInstance` hands the instance to `__wbg_set_wasm` (its functions guarded: a trap
//!   out of one puts the stack pointer back to where that call began, recorded by
//!   `transforms/wbg_entry.rs`, and drops the panic's message), connects bridge-runtime's
//!   conversion snippet, then calls `__wbindgen_start` (which may call bridge items, so last).
//! - **Names** (`js_exports.rs`, `names::check_wasm_bindgen`): the names its `_bg.js`
//!   exports, minus its import functions and `__wbg_set_wasm`, are re-exported from the
//!   entry module; one a bridge item or the glue also exports is a build error naming both.
//!   Its `.d.ts` joins the package's, each class's `[Symbol.dispose]` replaced by the
//!   bridge classes' `__BridgeDisposable` interface.
//! - **Values** (`bridge-runtime/src/js/wbg_values.{rs,js}`, runtime feature
//!   `wasm-bindgen`): each tool keeps JS values in its own table, so a conversion is one
//!   call into JS moving the value across. The JS half is a wasm-bindgen `module = "..."`
//!   import (wasm-bindgen writes its adapter and copies the file, per package); the glue
//!   gives it `take`/`add` of the bridge value table (`$wbgConnect`) and a `lift` that
//!   switches on a class's type id to its `<Class>$lift`, so every identity mode keeps its
//!   rules.
//! - **CommonJS** (`cjs.rs`): for `--target nodejs-cjs` the bundler half's `_bg.js` and
//!   snippets have their top-level `import`/`export` statements rewritten into `require()`
//!   and `exports`, and the glue `require()`s them: still one instantiation, by the glue.

pub mod cjs;
pub mod cli;
pub mod detect;
mod js_exports;
pub mod merge;
pub mod plain;
pub mod run;
pub mod types;
mod unguarded;
