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

  it("catches a lower room of the core importing a higher one: the store or a tool reaching into the agent or the API", () => {
    const root = plant({
      "electron/core/store/bad.ts": `import { runTurn } from "../agent/loop";\nexport const x = runTurn;\n`,
      "electron/core/tools/bad.ts": `import { handlers } from "../api/handlers";\nexport const y = handlers;\n`,
      "electron/core/agent/bad.ts": `import { createWorkbench } from "../api/create-workbench";\nexport const z = createWorkbench;\n`,
      "electron/core/agent/loop.ts": `export const runTurn = 1;\n`,
      "electron/core/api/handlers.ts": `export const handlers = 1;\n`,
      "electron/core/api/create-workbench.ts": `export const createWorkbench = 1;\n`,
    });
    const found = checkLayers(root);
    expect(found.map((v) => v.file).sort()).toEqual(
      [join("electron/core/agent/bad.ts"), join("electron/core/store/bad.ts"), join("electron/core/tools/bad.ts")].sort(),
    );
    expect(found.find((v) => v.file === join("electron/core/store/bad.ts"))?.rule).toMatch(/must not import it/);
  });

  it("allows the core's order downwards and its unranked helpers anywhere", () => {
    const root = plant({
      "electron/core/api/a.ts": `import { b } from "../agent/b";\nimport { c } from "../store/c";\nexport const a = [b, c];\n`,
      "electron/core/agent/b.ts": `import { d } from "../tools/d";\nimport { e } from "../process/e";\nexport const b = [d, e];\n`,
      "electron/core/store/c.ts": `import { e } from "../process/e";\nexport const c = e;\n`,
      "electron/core/tools/d.ts": `import { c } from "../store/c";\nexport const d = c;\n`,
      "electron/core/process/e.ts": `export const e = 1;\n`,
    });
    expect(checkLayers(root)).toEqual([]);
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
