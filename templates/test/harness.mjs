// The test loop of `cargo bridge test`, shared by its Node and Chromium hosts. `glue` is
// the test build's glue module: each `#[bridge::test]` is an export
// `bridgeTest_<name>_<hash>(run)`, which returns the test's path for `run = false` and runs
// it for `run = true`; an `async fn` test's export returns a Promise of each, so every
// answer is awaited. A panic reaches JS as an `Error` with the panic message (a sync
// throw or a rejection), an `Err(e)` as one with `Error: {e:?}`, and the module stays
// usable, so the other tests still run. Prints like libtest; resolves to the exit code
// (101 when a test failed, as `cargo test`). `state.running` names the test in flight, so
// a host can say which test never settled.
export async function runTests(glue, filter, print, state = {}) {
  const keys = Object.keys(glue).filter((key) => key.startsWith("bridgeTest_") && typeof glue[key] === "function");
  const all = [];
  for (const key of keys) all.push({ name: await glue[key](false), run: glue[key] });
  all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const chosen = all.filter((test) => test.name.includes(filter));
  print("");
  print(`running ${chosen.length} test${chosen.length === 1 ? "" : "s"}`);
  const failures = [];
  for (const test of chosen) {
    state.running = test.name;
    try {
      await test.run(true);
      print(`test ${test.name} ... ok`);
    } catch (error) {
      print(`test ${test.name} ... FAILED`);
      failures.push({ name: test.name, error });
    }
  }
  state.running = undefined;
  if (failures.length > 0) {
    print("");
    print("failures:");
    print("");
    for (const { name, error } of failures) {
      print(`---- ${name} ----`);
      print(error instanceof Error ? error.message : `threw ${String(error)}`);
      print("");
    }
    print("failures:");
    for (const { name } of failures) print(`    ${name}`);
  }
  const passed = chosen.length - failures.length;
  print("");
  print(
    `test result: ${failures.length > 0 ? "FAILED" : "ok"}. ${passed} passed; ${failures.length} failed; ` +
      `0 ignored; 0 measured; ${all.length - chosen.length} filtered out`,
  );
  print("");
  return failures.length > 0 ? 101 : 0;
}
