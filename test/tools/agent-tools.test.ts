/**
 * What the model sees of the agent's own tools (todo, task): names,
 * descriptions and JSON schemas for the default caps, snapshotted like the
 * workspace tools' (model-view.test.ts), in the subset every provider accepts,
 * with the limits taken from the constants the code enforces.
 */
import { describe, expect, it } from "vitest";
import { TODO_MAX_ITEMS, TODO_MAX_TEXT } from "../../shared/todo";
import { defaultSettings } from "../../electron/core/api/settings";
import { taskCapsAt } from "../../electron/core/agent/sub-agent";
import { agentToolSpecs, runTodo } from "../../electron/core/tools/agent-tools";
import { TASK_PROMPT_MAX_CHARS } from "../../electron/core/tools/limits";

const PORTABLE = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "description",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "minItems",
  "maxItems",
  "enum",
]);

function keywordsOf(node: unknown, out: Set<string>, inProperties = false): Set<string> {
  if (typeof node !== "object" || node === null || Array.isArray(node)) return out;
  for (const [key, value] of Object.entries(node)) {
    if (!inProperties) out.add(key);
    keywordsOf(value, out, key === "properties" && !inProperties);
  }
  return out;
}

const mainAgent = () => agentToolSpecs(taskCapsAt(defaultSettings().subAgents, 0));

describe("agent tool specs as the model sees them", () => {
  it("match the committed snapshot for the default caps (names, descriptions, JSON schemas)", async () => {
    await expect(JSON.stringify(mainAgent(), null, 2) + "\n").toMatchFileSnapshot("__snapshots__/agent-tool-specs.json");
    const text = mainAgent()
      .map((s) => `## ${s.name}\n\n${s.description}\n`)
      .join("\n");
    await expect(text).toMatchFileSnapshot("__snapshots__/agent-tool-descriptions.md");
  });

  it("use only portable keywords and reject unknown fields", () => {
    for (const spec of mainAgent()) {
      expect(spec.parameters.type).toBe("object");
      expect(spec.parameters.additionalProperties).toBe(false);
      for (const k of keywordsOf(spec.parameters, new Set())) expect(PORTABLE.has(k), `${spec.name}: keyword ${k}`).toBe(true);
    }
  });

  it("say the limits the code enforces, and the caps in force", () => {
    const [todo, task] = mainAgent();
    expect(todo.description).toContain(`at most ${TODO_MAX_ITEMS} items of at most ${TODO_MAX_TEXT} characters`);
    expect(JSON.stringify(task.parameters)).toContain(`"maxLength":${TASK_PROMPT_MAX_CHARS}`);
    const caps = { model: null, maxPerTurn: 5, maxConcurrent: 2, maxDepth: 2, sideEffects: true };
    const custom = agentToolSpecs(taskCapsAt(caps, 0))[1].description;
    expect(custom).toContain("At most 5 sub-agents per turn, 2 running at a time");
    expect(custom).toContain("It may start sub-agents of its own.");
    expect(custom).toContain("its write, edit and bash calls need the user's approval");
    // One level down with depth 2: task is offered, without delegation; two levels down: not at all.
    expect(agentToolSpecs(taskCapsAt(caps, 1))[1].description).toContain("It cannot start sub-agents of its own.");
    expect(agentToolSpecs(taskCapsAt(caps, 2)).map((s) => s.name)).toEqual(["todo"]);
  });

  it("todo answers with the plan it was given, and refuses an item it cannot keep", () => {
    const ok = runTodo({ items: [{ text: "  Write it  ", status: "done" }] });
    expect(ok).toMatchObject({ ok: true, details: { plan: [{ text: "Write it", status: "done" }] } });
    expect(runTodo({ items: [] })).toMatchObject({ ok: true, content: [{ type: "text", text: "The plan is cleared." }] });
    expect(runTodo({ items: [{ text: "   ", status: "pending" }] })).toMatchObject({
      ok: false,
      error: { errorCode: "INVALID_ARGUMENTS" },
    });
    expect(runTodo({})).toMatchObject({ ok: false, error: { errorCode: "INVALID_ARGUMENTS" } });
  });
});
