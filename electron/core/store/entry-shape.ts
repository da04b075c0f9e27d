/**
 * A structural check of a session entry that accepts exactly what
 * `SessionEntrySchema` accepts, for the append path.
 *
 * Why: zod's parse of one entry costs tens of microseconds inside the agent
 * loop (measured in bench:loop), where entries are appended on every round
 * trip. This check is a plain walk over the same rules. It only decides
 * acceptance: a rejected entry is parsed again by zod for the error message,
 * and zod stays the reader's check on load. `test/store/entry-shape.test.ts`
 * holds the two together on generated valid and broken entries; a change to
 * the protocol schema must change this file too (that test fails until it does).
 */

import { ApiSchema } from "../../../shared/protocol";
import { TODO_STATUSES } from "../../../shared/todo";

type Obj = Record<string, unknown>;

/** zod's `isObject`: not null, not an array. */
function isObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** zod's `isPlainObject` (what `z.record` accepts). */
function isPlainObject(v: unknown): v is Obj {
  if (!isObject(v)) return false;
  const ctor = v.constructor;
  if (ctor === undefined || typeof ctor !== "function") return true;
  const proto: unknown = ctor.prototype;
  return isObject(proto) && Object.prototype.hasOwnProperty.call(proto, "isPrototypeOf");
}

const isString = (v: unknown): boolean => typeof v === "string";
const optString = (v: unknown): boolean => v === undefined || typeof v === "string";
/** `z.number()`: finite. */
const isNumber = (v: unknown): boolean => typeof v === "number" && Number.isFinite(v);
/** `z.number().int()`: a safe integer. */
const isInt = (v: unknown): boolean => typeof v === "number" && Number.isSafeInteger(v);
const isCount = (v: unknown): boolean => isInt(v) && (v as number) >= 0;

const APIS: ReadonlySet<unknown> = new Set(ApiSchema.options);
const STOP_REASONS: ReadonlySet<unknown> = new Set(["stop", "toolUse", "length", "error", "aborted"]);
const LEVELS: ReadonlySet<unknown> = new Set(["default", "off", "low", "medium", "high"]);
const LIMIT_KINDS: ReadonlySet<unknown> = new Set(["cost", "roundTrips", "wallTime", "toolBudget"]);
const COMPACTION_STEPS: ReadonlySet<unknown> = new Set(["prune", "summary"]);
const COMPACTION_TRIGGERS: ReadonlySet<unknown> = new Set(["threshold", "overflow", "manual"]);
const DECISIONS: ReadonlySet<unknown> = new Set(["approved", "approvedForSession", "denied", "autoApproved", "autoDenied"]);
const TODO_STATUS: ReadonlySet<unknown> = new Set(TODO_STATUSES);

function modelRef(v: unknown): boolean {
  return isObject(v) && isString(v.provider) && APIS.has(v.api) && isString(v.id);
}

function usage(v: unknown): boolean {
  if (!isObject(v)) return false;
  if (!isCount(v.input) || !isCount(v.output) || !isCount(v.cacheRead) || !isCount(v.cacheWrite) || !isCount(v.totalTokens)) return false;
  const c = v.cost;
  return isObject(c) && isNumber(c.input) && isNumber(c.output) && isNumber(c.cacheRead) && isNumber(c.cacheWrite) && isNumber(c.total);
}

/** Text or image: user and tool-result content. */
function userBlock(b: unknown): boolean {
  if (!isObject(b)) return false;
  if (b.type === "text") return isString(b.text);
  if (b.type === "image") return isString(b.data) && isString(b.mimeType);
  return false;
}

function assistantBlock(b: unknown): boolean {
  if (!isObject(b)) return false;
  switch (b.type) {
    case "text":
      return isString(b.text);
    case "thinking":
      return isString(b.thinking) && optString(b.signature) && (b.redacted === undefined || typeof b.redacted === "boolean");
    case "toolCall":
      return isString(b.id) && isString(b.name) && isPlainObject(b.arguments) && optString(b.rawArguments) && optString(b.argumentsError);
    default:
      return false;
  }
}

function todoItem(b: unknown): boolean {
  return isObject(b) && isString(b.text) && TODO_STATUS.has(b.status);
}

function limitHit(v: unknown): boolean {
  return isObject(v) && LIMIT_KINDS.has(v.kind) && isString(v.detail);
}

function compaction(e: Obj): boolean {
  return (
    isString(e.summary) &&
    isInt(e.firstKeptSeq) &&
    isCount(e.tokensBefore) &&
    modelRef(e.model) &&
    isNumber(e.timestamp) &&
    (e.step === undefined || COMPACTION_STEPS.has(e.step)) &&
    (e.prunedBeforeSeq === undefined || isInt(e.prunedBeforeSeq)) &&
    (e.pruned === undefined || isCount(e.pruned)) &&
    (e.tokensAfter === undefined || isCount(e.tokensAfter)) &&
    (e.trigger === undefined || COMPACTION_TRIGGERS.has(e.trigger)) &&
    optString(e.userRequest) &&
    optString(e.carried) &&
    (e.usage === undefined || usage(e.usage))
  );
}

function every(v: unknown, check: (b: unknown) => boolean): boolean {
  if (!Array.isArray(v)) return false;
  for (const b of v) if (!check(b)) return false;
  return true;
}

function message(m: unknown): boolean {
  if (!isObject(m)) return false;
  switch (m.role) {
    case "user":
      return every(m.content, userBlock) && isNumber(m.timestamp);
    case "assistant":
      return (
        every(m.content, assistantBlock) &&
        STOP_REASONS.has(m.stopReason) &&
        modelRef(m.model) &&
        usage(m.usage) &&
        optString(m.errorMessage) &&
        optString(m.responseId) &&
        (m.limit === undefined || limitHit(m.limit)) &&
        isNumber(m.timestamp)
      );
    case "toolResult":
      // `details` is z.unknown().optional(): anything.
      return (
        isString(m.toolCallId) &&
        isString(m.toolName) &&
        typeof m.isError === "boolean" &&
        every(m.content, userBlock) &&
        isNumber(m.timestamp)
      );
    default:
      return false;
  }
}

/** True when `SessionEntrySchema.safeParse(input)` would succeed. */
export function isSessionEntryShape(input: unknown): boolean {
  if (!isObject(input)) return false;
  const e = input;
  switch (e.type) {
    case "message":
      return message(e.message);
    case "modelSwitch":
      return (e.from === null || modelRef(e.from)) && modelRef(e.to) && isNumber(e.timestamp);
    case "approval":
      return (
        isString(e.toolCallId) &&
        isString(e.toolName) &&
        DECISIONS.has(e.decision) &&
        optString(e.reason) &&
        isString(e.decidedBy) &&
        isNumber(e.timestamp)
      );
    case "compaction":
      return compaction(e);
    case "rename":
      return isString(e.title) && isNumber(e.timestamp);
    case "reasoningChange":
      return LEVELS.has(e.from) && LEVELS.has(e.to) && isNumber(e.timestamp);
    case "fork":
      return isString(e.sourceSessionId) && isInt(e.sourceSeq) && isNumber(e.timestamp);
    case "planEdit":
      return every(e.items, todoItem) && isNumber(e.timestamp);
    default:
      return false;
  }
}
