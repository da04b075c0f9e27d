/** The provider transport: one streamed POST, its SSE events, and the errors it throws. */
export { headerRecord, postSse, type SseEvents, type SseRequest, type SseResponse } from "./post-sse";
export { Http1Pool, type Http1PoolOptions } from "./http1-client";
export { parseEventData, SseParser, type SseEvent } from "./sse-parser";
export { HttpNetworkError, parseJsonOrUndefined, ProviderApiError, SseDataError, StreamStoppedError } from "./errors";
