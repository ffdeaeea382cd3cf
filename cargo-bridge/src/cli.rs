//! The command line: clap definitions of `cargo bridge build` and `cargo bridge new`.

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
    /// Create a bridge crate in a new directory: a documented class, its test, metadata
    New(NewArgs),
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
}

impl Target {
    /// The name used in templates and package.json decisions.
    pub fn name(self) -> &'static str {
        match self {
            Target::Nodejs => "nodejs",
            Target::Web => "web",
            Target::Bundler => "bundler",
            Target::NodejsCjs => "nodejs-cjs",
        }
    }
}

#[derive(Args, Debug, Clone)]
pub struct BuildArgs {
    /// Build artifacts in release mode, with optimizations
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
    /// JS environment of the generated glue
    #[arg(long, value_enum, default_value = "nodejs")]
    pub target: Target,
    /// Do not print progress
    #[arg(long, short = 'q')]
    pub quiet: bool,
}
