/**
 * Validation shared by both transports: every response and event that crosses
 * into the renderer is parsed with its zod schema from shared/api.ts, so a
 * contract drift shows up as a typed error instead of a broken screen.
 */
import {
  ApiErrorSchema,
  WorkbenchApiError,
  events,
  requests,
  type EventName,
  type EventPayload,
  type RequestMethod,
  type RequestResult,
} from "../../../shared/api";

export function isRequestMethod(method: string): method is RequestMethod {
  return Object.prototype.hasOwnProperty.call(requests, method);
}

export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(events, name);
}

/**
 * The result of a raw ApiResponse, not yet validated (the caller validates it:
 * see `callUnvalidated`), or throws a WorkbenchApiError for an error response.
 */
export function unwrapUnvalidated(method: string, raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || !("ok" in raw)) {
    throw new WorkbenchApiError({ code: "INTERNAL", message: `Malformed response to ${method}` });
  }
  if (raw.ok !== true) {
    const err = ApiErrorSchema.safeParse("error" in raw ? raw.error : undefined);
    throw new WorkbenchApiError(err.success ? err.data : { code: "INTERNAL", message: `Malformed error response to ${method}` });
  }
  return "result" in raw ? raw.result : undefined;
}

/** Turns a raw ApiResponse into the typed result, or throws a WorkbenchApiError. */
export function unwrapResponse<M extends RequestMethod>(method: M, raw: unknown): RequestResult<M> {
  const parsed = requests[method].result.safeParse(unwrapUnvalidated(method, raw));
  if (!parsed.success) {
    throw new WorkbenchApiError({
      code: "INTERNAL",
      message: `Response to ${method} does not match the contract`,
      issues: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
    });
  }
  return parsed.data as RequestResult<M>;
}

/** Parses an event payload; null (and a console report) when it does not match its schema. */
export function parseEvent<E extends EventName>(event: E, payload: unknown): EventPayload<E> | null {
  const parsed = events[event].safeParse(payload);
  if (!parsed.success) {
    console.error(`Event ${event} does not match the contract`, parsed.error.issues.slice(0, 3));
    return null;
  }
  return parsed.data as EventPayload<E>;
}

export function toApiError(err: unknown): WorkbenchApiError {
  if (err instanceof WorkbenchApiError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new WorkbenchApiError({ code: "INTERNAL", message });
}

/** Listener registry keyed by event name; used by both transports. */
export class EventHub {
  private readonly listeners = new Map<EventName, Set<(payload: unknown) => void>>();

  add<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    const wrapped = listener as (payload: unknown) => void;
    set.add(wrapped);
    return () => set.delete(wrapped);
  }

  has(event: EventName): boolean {
    return (this.listeners.get(event)?.size ?? 0) > 0;
  }

  emit(event: EventName, raw: unknown): void {
    const set = this.listeners.get(event);
    if (!set || set.size === 0) return;
    const payload = parseEvent(event, raw);
    if (payload === null) return;
    for (const listener of [...set]) {
      try {
        listener(payload);
      } catch (err) {
        console.error(`Listener for ${event} failed`, err);
      }
    }
  }
}
