/** A model without credentials says what it lacks in its provider's terms: Bedrock needs AWS credentials, not an API key. */
import { describe, expect, it } from "vitest";
import type { ModelOption } from "../../shared/api";
import { missingCredential, notReadyReason } from "../../renderer/src/stores/models-store";

const option = (api: ModelOption["api"]) => ({ api, configured: false }) as ModelOption;

describe("missing credentials", () => {
  it("Bedrock names AWS credentials; the others an API key", () => {
    expect(missingCredential(option("bedrock-converse-stream"))).toBe("AWS credentials missing");
    expect(notReadyReason(option("bedrock-converse-stream"))).toBe("its AWS credentials are missing");
    expect(missingCredential(option("anthropic-messages"))).toBe("key missing");
    expect(notReadyReason(option("openai-completions"))).toBe("its API key is missing");
  });
});
