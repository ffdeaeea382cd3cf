//! Resolution of each class's identity mode, at build time:
//! class attribute > crate `[package.metadata.bridge]` > `[workspace.metadata.bridge]` > `none`.
//! Each class resolves against the crate that declared it, so crates linked into one
//! module keep their own defaults.

use crate::config::IdentityMode;
use crate::exports::ClassExport;
use crate::workspace::Workspace;
use anyhow::{Result, anyhow};

/// Where a class's mode came from (shown by `--verbose` style reports and tests).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModeSource {
    ClassAttribute,
    Crate(String),
    Workspace,
    Default,
}

pub fn resolve(class: &ClassExport, workspace: &Workspace) -> Result<(IdentityMode, ModeSource)> {
    if let Some(attr) = &class.identity_mode {
        let mode = IdentityMode::parse(attr).ok_or_else(|| {
            anyhow!(
                "class `{}` of crate `{}` has identity_mode = \"{attr}\"; valid values are \"none\", \"pointer\", \"rust\"",
                class.name,
                class.crate_name
            )
        })?;
        return Ok((mode, ModeSource::ClassAttribute));
    }
    if let Some(mode) = workspace.crate_modes.get(&class.crate_name) {
        return Ok((*mode, ModeSource::Crate(class.crate_name.clone())));
    }
    if let Some(mode) = workspace.default_mode {
        return Ok((mode, ModeSource::Workspace));
    }
    Ok((IdentityMode::None, ModeSource::Default))
}
