//! Leaf of the report: how figures and tables are written (Markdown tables, also read on
//! stdout). Imports nothing of the bench.

pub const MIB: f64 = 1024.0 * 1024.0;

pub fn fmt_ms(ms: f64) -> String {
    if ms >= 100.0 {
        format!("{ms:.0}")
    } else if ms >= 10.0 {
        format!("{ms:.1}")
    } else {
        format!("{ms:.2}")
    }
}

pub fn fmt_bytes(b: f64) -> String {
    let a = b.abs();
    if a < 1024.0 {
        format!("{b:.0} B")
    } else if a < MIB {
        format!("{:.1} KiB", b / 1024.0)
    } else {
        format!("{:.1} MiB", b / MIB)
    }
}

pub fn fmt_ratio(x: f64) -> String {
    if x >= 10.0 {
        format!("{x:.0}×")
    } else {
        format!("{x:.2}×")
    }
}

/// A Markdown table, columns padded so it also reads in a terminal.
pub fn table(header: &[String], rows: &[Vec<String>], right_from: usize) -> String {
    let cols = header.len();
    let width = |c: usize| {
        rows.iter()
            .map(|r| r[c].chars().count())
            .chain([header[c].chars().count(), 3])
            .max()
            .unwrap()
    };
    let widths: Vec<usize> = (0..cols).map(width).collect();
    let line = |cells: &[String]| {
        let mut s = String::from("|");
        for (c, cell) in cells.iter().enumerate() {
            let pad = widths[c] - cell.chars().count();
            if c >= right_from {
                s += &format!(" {}{} |", " ".repeat(pad), cell);
            } else {
                s += &format!(" {}{} |", cell, " ".repeat(pad));
            }
        }
        s + "\n"
    };
    let mut out = line(header);
    out += "|";
    for (c, w) in widths.iter().enumerate() {
        if c >= right_from {
            out += &format!(" {}: |", "-".repeat(w - 1));
        } else {
            out += &format!(" {} |", "-".repeat(*w));
        }
    }
    out += "\n";
    for r in rows {
        out += &line(r);
    }
    out
}
