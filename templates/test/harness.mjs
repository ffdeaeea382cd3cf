// The test loop of `cargo bridge test`, shared by its Node and Chromium hosts: one report
// (libtest's format) over the crate's `#[bridge::test]`s and `#[wasm_bindgen_test]`s.
//
// `#[bridge::test]`: each is a glue export `bridgeTest_<name>_<hash>(run)`, which returns
// the test's path for `run = false` and runs it for `run = true`; an `async fn` test's
// export returns a Promise of each, so every answer is awaited. A panic reaches JS as an
// `Error` with the panic message, an `Err(e)` as one with `Error: {e:?}`, and the module
// stays usable, so the other tests still run.
//
// `#[wasm_bindgen_test]`: each is a raw wasm export `__wbgt_<modifiers>_<crate>::<path>`
// (`$` in the modifiers: `#[ignore]`) taking a `WasmBindgenTestContext`, the class
// wasm-bindgen-test exports (as wasm-bindgen-test-runner drives it). Each runs in a
// context of its own, so a result belongs to one test; the context prints libtest's lines
// through `__wbgtest_og_console_log` (Node) or into `<pre id="output">` (browsers), and the
// failure's block is taken from them. `console.*` inside such a test is captured (into its
// failure block), as libtest captures stdout.
//
// Every test gets `timeoutMs`: one that does not settle by then (an async test awaiting a
// Promise nothing settles) fails alone and the next one runs.

const CONSOLE = ["debug", "log", "info", "warn", "error"];
// While a #[wasm_bindgen_test] runs: wasm-bindgen-test's console recorders by method.
let $recorders = null;

/** Route `console.*` through the capture; call before the module is instantiated
 * (wasm-bindgen may bind `console.log` itself as an import). */
export function captureConsole() {
  for (const method of CONSOLE) {
    const original = console[method];
    console[method] = function (...args) {
      if ($recorders === null) return original.apply(this, args);
      $recorders[method]?.(args);
    };
  }
}

// The exports of the module instantiated last (see `watchInstances`).
let $instanceExports = null;

/** Remember the exports of every module instantiated from now on: the bridge glue keeps its
 * instance to itself, and a crate's `#[wasm_bindgen_test]`s are raw exports of it (as
 * wasm-bindgen-test-runner reaches them through wasm-bindgen's `__wasm`). */
export function watchInstances() {
  const Instance = WebAssembly.Instance;
  WebAssembly.Instance = new Proxy(Instance, {
    construct(target, args, newTarget) {
      const instance = Reflect.construct(target, args, newTarget);
      $instanceExports = instance.exports;
      return instance;
    },
  });
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async function (...args) {
    const result = await instantiate.apply(this, args);
    $instanceExports = (result.instance ?? result).exports;
    return result;
  };
}

/** The exports of the module instantiated last, or null. */
export function instanceExports() {
  return $instanceExports;
}

/**
 * Run the tests of one crate and print the report. `suite`: `{ glue, wbg }`: `glue` the
 * bridge glue module (or null), `wbg` null or `{ module, exports, skip }`: the module
 * exporting `WasmBindgenTestContext`, the instance's raw exports, and why its tests do not
 * run here (null: they do). `options`: `{ filter, exact, ignored, includeIgnored,
 * timeoutMs }`; `hooks`: `started(name)` and `finished()` around each test (a host's
 * watchdog). Resolves to `{ code, ran, passed, failed, ignored, filteredOut, skipped }`
 * (`code` 101 when a test failed, as `cargo test`).
 */
export async function runTests(suite, options, print, hooks = {}) {
  const all = [...(await bridgeTests(suite.glue)), ...wbgTests(suite.wbg)];
  all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const matches = (test) => (options.exact ? test.name === options.filter : test.name.includes(options.filter ?? ""));
  const skipped = suite.wbg?.skip ? all.filter((test) => test.kind === "wbg").length : 0;
  const runnable = suite.wbg?.skip ? all.filter((test) => test.kind !== "wbg") : all;
  const chosen = runnable.filter((test) => matches(test) && (!options.ignored || test.ignored));
  print("");
  print(`running ${chosen.length} test${chosen.length === 1 ? "" : "s"}`);
  const failures = [];
  let ignored = 0;
  for (const test of chosen) {
    if (test.ignored && !options.ignored && !options.includeIgnored) {
      print(`test ${test.name} ... ignored`);
      ignored += 1;
      continue;
    }
    hooks.started?.(test.name);
    const error = await runOne(test, options.timeoutMs);
    hooks.finished?.();
    if (error === undefined) {
      print(`test ${test.name} ... ok`);
    } else {
      print(`test ${test.name} ... FAILED`);
      failures.push({ name: test.name, error });
    }
  }
  if (failures.length > 0) {
    print("");
    print("failures:");
    print("");
    for (const { name, error } of failures) {
      print(`---- ${name} ----`);
      print(describe(error));
      print("");
    }
    print("failures:");
    for (const { name } of failures) print(`    ${name}`);
  }
  const passed = chosen.length - failures.length - ignored;
  const filteredOut = runnable.length - chosen.length;
  print("");
  print(
    `test result: ${failures.length > 0 ? "FAILED" : "ok"}. ${passed} passed; ${failures.length} failed; ` +
      `${ignored} ignored; 0 measured; ${filteredOut} filtered out`,
  );
  print("");
  return {
    code: failures.length > 0 ? 101 : 0,
    ran: chosen.filter((test) => !test.ignored || options.ignored || options.includeIgnored).map((test) => test.name),
    compiled: all.map((test) => test.name),
    passed,
    failed: failures.length,
    ignored,
    filteredOut,
    skipped,
  };
}

