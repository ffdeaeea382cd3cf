//! The size table (issues 12 and 24): gzip'd bytes of generated packages. Generates crates
//! with 1, 10 and 100 copies of the bench class (constructor, `make`, `roundtrip`,
//! `consume`, a getter; identity mode `rust`) and the Game of Life port, each also as a
//! wasm-bindgen user writes it (with the pinned `wasm-bindgen` CLI, when the peer runs).
//! Both for the web (`--target web`), as shipped to browsers; every module is measured
//! as built and after `wasm-opt -O` (what `cargo bridge build --release` and wasm-pack
//! run by default). Crates live under `target/bench-size/` and build into the fixtures'
//! target directory (same release profile: the runtime compiles once), so later runs
//! only rebuild what changed. The bridge glue's bytes are also split by feature
//! (`FEATURES`).

use crate::model::{PackageSize, SizeCrate, SizeReport, SizeRow, Tool};
use anyhow::{Context, Result};
use flate2::Compression;
use flate2::write::GzEncoder;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use xshell::{Shell, cmd};
use xtask::fixtures::CargoBridge;

/// Class counts of the glue rows.
pub const CLASS_COUNTS: [usize; 3] = [1, 10, 100];

/// The bridge crate's source: `n` copies of the bench class (also the build-cost crates').
pub(super) fn bridge_source(n: usize) -> String {
    let mut out = String::from("use bridge_runtime::{Handle, bridge};\n");
    for i in 0..n {
        out += &format!(
            r#"
#[bridge]
pub struct Item{i} {{
    value: i32,
}}

#[bridge]
impl Item{i} {{
    #[bridge(constructor)]
    pub fn new(value: i32) -> Item{i} {{
        Item{i} {{ value }}
    }}
    pub fn make(value: i32) -> Item{i} {{
        Item{i} {{ value }}
    }}
    pub fn roundtrip(obj: Handle<Item{i}>) -> Handle<Item{i}> {{
        obj
    }}
    pub fn consume(obj: &Item{i}) -> i32 {{
        obj.value
    }}
    #[bridge(getter)]
    pub fn value(&self) -> i32 {{
        self.value
    }}
}}
"#
        );
    }
    out
}

/// The same `n` classes as a wasm-bindgen user writes them (a class passes by value, as
/// `Handle<C>` does: wasm-bindgen has no shared handle).
fn peer_source(n: usize) -> String {
    let mut out = String::from("use wasm_bindgen::prelude::*;\n");
    for i in 0..n {
        out += &format!(
            r#"
#[wasm_bindgen]
pub struct Item{i} {{
    value: i32,
}}

#[wasm_bindgen]
impl Item{i} {{
    #[wasm_bindgen(constructor)]
    pub fn new(value: i32) -> Item{i} {{
        Item{i} {{ value }}
    }}
    pub fn make(value: i32) -> Item{i} {{
        Item{i} {{ value }}
    }}
    pub fn roundtrip(obj: Item{i}) -> Item{i} {{
        obj
    }}
    pub fn consume(obj: &Item{i}) -> i32 {{
        obj.value
    }}
    #[wasm_bindgen(getter)]
    pub fn value(&self) -> i32 {{
        self.value
    }}
}}
"#
        );
    }
    out
}

/// The Game of Life port as a new user writes it (issue 24): the book's `Universe` with
/// its cells as a `&[u8]` view (`fixtures/bench/src/life.rs`'s class; default identity
/// mode, `none`).
const LIFE_SOURCE: &str = r#"use bridge_runtime::bridge;

#[bridge]
pub struct Life {
    width: u32,
    height: u32,
    cells: Vec<u8>,
    next: Vec<u8>,
}

#[bridge]
impl Life {
    #[bridge(constructor)]
    pub fn new(width: u32, height: u32) -> Life {
        let n = (width * height) as usize;
        let cells = (0..n).map(|i| (i % 2 == 0 || i % 7 == 0) as u8).collect();
        Life { width, height, cells, next: vec![0; n] }
    }
    pub fn tick(&mut self) {
        step(self.width, self.height, &self.cells, &mut self.next);
        std::mem::swap(&mut self.cells, &mut self.next);
    }
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }
}
"#;

