import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { SecretStore } from "../../electron/core/api/workbench";
import { HEADERS_SECRET, OtelService } from "../../electron/core/otel/service";
import { createRedactor } from "../../electron/core/review/redact";
import { SessionStore } from "../../electron/core/store";
import { OtelUpdateSchema } from "../../shared/otel";
import { assistant, tempDir, user, type TempDir } from "../store/helpers";
import { startReceiver } from "./receiver";

function memorySecrets(): SecretStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    get: async (k) => map.get(k) ?? null,
    set: async (k, v) => void (v === null ? map.delete(k) : map.set(k, v)),
    list: async () => [...map.keys()],
  };
}

let dir: TempDir | undefined;
afterEach(() => {
  dir?.remove();
  dir = undefined;
});

describe("OpenTelemetry settings and live export", () => {
  it("keeps headers in the key store, never in SQLite, and exports after a turn when live", async () => {
    dir = tempDir();
    const path = `${dir.path}/s.db`;
    const store = SessionStore.open(path);
    const secrets = memorySecrets();
    const receiver = await startReceiver();
    const notices: string[] = [];
    const otel: OtelService = new OtelService({
      store,
      secrets,
      redactor: () => createRedactor(otel.secretValues()),
      version: "0.1.0",
      onError: (m) => notices.push(m),
    });
    await otel.load();
    expect(otel.status()).toMatchObject({ endpoint: null, captureContent: false, live: false, headerNames: [] });

    const token = "Basic cGstbGYtMTIzOnNrLWxmLTQ1Ng==";
    await otel.update({ endpoint: receiver.url, live: true, headers: { Authorization: token } });
    expect(otel.status()).toMatchObject({ endpoint: receiver.url, live: true, headerNames: ["Authorization"], canStoreHeaders: true });
    expect(secrets.map.get(HEADERS_SECRET)).toContain(token);

    const ws = store.addWorkspace("/w");
    const s = store.createSession({ workspaceId: ws.id, title: "live" });
    store.appendEntry(s.id, user("hello", 1_000));
    store.appendEntry(s.id, assistant([{ type: "text", text: "hi" }], { timestamp: 2_000 }));
    otel.turnEnded(s.id);
    otel.turnEnded(s.id); // while the first is under way: one more after it, not two at once
    await otel.idle();
    expect(receiver.received.length).toBe(2);
    expect(receiver.received[0].headers.authorization).toBe(token);
    expect(receiver.spans().filter((x) => x.name.startsWith("chat"))).toHaveLength(2);

    // A reload reads the headers back from the key store.
    const again = new OtelService({ store, secrets, redactor: () => createRedactor([]), version: "0.1.0" });
    await again.load();
    expect(again.status().headerNames).toEqual(["Authorization"]);

    // A failing endpoint is told once, and the turn never waits on it.
    await receiver.close();
    otel.turnEnded(s.id);
    await otel.idle();
    otel.turnEnded(s.id);
    await otel.idle();
    expect(notices).toHaveLength(1);
    expect(notices[0]).not.toContain("cGstbGYtMTIz");
    expect(otel.status().lastError).toMatch(/failed/);
    store.close();

    const db = new Database(path, { readonly: true });
    const dump = JSON.stringify(db.prepare("SELECT * FROM settings").all());
    db.close();
    expect(dump).toContain(receiver.url);
    expect(dump).not.toContain("cGstbGYtMTIz");
  });

  it("refuses header names and values that would inject headers, and non-URL endpoints", () => {
    expect(OtelUpdateSchema.safeParse({ headers: { "X-A\r\nEvil": "1" } }).success).toBe(false);
    expect(OtelUpdateSchema.safeParse({ headers: { "X-A": "1\r\nEvil: 2" } }).success).toBe(false);
    expect(OtelUpdateSchema.safeParse({ endpoint: "not a url" }).success).toBe(false);
    expect(OtelUpdateSchema.safeParse({ headers: { "x-api-key": "abc def" } }).success).toBe(true);
  });

  it("says export is off without an endpoint", async () => {
    const store = SessionStore.open(":memory:");
    const otel = new OtelService({ store, secrets: undefined, redactor: () => createRedactor([]), version: "0" });
    await expect(otel.exportSession("x")).rejects.toThrow(/export is off/);
    await expect(otel.update({ headers: { a: "b" } })).rejects.toThrow(/no key store/);
    otel.turnEnded("x");
    await otel.idle();
    store.close();
  });
});
