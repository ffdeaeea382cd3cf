//! Probing the machine a run happens on (CPU, tools, the commit measured).

use crate::model::Machine;
use std::process::Command;

fn output(program: &str, args: &[&str]) -> String {
    Command::new(program)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}

/// HEAD, flagged when the generator (templates, cargo-bridge, runtime) has local changes.
fn commit() -> String {
    let head = output("git", &["rev-parse", "--short", "HEAD"]);
    let dirty = output(
        "git",
        &[
            "status",
            "--porcelain",
            "--",
            "templates",
            "cargo-bridge",
            "bridge-runtime",
        ],
    );
    if dirty.is_empty() || dirty == "unknown" {
        head
    } else {
        format!("{head} + uncommitted generator changes")
    }
}

/// The machine this run happens on.
pub fn probe() -> Machine {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    Machine {
        nproc: std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu,
        node: output("node", &["--version"]),
        rustc: output("rustc", &["--version"]),
        os: output("uname", &["-srm"]),
        date: output("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
        commit: commit(),
    }
}
