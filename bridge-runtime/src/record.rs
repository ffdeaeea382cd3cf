//! Compile-time assembly of export records (used by `#[bridge]`'s expansions; not an API).
//!
//! A record is `u32 LE length of the rest` + `u32 LE schema version` + JSON (see
//! `bridge_schema`). The macro writes the JSON as literal pieces with the type ids of the
//! types it mentions in between (`<T as BridgeType>::TYPE_ID`): only const evaluation
//! knows those, since the macro cannot see which crate declared `T`.

/// Total length of the framed record made of `pieces`.
pub const fn len(pieces: &[&[u8]]) -> usize {
    let mut total = 8;
    let mut i = 0;
    while i < pieces.len() {
        total += pieces[i].len();
        i += 1;
    }
    total
}

/// The framed record: `N` must be [`len`]`(pieces)`.
pub const fn encode<const N: usize>(version: u32, pieces: &[&[u8]]) -> [u8; N] {
    assert!(N == len(pieces), "record length mismatch");
    let mut out = [0u8; N];
    let rest = ((N - 4) as u32).to_le_bytes();
    let version = version.to_le_bytes();
    let mut at = 0;
    while at < 4 {
        out[at] = rest[at];
        out[at + 4] = version[at];
        at += 1;
    }
    at = 8;
    let mut i = 0;
    while i < pieces.len() {
        let piece = pieces[i];
        let mut j = 0;
        while j < piece.len() {
            out[at] = piece[j];
            at += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn frames_the_pieces() {
        const PIECES: &[&[u8]] = &[b"{\"a\":\"", "x::Y".as_bytes(), b"\"}"];
        const RECORD: [u8; super::len(PIECES)] = super::encode(7, PIECES);
        assert_eq!(&RECORD[0..4], &((RECORD.len() - 4) as u32).to_le_bytes());
        assert_eq!(&RECORD[4..8], &7u32.to_le_bytes());
        assert_eq!(&RECORD[8..], b"{\"a\":\"x::Y\"}");
    }
}
