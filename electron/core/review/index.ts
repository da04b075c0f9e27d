/** Replay and review: timeline, statistics, file states, model view, exports, import, fork (see README.md). */
export { createReviewHandlers, reviewRequests, type ReviewContext, type ReviewHandlers, type ReviewMethod } from "./handlers";
export { buildTimeline, SIDE_EFFECT_TOOLS, type TimelineOptions } from "./timeline";
export { sessionStats } from "./stats";
export { byModel, byTool, errorsOnly, filterChoices, filterTimeline, sideEffectsOnly, type TimelineFilter } from "./filters";
export { fileStatesAt } from "./file-history";
export { modelViewAt, type ModelViewInput } from "./model-view";
export { buildEnvelope, importEnvelope, loadExportSource, parseEnvelope, serializeEnvelope } from "./export-json";
export { exportSession, renderExport } from "./export-session";
export { createRedactor, redactText, REDACTED, type Redactor } from "./redact";
export { forkAt, modelAt } from "./fork";
export type { ReviewError, ReviewResult } from "./result";
