//! `cargo bridge`: build a Rust crate into a WebAssembly module plus JS/TS glue.

mod build;
mod cli;
mod glue;
mod package;
mod pipeline;
mod postprocess;
mod progress;
mod scaffold;
mod scratch;
mod settings;
mod test_runner;
mod timings;
mod transforms;
mod wasm_bindgen;

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
