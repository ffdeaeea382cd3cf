//! Rendering of the JS module and its TypeScript declarations from `templates/`.
//! The templates are compiled into the binary, so an installed `cargo bridge` needs no
//! files beside it.

mod data;
mod js;
mod model;
mod types;
mod wasm_abi;
mod wire;

pub use js::view as js_view;
pub use model::{ClassPlan, GlueModel};
pub use wire::CodecView;

use anyhow::{Context, Result};
use minijinja::Environment;

const TEMPLATES: &[(&str, &str)] = &[
    ("glue.js.j2", include_str!("../../../templates/glue.js.j2")),
    (
        "glue.d.ts.j2",
        include_str!("../../../templates/glue.d.ts.j2"),
    ),
    (
        "runtime.js.j2",
        include_str!("../../../templates/runtime.js.j2"),
    ),
    (
        "load_nodejs.js.j2",
        include_str!("../../../templates/load_nodejs.js.j2"),
    ),
    (
        "load_bundler.js.j2",
        include_str!("../../../templates/load_bundler.js.j2"),
    ),
    (
        "load_web.js.j2",
        include_str!("../../../templates/load_web.js.j2"),
    ),
    (
        "pools.js.j2",
        include_str!("../../../templates/pools.js.j2"),
    ),
    ("abi.js.j2", include_str!("../../../templates/abi.js.j2")),
    ("data.js.j2", include_str!("../../../templates/data.js.j2")),
    ("wire.js.j2", include_str!("../../../templates/wire.js.j2")),
    (
        "class.js.j2",
        include_str!("../../../templates/class.js.j2"),
    ),
    (
        "identity/common.js.j2",
        include_str!("../../../templates/identity/common.js.j2"),
    ),
    (
        "identity/none.js.j2",
        include_str!("../../../templates/identity/none.js.j2"),
    ),
    (
        "identity/pointer.js.j2",
        include_str!("../../../templates/identity/pointer.js.j2"),
    ),
    (
        "identity/rust.js.j2",
        include_str!("../../../templates/identity/rust.js.j2"),
    ),
    (
        "js/closures.js.j2",
        include_str!("../../../templates/js/closures.js.j2"),
    ),
    (
        "js/imports.js.j2",
        include_str!("../../../templates/js/imports.js.j2"),
    ),
    (
        "js/marshal.js.j2",
        include_str!("../../../templates/js/marshal.js.j2"),
    ),
    (
        "js/values.js.j2",
        include_str!("../../../templates/js/values.js.j2"),
    ),
];

/// The rendered glue of one package.
pub struct Glue {
    pub js: String,
    pub dts: String,
    /// Further files of the package the glue imports (JS module snippets), relative paths.
    pub imported_files: Vec<String>,
}

fn environment() -> Result<Environment<'static>> {
    let mut env = Environment::new();
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    env.set_keep_trailing_newline(true);
    env.add_filter("comment_text", comment_text);
    for (name, source) in TEMPLATES {
        env.add_template(name, source)
            .with_context(|| format!("template {name} does not parse"))?;
    }
    Ok(env)
}

/// Text for the inside of a `/* */` comment: a `*/` in it would end the comment (and
/// let the rest run as code), so its `/` is escaped.
fn comment_text(text: &str) -> String {
    text.replace("*/", "*\\/")
}

pub fn render(model: &GlueModel) -> Result<Glue> {
    let env = environment()?;
    let js = env
        .get_template("glue.js.j2")?
        .render(model)
        .context("rendering the JS glue")?;
    let dts = env
        .get_template("glue.d.ts.j2")?
        .render(model)
        .context("rendering the TypeScript declarations")?;
    let imported_files = model.js.modules.iter().map(|m| m.dest.clone()).collect();
    Ok(Glue {
        js,
        dts,
        imported_files,
    })
}

#[cfg(test)]
mod tests {
    use super::comment_text;

    #[test]
    fn comment_text_cannot_end_the_comment() {
        let hostile = "Returns one */ globalThis.INJECTED = \"ran\"; /* **/";
        let escaped = comment_text(hostile);
        assert!(!escaped.contains("*/"), "{escaped}");
        assert_eq!(
            escaped,
            "Returns one *\\/ globalThis.INJECTED = \"ran\"; /* **\\/"
        );
        assert_eq!(
            comment_text("plain `code` and a/b*c"),
            "plain `code` and a/b*c"
        );
    }
}
