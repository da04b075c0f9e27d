/**
 * webfetch in a session on the faux provider: "always allow" on the
 * approval card saves a host rule in the settings, so the next fetch of that
 * host runs without asking, and the page's markdown reaches the model; a
 * wildcard over a public suffix is refused as a rule.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { FauxReply } from "../../electron/core/faux";
import { expectAllAccepted, startHarness, type Harness } from "../agent/harness";

let server: Server;
let base: string;
let hits = 0;
let h: Harness | null = null;

beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { "content-type": "text/html" }).end("<h1>Changelog</h1><p>PAGE-MARKER-5e</p>");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});
afterEach(async () => {
  await h?.close();
  h = null;
});

const fetchCall = (id: string, url: string): FauxReply => ({
  type: "reply",
  content: [{ type: "toolCall", id, name: "webfetch", arguments: { url } }],
});
const say = (text: string): FauxReply => ({ type: "reply", content: [{ type: "text", text }] });

describe("webfetch approvals in a session", () => {
  it("always allow saves the host in the settings; the next fetch of that host is not asked", async () => {
    h = await startHarness();
    const settings = await h.call("settings.get", {});
    // The test server is on loopback, which webfetch refuses unless allowed.
    await h.call("settings.update", { approvalPolicy: { ...settings.approvalPolicy, fetchPrivate: true } });
    h.faux.script([fetchCall("call_1", `${base}/a`), say("one")]);
    const from = h.events.length;
    void h.call("chat.send", { sessionId: h.sessionId, text: "read the changelog" });
    const state = await h.waitFor("turn.state", (p) => p.pendingApproval !== null, from);
    const waiting = state.pendingApproval;
    expect(waiting?.preview).toEqual({ kind: "fetch", url: `${base}/a`, host: "127.0.0.1" });
    expect(waiting?.suggestedRules).toEqual(["127.0.0.1"]);
    await expect(
      h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "call_1", decision: "approveAlways", rule: "*.co.uk" }),
    ).rejects.toThrow(/public suffix|does not cover/);
    await h.call("approval.answer", { sessionId: h.sessionId, toolCallId: "call_1", decision: "approveAlways", rule: "127.0.0.1" });
    await h.waitIdle(from);
    expect((await h.call("settings.get", {})).approvalPolicy.hostAllow).toEqual(["127.0.0.1"]);

    h.faux.script([fetchCall("call_2", `${base}/b`), say("two")]);
    await h.turn("and again");
    expectAllAccepted(h);
    expect(hits).toBe(2);
    // Asked once: the second call was allowed by the saved rule.
    const asked = new Set(
      h.events.flatMap((e) =>
        e.event === "turn.state" ? [(e.payload as { pendingApproval: { toolCallId: string } | null }).pendingApproval?.toolCallId] : [],
      ),
    );
    expect([...asked].filter(Boolean)).toEqual(["call_1"]);
    expect(JSON.stringify(h.faux.requests[h.faux.requests.length - 1].body)).toContain("# Changelog\\n\\nPAGE-MARKER-5e");
  }, 30_000);
});
