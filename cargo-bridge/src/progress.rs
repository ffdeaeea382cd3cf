//! Progress display for long steps (indicatif), silent with `--quiet` or without a terminal.

use indicatif::{ProgressBar, ProgressStyle};
use std::time::Duration;

pub struct Step {
    bar: ProgressBar,
    quiet: bool,
}

impl Step {
    /// Start a spinner for a step, e.g. `Step::start("Compiling", "demo (wasm32)", quiet)`.
    pub fn start(verb: &str, what: &str, quiet: bool) -> Self {
        let bar = if quiet {
            ProgressBar::hidden()
        } else {
            ProgressBar::new_spinner()
        };
        bar.set_style(
            ProgressStyle::with_template("{spinner:.green} {prefix:>12.cyan.bold} {msg}")
                .expect("valid template"),
        );
        bar.set_prefix(verb.to_string());
        bar.set_message(what.to_string());
        bar.enable_steady_tick(Duration::from_millis(100));
        Step { bar, quiet }
    }

    pub fn message(&self, msg: String) {
        self.bar.set_message(msg);
    }

    /// Finish with a cargo-style status line.
    pub fn done(self, verb: &str, what: &str) {
        self.bar.finish_and_clear();
        if !self.quiet {
            eprintln!("{verb:>12} {what}");
        }
    }
}

/// A cargo-style note about `krate` that is not an error (`note: crate \`app\`: ...`).
pub fn note(krate: &str, note: &str, quiet: bool) {
    if !quiet {
        eprintln!("{:>12} crate `{krate}`: {note}", "note:");
    }
}

impl Drop for Step {
    fn drop(&mut self) {
        if !self.bar.is_finished() {
            self.bar.finish_and_clear();
        }
    }
}