/** Runs `test`; resolves to undefined when it passed, else to what failed it. */
async function runOne(test, timeoutMs) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(
      () =>
        resolve(
          new TimedOut(
            `the test did not finish within ${timeoutMs / 1000} s (an async test awaiting a Promise that ` +
              "nothing settles?); the other tests still ran. Raise the limit with --test-timeout SECS",
          ),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([
      test.run().then(
        () => undefined,
        (error) => error ?? new Error(`threw ${String(error)}`),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
    $recorders = null;
  }
}

class TimedOut extends Error {}

function describe(error) {
  if (error instanceof Error) return error.message;
  return `threw ${String(error)}`;
}

async function bridgeTests(glue) {
  if (!glue) return [];
  const keys = Object.keys(glue).filter((key) => key.startsWith("bridgeTest_") && typeof glue[key] === "function");
  const tests = [];
  for (const key of keys) {
    // The path without the crate, as libtest (and wasm-bindgen-test) print it.
    const path = await glue[key](false);
    const name = path.slice(path.indexOf("::") + 2);
    tests.push({ name, kind: "bridge", ignored: false, run: () => runBridge(glue[key]) });
  }
  return tests;
}

/** One #[bridge::test], its `console.*` output captured (as libtest captures stdout) and
 * shown under its failure: where a panic hook other than bridge-runtime's (wasm-bindgen-
 * test's, in a crate with both kinds) prints the panic message, it is seen there. */
async function runBridge(run) {
  const captured = Object.fromEntries(CONSOLE.map((method) => [method, []]));
  $recorders = Object.fromEntries(
    CONSOLE.map((method) => [method, (args) => captured[method].push(args.map(String).join(" "))]),
  );
  try {
    await run(true);
  } catch (error) {
    let text = describe(error);
    for (const method of CONSOLE) {
      if (captured[method].length === 0) continue;
      const lines = captured[method].join("\n").split("\n");
      text += `\n${method} output:\n${lines.map((line) => `    ${line}`).join("\n")}`;
    }
    throw new Error(text);
  }
}

function wbgTests(wbg) {
  if (!wbg || !wbg.exports) return [];
  const tests = [];
  for (const exportName of Object.keys(wbg.exports)) {
    if (!exportName.startsWith("__wbgt_")) continue;
    const rest = exportName.slice("__wbgt_".length);
    const modifiers = rest.slice(0, Math.max(rest.indexOf("_"), 0));
    const at = exportName.indexOf("::");
    if (at < 0) continue;
    // As wasm-bindgen-test names it: the path without the crate.
    const name = exportName.slice(at + 2);
    const raw = wbg.exports[exportName];
    if (typeof wbg.module.WasmBindgenTestContext !== "function") {
      throw new Error(
        `the module has #[wasm_bindgen_test] ${name}, but its glue exports no WasmBindgenTestContext ` +
          "(wasm-bindgen-test's runner class): is wasm-bindgen-test a dev-dependency of this crate?",
      );
    }
    tests.push({ name, kind: "wbg", ignored: modifiers.includes("$"), run: () => runWbg(wbg.module, raw, name) });
  }
  return tests;
}

/** One #[wasm_bindgen_test] in a context of its own; throws its failure block. */
async function runWbg(module, raw, name) {
  const lines = [];
  globalThis.__wbgtest_og_console_log = (text) => lines.push(...String(text).split("\n"));
  globalThis.__wbg_test_invoke = (f) => f();
  const pre = globalThis.document?.getElementById("output");
  if (pre) pre.textContent = "";
  const cx = new module.WasmBindgenTestContext(false);
  // The harness decided about #[ignore] already.
  cx.include_ignored?.(true);
  $recorders = {
    debug: module.__wbgtest_console_debug,
    log: module.__wbgtest_console_log,
    info: module.__wbgtest_console_info,
    warn: module.__wbgtest_console_warn,
    error: module.__wbgtest_console_error,
  };
  const passed = await cx.run([raw]);
  $recorders = null;
  if (pre) lines.push(...pre.textContent.split("\n"));
  if (passed) return;
  throw new Error(failureBlock(lines, name));
}

/** The lines wasm-bindgen-test printed for `name`'s failure (its `---- name output ----`
 * block, unindented), or all of them if that block is not there. */
function failureBlock(lines, name) {
  const start = lines.indexOf(`---- ${name} output ----`);
  if (start < 0) return lines.join("\n").trim();
  const end = lines.indexOf("failures:", start);
  return lines
    .slice(start + 1, end < 0 ? undefined : end)
    .map((line) => (line.startsWith("    ") ? line.slice(4) : line))
    .join("\n")
    .trimEnd();
}
