//! The CPU time (user + system) of a child process tree the bench waits for: what
//! `getrusage(RUSAGE_CHILDREN)` adds while it runs. A shared machine stretches wall time
//! with other people's work; the CPU a build spends stays the same.

use anyhow::{Context, Result, bail};
use std::process::Command;
use std::time::Instant;

/// CPU and wall time of one command.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spent {
    pub cpu_ms: f64,
    pub wall_ms: f64,
}

/// User + system time of every waited-for descendant so far (a child's own waited-for
/// children included: cargo waits for rustc, cargo-bridge for wasm-opt).
fn children_cpu_ms() -> f64 {
    // SAFETY: getrusage writes the struct it is given and nothing else.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1e3 + t.tv_usec as f64 / 1e3;
    ms(usage.ru_utime) + ms(usage.ru_stime)
}

/// Run `cmd` to its end (inheriting stdio); an error names it and its status. Only
/// correct while no other child of this process ends meanwhile (the bench's sections run
/// one command at a time).
pub fn run(cmd: &mut Command) -> Result<Spent> {
    let before = children_cpu_ms();
    let start = Instant::now();
    let status = cmd.status().with_context(|| format!("running {cmd:?}"))?;
    let wall_ms = start.elapsed().as_secs_f64() * 1e3;
    let cpu_ms = children_cpu_ms() - before;
    if !status.success() {
        bail!("{cmd:?} failed ({status})");
    }
    Ok(Spent { cpu_ms, wall_ms })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_child_is_counted_and_a_failing_one_is_an_error() {
        // (Other tests' children end meanwhile and may add to the delta: a lower bound only.)
        let busy =
            run(Command::new("sh")
                .args(["-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"]))
            .unwrap();
        assert!(busy.cpu_ms > 20.0, "{busy:?}");
        assert!(busy.wall_ms > 0.0, "{busy:?}");
        let err = run(&mut Command::new("false")).unwrap_err().to_string();
        assert!(err.contains("\"false\" failed"), "{err}");
    }
}
