/**
 * The Electron security checklist, checked under plain Node: the window
 * options the app really passes, the CSP it sends, and static checks of the
 * main and preload sources for the protections that live in code.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { APP_CSP, APP_CSP_DIRECTIVES, withCspHeader } from "../../electron/main/csp";
import { ALLOWED_PERMISSIONS, isPermissionAllowed } from "../../electron/main/permissions";
import { isAppUrl } from "../../electron/main/url-policy";
import { SECURE_WEB_PREFERENCES, createWindowOptions } from "../../electron/main/window-options";

const root = join(import.meta.dirname, "..", "..");
const read = (rel: string) => readFileSync(join(root, rel), "utf8");
/** Block comments and whole-line comments removed: the checks look at code, not at prose about it. */
const stripComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
const sourcesOf = (dir: string) =>
  readdirSync(join(root, dir))
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => ({ file: `${dir}/${f}`, text: stripComments(read(`${dir}/${f}`)) }));

describe("main window options", () => {
  const options = createWindowOptions({ preloadPath: "/app/out/preload/index.cjs", devTools: false });
  const prefs = options.webPreferences ?? {};

  it("keeps every renderer protection switched on", () => {
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.sandbox).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.experimentalFeatures).toBe(false);
    expect(prefs.webviewTag).toBe(false);
    expect(prefs.navigateOnDragDrop).toBe(false);
  });

  it("enables no Blink feature and no extra command-line switches for the renderer", () => {
    expect(prefs.enableBlinkFeatures).toBeUndefined();
    expect(prefs.additionalArguments).toBeUndefined();
  });

  it("loads a bundled CommonJS preload, as a sandboxed renderer requires", () => {
    expect(prefs.preload).toMatch(/\.cjs$/);
  });

  it("cannot be weakened by the devTools switch", () => {
    const dev = createWindowOptions({ preloadPath: "/p.cjs", devTools: true }).webPreferences ?? {};
    for (const [key, value] of Object.entries(SECURE_WEB_PREFERENCES)) expect(dev[key as keyof typeof dev]).toBe(value);
  });
});

describe("content security policy", () => {
  it("allows scripts only from the app bundle: no inline script, eval or remote code", () => {
    expect(APP_CSP_DIRECTIVES["script-src"]).toEqual(["'self'"]);
    expect(APP_CSP).not.toMatch(/unsafe-eval|wasm-unsafe-eval|\*|https?:/);
    expect(APP_CSP_DIRECTIVES["default-src"]).toEqual(["'none'"]);
    expect(APP_CSP_DIRECTIVES["object-src"]).toEqual(["'none'"]);
    expect(APP_CSP_DIRECTIVES["base-uri"]).toEqual(["'none'"]);
    expect(APP_CSP_DIRECTIVES["frame-ancestors"]).toEqual(["'none'"]);
  });

  it("replaces a weaker policy a response declares with the app's", () => {
    const headers = withCspHeader({ "content-security-policy": ["default-src *"], "Content-Type": ["text/html"] });
    expect(headers["Content-Security-Policy"]).toEqual([APP_CSP]);
    expect(Object.keys(headers).filter((k) => k.toLowerCase() === "content-security-policy")).toHaveLength(1);
    expect(headers["Content-Type"]).toEqual(["text/html"]);
  });

  it("is also declared by the renderer page without eval or inline script", () => {
    const html = read("renderer/index.html");
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html);
    expect(meta, "renderer/index.html has a CSP meta tag").not.toBeNull();
    const policy = meta?.[1] ?? "";
    expect(policy).toMatch(/script-src 'self'(;|$)/);
    expect(policy).not.toMatch(/unsafe-eval/);
  });
});

