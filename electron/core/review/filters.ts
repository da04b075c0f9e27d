/**
 * Timeline filters for the replay view. Pure functions over timeline items;
 * `filterTimeline` combines them (every given condition must hold).
 */
import type { ModelRef } from "../../../shared/protocol";
import type { TimelineItem } from "../../../shared/review";
import { sameModel } from "./timeline";

export interface TimelineFilter {
  errorsOnly?: boolean;
  /** Tool calls, results and approvals of this tool. */
  toolName?: string;
  /** Items written by, called by or switched to this model. */
  model?: ModelRef;
  sideEffectsOnly?: boolean;
}

export const errorsOnly = (items: readonly TimelineItem[]): TimelineItem[] => items.filter((i) => i.isError);

export const byTool = (items: readonly TimelineItem[], toolName: string): TimelineItem[] => items.filter((i) => i.toolName === toolName);

export const byModel = (items: readonly TimelineItem[], model: ModelRef): TimelineItem[] =>
  items.filter((i) => i.model !== null && sameModel(i.model, model));

export const sideEffectsOnly = (items: readonly TimelineItem[]): TimelineItem[] => items.filter((i) => i.sideEffect);

export function filterTimeline(items: readonly TimelineItem[], filter: TimelineFilter): TimelineItem[] {
  let out: TimelineItem[] = [...items];
  if (filter.errorsOnly) out = errorsOnly(out);
  if (filter.toolName !== undefined) out = byTool(out, filter.toolName);
  if (filter.model !== undefined) out = byModel(out, filter.model);
  if (filter.sideEffectsOnly) out = sideEffectsOnly(out);
  return out;
}

/** The distinct tools and models present, for the filter menus. */
export function filterChoices(items: readonly TimelineItem[]): { tools: string[]; models: ModelRef[] } {
  const tools = new Set<string>();
  const models: ModelRef[] = [];
  for (const i of items) {
    if (i.toolName !== null) tools.add(i.toolName);
    if (i.model !== null && !models.some((m) => sameModel(m, i.model as ModelRef))) models.push(i.model);
  }
  return { tools: [...tools].sort(), models };
}
