// Launching Debian's Chromium headless with playwright-core, with the flags this closed
// network needs (no background connections; no sandbox when running as root).
import { chromium } from "playwright-core";

export function launch(executablePath) {
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--js-flags=--expose-gc",
    ],
  });
}
