// Bundles the app in DIR (main.js importing a `--target bundler` package installed in
// DIR/node_modules) with one bundler into DIR/dist, beside DIR/index.html's copy, each with
// the config a user needs and no more (the README lists it). `node bundle.mjs BUNDLER DIR`
// (cargo xtask test-bundlers); BUNDLER: webpack | webpack-async-wasm | esbuild | rollup.
import { copyFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";

const [bundler, dirArg] = process.argv.slice(2);
const dir = resolve(dirArg);
const dist = join(dir, "dist");
const entry = join(dir, "main.js");

async function webpack(experiments) {
  const { default: webpack } = await import("webpack");
  const stats = await new Promise((ok, fail) =>
    webpack(
      {
        mode: "production",
        context: dir,
        entry,
        // The glue's `new URL("./x_bg.wasm", import.meta.url)` is an asset module by
        // default; top-level await is on by default since webpack 5.83.
        output: { path: dist, filename: "main.js", module: true },
        experiments: { outputModule: true, ...experiments },
      },
      (error, stats) => (error ? fail(error) : ok(stats)),
    ),
  );
  if (stats.hasErrors() || stats.hasWarnings()) {
    throw new Error(stats.toString({ all: false, errors: true, warnings: true }));
  }
}

async function esbuild() {
  const { build } = await import("esbuild");
  await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    outfile: join(dist, "main.js"),
    logLevel: "warning",
  });
  // esbuild keeps `new URL("./x_bg.wasm", import.meta.url)` as it is: the bundle loads the
  // .wasm from beside itself, so it is copied there (the one step a user adds).
  const pkg = join(dir, "node_modules", process.env.BRIDGE_PACKAGE);
  for (const file of readdirSync(pkg).filter((f) => f.endsWith(".wasm"))) {
    copyFileSync(join(pkg, file), join(dist, file));
  }
}

async function rollup() {
  const { rollup } = await import("rollup");
  const { nodeResolve } = await import("@rollup/plugin-node-resolve");
  const { importMetaAssets } = await import("@web/rollup-plugin-import-meta-assets");
  const warnings = [];
  const bundle = await rollup({
    input: entry,
    // node-resolve finds the package by name; import-meta-assets emits the .wasm that
    // `new URL(..., import.meta.url)` names and rewrites the URL.
    plugins: [nodeResolve(), importMetaAssets()],
    onwarn: (warning) => warnings.push(warning.message),
  });
  await bundle.write({ dir: dist, format: "es" });
  await bundle.close();
  if (warnings.length) throw new Error(`rollup warned:\n${warnings.join("\n")}`);
}

const bundlers = {
  webpack: () => webpack({}),
  "webpack-async-wasm": () => webpack({ asyncWebAssembly: true }),
  esbuild,
  rollup,
};
if (!bundlers[bundler]) throw new Error(`unknown bundler ${bundler}; one of ${Object.keys(bundlers)}`);
await bundlers[bundler]();
copyFileSync(join(dir, "index.html"), join(dist, "index.html"));
