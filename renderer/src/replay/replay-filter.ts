/**
 * The replay timeline's filters, pure: the in-app replay (replay-store.ts) and
 * the exported HTML replay (html-replay/replay-page.ts) narrow the steps alike.
 */
import type { TimelineItem } from "../../../shared/review";

export interface ReplayFilter {
  errorsOnly: boolean;
  sideEffectsOnly: boolean;
  /** Tool calls, results and approvals of this tool. */
  tool: string | null;
  /** modelKey() of the model that wrote, called or was switched to. */
  model: string | null;
  /** Only entries that carry a reviewer note. */
  notedOnly: boolean;
}

export const NO_FILTER: ReplayFilter = { errorsOnly: false, sideEffectsOnly: false, tool: null, model: null, notedOnly: false };

export function isFiltering(f: ReplayFilter): boolean {
  return f.errorsOnly || f.sideEffectsOnly || f.tool !== null || f.model !== null || f.notedOnly;
}

export function modelKey(m: { provider: string; api: string; id: string }): string {
  return `${m.provider}/${m.api}/${m.id}`;
}

/** Indices of the items that pass every condition, ascending. */
export function filterItems(items: readonly TimelineItem[], f: ReplayFilter, notedSeqs: ReadonlySet<number>): number[] {
  const out: number[] = [];
  for (const i of items) {
    if (f.errorsOnly && !i.isError) continue;
    if (f.sideEffectsOnly && !i.sideEffect) continue;
    if (f.tool !== null && i.toolName !== f.tool) continue;
    if (f.model !== null && (i.model === null || modelKey(i.model) !== f.model)) continue;
    if (f.notedOnly && !notedSeqs.has(i.seq)) continue;
    out.push(i.index);
  }
  return out;
}

/** The distinct tools and models of a timeline, for the filter menus. */
export function filterChoices(items: readonly TimelineItem[]): {
  tools: string[];
  models: { key: string; ref: NonNullable<TimelineItem["model"]> }[];
} {
  const tools = new Set<string>();
  const models = new Map<string, NonNullable<TimelineItem["model"]>>();
  for (const i of items) {
    if (i.toolName !== null) tools.add(i.toolName);
    if (i.model !== null && !models.has(modelKey(i.model))) models.set(modelKey(i.model), i.model);
  }
  return { tools: [...tools].sort(), models: [...models].map(([key, ref]) => ({ key, ref })) };
}
