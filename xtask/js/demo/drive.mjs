// Drives the outline demo (examples/outline/www, built) in headless Chromium like a user:
// adds, edits, ticks, selects and removes items, checking the DOM text after each step,
// and writes a screenshot. `node drive.mjs WWW_DIR CHROMIUM SCREENSHOT.png`
// (cargo xtask demo --no-serve, and cargo xtask test).
//
// What it proves: after each edit only the changed nodes' rows are rebuilt (the page's
// WeakMap memo, keyed by node object, hits for every other row: the same Rust node is the
// same JS object), the inspector's node is the one the tree walk gives, and a removed
// subtree's Rust nodes are freed once JS lets go of them.
import { readFileSync, existsSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { launch } from "../browser/chromium.mjs";
import { serveStatic } from "../browser/serve.mjs";

const [dir, chromiumPath, screenshot] = process.argv.slice(2);
const server = await serveStatic(resolve(dir));
const browser = await launch(chromiumPath);
const errors = [];
let checks = 0;

function expect(what, got, want) {
  if (got !== want) throw new Error(`${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  checks += 1;
}

/** Write the PNG unless the checked-in one shows the same picture: Chromium's
 * antialiasing of the rounded corners varies a little from run to run, so a pixel counts
 * as changed when a channel moves by more than 48 of 255 (text that changed does). */
async function writeScreenshot(page, png) {
  if (existsSync(screenshot)) {
    const old = readFileSync(screenshot);
    const same = await page.evaluate(async ([a, b]) => {
      const pixels = async (base64) => {
        const img = new Image();
        img.src = `data:image/png;base64,${base64}`;
        await img.decode();
        const canvas = new OffscreenCanvas(img.width, img.height);
        const context = canvas.getContext("2d");
        context.drawImage(img, 0, 0);
        return context.getImageData(0, 0, img.width, img.height).data;
      };
      const [x, y] = [await pixels(a), await pixels(b)];
      return x.length === y.length && x.every((v, i) => Math.abs(v - y[i]) <= 48);
    }, [old.toString("base64"), png.toString("base64")]);
    if (same) return;
  }
  writeFileSync(screenshot, png);
}

try {
  const page = await browser.newPage({ viewport: { width: 860, height: 470 } });
  page.on("pageerror", (e) => errors.push(e.stack ?? String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(`${server.origin}/`);
  await page.waitForFunction(() => window.__demoReady === true, null, { timeout: 30_000 });

  const text = (selector) => page.locator(selector).innerText();
  const rowTexts = () => page.locator("#rows .row .text").allInnerTexts();
  const stats = async () => ({
    rows: await text("#stat-rows"),
    built: await text("#stat-built"),
    reused: await text("#stat-reused"),
  });
  const row = (id) => `#rows .row[data-id="${id}"]`;

  // The sample outline, every row built once.
  expect("the first render's rows", (await rowTexts()).join(" | "),
    "Groceries | Apples | Bread | Plan the trip | Book tickets | Compare trains and flights | Pack | Call the plumber");
  expect("the first render", JSON.stringify(await stats()),
    JSON.stringify({ rows: "8", built: "8 (total 8)", reused: "0 (total 0)" }));
  expect("Rust nodes alive", await text("#stat-live"), "8");

  // A child of Groceries: its row (one more child) and the new one are built; 7 reused.
  await page.click(`${row(1)} .add-child`);
  expect("after adding a child", JSON.stringify(await stats()),
    JSON.stringify({ rows: "9", built: "2 (total 10)", reused: "7 (total 7)" }));
  expect("the new row", await text(row(9)), "New item 9\n+ child\n×");
  expect("Groceries' child count", await text(`${row(1)} .count`), "(3)");

  // Tick Apples: one row rebuilt.
  await page.check(`${row(2)} input[type=checkbox]`);
  expect("after ticking Apples", (await stats()).built, "1 (total 11)");
  expect("Apples is done", await page.locator(row(2)).getAttribute("class"), "row fresh done");

  // Edit Bread's text (double click, the prompt): one row rebuilt, with the new text.
  page.once("dialog", (dialog) => dialog.accept("Bread (rye)"));
  await page.dblclick(`${row(3)} .text`);
  expect("after editing Bread", (await stats()).built, "1 (total 12)");
  expect("Bread's new text", await text(`${row(3)} .text`), "Bread (rye)");

  // Select "Book tickets": nothing changed in Rust, so every row is reused.
  await page.click(`${row(5)} .text`);
  const selecting = await stats();
  expect("rows built when selecting", selecting.built, "0 (total 12)");
  expect("rows reused when selecting", selecting.reused.split(" ")[0], "9");
  expect("the inspector's item", await text("#insp-text"), "Book tickets");
  expect("the inspector's path", await text("#insp-path"), "Plan the trip › Book tickets");
  expect("the inspector's children", await text("#insp-children"), "1");
  expect("the inspected node is the tree's own object", await text("#insp-same"),
    "yes (=== the node outline.roots() leads to now)");
  await writeScreenshot(page, await page.screenshot({ animations: "disabled" }));

  // Remove "Plan the trip" and its subtree (4 nodes, the selected one among them).
  await page.click(`${row(4)} .remove`);
  expect("after removing a subtree", (await rowTexts()).join(" | "),
    "Groceries | Apples | Bread (rye) | New item 9 | Call the plumber");
  expect("the inspector, its node gone", await text("#insp-text"), "(click an item)");
  // The WeakMap kept nothing: once collected, the 4 Rust nodes are dropped.
  await page.waitForFunction(async () => {
    globalThis.gc();
    await new Promise((ok) => setTimeout(ok, 20));
    return document.getElementById("stat-live").textContent === "5";
  }, null, { timeout: 20_000, polling: 100 }).catch(async () => {
    throw new Error(`Rust nodes alive after removing 4 of 9: ${await text("#stat-live")}, want 5`);
  });
  checks += 1;
  if (errors.length) throw new Error(`the page reported errors:\n${errors.join("\n")}`);
  console.log(`demo: ${checks} checks passed in Chromium; screenshot: ${screenshot}`);
} catch (error) {
  console.error(`demo: ${error.message}\n${errors.join("\n")}`);
  process.exitCode = 1;
} finally {
  await browser.close();
  server.close();
}
