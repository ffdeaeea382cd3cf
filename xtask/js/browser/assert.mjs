// `node:assert/strict` for the browser: the subset of Node's strict assertions the
// fixtures' suites use, with Node's semantics (Object.is equality, strict deep equality,
// throws/rejects validation by RegExp, class, function or object). Served to the page
// by xtask/js/browser/run.mjs through an import map.

export class AssertionError extends Error {
  constructor({ message, actual, expected, operator }) {
    super(message);
    this.name = "AssertionError";
    this.code = "ERR_ASSERTION";
    this.actual = actual;
    this.expected = expected;
    this.operator = operator;
  }
}

/** A short, readable rendering of a value for messages. */
export function inspect(value, depth = 0) {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "symbol" || typeof value === "function") return String(value.name ?? value);
  if (value === null || typeof value !== "object") return String(value);
  if (depth > 2) return "[…]";
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (Array.isArray(value)) return `[${value.map((v) => inspect(v, depth + 1)).join(", ")}]`;
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${value.length}) [${Array.from(value, (v) => inspect(v)).join(", ")}]`;
  const name = value.constructor?.name;
  const body = Object.keys(value).map((k) => `${k}: ${inspect(value[k], depth + 1)}`).join(", ");
  return `${name && name !== "Object" ? `${name} ` : ""}{ ${body} }`;
}

function fail(message, fallback, actual, expected, operator) {
  if (message instanceof Error) throw message;
  throw new AssertionError({ message: message ?? fallback, actual, expected, operator });
}

export function isDeepStrictEqual(a, b, seen = new Map()) {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const tag = Object.prototype.toString.call(a);
  if (tag !== Object.prototype.toString.call(b)) return false;
  if (seen.get(a) === b) return true;
  seen.set(a, b);
  if (a instanceof Date) return Object.is(a.getTime(), b.getTime());
  if (a instanceof RegExp) return String(a) === String(b) && a.lastIndex === b.lastIndex;
  if (a instanceof Error && (a.message !== b.message || a.name !== b.name)) return false;
  if (ArrayBuffer.isView(a)) {
    if (a.byteLength !== b.byteLength) return false;
    const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  } else if (a instanceof ArrayBuffer) {
    return isDeepStrictEqual(new Uint8Array(a), new Uint8Array(b), seen);
  } else if (a instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !isDeepStrictEqual(v, b.get(k), seen)) return false;
  } else if (a instanceof Set) {
    if (a.size !== b.size) return false;
    for (const v of a) {
      if (b.has(v)) continue;
      if (typeof v !== "object" || ![...b].some((w) => isDeepStrictEqual(v, w, seen))) return false;
    }
  } else if (["[object Number]", "[object String]", "[object Boolean]", "[object BigInt]"].includes(tag)) {
    if (!Object.is(a.valueOf(), b.valueOf())) return false;
  }
  if (Array.isArray(a) && a.length !== b.length) return false;
  const keys = (o) => Reflect.ownKeys(o).filter((k) => Object.prototype.propertyIsEnumerable.call(o, k));
  const ka = keys(a);
  const kb = keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.propertyIsEnumerable.call(b, k)) return false;
    if (!isDeepStrictEqual(a[k], b[k], seen)) return false;
  }
  return true;
}

export function ok(value, message) {
  if (!value) fail(message, `The expression evaluated to a falsy value:\n\n  ${inspect(value)}\n`, value, true, "==");
}

export function equal(actual, expected, message) {
  if (!Object.is(actual, expected)) {
    fail(message, `Expected values to be strictly equal:\n\n${inspect(actual)} !== ${inspect(expected)}\n`, actual, expected, "strictEqual");
  }
}

export function notEqual(actual, expected, message) {
  if (Object.is(actual, expected)) {
    fail(message, `Expected "actual" to be strictly unequal to: ${inspect(expected)}`, actual, expected, "notStrictEqual");
  }
}

export function deepEqual(actual, expected, message) {
  if (!isDeepStrictEqual(actual, expected)) {
    fail(message, `Expected values to be strictly deep-equal:\n+ actual - expected\n\n+ ${inspect(actual)}\n- ${inspect(expected)}\n`, actual, expected, "deepStrictEqual");
  }
}

export function notDeepEqual(actual, expected, message) {
  if (isDeepStrictEqual(actual, expected)) {
    fail(message, `Expected "actual" not to be strictly deep-equal to: ${inspect(expected)}`, actual, expected, "notDeepStrictEqual");
  }
}

export function match(string, regexp, message) {
  if (typeof string !== "string" || !regexp.test(string)) {
    fail(message, `The input did not match the regular expression ${regexp}. Input:\n\n${inspect(string)}\n`, string, regexp, "match");
  }
}

export function doesNotMatch(string, regexp, message) {
  if (typeof string !== "string" || regexp.test(string)) {
    fail(message, `The input was expected to not match the regular expression ${regexp}. Input:\n\n${inspect(string)}\n`, string, regexp, "doesNotMatch");
  }
}

export function assertFail(message) {
  fail(message, "Failed", undefined, undefined, "fail");
}

/** Node's validation of a caught error against `expected`. */
function validate(actual, expected, message, operator) {
  if (expected instanceof RegExp) {
    if (expected.test(String(actual))) return;
    fail(message, `The input did not match the regular expression ${expected}. Input:\n\n${inspect(String(actual))}\n`, actual, expected, operator);
  }
  if (typeof expected === "function") {
    if (expected.prototype !== undefined && actual instanceof expected) return;
    if (expected === Error || Error.isPrototypeOf(expected)) {
      fail(message, `The error is expected to be an instance of "${expected.name}". Received "${actual?.constructor?.name}"\n\nError message:\n\n${actual?.message}`, actual, expected, operator);
    }
    const result = expected.call({}, actual);
    if (result !== true) {
      fail(message, `The ${expected.name ? `"${expected.name}" ` : ""}validation function is expected to return "true". Received ${inspect(result)}\n\nCaught error:\n\n${inspect(actual)}`, actual, expected, operator);
    }
    return;
  }
  if (typeof expected === "object" && expected !== null) {
    for (const key of Reflect.ownKeys(expected)) {
      const want = expected[key];
      const got = actual?.[key];
      const same = want instanceof RegExp && typeof got === "string" ? want.test(got) : isDeepStrictEqual(got, want);
      if (!same) {
        fail(message, `Expected values to be strictly deep-equal at property ${String(key)}:\n+ ${inspect(got)}\n- ${inspect(want)}\n`, actual, expected, operator);
      }
    }
  }
}

export function throws(fn, expected, message) {
  if (typeof expected === "string") [message, expected] = [expected, undefined];
  try {
    fn();
  } catch (error) {
    if (expected !== undefined) validate(error, expected, message, "throws");
    return;
  }
  fail(message, `Missing expected exception${expected?.name ? ` (${expected.name})` : ""}.`, undefined, expected, "throws");
}

export function doesNotThrow(fn, message) {
  try {
    fn();
  } catch (error) {
    fail(typeof message === "string" ? message : undefined, `Got unwanted exception.\nActual message: "${error?.message}"`, error, undefined, "doesNotThrow");
  }
}

export async function rejects(promiseOrFn, expected, message) {
  if (typeof expected === "string") [message, expected] = [expected, undefined];
  try {
    await (typeof promiseOrFn === "function" ? promiseOrFn() : promiseOrFn);
  } catch (error) {
    if (expected !== undefined) validate(error, expected, message, "rejects");
    return;
  }
  fail(message, `Missing expected rejection${expected?.name ? ` (${expected.name})` : ""}.`, undefined, expected, "rejects");
}

export async function doesNotReject(promiseOrFn, message) {
  try {
    await (typeof promiseOrFn === "function" ? promiseOrFn() : promiseOrFn);
  } catch (error) {
    fail(typeof message === "string" ? message : undefined, `Got unwanted rejection.\nActual message: "${error?.message}"`, error, undefined, "doesNotReject");
  }
}

function assert(value, message) {
  ok(value, message);
}
Object.assign(assert, {
  AssertionError,
  ok,
  equal,
  strictEqual: equal,
  notEqual,
  notStrictEqual: notEqual,
  deepEqual,
  deepStrictEqual: deepEqual,
  notDeepEqual,
  notDeepStrictEqual: notDeepEqual,
  match,
  doesNotMatch,
  fail: assertFail,
  throws,
  doesNotThrow,
  rejects,
  doesNotReject,
});
assert.strict = assert;

export { assertFail as fail, equal as strictEqual, notEqual as notStrictEqual, deepEqual as deepStrictEqual, notDeepEqual as notDeepStrictEqual };
export const strict = assert;
export default assert;