/// The same in wasm-bindgen, as the book writes it: `cells()` is a pointer JS views
/// through the exported memory.
const PEER_LIFE_SOURCE: &str = r#"use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct Life {
    width: u32,
    height: u32,
    cells: Vec<u8>,
    next: Vec<u8>,
}

#[wasm_bindgen]
impl Life {
    #[wasm_bindgen(constructor)]
    pub fn new(width: u32, height: u32) -> Life {
        let n = (width * height) as usize;
        let cells = (0..n).map(|i| (i % 2 == 0 || i % 7 == 0) as u8).collect();
        Life { width, height, cells, next: vec![0; n] }
    }
    pub fn tick(&mut self) {
        step(self.width, self.height, &self.cells, &mut self.next);
        std::mem::swap(&mut self.cells, &mut self.next);
    }
    pub fn cells(&self) -> *const u8 {
        self.cells.as_ptr()
    }
}

#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}
"#;

/// Two free functions, a number one and a string one: a package with no class (issue 48:
/// what a package does not use, it does not ship).
const FUNCTIONS_SOURCE: &str = r#"use bridge_runtime::bridge;

#[bridge]
pub fn add(a: i32, b: i32) -> i32 {
    a.wrapping_add(b)
}

#[bridge]
pub fn greet(name: String) -> String {
    format!("hello {name}")
}
"#;

/// The same in wasm-bindgen.
const PEER_FUNCTIONS_SOURCE: &str = r#"use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub fn add(a: i32, b: i32) -> i32 {
    a.wrapping_add(b)
}

#[wasm_bindgen]
pub fn greet(name: String) -> String {
    format!("hello {name}")
}
"#;

/// What `console_error_panic_hook` installs, appended to a peer crate: the panic's message
/// as `PanicHookInfo` displays it, the JS stack, `console.error`. A wasm-bindgen user adds
/// it to see Rust's message (the module still traps with a bare `unreachable`), the
/// feature cargo-bridge's panic messages give; its row prices that feature in wasm-bindgen.
const PEER_PANIC_HOOK: &str = r#"
#[wasm_bindgen]
extern "C" {
    type JsError;
    #[wasm_bindgen(constructor, js_class = "Error")]
    fn new() -> JsError;
    #[wasm_bindgen(structural, method, getter)]
    fn stack(error: &JsError) -> String;
    #[wasm_bindgen(js_namespace = console)]
    fn error(message: String);
}

#[wasm_bindgen(start)]
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let mut message = info.to_string();
        message.push_str("\n\nStack:\n\n");
        message.push_str(&JsError::new().stack());
        message.push_str("\n\n");
        error(message);
    }));
}
"#;

/// Conway's rules on a torus, shared by both Life crates.
const LIFE_STEP: &str = r#"
fn step(width: u32, height: u32, cells: &[u8], next: &mut [u8]) {
    let (w, h) = (width as usize, height as usize);
    for y in 0..h {
        let (up, down) = ((y + h - 1) % h, (y + 1) % h);
        for x in 0..w {
            let (left, right) = ((x + w - 1) % w, (x + 1) % w);
            let live = cells[up * w + left] + cells[up * w + x] + cells[up * w + right]
                + cells[y * w + left] + cells[y * w + right]
                + cells[down * w + left] + cells[down * w + x] + cells[down * w + right];
            let i = y * w + x;
            next[i] = matches!((cells[i], live), (1, 2) | (1, 3) | (0, 3)) as u8;
        }
    }
}
"#;

const PROFILE: &str = "[profile.release]\nopt-level = 3\nlto = true\ncodegen-units = 1\n";

