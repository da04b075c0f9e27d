/** The Changes view from checkpoints: which checkpoints a range compares, and renames/deletions/bash changes as such. */
import { describe, expect, it } from "vitest";
import type { Checkpoint, CheckpointFileDiff } from "../../shared/checkpoints";
import { pickCheckpoints, toChangedFiles } from "../../renderer/src/lib/checkpoint-changes";

const cp = (id: number, seq: number, kind: Checkpoint["kind"]): Checkpoint => ({
  id,
  sessionId: "s",
  seq,
  kind,
  toolCallId: null,
  createdAt: id,
  prunedAt: null,
});
const file = (path: string, status: CheckpointFileDiff["status"], before: string | null, after: string | null): CheckpointFileDiff => ({
  path,
  status,
  oldMode: before === null ? null : "100644",
  newMode: after === null ? null : "100644",
  binary: false,
  textShown: true,
  before,
  after,
  oldSize: before?.length ?? null,
  newSize: after?.length ?? null,
});

describe("checkpoint changes", () => {
  const list = [cp(1, 2, "turnStart"), cp(2, 4, "afterTool"), cp(3, 8, "turnStart"), cp(4, 10, "afterTool")];

  it("since the start compares the first turn start with the latest state; this turn starts at the turn's own checkpoint", () => {
    expect(pickCheckpoints(list, 0, 12)).toMatchObject({ from: { id: 1 }, to: { id: 4 } });
    expect(pickCheckpoints(list, 6, 12)).toMatchObject({ from: { id: 3 }, to: { id: 4 } });
    expect(pickCheckpoints(list, 10, 12)).toBeNull();
    expect(pickCheckpoints([], 0, 12)).toBeNull();
  });

  it("shows a rename as a rename, a deletion as a deletion, and counts lines", () => {
    const out = toChangedFiles(
      [
        file("old.ts", "deleted", "same\n", null),
        file("new.ts", "added", null, "same\n"),
        file("gone.txt", "deleted", "a\nb\n", null),
        file("m.txt", "modified", "1\n2\n", "1\nTWO\n3\n"),
      ],
      10,
    );
    expect(out.files.map((f) => [f.path, f.status, f.oldPath, f.added, f.removed])).toEqual([
      ["gone.txt", "deleted", null, 0, 2],
      ["m.txt", "modified", null, 2, 1],
      ["new.ts", "renamed", "old.ts", 0, 0],
    ]);
  });
});
