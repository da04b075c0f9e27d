/**
 * The boundary transform, resumed instead of redone. In a tool loop every
 * request re-sends the previous request's history plus a few new messages, so
 * a pass kept per (history, target) resumes at its last checkpoint (the last
 * assistant message) and processes only what follows. The result equals
 * `transformHistory` on the same input (a property test checks this); any
 * change to the already processed prefix — compaction, an edited history,
 * another session — is detected by identity and starts a fresh pass.
 */
import type { Message } from "../../../../shared/protocol";
import { HistoryPass } from "./transform";
import type { TransformTarget, WireMessage } from "./wire-types";

interface KeptPass {
  pass: HistoryPass;
  /** The messages of the last run, by identity (our own array, never the caller's). */
  inputs: Message[];
}

/** Passes per target for one history, keyed by the history's first message (stable for a session's requests). */
const passes = new WeakMap<Message, Map<string, KeptPass>>();
/** Targets kept per history: a session rarely alternates between more models than this. */
const TARGETS_PER_HISTORY = 4;

/** Everything in a target that changes the output (the tool-name mapping comes as `toolNamesKey`). */
export function targetKey(target: TransformTarget, toolNamesKey: string): string {
  const m = target.model;
  const t = target.ownThinking;
  return [
    m.provider,
    m.api,
    m.id,
    target.idRule,
    target.toolsOffered ? 1 : 0,
    target.acceptsImages ? 1 : 0,
    target.toolResultImages ? 1 : 0,
    target.assistantAfterToolResult ? 1 : 0,
    t.signed,
    t.unsigned,
    target.otherThinking,
    [...target.imageTypes].join(","),
    toolNamesKey,
  ].join("\u0000");
}

/** `messages` starts with `inputs[0..length)`, by identity (a pointer walk: the messages themselves are not read). */
function samePrefix(inputs: readonly Message[], messages: readonly Message[], length: number): boolean {
  if (inputs.length < length || messages.length < length) return false;
  for (let i = 0; i < length; i++) if (inputs[i] !== messages[i]) return false;
  return true;
}

/**
 * Which kept pass produced a wire history, and how many of its leading entries
 * that pass never changes again (`HistoryPass.frozenLength`, in the returned
 * array's indices). Another request resumed from the same `owner` has those
 * entries unchanged — same objects with the same content — so what was derived
 * from them may be reused without comparing them again.
 */
export interface KeptEntries {
  owner: object;
  frozen: number;
}

export interface IncrementalTransform {
  messages: WireMessage[];
  /** Undefined when no pass was kept (an empty history). */
  kept: KeptEntries | undefined;
}

/**
 * The transformed history for `target` (as `transformHistory(...).messages`).
 * The returned entries are shared with the kept pass: read them before the
 * next call for the same history, never write to them.
 */
export function transformHistoryIncremental(messages: readonly Message[], target: TransformTarget, key: string): IncrementalTransform {
  const first = messages[0];
  if (first === undefined) return { messages: new HistoryPass(target).finish(), kept: undefined };
  let perTarget = passes.get(first);
  if (perTarget === undefined) {
    perTarget = new Map();
    passes.set(first, perTarget);
  }
  let kept = perTarget.get(key);
  if (kept !== undefined && samePrefix(kept.inputs, messages, kept.pass.resumeAt)) {
    kept.pass.rewind();
    // `inputs` is our own copy: keep the verified prefix, append what follows.
    const inputs = kept.inputs;
    inputs.length = kept.pass.resumeAt;
    for (let i = inputs.length; i < messages.length; i++) inputs.push(messages[i]);
  } else {
    // A copy: the caller's array may change after this call (only the messages are immutable).
    kept = { pass: new HistoryPass(target), inputs: messages.slice() };
    perTarget.delete(key);
    if (perTarget.size >= TARGETS_PER_HISTORY) perTarget.delete(perTarget.keys().next().value as string);
    perTarget.set(key, kept);
  }
  const { pass } = kept;
  for (let i = pass.resumeAt; i < messages.length; i++) pass.push(messages[i]);
  const wire = pass.finish();
  // Framing may put a new leading entry first; then the indices differ from the pass's and nothing is claimed.
  return { messages: wire, kept: { owner: pass, frozen: wire[0] === pass.out[0] ? pass.frozenLength : 0 } };
}
