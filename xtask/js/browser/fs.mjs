// `node:fs` for the browser: only `readFileSync` of text, for suites that read a file
// beside them (`readFileSync(new URL("../pkg/x.d.ts", import.meta.url), "utf8")`). A
// synchronous request to the test server, which serves the suite's pkg/ from the web
// build. run.mjs lets a suite into the browser only if it imports nothing else of node:fs.
export function readFileSync(path, options) {
  const url = path instanceof URL ? path.href : String(path);
  if (!/^https?:/.test(url)) {
    throw new Error(`readFileSync in the browser reads URLs the test server serves (new URL(..., import.meta.url)), not ${url}`);
  }
  const encoding = typeof options === "string" ? options : options?.encoding;
  if (!encoding) throw new Error(`readFileSync in the browser returns text only: pass "utf8" (reading ${url})`);
  const xhr = new XMLHttpRequest();
  xhr.open("GET", url, false);
  xhr.send();
  if (xhr.status !== 200) {
    const error = new Error(`ENOENT: no such file, open '${url}' (HTTP ${xhr.status})`);
    error.code = "ENOENT";
    throw error;
  }
  return xhr.responseText;
}

export default { readFileSync };
