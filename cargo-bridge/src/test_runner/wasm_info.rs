//! What `cargo bridge test` reads from a test module before running it: its
//! `#[wasm_bindgen_test]` exports and the host `wasm_bindgen_test_configure!` chose (the
//! `__wasm_bindgen_test_unstable` custom section, as wasm-bindgen-test-runner reads it).
//! Section headers only, no full parse: the module may be tens of megabytes of debug info.

use anyhow::{Result, bail};

/// Where a test module's `#[wasm_bindgen_test]`s may run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Host {
    /// Not configured: Node (the default) or a browser page.
    Any,
    /// `run_in_browser`.
    Browser,
    /// `run_in_dedicated_worker`, `run_in_shared_worker`, `run_in_service_worker`.
    Worker,
    /// `run_in_node_experimental`.
    Node,
    /// Anything else (emscripten, or a value of a newer wasm-bindgen-test).
    Other,
}

/// Why a module configured for `host` does not run in this run (`chromium`: in the browser).
pub fn skip_reason(host: Host, chromium: bool) -> Option<&'static str> {
    match (host, chromium) {
        (Host::Any, _) | (Host::Browser, true) | (Host::Node, false) => None,
        (Host::Browser, false) => Some(
            "wasm_bindgen_test_configure!(run_in_browser): they run with \
             `cargo bridge test --chromium`",
        ),
        (Host::Node, true) => Some(
            "wasm_bindgen_test_configure!(run_in_node_experimental): they run without --chromium",
        ),
        (Host::Worker, _) => Some(
            "configured to run in a worker (run_in_*_worker), which cargo bridge test does not \
             do: run them with `wasm-pack test`",
        ),
        (Host::Other, _) => Some(
            "configured (wasm_bindgen_test_configure!) for a host cargo bridge test does not know",
        ),
    }
}

pub struct TestModule {
    /// The `#[wasm_bindgen_test]`s (exports `__wbgt_<modifiers>_<crate>::<path>`), by
    /// path without the crate, as wasm-bindgen-test prints them.
    pub wbg_tests: Vec<String>,
    pub host: Host,
}

pub fn read(bytes: &[u8]) -> Result<TestModule> {
    let mut module = TestModule {
        wbg_tests: Vec::new(),
        host: Host::Any,
    };
    if bytes.get(..4) != Some(b"\0asm".as_slice()) {
        bail!("not a WebAssembly module");
    }
    let mut at = 8;
    while at < bytes.len() {
        let id = bytes[at];
        at += 1;
        let size = leb(bytes, &mut at)? as usize;
        let end = at
            .checked_add(size)
            .filter(|end| *end <= bytes.len())
            .ok_or_else(|| anyhow::anyhow!("a section runs past the end of the module"))?;
        let body = &bytes[at..end];
        match id {
            0 => {
                let mut i = 0;
                let len = leb(body, &mut i)? as usize;
                let name = body.get(i..i + len).unwrap_or_default();
                if name == b"__wasm_bindgen_test_unstable" {
                    let data = &body[i + len..];
                    module.host = if data.contains(&1) {
                        Host::Browser
                    } else if data.iter().any(|b| (2..=4).contains(b)) {
                        Host::Worker
                    } else if data.contains(&5) {
                        Host::Node
                    } else {
                        Host::Other
                    };
                }
            }
            7 => {
                module.wbg_tests = export_names(body)?
                    .iter()
                    .filter(|n| n.starts_with(b"__wbgt_"))
                    .filter_map(|n| {
                        let name = String::from_utf8_lossy(n);
                        Some(name.split_once("::")?.1.to_string())
                    })
                    .collect()
            }
            _ => {}
        }
        at = end;
    }
    Ok(module)
}

fn export_names(body: &[u8]) -> Result<Vec<&[u8]>> {
    let mut at = 0;
    let count = leb(body, &mut at)?;
    let mut names = Vec::new();
    for _ in 0..count {
        let len = leb(body, &mut at)? as usize;
        let name = body
            .get(at..at + len)
            .ok_or_else(|| anyhow::anyhow!("an export name runs past its section"))?;
        names.push(name);
        at += len + 1; // the kind byte
        leb(body, &mut at)?; // the index
    }
    Ok(names)
}

/// An unsigned LEB128 at `*at`, advancing it.
fn leb(bytes: &[u8], at: &mut usize) -> Result<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let Some(&byte) = bytes.get(*at) else {
            bail!("a number runs past the end of the module");
        };
        *at += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    bail!("a number in the module is longer than 64 bits")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(id: u8, body: &[u8]) -> Vec<u8> {
        let mut out = vec![id, body.len() as u8];
        out.extend_from_slice(body);
        out
    }

    fn module(sections: &[Vec<u8>]) -> Vec<u8> {
        let mut out = b"\0asm\x01\0\0\0".to_vec();
        for s in sections {
            out.extend_from_slice(s);
        }
        out
    }

    #[test]
    fn tests_and_the_configured_host_are_read() {
        let mut exports = vec![3];
        for name in ["__wbgt__a::t", "main", "__wbgt_$_a::u"] {
            exports.push(name.len() as u8);
            exports.extend_from_slice(name.as_bytes());
            exports.extend_from_slice(&[0, 1]);
        }
        let mut custom = vec![28];
        custom.extend_from_slice(b"__wasm_bindgen_test_unstable");
        custom.push(1);
        let read = read(&module(&[section(7, &exports), section(0, &custom)])).unwrap();
        assert_eq!(read.wbg_tests, ["t", "u"]);
        assert_eq!(read.host, Host::Browser);
        let plain = super::read(&module(&[section(7, &exports)])).unwrap();
        assert_eq!(plain.host, Host::Any);
        assert!(super::read(b"not wasm").is_err());
        assert!(super::read(&module(&[vec![7, 50, 1]])).is_err());
    }
}