/// A crate of `source` in `dir`, built by `wasm-opt` or not (also the build-cost crates').
pub(super) fn write_crate(
    dir: &Path,
    name: &str,
    deps: &str,
    mode: &str,
    source: &str,
    wasm_opt: bool,
) -> Result<PathBuf> {
    std::fs::create_dir_all(dir.join("src"))?;
    let manifest = dir.join("Cargo.toml");
    let opt = if wasm_opt { "" } else { "wasm-opt = false\n" };
    let toml = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
         [lib]\ncrate-type = [\"cdylib\"]\n\n[dependencies]\n{deps}\n\n\
         [package.metadata.bridge]\n{mode}{opt}\n{PROFILE}\n[workspace]\n"
    );
    // Rewritten only when different: an unchanged crate is not rebuilt.
    for (path, text) in [
        (&manifest, &toml),
        (&dir.join("src/lib.rs"), &source.to_string()),
    ] {
        if std::fs::read_to_string(path).ok().as_deref() != Some(text.as_str()) {
            std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
        }
    }
    Ok(manifest)
}

/// gzip (level 9, as servers precompress) size of a file.
pub fn gzip_len(path: &Path) -> Result<u64> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    gz.write_all(&bytes)?;
    Ok(gz.finish()?.len() as u64)
}

fn package(js: &Path, wasm: &Path) -> Result<PackageSize> {
    Ok(PackageSize {
        js: std::fs::metadata(js)?.len(),
        js_gz: gzip_len(js)?,
        wasm: std::fs::metadata(wasm)?.len(),
        wasm_gz: gzip_len(wasm)?,
    })
}

/// gzip'd bytes of every `.js` and `.wasm` file under `dir` (a package: its entry, its
/// `_bg.js`, its module, its snippets), each file compressed on its own as served.
pub fn gzip_tree(dir: &Path) -> Result<u64> {
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).with_context(|| format!("reading {}", d.display()))? {
            let p = entry?.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "js" || e == "wasm") {
                total += gzip_len(&p)?;
            }
        }
    }
    if total == 0 {
        anyhow::bail!("{} holds no package files", dir.display());
    }
    Ok(total)
}

fn gzip_text(text: &str) -> u64 {
    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    gz.write_all(text.as_bytes()).expect("writing to a Vec");
    gz.finish().expect("writing to a Vec").len() as u64
}

/// The glue's module-scope definitions by feature: what the size table says stays in a
/// package, and why (`FEATURES`' last field). A name ending in `$` stands for every name
/// it starts (`$debug$`: the debug build's checks).
pub const FEATURES: [(&str, &[&str], &str); 5] = [
    (
        "release pools",
        &[
            "$POOLS",
            "$KEEP",
            "$createPoolRegistry",
            "withPool",
            "pushPool",
            "popPool",
            "keep",
            "autorelease",
            "$AsyncFunction",
            "$POOL_ASYNC",
            "$invalidateReleased",
            "$CLASS_INVALIDATORS",
        ],
        "every wrapper joins the innermost pool, and the registry is shared by every bridge module of a program",
    ),
    (
        "exceptions",
        &["$rethrow", "$guardsEnded", "$pendingPanic"],
        "a panic becomes an Error with its message, the shadow stack and borrows are put back",
    ),
    (
        "error messages",
        &[
            "$describe",
            "$usedAfterRelease",
            "$wrongClass",
            "$notString",
            "$notBigInt",
            "$noRoom",
            "$existingWrapper",
            "$refusal",
            "$borrowRefused",
            "$REFUSING",
            "$refusedWhy",
        ],
        "misuse throws an Error naming the class, the argument and what it got",
    ),
    (
        "loader",
        &[
            "init",
            "initSync",
            "$bridgeImports",
            "$setInstance",
            "$notInitialized",
            "$instantiated",
            "$initialized",
        ],
        "instantiates once, with a clear error before `init()`",
    ),
    (
        "debug checks",
        &["$debug$", "__bridgeLeaks"],
        "debug builds only: argument checks, the leak detector, checked views (0 B in a \
         release package)",
    ),
];

/// The feature whose glue a release package must not ship at all.
pub const DEBUG_CHECKS: &str = "debug checks";

