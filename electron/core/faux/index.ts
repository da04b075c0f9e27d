/** The faux provider: a loopback LLM server speaking the real wire formats (docs/architecture.md#faux-provider). */
export { startFauxProvider, type FauxProvider, type FauxProviderOptions } from "./server";
export { reply, text, thinking, toolCall, faults } from "./script";
export { createDemoResponder } from "./demo";
export type {
  FauxBlock,
  FauxFault,
  FauxRecordedRequest,
  FauxRejection,
  FauxReply,
  FauxRequest,
  FauxResponder,
  FauxRoute,
  FauxStep,
  FauxStopReason,
  FauxToolInfo,
  FauxTurn,
  FauxUsage,
} from "./types";
