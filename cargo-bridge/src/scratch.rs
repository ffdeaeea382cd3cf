//! Scratch directories for the external tools a build runs (wasm-bindgen's CLI,
//! wasm-opt): one per run, under a fixed parent in the target directory, removed when the
//! run is done. Several builds of one package may run at once (test suites in parallel),
//! so a fixed file name would let one build overwrite what another's tool is reading.

use anyhow::{Context, Result};
use std::path::Path;
use tempfile::TempDir;

/// A new empty directory under `parent` (created if missing), named after `lib_name`;
/// removed when the returned guard drops.
pub fn run_dir(parent: &Path, lib_name: &str) -> Result<TempDir> {
    std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    tempfile::Builder::new()
        .prefix(&format!("{lib_name}."))
        .tempdir_in(parent)
        .with_context(|| format!("creating a scratch directory in {}", parent.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_run_gets_its_own_directory_removed_when_done() {
        let parent = tempfile::tempdir().unwrap();
        let nested = parent.path().join("bridge/wasm-opt");
        let a = run_dir(&nested, "counter").unwrap();
        let b = run_dir(&nested, "counter").unwrap();
        assert_ne!(a.path(), b.path());
        std::fs::write(a.path().join("counter.pre-opt.wasm"), b"a").unwrap();
        std::fs::write(b.path().join("counter.pre-opt.wasm"), b"b").unwrap();
        assert_eq!(
            std::fs::read(a.path().join("counter.pre-opt.wasm")).unwrap(),
            b"a"
        );
        let name = a.path().file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with("counter."), "{name}");
        let gone = a.path().to_path_buf();
        drop(a);
        assert!(!gone.exists());
        assert!(b.path().exists());
    }
}
