/**
 * The faux provider enforces each model's context window as the real APIs do:
 * a request over it is refused with the provider's own status and error text
 * (which the adapters classify as an overflow), one under it is answered, and
 * the usage it reports counts the request the way its window does.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { reply, startFauxProvider, type FauxProvider, type FauxRoute } from "../../electron/core/faux";
import { requestTokens } from "../../electron/core/faux/context-window";
import { ALL_ROUTES, context, fakeAwsCredentials, run, targets, user, type Target } from "../providers/adapters-fixtures";

let faux: FauxProvider;
let T: Record<FauxRoute, Target>;

beforeAll(async () => {
  fakeAwsCredentials();
  faux = await startFauxProvider({ contextWindows: { "claude-faux-4": 2_000 } });
  T = targets(faux);
  for (const route of ALL_ROUTES) faux.setContextWindow(T[route].model.id, 2_000);
});
afterAll(() => faux.close());
beforeEach(() => faux.reset());

const OVERFLOW_TEXT: Record<FauxRoute, RegExp> = {
  anthropic: /prompt is too long: \d+ tokens > 2000 maximum/,
  "openai-completions": /maximum context length is 2000 tokens/,
  "openai-responses": /exceeds the context window of this model/,
  mistral: /too large for model with 2000 maximum context length/,
  gemini: /input token count \(\d+\) exceeds the maximum number of tokens allowed \(2000\)/,
  bedrock: /Input is too long for requested model/,
};

describe.each(ALL_ROUTES)("%s context window", (route) => {
  it("refuses a request over the model's window with the provider's overflow error, which the adapter flags", async () => {
    faux.script(reply("never sent"));
    const result = await run(T[route], context([user("x".repeat(12_000))]));
    expect(result.final.type).toBe("error");
    if (result.final.type !== "error") return;
    expect(result.final.contextOverflow).toBe(true);
    expect(result.final.retryable).toBe(false);
    expect(result.message.errorMessage).toMatch(OVERFLOW_TEXT[route]);
    expect(faux.requests).toHaveLength(1);
    expect(faux.requests[0]).toMatchObject({ accepted: false, outcome: "rejected" });
    expect(faux.requests[0].tokens).toBeGreaterThan(2_000);
    // A refused request consumes no scripted step.
    expect(faux.pending()).toBe(1);
  });

  it("answers a request under the window and reports the tokens it counted as the input", async () => {
    faux.script(reply("fits"));
    const result = await run(T[route], context([user("a short question")]));
    expect(result.final.type).toBe("done");
    expect(faux.requests[0].accepted).toBe(true);
    const counted = faux.requests[0].tokens;
    expect(counted).toBeLessThan(2_000);
    expect(result.message.usage.input + result.message.usage.cacheRead).toBe(counted);
  });
});

describe("the faux token count", () => {
  it("counts a long base64 image as 1,600 tokens, not by its encoded size", () => {
    const image = "A".repeat(400_000);
    const body = {
      messages: [
        {
          content: [
            { type: "image", source: { data: image } },
            { type: "text", text: "hi" },
          ],
        },
      ],
    };
    const raw = JSON.stringify(body);
    expect(requestTokens(raw, body)).toBe(1_600 + Math.ceil((raw.length - image.length) / 4));
  });
});
