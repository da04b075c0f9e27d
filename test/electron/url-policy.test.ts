/**
 * Where links go: the app's own pages stay in the window, https links open in
 * the system browser, everything else goes nowhere.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  APP_ENTRY_URL,
  appUrlToRelativePath,
  decideNavigation,
  decideWindowOpen,
  externalUrlToOpen,
  isAppUrl,
} from "../../electron/main/url-policy";

describe("navigation and window.open", () => {
  it("lets the app reload its own page", () => {
    expect(decideNavigation(APP_ENTRY_URL)).toEqual({ action: "allow" });
    expect(decideNavigation("app://workbench/index.html#/session/1")).toEqual({ action: "allow" });
  });

  it("sends an https link to the system browser instead of navigating", () => {
    expect(decideNavigation("https://docs.anthropic.com/x?y=1")).toEqual({
      action: "deny",
      openExternal: "https://docs.anthropic.com/x?y=1",
    });
    expect(decideWindowOpen("https://platform.openai.com/")).toEqual({ openExternal: "https://platform.openai.com/" });
  });

  it("opens nothing for other schemes, embedded credentials or garbage", () => {
    for (const url of [
      "http://example.com/",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "data:text/html,<script>1</script>",
      "ms-msdt:/id PCWDiagnostic",
      "smb://host/share",
      "vscode://file/x",
      "https://user:pass@example.com/",
      "not a url",
      "",
    ]) {
      expect(externalUrlToOpen(url), url).toBeNull();
      expect(decideNavigation(url), url).toEqual({ action: "deny", openExternal: null });
      expect(decideWindowOpen(url), url).toEqual({ openExternal: null });
    }
  });

  it("never treats a look-alike origin as the app", () => {
    for (const url of ["app://workbench.evil/index.html", "app://evil/workbench", "https://workbench/", "app://user@workbench/"]) {
      expect(isAppUrl(url), url).toBe(false);
    }
  });
});

describe("app:// file mapping", () => {
  it("maps the root and nested assets into the renderer bundle", () => {
    expect(appUrlToRelativePath("app://workbench/")).toBe("index.html");
    expect(appUrlToRelativePath("app://workbench/assets/index-abc.js?v=1")).toBe("assets/index-abc.js");
  });

  it("keeps encoded dot segments inside the bundle (the URL parser resolves them first)", () => {
    expect(appUrlToRelativePath("app://workbench/%2e%2e/%2e%2e/etc/passwd")).toBe("etc/passwd");
    expect(appUrlToRelativePath("app://workbench/assets/%2E%2E/index.html")).toBe("index.html");
  });

  it("refuses any request that would leave the bundle", () => {
    for (const url of [
      "app://workbench/assets/..%2f..%2fsecret",
      "app://workbench/a%5c..%5c..%5cwin.ini",
      "app://workbench/a%00.js",
      "app://workbench/%E0%A4%A",
      "app://elsewhere/index.html",
    ]) {
      expect(appUrlToRelativePath(url), url).toBeNull();
    }
  });

  it("never yields a path with a parent segment for any request path", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("..", ".", "%2e%2e", "%2E.", "a", "b%2f..", "%5c", "/", "%00"), { maxLength: 8 }), (parts) => {
        const rel = appUrlToRelativePath(`app://workbench/${parts.join("/")}`);
        if (rel === null) return;
        expect(rel.split("/")).not.toContain("..");
        expect(rel.startsWith("/")).toBe(false);
        expect(rel).not.toContain("\\");
      }),
    );
  });
});
