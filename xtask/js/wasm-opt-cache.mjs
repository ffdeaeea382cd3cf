#!/usr/bin/env node
// A content-addressed cache in front of binaryen's `wasm-opt`, for the fixture builds of
// `cargo xtask` (see `xtask/src/wasm_opt_cache.rs`, which names it in `CARGO_BRIDGE_WASM_OPT`).
// cargo-bridge runs `wasm-opt <flags...> <input> -o <output>`: the output is a function of
// the binaryen version, the flags and the input's bytes, so a run whose three are those of
// an earlier successful run copies that run's output instead of optimizing again (npm's
// binaryen runs as wasm under Node: seconds per module). Anything else (another shape of
// arguments, a flag taking a value, a source map) runs the real wasm-opt untouched.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  utimesSync,
} from "node:fs";
import { delimiter, join, sep } from "node:path";

const real = process.env.XTASK_WASM_OPT_REAL;
const version = process.env.XTASK_WASM_OPT_VERSION;
const cache = process.env.XTASK_WASM_OPT_CACHE;
if (!real || version === undefined || !cache) {
  console.error(
    "wasm-opt-cache.mjs: XTASK_WASM_OPT_REAL, XTASK_WASM_OPT_VERSION and XTASK_WASM_OPT_CACHE must be set (by cargo xtask)",
  );
  process.exit(2);
}
const args = process.argv.slice(2);

// `--version`: the real one's answer, asked once by the xtask (npm's binaryen takes ~0.4 s
// of CPU to start).
if (args.length === 1 && args[0] === "--version") {
  process.stdout.write(version);
  process.exit(0);
}

// The real one's file: a path, or a name looked up on `PATH` as the shell would.
const resolve = (program) => {
  if (program.includes(sep)) return program;
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const path = join(dir || ".", program);
    if (existsSync(path)) return path;
  }
  return null;
};

// npm's binaryen is a Node script around binaryen compiled to wasm, and most of a run's CPU
// was V8 compiling those ~10 MB of wasm with its optimizing tier as well as its baseline
// one (Liftoff). `--liftoff-only` leaves the optimizing tier out: the same output bytes,
// about half the CPU per run (a 90 KB module 2.4 -> 0.7 s, a 900 KB one 3.6 -> 1.6 s).
const isNodeScript = (path) => {
  try {
    const fd = openSync(path, "r");
    const head = Buffer.alloc(128);
    const n = readSync(fd, head, 0, head.length, 0);
    closeSync(fd);
    const line = head.subarray(0, n).toString("latin1").split("\n")[0];
    return line.startsWith("#!") && /\bnode\b/.test(line);
  } catch {
    return false;
  }
};

const runReal = () => {
  const path = resolve(real);
  const [program, argv] =
    path && isNodeScript(path)
      ? [process.execPath, ["--liftoff-only", path, ...args]]
      : [real, args];
  const run = spawnSync(program, argv, { stdio: "inherit" });
  if (run.error) {
    console.error(`wasm-opt-cache.mjs: running ${real}: ${run.error.message}`);
    process.exit(2);
  }
  return run.status ?? 1;
};

// Only `<flags...> <input> -o <output>`, each flag one argument that names no file.
const at = args.length - 2;
const flags = args.slice(0, at - 1);
const cacheable =
  args.length >= 3 &&
  args[at] === "-o" &&
  flags.every((flag) => flag.startsWith("-") && flag !== "-o" && !flag.includes("map"));
if (!cacheable) {
  process.exit(runReal());
}
const input = args[at - 1];
const output = args[at + 1];

const hash = createHash("sha256");
for (const part of [version, ...flags]) {
  hash.update(part).update("\0");
}
hash.update(readFileSync(input));
const entry = join(cache, `${hash.digest("hex")}.wasm`);

if (existsSync(entry)) {
  copyFileSync(entry, output);
  // Used now: the xtask's pruning goes by modification time.
  const now = new Date();
  utimesSync(entry, now, now);
  process.exit(0);
}
const status = runReal();
if (status === 0) {
  // Landed whole or not at all: another build may read the same entry meanwhile.
  mkdirSync(cache, { recursive: true });
  const partial = `${entry}.partial-${process.pid}`;
  copyFileSync(output, partial);
  renameSync(partial, entry);
}
process.exit(status);
