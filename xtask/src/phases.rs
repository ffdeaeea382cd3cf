//! How long each phase of `cargo xtask test` took: a table printed at the end of every
//! run (also a failed one), so every CI log shows where the time goes.
//!
//! A phase is either run in line ([`Phases::run`]) or in the background on its own thread
//! ([`Phases::spawn`], for the I/O-bound installs that overlap the compile-bound phases);
//! a background phase counts from its start to its own end, and is joined where its
//! result is first needed ([`Background::join`]); a phase of the lane that runs beside
//! the others (`beside.rs`) is marked as such ([`Phases::run_beside`]).

use anyhow::{Result, anyhow};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

#[derive(Clone, Default)]
pub struct Phases {
    rows: Arc<Mutex<Vec<Row>>>,
}

struct Row {
    name: String,
    /// `" (background)"`, `" (beside)"` or nothing.
    mark: &'static str,
    took: Duration,
    ok: bool,
}

/// A phase running on its own thread.
pub struct Background<T> {
    name: &'static str,
    handle: JoinHandle<Result<T>>,
}

impl<T> Background<T> {
    /// Wait for the phase; its error, or a panic, becomes this call's error.
    pub fn join(self) -> Result<T> {
        self.handle
            .join()
            .map_err(|_| anyhow!("the background phase `{}` panicked", self.name))?
    }
}

impl Phases {
    /// Run `f` as the phase `name`, recording how long it took (also when it fails).
    pub fn run<T>(&self, name: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
        let start = Instant::now();
        let result = f();
        self.record(name, "", start.elapsed(), result.is_ok());
        result
    }

    /// [`Phases::run`] for a phase that runs beside those of the main thread.
    pub fn run_beside<T>(&self, name: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
        let start = Instant::now();
        let result = f();
        self.record(name, " (beside)", start.elapsed(), result.is_ok());
        result
    }

    /// Start `f` as the phase `name` on its own thread.
    pub fn spawn<T: Send + 'static>(
        &self,
        name: &'static str,
        f: impl FnOnce() -> Result<T> + Send + 'static,
    ) -> Background<T> {
        let phases = self.clone();
        let handle = std::thread::spawn(move || {
            let start = Instant::now();
            let result = f();
            phases.record(name, " (background)", start.elapsed(), result.is_ok());
            result
        });
        Background { name, handle }
    }

    fn record(&self, name: &str, mark: &'static str, took: Duration, ok: bool) {
        let row = Row {
            name: name.to_string(),
            mark,
            took,
            ok,
        };
        self.rows
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(row);
    }

    /// The table: one line per phase in the order they finished, then the wall time and
    /// the CPU time of the whole run ([`cpu_used`]: concurrent phases share the cores, so
    /// only the total is told; a shared machine stretches wall time, not CPU time).
    pub fn table(&self, wall: Duration, cpu: Duration) -> String {
        let rows = self.rows.lock().unwrap_or_else(|e| e.into_inner());
        let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0).max(5) + 13;
        let mut out = format!("{:<width$} {:>8}\n", "phase", "seconds");
        for row in rows.iter() {
            let name = format!("{}{}", row.name, row.mark);
            let status = if row.ok { "" } else { "  FAILED" };
            out.push_str(&format!(
                "{name:<width$} {:>8.1}{status}\n",
                row.took.as_secs_f64()
            ));
        }
        for (label, took) in [("total (wall)", wall), ("total CPU (user+sys)", cpu)] {
            out.push_str(&format!("{label:<width$} {:>8.1}\n", took.as_secs_f64()));
        }
        out
    }
}

/// User + system time of this process and of every child it waited for (a child's own
/// waited-for children included: cargo waits for rustc, node for its workers), as
/// `/usr/bin/time` counts a command.
pub fn cpu_used() -> Duration {
    let seconds = |who| {
        // SAFETY: getrusage writes the struct it is given and nothing else.
        let usage = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            libc::getrusage(who, &mut usage);
            usage
        };
        let s = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        s(usage.ru_utime) + s(usage.ru_stime)
    };
    Duration::from_secs_f64(seconds(libc::RUSAGE_SELF) + seconds(libc::RUSAGE_CHILDREN))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_each_phase_with_its_seconds_and_marks_failures_background_and_beside_ones() {
        let phases = Phases::default();
        phases.run("fmt", || Ok(())).unwrap();
        let failed: Result<()> = phases.run("clippy", || Err(anyhow!("lint")));
        assert!(failed.is_err());
        phases.spawn("npm", || Ok(7)).join().unwrap();
        phases.run_beside("test-browser", || Ok(())).unwrap();
        let table = phases.table(Duration::from_millis(2500), Duration::from_millis(4200));
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 7, "{table}");
        assert!(lines[0].starts_with("phase") && lines[0].ends_with("seconds"));
        assert!(lines[1].starts_with("fmt ") && lines[1].ends_with("0.0"));
        assert!(lines[2].starts_with("clippy ") && lines[2].ends_with("FAILED"));
        assert!(lines[3].starts_with("npm (background) "));
        assert!(lines[4].starts_with("test-browser (beside) "));
        assert!(lines[5].starts_with("total (wall)") && lines[5].ends_with("2.5"));
        assert!(lines[6].starts_with("total CPU (user+sys)") && lines[6].ends_with("4.2"));
    }

    #[test]
    fn the_cpu_of_a_waited_for_child_is_counted() {
        let before = cpu_used();
        let status = std::process::Command::new("sh")
            .args(["-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"])
            .status()
            .unwrap();
        assert!(status.success());
        let spent = cpu_used() - before;
        assert!(spent > Duration::from_millis(20), "{spent:?}");
    }

    #[test]
    fn a_background_phase_hands_back_its_error() {
        let phases = Phases::default();
        let err = phases
            .spawn("apt", || -> Result<()> { Err(anyhow!("no network")) })
            .join()
            .unwrap_err();
        assert_eq!(err.to_string(), "no network");
        assert!(
            phases
                .table(Duration::ZERO, Duration::ZERO)
                .contains("FAILED")
        );
    }
}
