/**
 * Drives the real core (store, adapters, tools, loop) through the WorkbenchApi
 * against the faux provider on loopback. Nothing of ours is mocked.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { EventName, EventPayload, RequestMethod, RequestParams, RequestResult } from "../../shared/api";
import { expect } from "vitest";
import type { Message, ModelRef, StoredEntry, ToolResultMessage } from "../../shared/protocol";
import { createWorkbench, type WorkbenchOptions } from "../../electron/core/api/create-workbench";
import type { Workbench } from "../../electron/core/api/workbench";
import { startFauxProvider, type FauxProvider, type FauxProviderOptions } from "../../electron/core/faux";

export const MODELS = {
  anthropic: { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-6" },
  openaiChat: { provider: "openai", api: "openai-completions", id: "gpt-4.1" },
  openaiResponses: { provider: "openai", api: "openai-responses", id: "gpt-5" },
  mistral: { provider: "mistral", api: "openai-completions", id: "mistral-large-latest" },
} satisfies Record<string, ModelRef>;

export const TEST_KEYS = {
  ANTHROPIC_API_KEY: "sk-ant-test-0123456789abcdef",
  OPENAI_API_KEY: "sk-test-openai-0123456789abcdef",
  MISTRAL_API_KEY: "mistral-test-0123456789abcdef",
};

export interface RecordedEvent {
  event: EventName;
  payload: unknown;
}

export interface Harness {
  faux: FauxProvider;
  workbench: Workbench;
  workspace: string;
  workspaceId: string;
  sessionId: string;
  events: RecordedEvent[];
  call<M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>>;
  /** Resolves with the first event (past or future) matching, counted from `from`. */
  waitFor<E extends EventName>(event: E, pred?: (p: EventPayload<E>) => boolean, from?: number): Promise<EventPayload<E>>;
  /** Sends a message and waits until the turn is idle again. */
  turn(text: string): Promise<void>;
  waitIdle(from?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startHarness(
  options: {
    files?: Record<string, string>;
    model?: ModelRef;
    workbench?: Partial<WorkbenchOptions>;
    dbPath?: string;
    faux?: FauxProviderOptions;
  } = {},
): Promise<Harness> {
  const workspace = mkdtempSync(join(tmpdir(), "wb-ws-"));
  for (const [path, text] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), text);
  }
  const faux = await startFauxProvider(options.faux);
  const workbench = await createWorkbench({
    dbPath: options.dbPath ?? ":memory:",
    host: { mode: "web" },
    version: "test",
    env: { ...TEST_KEYS },
    baseUrlOverrides: {
      anthropic: faux.baseUrls.anthropic,
      openai: faux.baseUrls.openai,
      mistral: faux.baseUrls.mistral,
      google: faux.baseUrls.gemini,
    },
    sleep: async () => undefined,
    ...options.workbench,
  });
  const events: RecordedEvent[] = [];
  const waiters = new Set<() => void>();
  workbench.onEvent((event, payload) => {
    events.push({ event, payload });
    for (const w of [...waiters]) w();
  });

  const call = async <M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> => {
    const res = await workbench.handle(method, params);
    if (!res.ok) throw new Error(`${method} failed: ${res.error.code} ${res.error.message}`);
    return res.result as RequestResult<M>;
  };

  const waitFor = <E extends EventName>(event: E, pred: (p: EventPayload<E>) => boolean = () => true, from = 0) =>
    new Promise<EventPayload<E>>((resolve) => {
      const check = () => {
        for (let i = from; i < events.length; i++) {
          const e = events[i];
          if (e.event === event && pred(e.payload as EventPayload<E>)) {
            waiters.delete(check);
            resolve(e.payload as EventPayload<E>);
            return true;
          }
        }
        return false;
      };
      if (!check()) waiters.add(check);
    });

  const ws = await call("workspace.open", { path: workspace });
  const session = await call("session.create", { workspaceId: ws.id, model: options.model ?? MODELS.anthropic });

  const waitIdle = (from = 0) => waitFor("stream.end", (p) => p.sessionId === session.id, from).then(() => undefined);

  return {
    faux,
    workbench,
    workspace,
    workspaceId: ws.id,
    sessionId: session.id,
    events,
    call,
    waitFor,
    waitIdle,
    turn: async (text: string) => {
      const from = events.length;
      await call("chat.send", { sessionId: session.id, text });
      await waitIdle(from);
    },
    close: async () => {
      await workbench.close();
      await faux.close();
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- assertions shared by the loop tests

export const messagesOf = (entries: StoredEntry[]): Message[] =>
  entries.flatMap((e) => (e.entry.type === "message" ? [e.entry.message] : []));

export const resultsOf = (entries: StoredEntry[]): ToolResultMessage[] =>
  messagesOf(entries).filter((m): m is ToolResultMessage => m.role === "toolResult");

/** Invariant 1: every stored tool call has exactly one result. */
export function expectEveryCallAnswered(entries: StoredEntry[]): void {
  const ids = messagesOf(entries).flatMap((m) =>
    m.role === "assistant" ? m.content.flatMap((b) => (b.type === "toolCall" ? [b.id] : [])) : [],
  );
  const answered = resultsOf(entries).map((r) => r.toolCallId);
  expect([...answered].sort()).toEqual([...ids].sort());
}

/** Every request the faux provider received passed its strict validation. */
export function expectAllAccepted(harness: Harness): void {
  expect(harness.faux.requests.filter((r) => !r.accepted).map((r) => r.rejection?.message)).toEqual([]);
}
