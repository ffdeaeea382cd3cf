//! Messages built without `core::fmt`. A crate whose own code formats nothing then links
//! no formatting machinery at all (about 4 KiB of wasm code plus its tables: see the size
//! budget in docs/benchmark-analysis.md), so the runtime's messages are pieces pushed in order.

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

/// `n` in decimal (what `{n}` writes).
pub(crate) fn decimal(n: u32) -> String {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    concat(&[std::str::from_utf8(&digits[at..]).unwrap_or("?")])
}

/// `parts` joined, in one allocation. Copied into the capacity rather than pushed:
/// `push_str` would link `String`'s growth path, which no message needs.
#[inline(never)]
pub(crate) fn concat(parts: &[&str]) -> String {
    // Saturated, a sum too large fails to allocate before anything is copied.
    let mut len = 0usize;
    let mut i = 0;
    while i < parts.len() {
        len = len.saturating_add(parts[i].len());
        i = std::hint::black_box(i + 1);
    }
    let mut out = Vec::<u8>::with_capacity(len);
    let mut i = 0;
    while i < parts.len() {
        let part = parts[i];
        // SAFETY: the capacity holds every part; the parts are UTF-8, so is the whole.
        unsafe {
            std::ptr::copy_nonoverlapping(
                part.as_ptr(),
                out.as_mut_ptr().add(out.len()),
                part.len(),
            );
            out.set_len(out.len() + part.len());
        }
        i = std::hint::black_box(i + 1);
    }
    // SAFETY: the concatenation of `str`s is UTF-8.
    unsafe { String::from_utf8_unchecked(out) }
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
    fn decimal_matches_display() {
        for n in [0, 7, 10, 99, 100, 65535, 4_294_967_295] {
            assert_eq!(decimal(n), n.to_string());
        }
    }

    #[test]
    fn concat_joins_in_order() {
        assert_eq!(concat(&["a", "", "bc", "d"]), "abcd");
        assert_eq!(concat(&[]), "");
    }
}
