/**
 * The adapters' only entry points into the request side: the pure request
 * builders (boundary transform applied), the registry's cost and compat, and
 * the stored form of Responses tool-call ids.
 */
export {
  buildAnthropicRequest,
  buildAnthropicRequestJson,
  buildOpenAICompletionsRequest,
  buildOpenAICompletionsRequestJson,
  buildOpenAIResponsesRequest,
  buildOpenAIResponsesRequestJson,
  buildGeminiRequest,
  buildBedrockRequest,
  cachedCompat,
} from "../requests";
export { computeCost } from "../registry";
export { encodeResponsesToolCallId } from "../transform/responses-ids";

/** The model calls tools by their wire names; the app knows them by its own. */
export function appToolName(toolNames: Record<string, string> | undefined, wireName: string): string {
  return toolNames !== undefined && Object.hasOwn(toolNames, wireName) ? toolNames[wireName] : wireName;
}
