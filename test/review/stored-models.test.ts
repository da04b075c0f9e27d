/**
 * A stored session stays replayable and inspectable whatever the catalog says
 * today: a demo session after a key was added (the demo no longer runs), and
 * a step without a recorded request whose model left the catalog.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { RequestMethod, RequestParams, RequestResult } from "../../shared/api";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import type { Workbench } from "../../electron/core/api/workbench";
import { createDemoResponder, startFauxProvider } from "../../electron/core/faux";
import { TEST_KEYS } from "../agent/harness";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

const DEMO = { provider: "demo", api: "anthropic-messages", id: "demo" } as const;
let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

async function call<M extends RequestMethod>(wb: Workbench, method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
  const res = await wb.handle(method, params);
  if (!res.ok) throw new Error(`${method} failed: ${res.error.code} ${res.error.message}`);
  return res.result as RequestResult<M>;
}

describe("sessions on models the catalog no longer offers", () => {
  it(
    "a demo session, reopened once a key is configured, still shows its timeline and each step's request",
    async () => {
      dir = mkdtempSync(join(tmpdir(), "wb-stored-models-"));
      const workspace = mkdtempSync(join(dir, "ws-"));
      const dbPath = join(dir, "sessions.db");
      const raws: string[] = [];
      const faux = await startFauxProvider({ onRawBody: (raw) => raws.push(raw) });
      faux.setDefaultResponder(createDemoResponder());
      const first = await createWorkbench({
        dbPath,
        host: { mode: "web" },
        version: "test",
        env: {},
        demo: true,
        baseUrlOverrides: { demo: faux.baseUrls.anthropic },
        sleep: async () => undefined,
      });
      const ws = await call(first, "workspace.open", { path: workspace });
      const session = await call(first, "session.create", { workspaceId: ws.id, model: DEMO });
      const ended = new Promise<void>((resolve) => first.onEvent((event) => event === "stream.end" && resolve()));
      await call(first, "chat.send", { sessionId: session.id, text: "hello" });
      await ended;
      await first.close();
      await faux.close();

      // A key is added: the demo is not started any more.
      const second = await createWorkbench({ dbPath, host: { mode: "web" }, version: "test", env: { ...TEST_KEYS } });
      try {
        const timeline = await call(second, "review.timeline", { sessionId: session.id });
        const steps = timeline.items.filter((i) => i.kind === "assistant");
        expect(steps.length).toBeGreaterThan(0);
        const view = await call(second, "review.modelView", { sessionId: session.id, seq: steps[0].seq });
        expect(view.recorded).toBe(true);
        expect(view.raw).toBe(raws[0]);
        expect(view.model).toEqual(DEMO);
      } finally {
        await second.close();
      }

      // The same session as one stored before requests were recorded: rebuilt from its stored ref, and says so.
      const db = new Database(dbPath);
      db.exec("DELETE FROM request_records");
      db.close();
      const third = await createWorkbench({ dbPath, host: { mode: "web" }, version: "test", env: { ...TEST_KEYS } });
      try {
        const { items } = await call(third, "review.timeline", { sessionId: session.id });
        const seq = items.find((i) => i.kind === "assistant")?.seq ?? -1;
        const view = await call(third, "review.modelView", { sessionId: session.id, seq });
        expect(view.recorded).toBe(false);
        expect(view.model).toEqual(DEMO);
        expect(JSON.stringify(view.body)).toContain("hello");
      } finally {
        await third.close();
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
