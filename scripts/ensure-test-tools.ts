/**
 * Run by `npm test` before anything else: the programs the unit tests need
 * beside Node, so that a newcomer's `npm test` runs the bash sandbox,
 * ripgrep and team library (PostgreSQL) tests instead of skipping them. Found: says so. Missing: installs
 * the Debian packages as root with apt; otherwise stops with one line naming
 * what to install. (Chromium, for the end-to-end step, is ensure-chromium.ts.)
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { onPath } from "./chromium-path";
import { aptInstall, canInstallWithApt, fail } from "./debian-packages";

/** Binary the tests run → the Debian package that has it. */
interface Tool {
  binary: string;
  pkg: string;
  for: string;
  /** Where it is when not on PATH. */
  find?: () => string | null;
}

const TOOLS: Tool[] = [
  { binary: "bwrap", pkg: "bubblewrap", for: "the bash sandbox" },
  { binary: "rg", pkg: "ripgrep", for: "the grep tool" },
  { binary: "openssl", pkg: "openssl", for: "the network tests' certificate authority" },
  // Debian keeps the server binaries off PATH, in /usr/lib/postgresql/<version>/bin (test/team/pg-server.ts).
  { binary: "initdb", pkg: "postgresql", for: "the team library tests' PostgreSQL", find: postgresBin },
];

function postgresBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const hit = readdirSync(root).find((v) => existsSync(join(root, v, "bin", "initdb")));
  return hit ? join(root, hit, "bin", "initdb") : null;
}

function missing() {
  return TOOLS.filter((t) => (t.find ? t.find() : onPath(t.binary)) === null);
}

function main(): void {
  const need = missing();
  if (need.length === 0) {
    console.log(`test tools: ${TOOLS.map((t) => t.binary).join(", ")} found`);
    return;
  }
  const pkgs = need.map((t) => t.pkg);
  if (!canInstallWithApt()) {
    fail(
      `tests: missing ${need.map((t) => `${t.binary} (${t.for})`).join(", ")}. Install them (sudo apt-get install ${pkgs.join(" ")}, or your system's packages) and run npm test again.`,
    );
  }
  console.log(`test tools: installing ${pkgs.join(", ")} with apt-get…`);
  const still = aptInstall(pkgs) ? missing() : need;
  if (still.length > 0)
    fail(`tests: installing ${still.map((t) => t.pkg).join(" ")} with apt-get failed. Install them by hand and run npm test again.`);
  console.log(`test tools: ${TOOLS.map((t) => t.binary).join(", ")} found`);
}

try {
  main();
} catch (err) {
  fail(`tests: could not look for the test tools: ${err instanceof Error ? err.message : String(err)}`);
}
