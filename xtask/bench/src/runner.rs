//! Running the Node side: one fresh `node --expose-gc xtask/bench/runner.mjs` process per
//! job, whose last `BENCH_JSON {"result": ...}` line is read into the typed result of the
//! job's kind. Every section (identity, release pools) goes through [`Runner::run_all`].

use crate::model::{
    Kind, MORE_PROCESSES_UNDER, Measured, MemoryResult, Mode, SustainedResult, TimeResult,
};
use anyhow::{Context, Result, bail};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How a runner process samples (`target_cv` as a fraction).
#[derive(Clone, Copy, Debug)]
pub struct Sampling {
    pub min_runs: u32,
    pub max_runs: u32,
    pub target_cv: f64,
    pub budget_ms: u64,
    pub warmup_ms: u64,
    /// Fresh processes per time row (when the first took under `MORE_PROCESSES_UNDER`).
    pub processes: u32,
}

/// Which row of a scenario a job runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Select {
    /// An identity mode, or the floor, or the wasm-bindgen peer.
    Mode(Mode),
    /// A named variant (release pools).
    Variant(&'static str),
}

/// One runner process to start.
#[derive(Clone, Debug)]
pub struct Job {
    pub scenario: &'static str,
    pub select: Select,
    pub kind: Kind,
    pub iterations: u64,
    /// What an iteration is, for the progress line.
    pub unit: &'static str,
    /// The package the runner loads (the bridge snapshot or the peer).
    pub pkg: PathBuf,
}

impl Job {
    fn row(&self) -> &'static str {
        match self.select {
            Select::Mode(m) => m.name(),
            Select::Variant(v) => v,
        }
    }
}

pub struct Runner {
    pub script: PathBuf,
    pub sampling: Sampling,
    /// A smoke run: workloads build their small shapes (`--quick 1`).
    pub quick: bool,
}

/// Hard limit for one runner process.
const PROCESS_TIMEOUT: Duration = Duration::from_secs(20 * 60);

#[derive(Deserialize)]
struct Line<T> {
    result: T,
}

impl Runner {
    /// Every job, one process each, results in the jobs' order; a failure is logged and
    /// kept, never fatal. A measuring run starts one process at a time, so no two share the
    /// machine; a smoke run (`--quick`) checks the pipeline, not the figures, so it keeps
    /// every core busy.
    pub fn run_all(&self, jobs: Vec<Job>) -> Vec<(Job, Result<Measured>)> {
        let workers = if self.quick {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            1
        };
        let outcomes = xtask::side_by_side::map(&jobs, workers, |job| self.run_one(job));
        jobs.into_iter().zip(outcomes).collect()
    }

    /// One job with its progress line (and its failure, if any) on stderr.
    fn run_one(&self, job: &Job) -> Result<Measured> {
        eprintln!(
            "bench: {:<24} {:<13} {:<10} ({} {})",
            job.scenario,
            job.row(),
            job.kind.name(),
            job.iterations,
            job.unit
        );
        let out = self.run(job);
        if let Err(e) = &out {
            eprintln!(
                "bench: FAILED {} {} {}: {e:#}",
                job.scenario,
                job.row(),
                job.kind.name()
            );
        }
        out
    }

    fn run(&self, job: &Job) -> Result<Measured> {
        Ok(match job.kind {
            Kind::Time => Measured::Time(self.time(job)?),
            Kind::Sustained => Measured::Sustained(parse::<SustainedResult>(&self.spawn(job)?)?),
            Kind::Memory => Measured::Memory(parse::<MemoryResult>(&self.spawn(job)?)?),
            Kind::Paired(_) => Measured::Paired(self.time(job)?),
        })
    }

    /// A time row: one process, or `processes` when the first was quick (see
    /// `MORE_PROCESSES_UNDER`); a paired row always `processes` (its ratio moves with the
    /// process as much as its runs are long); the process with the median median stands
    /// for the row.
    fn time(&self, job: &Job) -> Result<TimeResult> {
        let started = Instant::now();
        let mut results = vec![parse::<TimeResult>(&self.spawn(job)?)?];
        if matches!(job.kind, Kind::Paired(_)) || started.elapsed() < MORE_PROCESSES_UNDER {
            for _ in 1..self.sampling.processes {
                results.push(parse::<TimeResult>(&self.spawn(job)?)?);
            }
        }
        Ok(median_process(results))
    }