describe("permissions", () => {
  it("denies everything except clipboard writes from the app's own pages", () => {
    for (const p of ["media", "geolocation", "notifications", "openExternal", "clipboard-read", "fullscreen", "midiSysex"]) {
      expect(isPermissionAllowed(p, "app://workbench/index.html", isAppUrl)).toBe(false);
    }
    expect(isPermissionAllowed("clipboard-sanitized-write", "app://workbench/index.html", isAppUrl)).toBe(true);
    expect(isPermissionAllowed("clipboard-sanitized-write", "https://evil.example/", isAppUrl)).toBe(false);
    expect([...ALLOWED_PERMISSIONS]).toEqual(["clipboard-sanitized-write"]);
  });
});

describe("main process source", () => {
  const main = sourcesOf("electron/main");
  const all = main.map((s) => s.text).join("\n");

  it("creates windows only from the checked options", () => {
    const creations = main.flatMap((s) => [...s.text.matchAll(/new BrowserWindow\(([^)]*)/g)].map((m) => `${s.file}: ${m[1]}`));
    expect(creations.length).toBeGreaterThan(0);
    for (const c of creations) expect(c).toMatch(/createWindowOptions\(/);
  });

  it("installs the sandbox, the permission handlers, navigation limits and the single-instance lock", () => {
    expect(all).toMatch(/app\.enableSandbox\(\)/);
    expect(all).toMatch(/setPermissionRequestHandler\(/);
    expect(all).toMatch(/setPermissionCheckHandler\(/);
    expect(all).toMatch(/on\("will-navigate"/);
    expect(all).toMatch(/setWindowOpenHandler\(/);
    expect(all).toMatch(/on\("will-attach-webview"/);
    expect(all).toMatch(/requestSingleInstanceLock\(\)/);
    expect(all).toMatch(/on\("web-contents-created"/);
  });

  it("opens external links only through the https allow-list", () => {
    const calls = main.flatMap((s) => [...s.text.matchAll(/shell\.openExternal\(([^)]*)\)/g)].map((m) => ({ file: s.file, arg: m[1] })));
    expect(calls.length).toBeGreaterThan(0);
    for (const c of calls) {
      expect(c.file).toBe("electron/main/index.ts");
      expect(c.arg).toBe("safe");
    }
    expect(stripComments(read("electron/main/index.ts"))).toMatch(/const safe = externalUrlToOpen\(url\);\s*if \(safe === null\) return;/);
  });

  it("checks the sender frame before any IPC request reaches the core", () => {
    const ipc = stripComments(read("electron/main/ipc.ts"));
    expect(ipc).toMatch(/if \(!isTrustedSender\(event, options\.trustedContentsIds\(\)\)\)/);
    expect(all).not.toMatch(/ipcMain\.on\(/);
  });

  it("never loads file:// pages or remote URLs into the window", () => {
    expect(all).not.toMatch(/loadFile\(/);
    const loads = [...all.matchAll(/\.loadURL\(([^)]*)\)/g)].map((m) => m[1]);
    expect(loads).toEqual(["APP_ENTRY_URL"]);
  });
});

describe("preload source", () => {
  const preload = sourcesOf("electron/preload");
  const all = preload.map((s) => s.text).join("\n");

  it("exposes one bridge object and never ipcRenderer itself", () => {
    const exposures = [...all.matchAll(/exposeInMainWorld\(([^)]*)\)/g)].map((m) => m[1]);
    expect(exposures).toEqual(["BRIDGE_GLOBAL, bridge"]);
    expect(all).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer/);
    // ipcRenderer is used only in index.ts, wrapped in narrow functions.
    for (const s of preload) if (s.file !== "electron/preload/index.ts") expect(s.text).not.toMatch(/ipcRenderer/);
    expect(stripComments(read("electron/preload/index.ts"))).not.toMatch(/ipcRenderer\.(send|sendSync|sendTo|postMessage)\(/);
  });

  it("bundles nothing but electron at run time (a sandboxed preload can require nothing else)", () => {
    for (const s of preload) {
      const runtimeImports = [...s.text.matchAll(/^import (?!type )[^;]*from "([^"]+)"/gm)].map((m) => m[1]);
      for (const spec of runtimeImports) expect(spec === "electron" || spec.startsWith("./"), `${s.file} imports ${spec}`).toBe(true);
    }
  });
});
