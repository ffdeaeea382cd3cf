//! `cargo xtask`: the project's tasks (the library's [`xtask::main`]).

fn main() -> anyhow::Result<()> {
    xtask::main()
}
