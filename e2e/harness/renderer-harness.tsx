/**
 * The renderer pieces the harness specs drive in a real browser
 * (e2e/helpers/page-bundle.ts): the markdown sanitizer, and the transcript,
 * the replay timeline and a panel behind their error boundaries, fed entries
 * that throw when read (what any bug in a row does with any stored entry).
 */
import { createRoot, type Root } from "react-dom/client";
import type { StoredEntry } from "../../shared/protocol";
import type { TimelineItem } from "../../shared/review";
import { PanelBoundary } from "../../renderer/src/components/error-boundary";
import { TranscriptView } from "../../renderer/src/components/transcript/transcript-view";
import { highlighterReady, renderBlock } from "../../renderer/src/lib/markdown";
import { buildTranscript } from "../../renderer/src/lib/transcript-model";
import { useReplayStore } from "../../renderer/src/replay/replay-store";
import { TimelineList } from "../../renderer/src/replay/timeline-list";

/** Errors the boundaries caught (React reports them here instead of the console). */
const caught: string[] = [];
let root: Root | null = null;

function mount(node: React.ReactNode): void {
  root?.unmount();
  const el = document.getElementById("root") as HTMLElement;
  el.style.cssText = "height: 600px; overflow: auto";
  root = createRoot(el, { onCaughtError: (error) => caught.push(error instanceof Error ? error.message : String(error)) });
  root.render(node);
}

/** A getter on `key` that throws: reading the entry fails the way a row's bug on odd data does. */
function poison<T extends object>(value: T, key: string): T {
  Object.defineProperty(value, key, {
    get() {
      throw new Error(`cannot read ${key}`);
    },
  });
  return value;
}

const model = { provider: "anthropic", api: "anthropic-messages" as const, id: "claude-x" };
const usage = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const userEntry = (seq: number, text: string): StoredEntry => ({
  seq,
  entry: { type: "message", message: { role: "user", content: [{ type: "text", text }], timestamp: 1_700_000_000_000 } },
});
const answerEntry = (seq: number, text: string): StoredEntry => ({
  seq,
  entry: {
    type: "message",
    message: { role: "assistant", content: [{ type: "text", text }], stopReason: "stop", model, usage, timestamp: 1_700_000_000_000 },
  },
});

/** Three rows; the middle one's message throws when its content is read. */
function mountTranscript(): void {
  const built = buildTranscript([userEntry(1, "first message"), answerEntry(2, "broken answer"), userEntry(3, "third message")]);
  const row = built.rows[1];
  if (row.kind === "assistant") poison(row.message, "content");
  mount(<TranscriptView model={built} partial={null} toolStatus={{}} models={[]} readOnly />);
}

function item(index: number, summary: string): TimelineItem {
  return {
    index,
    seq: index + 1,
    kind: "user",
    timestamp: 1_700_000_000_000,
    model: null,
    tokens: null,
    cost: null,
    latencyMs: null,
    durationMs: null,
    toolName: null,
    toolCallId: null,
    outcome: null,
    errorCode: null,
    sideEffect: false,
    isError: false,
    summary,
  };
}

/** Three timeline steps; the second one's summary throws when read. */
function mountTimeline(): void {
  const items = [item(0, "step one"), poison(item(1, "step two"), "summary"), item(2, "step three")];
  useReplayStore.setState({
    data: { items } as unknown as NonNullable<ReturnType<typeof useReplayStore.getState>["data"]>,
    visible: [0, 1, 2],
    cursor: 0,
    notes: [],
  });
  mount(<TimelineList />);
}

/** What the flaky panel needs is missing until `repairPanel` (then "Try again" renders it). */
let panelBroken = true;

/** A panel that throws while `panelBroken`; a sibling panel beside it. */
function mountPanels(): void {
  panelBroken = true;
  function Flaky() {
    if (panelBroken) throw new Error("the panel broke");
    return <p>the panel works again</p>;
  }
  mount(
    <>
      <PanelBoundary name="the diff view">
        <Flaky />
      </PanelBoundary>
      <PanelBoundary name="the session">
        <p>the other panel still works</p>
      </PanelBoundary>
    </>,
  );
}

function repairPanel(): void {
  panelBroken = false;
}

Object.assign(window, { harness: { renderBlock, highlighterReady, mountTranscript, mountTimeline, mountPanels, repairPanel, caught } });