/// gzip'd bytes each of `FEATURES` adds to `js`: the whole file gzip'd, less the file
/// without that feature's definitions gzip'd. A feature absent from the glue is 0.
pub fn feature_bytes(js: &str) -> Vec<(&'static str, u64, &'static str)> {
    let whole = gzip_text(js);
    FEATURES
        .iter()
        .map(|(name, defs, why)| {
            let bytes = whole.saturating_sub(gzip_text(&without(js, defs)));
            (*name, bytes, *why)
        })
        .collect()
}

/// `js` without the module-scope definitions of `names`: a line at bracket depth 0 starting
/// with `function`, `const` or `let` (or `export`/`export default function`) of one of
/// them, to the end of the line where the depth is back to 0 (its own line for `const x =
/// 1;`). Depth, not layout: release glue has no indentation (`glue/comments.rs`), so a
/// nested `const` and a closing `}` start at column 0 too.
fn without(js: &str, names: &[&str]) -> String {
    let defines = |line: &str| {
        let rest = line
            .strip_prefix("export default ")
            .or_else(|| line.strip_prefix("export "))
            .unwrap_or(line);
        ["function ", "const ", "let "].iter().any(|k| {
            rest.strip_prefix(k).is_some_and(|r| {
                let name: String = r
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
                    .collect();
                names
                    .iter()
                    .any(|n| *n == name || (n.ends_with('$') && name.starts_with(n)))
            })
        })
    };
    let mut out = String::with_capacity(js.len());
    let mut depth = Depth::default();
    let mut skipping = false;
    for line in js.split_inclusive('\n') {
        if !skipping && depth.is_top() && defines(line) {
            skipping = true;
        }
        depth.scan(line);
        if skipping {
            skipping = !depth.is_top();
        } else {
            out.push_str(line);
        }
    }
    out
}

/// The bracket depth of JS text scanned so far, strings and template literals skipped (a
/// template's `${…}` is code). Enough for the glue's own text (no regex literal of it holds
/// an unbalanced bracket).
#[derive(Default)]
struct Depth {
    depth: i64,
    /// Open template literals (`None`) and `${` expressions in them (`Some(braces open)`).
    stack: Vec<Option<u32>>,
}

impl Depth {
    fn is_top(&self) -> bool {
        self.depth == 0 && self.stack.is_empty()
    }

    fn scan(&mut self, line: &str) {
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(None) = self.stack.last() {
                match c {
                    '\\' => {
                        chars.next();
                    }
                    '`' => {
                        self.stack.pop();
                    }
                    '$' if chars.peek() == Some(&'{') => {
                        chars.next();
                        self.stack.push(Some(0));
                    }
                    _ => {}
                }
                continue;
            }
            match c {
                '"' | '\'' => {
                    while let Some(d) = chars.next() {
                        match d {
                            '\\' => {
                                chars.next();
                            }
                            _ if d == c => break,
                            _ => {}
                        }
                    }
                }
                '`' => self.stack.push(None),
                '/' if chars.peek() == Some(&'/') => break,
                '{' | '(' | '[' => {
                    if let (Some(Some(open)), '{') = (self.stack.last_mut(), c) {
                        *open += 1;
                    }
                    self.depth += 1;
                }
                '}' if self.stack.last() == Some(&Some(0)) => {
                    self.stack.pop();
                }
                '}' | ')' | ']' => {
                    if let (Some(Some(open)), '}') = (self.stack.last_mut(), c) {
                        *open -= 1;
                    }
                    self.depth -= 1;
                }
                _ => {}
            }
        }
    }
}

/// One generated crate: which row it is, built by which tool, its name and source.
struct Crate {
    krate: SizeCrate,
    tool: Tool,
    name: String,
    source: String,
}

