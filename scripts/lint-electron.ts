/**
 * `npm run lint:electron`: Electronegativity over the Electron shell's sources
 * and the renderer page, offline. Fails on a parse error or on any HIGH or
 * MEDIUM finding that is not listed, with its reason, in ACCEPTED below
 * (docs/electron.md#checks explains each).
 *
 * Offline: the package fetches translations and Electron's release list from
 * GitHub on every run. The translation fetch is replaced by the bundled
 * en-US strings; the release check (AvailableSecurityFixesGlobalCheck) is
 * skipped — Electron upgrades are tracked through package.json instead.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";

const root = join(import.meta.dirname, "..");
const require = createRequire(import.meta.url);

/** What the shell ships: main and preload sources, and the page whose CSP meta tag counts too. */
const SCANNED = ["electron/main", "electron/preload", "renderer/index.html"];
const SKIPPED_CHECKS = ["AvailableSecurityFixesGlobalCheck"];

/**
 * Findings reviewed and accepted. Matched on check id and file ("N/A" for
 * global checks); every entry says why it is not a problem here.
 */
const FROM_FACTORY =
  "the window options come from createWindowOptions() in electron/main/window-options.ts, which Electronegativity cannot follow across modules; test/electron/window-security.test.ts asserts the value and that every `new BrowserWindow(` uses that factory";

export const ACCEPTED: ReadonlyArray<{ id: string; file: string; reason: string }> = [
  { id: "CONTEXT_ISOLATION_JS_CHECK", file: "electron/main/index.ts", reason: `contextIsolation: true — ${FROM_FACTORY}` },
  { id: "SANDBOX_JS_CHECK", file: "electron/main/index.ts", reason: `sandbox: true (and app.enableSandbox()) — ${FROM_FACTORY}` },
  {
    id: "AUXCLICK_JS_CHECK",
    file: "electron/main/index.ts",
    reason:
      "a middle-click on a link is a new-window request, which setWindowOpenHandler (electron/main/harden.ts) always denies, handing only https links to the system browser",
  },
  {
    id: "OPEN_EXTERNAL_JS_CHECK",
    file: "electron/main/index.ts",
    reason: "the URL is the output of externalUrlToOpen(): https only, no embedded credentials (test/electron/url-policy.test.ts)",
  },
  {
    id: "CERTIFICATE_VERIFY_PROC_JS_CHECK",
    file: "electron/main/network.ts",
    reason:
      "adds trust, never removes it: Chromium's verdict stands unless the chain verifies against the CA file the user chose, for the requested host (chainTrustedBy, test/network/ca-trust.test.ts)",
  },
];

const IssueSchema = z.object({
  id: z.string(),
  file: z.string(),
  location: z.object({ line: z.number(), column: z.number() }),
  description: z.string(),
  severity: z.object({ name: z.string() }),
  confidence: z.object({ name: z.string() }),
  manualReview: z.boolean().optional(),
});
const ResultSchema = z.object({
  globalChecks: z.number(),
  atomicChecks: z.number(),
  errors: z.array(z.object({ file: z.string(), message: z.string(), tolerable: z.boolean() })),
  issues: z.array(IssueSchema),
});
export type Finding = z.infer<typeof IssueSchema>;

/** Installs the package's own en-US strings in place of its network fetch. */
function offlineTranslations(): void {
  const i18nModule = require.resolve("@doyensec/electronegativity/dist/locales/i18n.js");
  const i18n = createRequire(i18nModule)("i18n") as {
    configure(options: Record<string, unknown>): void;
    setLocale(locale: string): void;
  };
  const stub = new Module(i18nModule);
  stub.filename = i18nModule;
  stub.loaded = true;
  stub.exports = () => {
    i18n.configure({
      locales: ["en-US"],
      defaultLocale: "en-US",
      directory: dirname(i18nModule),
      updateFiles: false,
      objectNotation: true,
      retryInDefaultLocale: true,
      register: globalThis,
    });
    i18n.setLocale("en-US");
    return Promise.resolve();
  };
  require.cache[i18nModule] = stub;
}

/** Copies the scanned paths into a scratch folder so report paths read like the repo's. */
function stage(): string {
  const dir = mkdtempSync(join(tmpdir(), "wb-electronegativity-"));
  for (const rel of SCANNED) cpSync(join(root, rel), join(dir, rel), { recursive: true });
  const electron = z.object({ version: z.string() }).parse(require(join(root, "node_modules/electron/package.json")));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "scan", devDependencies: { electron: electron.version } }));
  return dir;
}

export function isBlocking(f: Finding): boolean {
  return f.severity.name === "HIGH" || f.severity.name === "MEDIUM";
}

export function acceptedReason(f: Finding): string | null {
  return ACCEPTED.find((a) => a.id === f.id && a.file === f.file)?.reason ?? null;
}

async function main(): Promise<number> {
  offlineTranslations();
  // The runner module is `module.exports = run`.
  const run = require("@doyensec/electronegativity/dist/runner.js") as (options: object, forCli: boolean) => Promise<unknown>;
  const dir = stage();
  let result: z.infer<typeof ResultSchema>;
  try {
    const electronVersion = z.object({ version: z.string() }).parse(require(join(root, "node_modules/electron/package.json"))).version;
    result = ResultSchema.parse(
      await run(
        {
          input: dir,
          isRelative: true,
          excludeFromScan: SKIPPED_CHECKS,
          customScan: [],
          electronVersionOverride: electronVersion,
          parserPlugins: [],
        },
        false,
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  console.log(`electronegativity: ${result.atomicChecks} atomic + ${result.globalChecks} global checks over ${SCANNED.join(", ")}`);
  let failed = 0;
  for (const e of result.errors) {
    console.log(`  ${e.tolerable ? "warning" : "PARSE ERROR"} ${e.file}: ${e.message}`);
    if (!e.tolerable) failed++;
  }
  for (const f of result.issues) {
    const where = `${f.file}:${f.location.line}:${f.location.column}`;
    const reason = acceptedReason(f);
    const tag = reason !== null ? "accepted" : isBlocking(f) ? "FAIL" : "info";
    console.log(`  [${tag}] ${f.id} ${f.severity.name}/${f.confidence.name} ${where} — ${f.description}`);
    if (reason !== null) console.log(`           why: ${reason}`);
    if (reason === null && isBlocking(f)) failed++;
  }
  for (const a of ACCEPTED) {
    if (!result.issues.some((f) => f.id === a.id && f.file === a.file))
      console.log(`  note: accepted ${a.id} in ${a.file} no longer occurs; remove it`);
  }
  const blocking = result.issues.filter(isBlocking).length;
  console.log(
    `electronegativity: ${result.issues.length} finding(s), ${blocking} high/medium, ${failed === 0 ? "all explained" : `${failed} unexplained`}`,
  );
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
