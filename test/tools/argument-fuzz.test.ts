/**
 * Argument fuzzing: 10,000 random JSON arguments per tool always end as a
 * typed error or a success, never an exception. Read-only tools run for real
 * (built-in grep, small workspace); side-effect tools are validated and, for a
 * slice of the inputs, proposed — never executed, so no random bash runs.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolResultMessageSchema } from "../../shared/protocol";
import { createToolRuntime, TOOL_ERROR_CODES, TOOL_NAMES, type ToolOutcome, type ToolRuntime } from "../../electron/core/tools";
import { makeFixture, type Fixture } from "./helpers";

const RUNS = 10_000;

const OutcomeSchema = z.union([
  z.object({
    ok: z.literal(true),
    content: z.array(z.object({ type: z.enum(["text", "image"]) }).passthrough()),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
  z.object({
    ok: z.literal(false),
    error: z
      .object({ errorCode: z.enum(TOOL_ERROR_CODES), retryable: z.boolean(), message: z.string().min(1), hint: z.string().optional() })
      .strict(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
]);

const FIELDS: Record<string, string[]> = {
  read: ["path", "offset", "limit"],
  write: ["path", "content"],
  edit: ["path", "edits"],
  list: ["path", "depth", "includeIgnored", "cursor"],
  glob: ["pattern", "path", "cursor"],
  grep: ["pattern", "path", "include", "literal", "ignoreCase", "context"],
  bash: ["command", "timeout", "workdir", "description"],
  webfetch: ["url", "offset"],
};

const pathish = fc.oneof(
  fc.constantFrom("a.txt", "src", "src/b.ts", ".", "..", "/", "nope", "src/../a.txt", "**/*", "*.ts", "\0", "~", "C:\\x"),
  fc.string({ maxLength: 12 }),
);
const value = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 2, arbitrary: pathish },
  { weight: 1, arbitrary: fc.integer({ min: -5, max: 3000 }) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.record({ oldText: pathish, newText: fc.string({ maxLength: 8 }), replaceAll: fc.boolean() }, { requiredKeys: [] }),
      { maxLength: 3 },
    ),
  },
);

const word = fc.constantFrom("alpha", "beta", "export", "const b", "\n", "a", "", "  ", "\\n", "(", "[", "*", "é", "\u0000");
const text = fc.oneof(
  word,
  fc.string({ maxLength: 20 }),
  fc.array(word, { maxLength: 4 }).map((w) => w.join("\n")),
);
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const drop = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** Arguments that usually pass validation, so the tools themselves get exercised. */
const NEAR_VALID: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  read: fc.record({ path: pathish, offset: opt(fc.integer({ min: 1, max: 50 })), limit: opt(fc.integer({ min: 1, max: 100 })) }).map(drop),
  write: fc.record({ path: pathish, content: text }).map(drop),
  edit: fc
    .record({
      path: pathish,
      edits: fc.array(fc.record({ oldText: text, newText: text, replaceAll: opt(fc.boolean()) }).map(drop), { minLength: 1, maxLength: 3 }),
    })
    .map(drop),
  list: fc
    .record({
      path: opt(pathish),
      depth: opt(fc.integer({ min: 1, max: 5 })),
      includeIgnored: opt(fc.boolean()),
      cursor: opt(fc.constantFrom("0", "1", "500", "x")),
    })
    .map(drop),
  glob: fc
    .record({
      pattern: fc.oneof(fc.constantFrom("*", "**/*.ts", "src/*", "[", "{a,b", "!(x)", "/abs", "../*"), text),
      path: opt(pathish),
      cursor: opt(fc.constantFrom("0", "3", "-1")),
    })
    .map(drop),
  grep: fc
    .record({
      pattern: fc.oneof(fc.constantFrom("alpha", "a.*", "(", "[a-", "\\b", "x{2,", "(?i)a", "\\p{L}"), text),
      path: opt(pathish),
      include: opt(fc.constantFrom("*.ts", "src/**", "{", "*.{ts,txt}")),
      literal: opt(fc.boolean()),
      ignoreCase: opt(fc.boolean()),
      context: opt(fc.integer({ min: 0, max: 10 })),
    })
    .map(drop),
  bash: fc
    .record({
      command: text,
      timeout: opt(fc.integer({ min: 1, max: 600 })),
      workdir: opt(pathish),
      description: opt(fc.string({ maxLength: 30 })),
    })
    .map(drop),
  // Proposed only (a preview, no request): URLs of every shape, private and credentialed ones included.
  webfetch: fc
    .record({
      url: fc.oneof(fc.webUrl(), fc.constantFrom("http://127.0.0.1/", "https://u:p@x.org/", "file:///etc/passwd", "http://[::1]/"), text),
      offset: opt(fc.integer({ min: -5, max: 100_000 })),
    })
    .map(drop),
};

