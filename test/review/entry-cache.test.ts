import { describe, expect, it } from "vitest";
import type { StoredEntry } from "../../shared/protocol";
import { createEntryCache } from "../../electron/core/review/entry-cache";
import { fileStatesAt } from "../../electron/core/review/file-history";
import { modelViewAt, type ModelViewInput } from "../../electron/core/review/model-view";
import { T0, TOOL_SPECS, WORKSPACE, buildSession, resolveModel } from "./fixture";

const input: ModelViewInput = { workspaceRoot: WORKSPACE, platform: "linux", toolSpecs: TOOL_SPECS, resolve: resolveModel };

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

describe("the review entry cache", () => {
  it("returns what loadEntries returns, and picks up entries appended since the last call", () => {
    const f = buildSession();
    const reads: Array<{ fromSeq?: number }> = [];
    const cache = createEntryCache((id, range) => {
      reads.push(range);
      return f.store.loadEntries(id, range);
    });
    expect(cache.entries(f.sessionId)).toEqual(f.store.loadEntries(f.sessionId));
    const last = f.store.loadEntries(f.sessionId).at(-1)?.seq ?? 0;

    f.store.appendEntry(f.sessionId, {
      type: "message",
      message: { role: "user", content: [{ type: "text", text: "One more thing." }], timestamp: T0 + 999_000 },
    });
    const after = cache.entries(f.sessionId);
    expect(after).toEqual(f.store.loadEntries(f.sessionId));
    expect(after.at(-1)?.seq).toBe(last + 1);
    // The second read asked only for the rows after the ones it kept.
    expect(reads.at(-1)).toEqual({ fromSeq: last + 1 });
  });

  it("keeps the last two sessions only", () => {
    const a = buildSession();
    const loads: string[] = [];
    const cache = createEntryCache((id, range) => {
      loads.push(`${id}@${range.fromSeq}`);
      return a.store.loadEntries(id, range);
    });
    const other1 = a.store.createSession({ workspaceId: a.store.getSession(a.sessionId)?.workspaceId ?? "", title: "b" }).id;
    const other2 = a.store.createSession({ workspaceId: a.store.getSession(a.sessionId)?.workspaceId ?? "", title: "c" }).id;
    cache.entries(a.sessionId);
    cache.entries(other1);
    cache.entries(other2);
    loads.length = 0;
    cache.entries(a.sessionId);
    // Evicted: read again from the start.
    expect(loads).toEqual([`${a.sessionId}@1`]);
  });

  it("what the model saw and the files at a step leave the cached entries as they were (they are shared between requests)", () => {
    const f = buildSession();
    const entries: readonly StoredEntry[] = deepFreeze(f.store.loadEntries(f.sessionId));
    for (const { seq, entry } of entries) {
      if (entry.type === "message" && entry.message.role === "assistant") {
        const view = modelViewAt(entries, seq, input);
        expect(view.ok).toBe(true);
      }
      fileStatesAt(entries, seq);
    }
    expect(entries).toEqual(f.store.loadEntries(f.sessionId));
  });
});
