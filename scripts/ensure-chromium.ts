/**
 * Makes sure a Chromium exists for the e2e tests and the UI benchmark.
 * Found: prints its path. Missing: installs Debian's `chromium` when running as
 * root with apt; otherwise prints one line saying what to install and exits 1.
 * Never a stack trace; never Playwright's own browser download (no internet).
 */
import { findChromium } from "./chromium-path";
import { aptInstall, canInstallWithApt, fail } from "./debian-packages";

function main(): void {
  const found = findChromium();
  if (found) {
    console.log(`chromium: ${found}`);
    return;
  }
  if (!canInstallWithApt()) {
    fail(
      "e2e: no Chromium found. Install Debian's package (sudo apt-get install chromium) or set CHROMIUM_PATH to a Chrome/Chromium binary.",
    );
  }
  console.log("chromium: not found; installing Debian's chromium package with apt-get…");
  const installed = aptInstall(["chromium"]) ? findChromium() : null;
  if (!installed) fail("e2e: installing chromium with apt-get failed. Install it by hand (apt-get install chromium) or set CHROMIUM_PATH.");
  console.log(`chromium: ${installed}`);
}

try {
  main();
} catch (err) {
  fail(`e2e: could not look for Chromium: ${err instanceof Error ? err.message : String(err)}`);
}
