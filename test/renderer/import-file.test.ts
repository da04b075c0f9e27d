/**
 * The renderer sends an export in chunks: decoded across slice boundaries
 * (a character cut between two slices arrives whole), each chunk within the
 * size the core asked for, and the import cancelled when a chunk fails.
 */
import { describe, expect, it } from "vitest";
import { WorkbenchApiError } from "../../shared/api";
import { importFile, type ImportClient } from "../../renderer/src/replay/import-file";

function fakeCore(chunkChars: number, failAt?: number) {
  const calls: Array<{ method: string; params: Record<string, unknown> }> = [];
  const api = {
    call: (method: string, params: Record<string, unknown>) => {
      calls.push({ method, params });
      if (method === "review.import.begin") return Promise.resolve({ importId: "imp-1", chunkChars });
      if (method === "review.import.chunk") {
        if (params.index === failAt) return Promise.reject(new WorkbenchApiError({ code: "IMPORT_INVALID", message: "entry 3: bad" }));
        return Promise.resolve({ receivedBytes: 0 });
      }
      if (method === "review.import.finish") return Promise.resolve({ id: "s1", title: "t" });
      return Promise.resolve({ ok: true });
    },
  } as unknown as ImportClient;
  return { api, calls };
}

const TEXT = `{"title": "é ü 😀 ключ 漢字 🧪", "pad": "${"ab€".repeat(40)}"}`;

describe("importFile", () => {
  it("sends the file's text whole across chunks cut inside multi-byte characters, each chunk within the size asked for", async () => {
    for (const chunkChars of [5, 6, 7, 11, 64]) {
      const { api, calls } = fakeCore(chunkChars);
      const progress: number[] = [];
      await importFile(api, new Blob([TEXT]), "ws-1", (p) => progress.push(p));
      const chunks = calls.filter((c) => c.method === "review.import.chunk").map((c) => c.params);
      expect(calls[0]).toEqual({ method: "review.import.begin", params: { workspaceId: "ws-1", bytes: Buffer.byteLength(TEXT) } });
      expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
      expect(chunks.map((c) => c.text).join("")).toBe(TEXT);
      for (const c of chunks) expect((c.text as string).length).toBeLessThanOrEqual(chunkChars);
      expect(calls.at(-1)?.method).toBe("review.import.finish");
      expect(progress.at(-1)).toBe(1);
    }
  });

  it("cancels the import when a chunk is refused, and passes the core's error on", async () => {
    const { api, calls } = fakeCore(16, 2);
    await expect(importFile(api, new Blob([TEXT]), "ws-1")).rejects.toMatchObject({ error: { code: "IMPORT_INVALID" } });
    expect(calls.at(-1)).toEqual({ method: "review.import.cancel", params: { importId: "imp-1" } });
    expect(calls.some((c) => c.method === "review.import.finish")).toBe(false);
  });
});
