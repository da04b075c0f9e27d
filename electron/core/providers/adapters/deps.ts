/**
 * The adapters' only entry points into the request side: the pure request
 * builders (boundary transform applied), the registry's cost, and the stored
 * form of Responses tool-call ids; and the OpenAI client both OpenAI wires use.
 */
import OpenAI from "openai";
import type { SharedClientSettings } from "./request-watch";

export {
  buildAnthropicRequest,
  buildBedrockRequest,
  buildGeminiRequest,
  buildOpenAICompletionsRequest,
  buildOpenAIResponsesRequest,
} from "../requests";
export { computeCost } from "../registry";
export { encodeResponsesToolCallId } from "../transform/responses-ids";

/** The model calls tools by their wire names; the app knows them by its own. */
export function appToolName(toolNames: Record<string, string> | undefined, wireName: string): string {
  return toolNames !== undefined && Object.hasOwn(toolNames, wireName) ? toolNames[wireName] : wireName;
}

/**
 * An `openai` client (reused across calls: `RunContext.shared`). `organization`/`project` null: the SDK
 * would otherwise add headers from OPENAI_ORG_ID / OPENAI_PROJECT_ID to
 * every server, compatible ones included.
 */
export function openaiClient(settings: SharedClientSettings): OpenAI {
  return new OpenAI({ ...settings, organization: null, project: null, webhookSecret: null });
}
