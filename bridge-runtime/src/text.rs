//! Messages built without `core::fmt`. A crate whose own code formats nothing then links
//! no formatting machinery at all (about 4 KiB of wasm code plus its tables: see the size
//! section of docs/benchmarks.md), so the runtime's messages are pieces pushed in order.

/// Append `n` as `0x` and lowercase hex digits (what `{n:#x}` writes).
pub(crate) fn push_hex(out: &mut String, n: u32) {
    out.push_str("0x");
    let mut started = false;
    for shift in (0..8).rev() {
        let nibble = (n >> (shift * 4)) & 0xf;
        if nibble != 0 || started || shift == 0 {
            started = true;
            out.push(char::from_digit(nibble, 16).unwrap_or('?'));
        }
    }
}

/// `parts` joined, in one allocation.
pub(crate) fn concat(parts: &[&str]) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for part in parts {
        out.push_str(part);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_matches_alternate_lower_hex() {
        for n in [0, 9, 0xa, 0xd800, 0x10ffff, 0x110000, u32::MAX] {
            let mut s = String::new();
            push_hex(&mut s, n);
            assert_eq!(s, format!("{n:#x}"));
        }
    }

    #[test]
    fn concat_joins_in_order() {
        assert_eq!(concat(&["a", "", "bc", "d"]), "abcd");
        assert_eq!(concat(&[]), "");
    }
}