/** Near-valid objects, random objects shaped like the arguments, and fully random JSON. */
function argumentsFor(tool: string): fc.Arbitrary<unknown> {
  const keys = [...FIELDS[tool], "extra", "PATH"];
  const shaped = fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 5 });
  return fc.oneof(
    { weight: 3, arbitrary: NEAR_VALID[tool] },
    { weight: 2, arbitrary: shaped },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

function check(runtime: ToolRuntime, name: string, outcome: ToolOutcome): void {
  const parsed = OutcomeSchema.safeParse(outcome);
  expect(parsed.success, JSON.stringify(outcome).slice(0, 300)).toBe(true);
  ToolResultMessageSchema.parse(runtime.toResultMessage({ id: "fuzz", name }, outcome, 1));
}

describe("argument fuzzing", () => {
  let fx: Fixture;
  let runtime: ToolRuntime;
  beforeAll(() => {
    fx = makeFixture();
    mkdirSync(join(fx.ws, "src"));
    writeFileSync(join(fx.ws, "a.txt"), "alpha\nbeta\n");
    writeFileSync(join(fx.ws, "src", "b.ts"), "export const b = 1;\n");
    runtime = createToolRuntime({
      workspaceRoot: fx.ws,
      rgPath: null,
      outputDir: join(fx.base, "out"),
      budget: { maxToolCalls: 1e9, maxOutputBytes: 1e12, maxDurationMs: 1e12, maxSideEffects: 1e9 },
    });
  });
  afterAll(() => fx.cleanup());

  for (const tool of TOOL_NAMES) {
    const sideEffect = tool === "write" || tool === "edit" || tool === "bash" || tool === "webfetch";
    it(`${tool}: ${RUNS} random argument objects give a typed error or a success, never a throw`, async () => {
      let i = 0;
      let reached = 0;
      await fc.assert(
        fc.asyncProperty(argumentsFor(tool), async (args) => {
          i++;
          const toolCall = { id: `fuzz-${i}`, name: tool, arguments: args as Record<string, unknown> };
          if (!sideEffect) {
            const outcome = await runtime.runReadOnly(toolCall);
            check(runtime, tool, outcome);
            if (outcome.ok || outcome.error.errorCode !== "INVALID_ARGUMENTS") reached++;
            return;
          }
          const valid = runtime.validate(toolCall);
          if (!valid.ok) {
            check(runtime, tool, { ok: false, error: valid.error });
            return;
          }
          reached++;
          // A slice of the valid ones are proposed (previews only; nothing runs or is written).
          if (i % 10 === 0) {
            const proposed = await runtime.propose(toolCall);
            if ("outcome" in proposed) check(runtime, tool, proposed.outcome);
            else runtime.cancel(proposed.proposal);
          }
        }),
        { numRuns: RUNS },
      );
      // The generator must get past validation often enough to exercise the tools themselves.
      expect(reached).toBeGreaterThan(RUNS / 5);
    });
  }

  it("unparseable arguments and unknown tools are typed errors too", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.constantFrom(...TOOL_NAMES, "nope", "", "READ"), async (reason, name) => {
        check(runtime, name, await runtime.runReadOnly({ id: "x", name, arguments: {}, argumentsError: reason }));
      }),
      { numRuns: 500 },
    );
  });
});
