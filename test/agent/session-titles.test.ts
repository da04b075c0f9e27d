/**
 * Session titles carry the user's words, never the markup of an attached
 * file: a title taken from a first message with an @-mention, and one stored
 * that way before titles were cleaned, read plain in the list, the summary
 * and search.
 */
import { afterEach, describe, expect, it } from "vitest";
import { plainTitle, titleFromMessage } from "../../shared/mentions";
import { startHarness, type Harness } from "./harness";

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe("session titles", () => {
  it("a first message with an @-mention titles the session with the user's words only", async () => {
    h = await startHarness({ files: { "lib/suggestSimilar.js": "export function suggest() {}\n" } });
    h.faux.script([{ type: "reply", content: [{ type: "text", text: "It suggests." }] }]);
    const from = h.events.length;
    await h.call("chat.send", {
      sessionId: h.sessionId,
      text: "explain @lib/suggestSimilar.js",
      mentions: [{ path: "lib/suggestSimilar.js" }],
    });
    await h.waitIdle(from);
    const { sessions } = await h.call("session.list", { workspaceId: h.workspaceId });
    expect(sessions.find((s) => s.id === h?.sessionId)?.title).toBe("explain @lib/suggestSimilar.js");
    const hits = await h.call("session.search", { query: "explain" });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.map((hit) => hit.sessionTitle)).not.toContainEqual(expect.stringContaining("<attached-file"));
  });

  it("a title stored with the markup reads plain", async () => {
    h = await startHarness();
    await h.call("session.rename", { sessionId: h.sessionId, title: 'explain this <attached-file path="lib/s' });
    const { sessions } = await h.call("session.list", { workspaceId: h.workspaceId });
    expect(sessions.find((s) => s.id === h?.sessionId)?.title).toBe("explain this");
    expect(plainTitle('<attached-file path="lib/a&amp;b.js">\nbody')).toBe("lib/a&b.js");
    expect(titleFromMessage(['<attached-file path="x.ts">\nconst x = 1;\n</attached-file>'])).toBe("x.ts");
  });
});
