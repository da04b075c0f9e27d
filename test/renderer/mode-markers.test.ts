import { describe, expect, it } from "vitest";
import { buildTranscript } from "../../renderer/src/lib/transcript-model";
import { modeMarkersByRow } from "../../renderer/src/lib/mode-markers";
import { assistant, user } from "./fixtures";

describe("Ask-mode markers in the transcript", () => {
  const model = buildTranscript([
    user(1, "plan first"),
    assistant(2, { text: "Here is a plan." }),
    user(3, "now do it"),
    assistant(4, { text: "Done." }),
  ]);

  it("puts each switch after the row of the last entry stored before it, in order", () => {
    const on = { mode: "ask" as const, afterSeq: 0, timestamp: 1 };
    const off = { mode: "agent" as const, afterSeq: 2, timestamp: 2 };
    const again = { mode: "ask" as const, afterSeq: 2, timestamp: 3 };
    const last = { mode: "agent" as const, afterSeq: 9, timestamp: 4 };
    const markers = modeMarkersByRow(model.rows, [on, off, again, last]);
    // Before any row: not drawn (the header shows the mode).
    expect([...markers.values()].flat()).not.toContain(on);
    expect(markers.get(1)).toEqual([off, again]);
    expect(markers.get(model.rows.length - 1)).toEqual([last]);
  });

  it("draws nothing without switches", () => {
    expect(modeMarkersByRow(model.rows, []).size).toBe(0);
  });
});
