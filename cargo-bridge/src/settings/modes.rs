//! Resolution of each class's identity mode, at build time:
//! class attribute > crate `[package.metadata.bridge]` > `[workspace.metadata.bridge]` > `none`.
//! Each class resolves against the crate that declared it, so crates linked into one
//! module keep their own defaults.

use crate::postprocess::exports::ClassExport;
use crate::settings::identity::IdentityMode;
use crate::settings::workspace::Workspace;
use anyhow::{Result, anyhow};

pub fn resolve(class: &ClassExport, workspace: &Workspace) -> Result<IdentityMode> {
    if let Some(attr) = &class.identity_mode {
        // The macro validated it; a mismatch means the runtime and CLI disagree.
        return IdentityMode::parse(attr).ok_or_else(|| {
            anyhow!(
                "class `{}` of crate `{}` has identity_mode = \"{attr}\"; valid values are \"none\", \"pointer\", \"rust\"",
                class.rust_name,
                class.crate_name
            )
        });
    }
    Ok(workspace
        .crate_modes
        .get(&class.crate_name)
        .copied()
        .or(workspace.default_mode)
        .unwrap_or(IdentityMode::None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn class(crate_name: &str, attr: Option<&str>) -> ClassExport {
        ClassExport {
            crate_name: crate_name.into(),
            type_id: bridge_schema::type_id(crate_name, "C"),
            name: "C".into(),
            rust_name: "C".into(),
            identity_mode: attr.map(str::to_string),
            doc: String::new(),
            members: Vec::new(),
        }
    }

    fn workspace(default: Option<IdentityMode>, crates: &[(&str, IdentityMode)]) -> Workspace {
        Workspace {
            manifest_path: "/ws/Cargo.toml".into(),
            target_dir: "/ws/target".into(),
            default_mode: default,
            crate_modes: crates
                .iter()
                .map(|(n, m)| (n.to_string(), *m))
                .collect::<BTreeMap<_, _>>(),
            as_written: Default::default(),
            crates: Vec::new(),
            package_dirs: BTreeMap::new(),
        }
    }

    #[test]
    fn attribute_beats_crate_beats_workspace_beats_none() {
        use IdentityMode::*;
        let ws = workspace(Some(Rust), &[("a", Pointer)]);
        assert_eq!(resolve(&class("a", Some("none")), &ws).unwrap(), None);
        assert_eq!(resolve(&class("a", Option::None), &ws).unwrap(), Pointer);
        assert_eq!(resolve(&class("b", Option::None), &ws).unwrap(), Rust);
        let bare = workspace(Option::None, &[]);
        assert_eq!(resolve(&class("b", Option::None), &bare).unwrap(), None);
    }

    #[test]
    fn each_crate_keeps_its_own_default() {
        use IdentityMode::*;
        let ws = workspace(Option::None, &[("a", Rust), ("b", Pointer)]);
        assert_eq!(resolve(&class("a", Option::None), &ws).unwrap(), Rust);
        assert_eq!(resolve(&class("b", Option::None), &ws).unwrap(), Pointer);
        assert_eq!(resolve(&class("c", Option::None), &ws).unwrap(), None);
    }
}