    /// The process's stdout, once it exited successfully.
    fn spawn(&self, job: &Job) -> Result<String> {
        let select = match job.select {
            Select::Mode(mode) => ["--mode", mode.name()],
            Select::Variant(variant) => ["--variant", variant],
        };
        let s = &self.sampling;
        let mut child = Command::new("node")
            .arg("--expose-gc")
            .arg(&self.script)
            .args(["--pkg", &job.pkg.display().to_string()])
            .args(["--scenario", job.scenario])
            .args(select)
            .args(["--kind", job.kind.name()])
            .args(match job.kind {
                Kind::Paired(partner) => vec!["--paired-with", partner],
                _ => vec![],
            })
            .args(["--iterations", &job.iterations.to_string()])
            .args(["--min-runs", &s.min_runs.to_string()])
            .args(["--max-runs", &s.max_runs.to_string()])
            .args(["--target-cv", &s.target_cv.to_string()])
            .args(["--budget-ms", &s.budget_ms.to_string()])
            .args(["--warmup-ms", &s.warmup_ms.to_string()])
            .args(if self.quick {
                &["--quick", "1"][..]
            } else {
                &[]
            })
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .context("starting node (is Node.js installed?)")?;
        let mut stdout = child.stdout.take().expect("piped");
        let reader = std::thread::spawn(move || {
            let mut out = String::new();
            stdout.read_to_string(&mut out).map(|_| out)
        });
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break status;
            }
            if started.elapsed() > PROCESS_TIMEOUT {
                child.kill().ok();
                child.wait().ok();
                bail!("timed out after {} s", PROCESS_TIMEOUT.as_secs());
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let out = reader
            .join()
            .map_err(|_| anyhow::anyhow!("stdout reader panicked"))??;
        if !status.success() {
            bail!("runner exited with {status}");
        }
        Ok(out)
    }
}

/// The result whose median is the median of all (the lower middle of an even count),
/// carrying every process's median in the order they ran.
fn median_process(results: Vec<TimeResult>) -> TimeResult {
    let medians: Vec<f64> = results.iter().map(|r| r.summary.median_ms).collect();
    let mut order: Vec<usize> = (0..results.len()).collect();
    order.sort_by(|&a, &b| medians[a].total_cmp(&medians[b]));
    let middle = order[(order.len() - 1) / 2];
    let mut chosen = results
        .into_iter()
        .nth(middle)
        .expect("at least one process");
    chosen.process_medians_ms = medians;
    chosen
}

/// The `result` of the last `BENCH_JSON` line of a runner's stdout.
fn parse<T: DeserializeOwned>(stdout: &str) -> Result<T> {
    let line = stdout
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("BENCH_JSON "))
        .context("runner printed no BENCH_JSON line")?;
    let line: Line<T> = serde_json::from_str(line).with_context(|| {
        format!(
            "the runner's BENCH_JSON line does not match {} (xtask/bench/src/model.rs and \
             xtask/bench/*.mjs out of step?)",
            std::any::type_name::<T>()
        )
    })?;
    Ok(line.result)
}

/// A private copy of a built package, removed when dropped.
pub struct Snapshot {
    pub dir: PathBuf,
}

impl Snapshot {
    pub fn of(pkg: &Path) -> Result<Snapshot> {
        let dir = std::env::temp_dir().join(format!("cargo-bridge-bench-{}", std::process::id()));
        let snapshot = Snapshot { dir };
        copy_dir(pkg, &snapshot.dir)?;
        Ok(snapshot)
    }
}

/// Copy `from` into `to`, subdirectories too (the glue imports `snippets/`).
fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
        let entry = entry?;
        let kind = entry.file_type()?;
        if kind.is_dir() {
            copy_dir(&entry.path(), &to.join(entry.file_name()))?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name()))
                .with_context(|| format!("copying {}", entry.path().display()))?;
        }
    }
    Ok(())
}

impl Drop for Snapshot {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timed(median: f64) -> TimeResult {
        let summary = serde_json::json!({
            "medianMs": median, "meanMs": median, "minMs": median, "maxMs": median,
            "stddevMs": 0.0, "cv": 0.0, "kept": 5, "runs": 5, "samplesMs": [median],
        });
        let mut result = summary.clone();
        result["primary"] = "runMs".into();
        result["warmupRunsMs"] = serde_json::json!([]);
        result["targetCv"] = 0.05.into();
        result["converged"] = true.into();
        result["phases"] = serde_json::json!({ "runMs": summary });
        serde_json::from_value(result).unwrap()
    }

    #[test]
    fn the_row_is_the_process_with_the_median_median() {
        let row = median_process(vec![timed(5.6), timed(5.3), timed(5.4)]);
        assert_eq!(row.summary.median_ms, 5.4);
        assert_eq!(row.process_medians_ms, [5.6, 5.3, 5.4]);
        let row = median_process(vec![timed(9.0), timed(7.0)]);
        assert_eq!(row.summary.median_ms, 7.0, "the lower middle of two");
        let row = median_process(vec![timed(6.0)]);
        assert_eq!(row.summary.median_ms, 6.0);
        assert_eq!(row.process_medians_ms, [6.0]);
    }

    #[test]
    fn reads_the_last_bench_json_line() {
        let out = "noise\nBENCH_JSON {\"result\": 1}\nBENCH_JSON {\"result\": 2}\nmore\n";
        assert_eq!(parse::<u32>(out).unwrap(), 2);
    }

    #[test]
    fn a_missing_or_mismatched_line_is_an_error_saying_so() {
        let err = parse::<u32>("nothing here\n").unwrap_err();
        assert!(err.to_string().contains("no BENCH_JSON line"), "{err:#}");
        let err = parse::<SustainedResult>("BENCH_JSON {\"result\": {}}\n").unwrap_err();
        let msg = format!("{err:#}");
        assert!(
            msg.contains("SustainedResult") && msg.contains("runsMs"),
            "{msg}"
        );
    }
}
