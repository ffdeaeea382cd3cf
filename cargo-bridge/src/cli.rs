//! The command line: clap definitions of `cargo bridge build` and `cargo bridge new`.
//!
//! Also `cargo bridge test`. `pipeline.rs`, `test_runner/` and `package/` read these
//! definitions; the crate root (`main.rs`) dispatches only and defines no item a module
//! imports. `Profile` (`--dev`, `--profiling`, `--release`) answers the three questions a
//! build asks: optimized (cargo `--release`, wasm-opt), debug glue, names kept.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Cargo's entry: `cargo bridge ...` runs `cargo-bridge bridge ...`.
#[derive(Parser)]
#[command(name = "cargo", bin_name = "cargo", styles = clap::builder::Styles::styled())]
pub enum Cargo {
    Bridge(BridgeCli),
}

#[derive(Args)]
#[command(
    version,
    about = "Build Rust crates into WebAssembly packages with JS/TS glue and object identity",
    long_about = None,
)]
pub struct BridgeCli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Compile bridge crates to wasm32 and write a JS package for each (pkg/)
    Build(BuildArgs),
    /// Create a bridge crate in a new directory: a documented class, its tests, metadata
    New(NewArgs),
    /// Run the crate's #[bridge::test] functions inside wasm with the real glue (Node, or Chromium)
    Test(TestArgs),
}

#[derive(Args, Debug, Clone)]
pub struct TestArgs {
    /// Run only the tests whose path (`module::name`) contains FILTER
    pub filter: Option<String>,
    /// Run the tests in headless Chromium (`--target web`) instead of Node
    /// [Chromium: $CHROMIUM, else chromium, chromium-browser or google-chrome on PATH]
    #[arg(long)]
    pub chromium: bool,
    /// Run only the test whose path is exactly FILTER
    #[arg(long)]
    pub exact: bool,
    /// Run only the #[ignore]d tests
    #[arg(long, conflicts_with = "include_ignored")]
    pub ignored: bool,
    /// Run the #[ignore]d tests too
    #[arg(long)]
    pub include_ignored: bool,
    /// Fail a test that has not finished after SECS seconds (an async test awaiting a
    /// Promise nothing settles); the others still run [default: $WASM_BINDGEN_TEST_TIMEOUT, else 60]
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u32).range(1..))]
    pub test_timeout: Option<u32>,
    /// Bridge crate to test (default: the crate of the manifest, or every bridge crate of the workspace)
    #[arg(long, short = 'p', value_name = "SPEC")]
    pub package: Option<String>,
    /// Path to Cargo.toml
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    #[command(flatten)]
    pub features: FeatureArgs,
    /// Do not print build progress
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Arguments for cargo (after `--`)
    #[arg(last = true, value_name = "CARGO_ARGS")]
    pub cargo_args: Vec<String>,
}

impl TestArgs {
    /// The build of the tested packages: debug glue, no package.json, the JS target of
    /// the host; `out_dir`: none, so each goes to the target directory (see pipeline.rs).
    pub fn build_args(&self) -> BuildArgs {
        BuildArgs {
            dev: true,
            profiling: false,
            release: false,
            package: self.package.clone(),
            manifest_path: self.manifest_path.clone(),
            out_dir: None,
            out_name: None,
            scope: None,
            target: if self.chromium {
                Target::Web
            } else {
                Target::Nodejs
            },
            no_typescript: true,
            no_pack: true,
            features: self.features.clone(),
            quiet: self.quiet,
            cargo_args: self.cargo_args.clone(),
        }
    }
}

/// Cargo's feature flags, which `build` and `test` take alike (and pass to `cargo
/// metadata` too, so the resolve graph is the build's).
#[derive(Args, Debug, Clone)]
pub struct FeatureArgs {
    /// Cargo features to activate (comma- or space-separated; may be repeated)
    #[arg(long, short = 'F', value_name = "FEATURES")]
    pub features: Vec<String>,
    /// Activate all available features
    #[arg(long)]
    pub all_features: bool,
    /// Do not activate the `default` feature
    #[arg(long)]
    pub no_default_features: bool,
}