/// The crates of a run: the class counts `counts` and the functions-only crate; with
/// `peer`, each also in wasm-bindgen, both Life crates, and every class-count and Life
/// peer once more with a panic hook ([`PEER_PANIC_HOOK`]).
fn crates(counts: &[usize], peer: bool) -> Vec<Crate> {
    let one = |krate, tool, name: String, source: String| Crate {
        krate,
        tool,
        name,
        source,
    };
    let mut crates = Vec::new();
    for &n in counts {
        let krate = SizeCrate::Classes(n);
        crates.push(one(
            krate,
            Tool::Bridge,
            format!("size{n}"),
            bridge_source(n),
        ));
        if peer {
            crates.push(one(
                krate,
                Tool::WasmBindgen,
                format!("peer{n}"),
                peer_source(n),
            ));
        }
    }
    let functions = SizeCrate::Functions;
    crates.push(one(
        functions,
        Tool::Bridge,
        "sizefns".into(),
        FUNCTIONS_SOURCE.into(),
    ));
    if peer {
        let peer_fns = PEER_FUNCTIONS_SOURCE.into();
        crates.push(one(
            functions,
            Tool::WasmBindgen,
            "peerfns".into(),
            peer_fns,
        ));
        let life = format!("{LIFE_SOURCE}{LIFE_STEP}");
        crates.push(one(SizeCrate::Life, Tool::Bridge, "life".into(), life));
        let peer_life = format!("{PEER_LIFE_SOURCE}{LIFE_STEP}");
        crates.push(one(
            SizeCrate::Life,
            Tool::WasmBindgen,
            "peerlife".into(),
            peer_life,
        ));
    }
    add_panic_hook_peers(&mut crates);
    crates
}

/// The class-count and Life peers once more with [`PEER_PANIC_HOOK`], each after its peer
/// (the functions-only crate has no class and no panic path to price).
fn add_panic_hook_peers(crates: &mut Vec<Crate>) {
    let mut i = 0;
    while i < crates.len() {
        let c = &crates[i];
        if c.tool == Tool::WasmBindgen && matches!(c.krate, SizeCrate::Classes(_) | SizeCrate::Life)
        {
            let hooked = Crate {
                krate: c.krate,
                tool: Tool::WasmBindgenPanicHook,
                name: format!("{}hook", c.name),
                source: format!("{}{PEER_PANIC_HOOK}", c.source),
            };
            crates.insert(i + 1, hooked);
            i += 1;
        }
        i += 1;
    }
}

/// Build and measure with `cargo_bridge`, the fresh `cargo-bridge`; `counts` are the class
/// counts to build; `peer`: also the same crates in wasm-bindgen, and both Life crates;
/// `patches`: the module features a runtime copy measures are measured too (a build
/// each, for the small crates).
pub fn measure(
    sh: &Shell,
    root: &Path,
    cargo_bridge: &CargoBridge,
    counts: &[usize],
    peer: bool,
    patches: bool,
) -> Result<SizeReport> {
    let base = root.join("target/bench-size");
    let crates = crates(counts, peer);
    let wasm_opt = installed_wasm_opt(sh);
    let mut rows = Vec::new();
    for c in &crates {
        let dir = base.join(&c.name);
        let (js, wasm) = match c.tool {
            Tool::Bridge => build_bridge(sh, root, cargo_bridge, c, &dir)?,
            Tool::WasmBindgen | Tool::WasmBindgenPanicHook => build_peer(sh, root, c, &dir)?,
        };
        let raw = package(&js, &wasm)?;
        let opt = match &wasm_opt {
            Some(_) => Some(optimized(sh, &js, &wasm)?),
            None => None,
        };
        let (features, module_features) = match (c.tool, &wasm_opt) {
            (Tool::Bridge, Some(_)) => (
                feature_bytes(&std::fs::read_to_string(&js)?),
                module_features(sh, root, cargo_bridge, c, &wasm, patches)?,
            ),
            (Tool::Bridge, None) => (feature_bytes(&std::fs::read_to_string(&js)?), Vec::new()),
            (Tool::WasmBindgen | Tool::WasmBindgenPanicHook, _) => (Vec::new(), Vec::new()),
        };
        rows.push(SizeRow {
            krate: c.krate,
            tool: c.tool,
            raw,
            opt,
            features,
            module_features,
        });
    }
    Ok(SizeReport { rows, wasm_opt })
}

