import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkLayers } from "../scripts/layers";
import { treePlanter } from "./plant-tree";

const plant = treePlanter("layers");

describe("layering check", () => {
  it("passes on the real repository", () => {
    expect(checkLayers(process.cwd())).toEqual([]);
  });

  it("catches electron imported from the core", () => {
    const root = plant({ "electron/core/bad.ts": `import { app } from "electron";\nexport const x = app;\n` });
    expect(checkLayers(root)).toEqual([expect.objectContaining({ file: join("electron/core/bad.ts"), specifier: "electron" })]);
  });

  it("catches electron imported from shared/", () => {
    const root = plant({ "shared/bad.ts": `export { ipcRenderer } from "electron";\n` });
    expect(checkLayers(root).map((v) => v.specifier)).toEqual(["electron"]);
  });

  it("catches a Node built-in in shared/ and in the renderer", () => {
    const root = plant({
      "shared/fs-user.ts": `import { readFileSync } from "node:fs";\nexport const r = readFileSync;\n`,
      "renderer/src/path-user.tsx": `import path from "path";\nexport const p = path;\n`,
    });
    expect(
      checkLayers(root)
        .map((v) => v.specifier)
        .sort(),
    ).toEqual(["node:fs", "path"]);
  });

  it("catches the renderer reaching into the core and a dynamic import of electron", () => {
    const root = plant({
      "renderer/src/a.ts": `import { x } from "../../electron/core/thing";\nexport const y = x;\n`,
      "electron/core/thing.ts": `export const x = 1;\nexport const later = () => import("electron");\n`,
    });
    expect(
      checkLayers(root)
        .map((v) => v.file)
        .sort(),
    ).toEqual([join("electron/core/thing.ts"), join("renderer/src/a.ts")]);
  });

  it("allows the shell to import electron and shared/ to import zod", () => {
    const root = plant({
      "electron/main/index.ts": `import { app } from "electron";\nimport { z } from "zod";\nexport { app, z };\n`,
      "shared/ok.ts": `import { z } from "zod";\nimport { a } from "./other";\nexport { z, a };\n`,
      "shared/other.ts": `export const a = 1;\n`,
    });
    expect(checkLayers(root)).toEqual([]);
  });
});
