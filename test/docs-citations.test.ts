import { describe, expect, it } from "vitest";
import { anchorsOf, checkCitations, headingAnchor } from "../scripts/doc-citations";
import { treePlanter } from "./plant-tree";

const plant = treePlanter("citations");

const DOC = "# Title\n\n## Layers\n\n## Data flow of a turn\n\n```\n## not a heading\n```\n";

describe("document citations", () => {
  it("finds nothing wrong in the real repository", () => {
    expect(checkCitations(process.cwd())).toEqual([]);
  });

  it("accepts a citation of an existing document and section", () => {
    const root = plant({ "docs/architecture.md": DOC, "electron/core/a.ts": "// see docs/architecture.md#data-flow-of-a-turn\n" });
    expect(checkCitations(root)).toEqual([]);
  });

  it("rejects a citation of a section the document does not have", () => {
    const root = plant({ "docs/architecture.md": DOC, "shared/a.ts": "/** (docs/architecture.md#section-8) */\n" });
    expect(checkCitations(root)).toEqual([
      expect.objectContaining({ file: "shared/a.ts", line: 1, problem: "docs/architecture.md has no section #section-8" }),
    ]);
  });

  it("rejects a citation of a document that is not in the repository", () => {
    const root = plant({ "renderer/a.tsx": "// how it works: docs/missing.md\n" });
    expect(checkCitations(root)).toEqual([expect.objectContaining({ problem: "docs/missing.md does not exist" })]);
  });

  it("rejects citations of the team handbook kept outside the repository", () => {
    const root = plant({ "electron/core/a.ts": "// ARCHITECTURE.md section 2\n// (CONVENTIONS.md)\n" });
    expect(checkCitations(root).map((p) => p.citation)).toEqual(["ARCHITECTURE.md", "CONVENTIONS.md"]);
  });

  it("checks relative links between documents", () => {
    const root = plant({ "docs/architecture.md": DOC + "[perf](performance.md) [x](architecture.md#layers)\n" });
    expect(checkCitations(root)).toEqual([expect.objectContaining({ citation: "](performance.md)" })]);
  });

  it("derives anchors as GitHub does and ignores headings inside code fences", () => {
    expect(headingAnchor("Transports and the API contract")).toBe("transports-and-the-api-contract");
    expect(headingAnchor("Native module: better-sqlite3 under two ABIs")).toBe("native-module-better-sqlite3-under-two-abis");
    expect([...anchorsOf(DOC)]).toEqual(["title", "layers", "data-flow-of-a-turn"]);
  });
});
