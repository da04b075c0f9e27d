/**
 * The GenAI semantic-convention names the trace export uses, copied (as the
 * package recommends for incubating conventions) from
 * @opentelemetry/semantic-conventions SEMCONV_PACKAGE_VERSION's incubating
 * entry point; test/otel/semconv.test.ts checks every one against it.
 */
export const SEMCONV_PACKAGE_VERSION = "1.45.0";
export const SCHEMA_URL = `https://opentelemetry.io/schemas/${SEMCONV_PACKAGE_VERSION}`;

export const ATTR_GEN_AI_OPERATION_NAME = "gen_ai.operation.name";
export const ATTR_GEN_AI_PROVIDER_NAME = "gen_ai.provider.name";
export const ATTR_GEN_AI_AGENT_ID = "gen_ai.agent.id";
export const ATTR_GEN_AI_AGENT_NAME = "gen_ai.agent.name";
export const ATTR_GEN_AI_CONVERSATION_ID = "gen_ai.conversation.id";
export const ATTR_GEN_AI_REQUEST_MODEL = "gen_ai.request.model";
export const ATTR_GEN_AI_RESPONSE_MODEL = "gen_ai.response.model";
export const ATTR_GEN_AI_RESPONSE_ID = "gen_ai.response.id";
export const ATTR_GEN_AI_RESPONSE_FINISH_REASONS = "gen_ai.response.finish_reasons";
export const ATTR_GEN_AI_USAGE_INPUT_TOKENS = "gen_ai.usage.input_tokens";
export const ATTR_GEN_AI_USAGE_OUTPUT_TOKENS = "gen_ai.usage.output_tokens";
export const ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS = "gen_ai.usage.cache_read.input_tokens";
export const ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS = "gen_ai.usage.cache_creation.input_tokens";
export const ATTR_GEN_AI_INPUT_MESSAGES = "gen_ai.input.messages";
export const ATTR_GEN_AI_OUTPUT_MESSAGES = "gen_ai.output.messages";
export const ATTR_GEN_AI_TOOL_NAME = "gen_ai.tool.name";
export const ATTR_GEN_AI_TOOL_CALL_ID = "gen_ai.tool.call.id";
export const ATTR_GEN_AI_TOOL_TYPE = "gen_ai.tool.type";
export const ATTR_GEN_AI_TOOL_CALL_ARGUMENTS = "gen_ai.tool.call.arguments";
export const ATTR_GEN_AI_TOOL_CALL_RESULT = "gen_ai.tool.call.result";
export const ATTR_ERROR_TYPE = "error.type";

/** Not in the conventions (they define no cost): the stored cost in US dollars, as the provider's prices give it. */
export const ATTR_COST_USD = "agent_workbench.cost.usd";

/** Our provider keys → gen_ai.provider.name's well-known values (others pass through). */
const PROVIDER_NAMES: Record<string, string> = {
  anthropic: "anthropic",
  openai: "openai",
  google: "gcp.gemini",
  gemini: "gcp.gemini",
  vertex: "gcp.vertex_ai",
  bedrock: "aws.bedrock",
  "amazon-bedrock": "aws.bedrock",
  mistral: "mistral_ai",
  groq: "groq",
  deepseek: "deepseek",
  xai: "x_ai",
  azure: "azure.ai.openai",
};

export function providerName(provider: string): string {
  return PROVIDER_NAMES[provider] ?? provider;
}
