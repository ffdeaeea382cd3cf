//! `cargo bridge`: build a Rust crate into a WebAssembly module plus JS/TS glue.

mod binaryen;
mod build_flags;
mod cargo_build;
mod cli;
mod config;
mod exports;
mod glue;
mod import_check;
mod js_names;
mod modes;
mod names;
mod package;
mod package_settings;
mod pipeline;
mod postprocess;
mod progress;
mod runtime_copy;
mod scaffold;
mod scratch;
mod snippets;
mod table_exports;
mod test_runner;
mod timings;
mod transforms;
mod wasm_bindgen;
mod wasm_opt;
mod workspace;

use clap::Parser;
use cli::{Cargo, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    let Cargo::Bridge(cli) = Cargo::parse();
    let result = match cli.command {
        Command::Build(args) => pipeline::build(&args).map(|()| ExitCode::SUCCESS),
        Command::New(args) => scaffold::new(&args.path, args.quiet).map(|()| ExitCode::SUCCESS),
        Command::Test(args) => test_runner::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