#[derive(Args, Debug, Clone)]
pub struct NewArgs {
    /// Directory to create; its name is the crate's name
    pub path: PathBuf,
    /// Do not print the next steps
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// Which JS environment the glue loads the module in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// Node.js ESM: the module is instantiated on import
    Nodejs,
    /// Browsers without a bundler: call the default-exported `init()` first
    Web,
    /// Bundlers (Vite, webpack 5): ESM that imports its .wasm as an asset, ready on import
    Bundler,
    /// Node.js CommonJS, for `require()` on Node before 20.19: instantiated on load
    NodejsCjs,
    /// Deno: ES modules (plain wasm-bindgen crates: wasm-bindgen's `deno` output)
    Deno,
    /// A classic script defining a global `wasm_bindgen` (plain wasm-bindgen crates)
    NoModules,
}

impl Target {
    /// The name used in templates and package.json decisions.
    pub fn name(self) -> &'static str {
        match self {
            Target::Nodejs => "nodejs",
            Target::Web => "web",
            Target::Bundler => "bundler",
            Target::NodejsCjs => "nodejs-cjs",
            Target::Deno => "deno",
            Target::NoModules => "no-modules",
        }
    }
}

/// The build profile, as wasm-pack names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// Unoptimized, debug glue (argument checks, leak reports), names kept.
    Dev,
    /// Optimized and release glue, with the module's names kept for profilers.
    Profiling,
    /// Optimized, release glue, no names.
    Release,
}

impl Profile {
    /// cargo `--release` and wasm-opt.
    pub fn optimized(self) -> bool {
        self != Profile::Dev
    }
    /// The glue's debug checks and reports.
    pub fn debug_glue(self) -> bool {
        self == Profile::Dev
    }
    /// The module keeps its name section (stack traces, profilers).
    pub fn keeps_names(self) -> bool {
        self != Profile::Release
    }
}

#[derive(Args, Debug, Clone)]
pub struct BuildArgs {
    /// Unoptimized build with debug glue (the default)
    #[arg(long, conflicts_with_all = ["release", "profiling"])]
    pub dev: bool,
    /// Optimized build with release glue; the module keeps its function names (for profilers)
    #[arg(long, conflicts_with = "release")]
    pub profiling: bool,
    /// Optimized build with release glue
    #[arg(long, short = 'r')]
    pub release: bool,
    /// Bridge crate to build (default: the crate of the manifest, or every bridge crate of the workspace)
    #[arg(long, short = 'p', value_name = "SPEC")]
    pub package: Option<String>,
    /// Path to Cargo.toml
    #[arg(long, value_name = "PATH")]
    pub manifest_path: Option<PathBuf>,
    /// Directory for the generated package [default: <crate dir>/pkg]
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Name of the generated files: NAME.js, NAME.d.ts, NAME_bg.wasm [default: the lib name]
    #[arg(long, value_name = "NAME")]
    pub out_name: Option<String>,
    /// npm scope of the package: package.json names it @SCOPE/<name>
    #[arg(long, value_name = "SCOPE")]
    pub scope: Option<String>,
    /// JS environment of the generated glue
    #[arg(long, value_enum, default_value = "nodejs")]
    pub target: Target,
    /// Write no TypeScript declarations (.d.ts)
    #[arg(long)]
    pub no_typescript: bool,
    /// Write the glue and the module only, no package.json
    #[arg(long)]
    pub no_pack: bool,
    #[command(flatten)]
    pub features: FeatureArgs,
    /// Do not print progress
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Arguments for `cargo build` (after `--`, e.g. `-- --features foo --locked`)
    #[arg(last = true, value_name = "CARGO_ARGS")]
    pub cargo_args: Vec<String>,
}

impl BuildArgs {
    pub fn profile(&self) -> Profile {
        if self.release {
            Profile::Release
        } else if self.profiling {
            Profile::Profiling
        } else {
            Profile::Dev
        }
    }
}
