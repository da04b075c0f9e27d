import { describe, expect, it } from "vitest";
import type { ModelRef } from "../../shared/protocol";
import { modelViewAt, type ModelViewInput } from "../../electron/core/review/model-view";
import { validateRequest } from "../../electron/core/providers/validate";
import { SONNET, T0, TOOL_SPECS, WORKSPACE, buildSession, resolveModel, usage } from "./fixture";

const input: ModelViewInput = { workspaceRoot: WORKSPACE, platform: "linux", toolSpecs: TOOL_SPECS, resolve: resolveModel };

function entries() {
  const f = buildSession();
  return f.store.loadEntries(f.sessionId);
}

interface AnthropicBlock {
  type: string;
  id?: string;
  tool_use_id?: string;
  text?: string;
}
interface AnthropicBody {
  model: string;
  system: string | Array<{ type: string; text: string }>;
  messages: Array<{ role: string; content: string | AnthropicBlock[] }>;
  tools: Array<{ name: string }>;
}

function blocks(body: AnthropicBody): AnthropicBlock[] {
  return body.messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content));
}

function systemText(body: AnthropicBody): string {
  return typeof body.system === "string" ? body.system : body.system.map((b) => b.text).join("\n");
}

describe("what the model saw", () => {
  it("rebuilds the Anthropic request after the switch with provider-valid ids that map back to the stored ones", () => {
    const view = modelViewAt(entries(), 12, input);
    if (!view.ok) throw new Error(view.error.message);
    const body = view.value.body as AnthropicBody;
    expect(body.model).toBe("claude-sonnet-4-5");
    expect(view.value.model).toEqual({ provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-5" });

    const uses = blocks(body).filter((b) => b.type === "tool_use");
    const results = blocks(body).filter((b) => b.type === "tool_result");
    expect(uses).toHaveLength(3);
    for (const u of uses) expect(u.id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(uses.map((u) => u.id)).not.toContain("call_abc|fc_1");
    expect(results.map((r) => r.tool_use_id)).toEqual(uses.map((u) => u.id));
    // The mapping returns each wire id to the id stored in the session.
    expect(uses.map((u) => view.value.idMap[u.id ?? ""])).toEqual(["call_abc|fc_1", "call_zzz|fc_9", "call_def|fc_2"]);
    expect(JSON.stringify(body)).not.toContain("|fc_");

    // The other model's thinking is left out (Anthropic refuses it demoted to text), and the view
    // says so, pointing at the entry; the failed request is not replayed.
    expect(blocks(body).some((b) => b.type === "thinking")).toBe(false);
    expect(JSON.stringify(body)).not.toContain("Read the file first.");
    expect(view.value.repairs).toContainEqual(expect.objectContaining({ kind: "otherReasoningDropped", seq: 2 }));
    expect(validateRequest("anthropic-messages", body)).toBeNull();
  });

  it("uses the same system prompt as the loop: workspace, platform, the request's date and the tools", () => {
    const view = modelViewAt(entries(), 12, input);
    if (!view.ok) throw new Error(view.error.message);
    const system = systemText(view.value.body as AnthropicBody);
    expect(system).toContain(`Workspace: ${WORKSPACE}`);
    expect(system).toContain("Platform: linux");
    expect(system).toContain("Date: 2025-03-01");
    expect(system).toContain("- bash: Run a shell command.");
    expect((view.value.body as AnthropicBody).tools.map((t) => t.name)).toEqual(["read", "edit", "write", "bash"]);
    // The date comes from the message stored just before the request (the failed attempt at +10.1 s).
    expect(view.value.requestTime).toBe(Date.UTC(2025, 2, 1, 9, 30, 10, 100));
  });

  it("rebuilds an OpenAI Responses request with its own call ids mapped back", () => {
    const view = modelViewAt(entries(), 5, input);
    if (!view.ok) throw new Error(view.error.message);
    const body = view.value.body as { model: string; input: Array<{ type?: string; call_id?: string }> };
    expect(body.model).toBe("gpt-5");
    const calls = body.input.filter((i) => i.type === "function_call");
    expect(calls.map((c) => view.value.idMap[c.call_id ?? ""])).toEqual(["call_abc|fc_1", "call_zzz|fc_9"]);
    expect(validateRequest("openai-responses", body)).toBeNull();
  });

  it("after a compaction, starts the history with the summary and keeps only the entries after the cut", () => {
    const all = entries();
    const summary = "Earlier: greet was renamed to hello and a README was added.";
    const withCompaction = [
      ...all,
      {
        seq: 23,
        entry: { type: "compaction" as const, summary, firstKeptSeq: 18, tokensBefore: 9_000, model: SONNET, timestamp: T0 + 23_000 },
      },
      {
        seq: 24,
        entry: {
          type: "message" as const,
          message: {
            role: "assistant" as const,
            content: [{ type: "text" as const, text: "Ok." }],
            stopReason: "stop" as const,
            model: SONNET,
            usage: usage(10, 1, 0),
            timestamp: T0 + 24_000,
          },
        },
      },
    ];
    const view = modelViewAt(withCompaction, 24, input);
    if (!view.ok) throw new Error(view.error.message);
    const body = view.value.body as AnthropicBody;
    const first = body.messages[0];
    expect(first.role).toBe("user");
    expect(JSON.stringify(first.content)).toContain(summary);
    expect(JSON.stringify(body)).not.toContain("Rename greet to hello in src/app.ts.");
    expect(JSON.stringify(body)).toContain("Capitalise the README title.");
    expect(view.value.idMap).toEqual({ [Object.keys(view.value.idMap)[0]]: "toolu_01Y" });
    expect(view.value.requestTime).toBe(T0 + 23_000);
  });

  it("has nothing to map before the first tool call", () => {
    const view = modelViewAt(entries(), 2, input);
    expect(view.ok && view.value.idMap).toEqual({});
  });

  it("refuses entries that are not assistant messages, unknown steps and models no longer in the catalog", () => {
    const all = entries();
    expect(modelViewAt(all, 1, input)).toMatchObject({
      ok: false,
      error: { code: "INVALID_REQUEST", message: "entry #1 is a user entry, not an assistant message" },
    });
    expect(modelViewAt(all, 99, input)).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    const gone: ModelViewInput = { ...input, resolve: (ref: ModelRef) => (ref.provider === "anthropic" ? undefined : resolveModel(ref)) };
    expect(modelViewAt(all, 12, gone)).toMatchObject({ ok: false, error: { code: "UNSUPPORTED" } });
  });
});
