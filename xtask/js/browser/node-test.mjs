// `node:test` for the browser: enough of Node's test runner for the fixtures' suites to
// run unchanged in Chromium. Tests register while their file is imported and run in
// order afterwards (`runRegistered`); each result is reported to run.mjs, which prints
// them in node:test's format. Served to the page through an import map.

const registered = [];
const hooks = { before: [], after: [], beforeEach: [], afterEach: [] };
let prefix = "";

function normalize(name, options, fn) {
  if (typeof name === "function") return [name.name || "<anonymous>", {}, name];
  if (typeof options === "function") return [name, {}, options];
  return [name, options ?? {}, fn];
}

export function test(name, options, fn) {
  [name, options, fn] = normalize(name, options, fn);
  registered.push({ name: prefix + name, options, fn });
  return Promise.resolve();
}
test.skip = (name, options, fn) => {
  [name, options, fn] = normalize(name, options, fn);
  return test(name, { ...options, skip: true }, fn);
};
test.todo = (name, options, fn) => {
  [name, options, fn] = normalize(name, options, fn);
  return test(name, { ...options, todo: true }, fn);
};
test.only = test;

export function describe(name, options, fn) {
  [name, options, fn] = normalize(name, options, fn);
  const outer = prefix;
  prefix = `${outer}${name} > `;
  try {
    if (!options.skip) fn();
  } finally {
    prefix = outer;
  }
  return Promise.resolve();
}

export const it = test;
export const suite = describe;
export const before = (fn) => void hooks.before.push(fn);
export const after = (fn) => void hooks.after.push(fn);
export const beforeEach = (fn) => void hooks.beforeEach.push(fn);
export const afterEach = (fn) => void hooks.afterEach.push(fn);
Object.assign(test, { test, it, describe, suite, before, after, beforeEach, afterEach });
export default test;

/** A test's `t`: what the fixtures may use of node:test's TestContext. */
function context(name, result, cleanups) {
  return {
    name,
    signal: new AbortController().signal,
    skip(message) {
      result.skipped = message ?? true;
    },
    todo(message) {
      result.todo = message ?? true;
    },
    diagnostic(message) {
      console.log(`# ${message}`);
    },
    plan() {},
    after(fn) {
      cleanups.push(fn);
    },
    async test(subName, options, fn) {
      [subName, options, fn] = normalize(subName, options, fn);
      if (options.skip) return;
      await call(fn, context(`${name} > ${subName}`, {}, cleanups));
    },
  };
}

function call(fn, t) {
  if (fn.length >= 2) {
    return new Promise((resolve, reject) => {
      fn(t, (error) => (error ? reject(error) : resolve()));
    });
  }
  return fn(t);
}

/** Run what the imported file registered, reporting each result through `report`. */
export async function runRegistered(report) {
  const tests = registered.splice(0);
  for (const hook of hooks.before) await hook();
  for (const { name, options, fn } of tests) {
    const result = { name, ok: true };
    if (options.skip || options.todo) {
      result[options.skip ? "skipped" : "todo"] = options.skip || options.todo;
      report(result);
      continue;
    }
    const cleanups = [];
    const started = performance.now();
    try {
      for (const hook of hooks.beforeEach) await hook();
      await call(fn, context(name, result, cleanups));
      for (const hook of hooks.afterEach) await hook();
    } catch (error) {
      result.ok = false;
      result.error = describeError(error);
    }
    for (const cleanup of cleanups) {
      try {
        await cleanup();
      } catch (error) {
        result.ok = false;
        result.error ??= describeError(error);
      }
    }
    result.durationMs = performance.now() - started;
    report(result);
  }
  for (const hook of hooks.after) await hook();
}

function describeError(error) {
  if (error instanceof Error) return error.stack?.includes(error.message) ? error.stack : `${error.name}: ${error.message}\n${error.stack ?? ""}`;
  return `thrown: ${String(error)}`;
}