/// `wasm-opt --version`, or `None` (said once) when it is not installed.
fn installed_wasm_opt(sh: &Shell) -> Option<String> {
    let wasm_opt = cmd!(sh, "wasm-opt --version")
        .quiet()
        .ignore_stderr()
        .read()
        .ok()
        .map(|v| v.trim().to_string());
    if wasm_opt.is_none() {
        eprintln!("bench: size: wasm-opt is not installed, no after-wasm-opt figures");
    }
    wasm_opt
}

/// The package's sizes after `wasm-opt -O` (through the cache) on its module.
fn optimized(sh: &Shell, js: &Path, wasm: &Path) -> Result<PackageSize> {
    let out = wasm.with_extension("opt.wasm");
    crate::opt_cache::wasm_opt(sh, &["-O"], wasm, &out)?
        .run()
        .with_context(|| format!("wasm-opt -O on {}", wasm.display()))?;
    package(js, &out)
}

/// The module bytes of each runtime feature of bridge crate `c` (`wasm`); `patches`: also
/// the features a patched runtime copy measures, for the small rows only.
fn module_features(
    sh: &Shell,
    root: &Path,
    cargo_bridge: &CargoBridge,
    c: &Crate,
    wasm: &Path,
    patches: bool,
) -> Result<Vec<(&'static str, Option<u64>, &'static str)>> {
    let rebuild = crate::size_without::Rebuild {
        name: &c.name,
        source: &c.source,
        mode: bridge_mode(c.krate),
        write_crate,
        gzip_len,
    };
    // Rebuilding against patched runtimes costs a build each: only the small rows.
    let patches = patches
        && matches!(
            c.krate,
            SizeCrate::Classes(1) | SizeCrate::Life | SizeCrate::Functions
        );
    crate::size_without::feature_bytes(sh, root, cargo_bridge, wasm, &rebuild, patches)
}

/// The `[package.metadata.bridge]` lines of a bridge crate.
fn bridge_mode(krate: SizeCrate) -> &'static str {
    match krate {
        SizeCrate::Classes(_) => "identity-mode = \"rust\"\n",
        SizeCrate::Life | SizeCrate::Functions => "",
    }
}

/// `cargo bridge build --release --target web` (without wasm-opt: the table runs it).
fn build_bridge(
    sh: &Shell,
    root: &Path,
    cargo_bridge: &CargoBridge,
    c: &Crate,
    dir: &Path,
) -> Result<(PathBuf, PathBuf)> {
    eprintln!(
        "bench: size: building {} with `cargo bridge build --release`",
        c.name
    );
    let deps = format!(
        "bridge-runtime = {{ path = {:?} }}",
        root.join("bridge-runtime").display().to_string()
    );
    let manifest = write_crate(dir, &c.name, &deps, bridge_mode(c.krate), &c.source, false)?;
    let out = dir.join("pkg");
    cargo_bridge
        .build_release_web(sh, &manifest, &out)
        .with_context(|| format!("building the size crate {}", c.name))?;
    Ok((
        out.join(format!("{}.js", c.name)),
        out.join(format!("{}_bg.wasm", c.name)),
    ))
}

