// The browser shims agree with Node: every case runs against node:assert/strict and
// ./assert.mjs and must pass or fail alike; node-test.mjs runs tests, hooks and
// subtests and reports failures. Run by `cargo xtask test-browser` before the browser.
import test from "node:test";
import nodeAssert from "node:assert/strict";
import shim from "./assert.mjs";
import * as runner from "./node-test.mjs";

class Thing {
  constructor(x) {
    this.x = x;
  }
}
const boom = () => {
  throw new TypeError("bad Counter: released");
};

// [label, (assert) => void]: each is run with both implementations.
const CASES = [
  ["equal same", (a) => a.equal(1, 1)],
  ["equal differs", (a) => a.equal(1, 2)],
  ["equal is strict", (a) => a.equal(1, "1")],
  ["equal NaN", (a) => a.equal(NaN, NaN)],
  ["equal -0", (a) => a.equal(0, -0)],
  ["notEqual", (a) => a.notEqual(1, 2)],
  ["notEqual same", (a) => a.notEqual("x", "x")],
  ["ok true", (a) => a.ok(1)],
  ["ok false", (a) => a.ok(0)],
  ["callable", (a) => a(false)],
  ["deepEqual arrays", (a) => a.deepEqual([1, [2, { b: 3n }]], [1, [2, { b: 3n }]])],
  ["deepEqual arrays differ", (a) => a.deepEqual([1, 2], [1, 2, 3])],
  ["deepEqual prototypes", (a) => a.deepEqual(new Thing(1), { x: 1 })],
  ["deepEqual classes", (a) => a.deepEqual(new Thing(1), new Thing(1))],
  ["deepEqual typed arrays", (a) => a.deepEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))],
  ["deepEqual typed array kinds", (a) => a.deepEqual(new Uint8Array([1]), new Int8Array([1]))],
  ["deepEqual typed array values", (a) => a.deepEqual(new Float64Array([1]), new Float64Array([2]))],
  ["deepEqual typed vs plain", (a) => a.deepEqual(new Uint8Array([1]), [1])],
  ["deepEqual Map", (a) => a.deepEqual(new Map([[1, { a: 1 }]]), new Map([[1, { a: 1 }]]))],
  ["deepEqual Map differs", (a) => a.deepEqual(new Map([[1, 1]]), new Map([[1, 2]]))],
  ["deepEqual Set", (a) => a.deepEqual(new Set([1, 2]), new Set([2, 1]))],
  ["deepEqual missing key", (a) => a.deepEqual({ a: 1 }, { a: 1, b: undefined })],
  ["deepEqual null", (a) => a.deepEqual(null, {})],
  ["match", (a) => a.match("Counter released", /released/)],
  ["match fails", (a) => a.match("Counter", /released/)],
  ["match non-string", (a) => a.match(42, /4/)],
  ["doesNotMatch", (a) => a.doesNotMatch("abc", /x/)],
  ["doesNotMatch fails", (a) => a.doesNotMatch("abc", /b/)],
  ["fail", (a) => a.fail("nope")],
  ["throws", (a) => a.throws(boom)],
  ["throws none", (a) => a.throws(() => {})],
  ["throws regexp", (a) => a.throws(boom, /bad Counter/)],
  ["throws regexp on name", (a) => a.throws(boom, /^TypeError: bad/)],
  ["throws regexp mismatch", (a) => a.throws(boom, /Pool/)],
  ["throws class", (a) => a.throws(boom, TypeError)],
  ["throws wrong class", (a) => a.throws(boom, RangeError)],
  ["throws object", (a) => a.throws(boom, { name: "TypeError", message: /released/ })],
  ["throws object mismatch", (a) => a.throws(boom, { message: "other" })],
  ["throws validator", (a) => a.throws(boom, (e) => e instanceof TypeError)],
  ["throws validator false", (a) => a.throws(boom, () => false)],
  ["throws message only", (a) => a.throws(() => {}, "must throw")],
  ["doesNotThrow", (a) => a.doesNotThrow(() => 1)],
  ["doesNotThrow throws", (a) => a.doesNotThrow(boom)],
];

function outcome(fn) {
  try {
    fn();
    return "pass";
  } catch (error) {
    return error?.code === "ERR_ASSERTION" ? "assertion" : `throws ${error?.name}`;
  }
}

for (const [label, body] of CASES) {
  test(`assert shim: ${label}`, () => {
    nodeAssert.equal(outcome(() => body(shim)), outcome(() => body(nodeAssert)));
  });
}

test("assert shim: failure messages say what differed", () => {
  nodeAssert.throws(() => shim.equal(1, 2), /1 !== 2/);
  nodeAssert.throws(() => shim.equal(1, 2, "custom"), { message: "custom", name: "AssertionError" });
  nodeAssert.throws(() => shim.throws(() => {}), /Missing expected exception/);
});

test("assert shim: rejects and doesNotReject", async () => {
  await shim.rejects(Promise.reject(new Error("x")), /x/);
  await nodeAssert.rejects(shim.rejects(Promise.resolve(1)), { code: "ERR_ASSERTION" });
  await shim.doesNotReject(async () => 1);
  await nodeAssert.rejects(shim.doesNotReject(Promise.reject(new Error("x"))), { code: "ERR_ASSERTION" });
});

test("test shim: runs tests in order with hooks, subtests, skip and failures", async () => {
  const log = [];
  runner.beforeEach(() => log.push("each"));
  runner.test("first", () => log.push("first"));
  runner.describe("group", () => {
    runner.it("inner", async (t) => {
      await t.test("sub", () => log.push("sub"));
    });
  });
  runner.test("skipped", { skip: true }, () => log.push("never"));
  runner.test("fails", () => {
    throw new Error("planned failure");
  });
  runner.test("callback", (t, done) => setTimeout(done, 1));
  const results = [];
  await runner.runRegistered((r) => results.push(r));
  nodeAssert.deepEqual(
    results.map((r) => [r.name, r.ok, Boolean(r.skipped)]),
    [
      ["first", true, false],
      ["group > inner", true, false],
      ["skipped", true, true],
      ["fails", false, false],
      ["callback", true, false],
    ],
  );
  nodeAssert.match(results[3].error, /planned failure/);
  nodeAssert.deepEqual(log, ["each", "first", "each", "sub", "each", "each"]);
});
