//! Leaf of the report: looking a run's records up (by scenario and row, in table order).
//! Every section reads the run through these; they read the model and the catalogue.

use crate::model::{Mode, Record, Run, Scenario};
use crate::scenarios::SCENARIOS;

impl Run {
    pub fn find(&self, scenario: &str, mode: Mode) -> Option<&Record> {
        self.records
            .iter()
            .find(|r| r.scenario.name == scenario && r.mode == mode)
    }
    pub fn median(&self, scenario: &str, mode: Mode) -> Option<f64> {
        self.find(scenario, mode)?.median_ms()
    }
    /// Every record, in table order: scenario, then mode.
    pub fn records_in_order(&self) -> Vec<(&'static Scenario, Mode, &Record)> {
        let mut out = Vec::new();
        for s in self.scenarios() {
            for m in self.modes() {
                if let Some(r) = self.find(s.name, m) {
                    out.push((s, m, r));
                }
            }
        }
        out
    }

    pub fn scenarios(&self) -> Vec<&'static Scenario> {
        SCENARIOS
            .iter()
            .filter(|s| self.records.iter().any(|r| r.scenario.name == s.name))
            .collect()
    }
    pub fn modes(&self) -> Vec<Mode> {
        Mode::ALL
            .into_iter()
            .filter(|m| self.records.iter().any(|r| r.mode == *m))
            .collect()
    }
}