/// `cargo build --release` and the pinned `wasm-bindgen --target web`.
fn build_peer(sh: &Shell, root: &Path, c: &Crate, dir: &Path) -> Result<(PathBuf, PathBuf)> {
    eprintln!("bench: size: building {} with wasm-bindgen", c.name);
    let version = crate::peer::pinned_version(root)?;
    let cli = crate::peer::cli(sh, root, &version)?;
    let deps = format!("wasm-bindgen = \"={version}\"");
    let manifest = write_crate(dir, &c.name, &deps, "", &c.source, false)?;
    let peer_target = root.join("fixtures/bench/peer/target");
    cmd!(
        sh,
        "cargo build --quiet --release --target wasm32-unknown-unknown --manifest-path {manifest}"
    )
    .env("CARGO_TARGET_DIR", &peer_target)
    .run()
    .with_context(|| format!("building the wasm-bindgen size crate {}", c.name))?;
    let wasm = peer_target.join(format!("wasm32-unknown-unknown/release/{}.wasm", c.name));
    let out = dir.join("pkg");
    cmd!(sh, "{cli} --target web --out-dir {out} {wasm}")
        .run()
        .with_context(|| format!("running wasm-bindgen on {}", c.name))?;
    Ok((
        out.join(format!("{}.js", c.name)),
        out.join(format!("{}_bg.wasm", c.name)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_panic_hook_peers_follow_each_class_count_and_life_peer() {
        let listed = |peer| -> Vec<(String, Tool)> {
            crates(&[1, 10], peer)
                .into_iter()
                .map(|c| (c.name, c.tool))
                .collect()
        };
        let with_peer = listed(true);
        let names: Vec<&str> = with_peer.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "size1",
                "peer1",
                "peer1hook",
                "size10",
                "peer10",
                "peer10hook",
                "sizefns",
                "peerfns",
                "life",
                "peerlife",
                "peerlifehook"
            ]
        );
        let hooked = crates(&[1], true)
            .into_iter()
            .find(|c| c.tool == Tool::WasmBindgenPanicHook)
            .unwrap();
        assert!(hooked.source.starts_with(&peer_source(1)));
        assert!(hooked.source.contains("std::panic::set_hook"));
        assert!(listed(false).iter().all(|(_, t)| *t == Tool::Bridge));
    }

    #[test]
    fn the_generated_crate_has_n_distinct_classes() {
        let src = bridge_source(3);
        for i in 0..3 {
            assert_eq!(src.matches(&format!("pub struct Item{i} ")).count(), 1);
        }
        assert!(!src.contains("Item3"));
    }

    #[test]
    fn a_feature_is_its_definitions_and_absent_ones_weigh_nothing() {
        let js = "const $POOLS = 1;\nfunction $createPoolRegistry() {\n  return 2;\n}\nexport function withPool(fn) {\n  return fn();\n}\nfunction $other() {\n}\n";
        let left = without(js, &["$POOLS", "$createPoolRegistry", "withPool"]);
        assert_eq!(left, "function $other() {\n}\n");
        let bytes = feature_bytes(js);
        assert!(bytes[0].1 > 0, "{bytes:?}");
        assert_eq!(bytes[1].1, 0, "no $rethrow here: {bytes:?}");
    }

    #[test]
    fn definitions_end_by_depth_also_without_indentation() {
        // Release glue's layout: no indentation, a nested `const` of a listed name at
        // column 0, braces in strings and template literals.
        let js = "function $rethrow(e) {\nconst $POOLS = \"}\";\nif (e) {\nreturn `${e.x ? `{${1}` : \"{\"}}`;\n}\n}\nfunction $kept() {\nconst $rethrow = 1;\n}\nconst $pendingPanic = [\n1,\n];\n";
        assert_eq!(
            without(js, &["$rethrow", "$pendingPanic"]),
            "function $kept() {\nconst $rethrow = 1;\n}\n"
        );
    }

    #[test]
    fn a_name_ending_in_a_dollar_stands_for_every_name_it_starts() {
        let js = "function $debug$int(v) {\n  return v;\n}\nconst $debug$leaks = new Map();\nexport function __bridgeLeaks() {\n}\nfunction $debugger() {\n}\n";
        assert_eq!(
            without(js, &["$debug$", "__bridgeLeaks"]),
            "function $debugger() {\n}\n"
        );
        let debug = FEATURES.iter().position(|f| f.0 == DEBUG_CHECKS).unwrap();
        assert!(feature_bytes(js)[debug].1 > 0);
        assert_eq!(feature_bytes("function $debugger() {\n}\n")[debug].1, 0);
    }

    #[test]
    fn gzip_shrinks_repetition_and_is_measured_on_the_file() {
        let dir = std::env::temp_dir().join(format!("xtask-gzip-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.txt");
        std::fs::write(&file, "abc".repeat(10_000)).unwrap();
        let gz = gzip_len(&file).unwrap();
        assert!(gz > 18 && gz < 200, "{gz}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
