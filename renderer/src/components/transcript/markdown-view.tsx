/**
 * Renders markdown block by block. Each block's HTML is memoised by its source,
 * so while a message streams only its last block changes in the DOM.
 */
import { memo, useMemo, useSyncExternalStore, type MouseEvent } from "react";
import { highlighterVersion, renderBlock, splitBlocks, subscribeHighlighter } from "../../lib/markdown";

const Block = memo(function Block({ source }: { source: string }) {
  // Code blocks render plain until highlight.js is loaded, then again highlighted.
  const highlighter = useSyncExternalStore(subscribeHighlighter, highlighterVersion);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `highlighter` is the cache's generation: a new one re-renders the block
  const html = useMemo(() => renderBlock(source), [source, highlighter]);
  return <div className="md-block" dangerouslySetInnerHTML={{ __html: html }} />;
});

function onCopyClick(e: MouseEvent<HTMLDivElement>): void {
  const target = e.target;
  if (!(target instanceof HTMLElement) || !target.classList.contains("copy-code")) return;
  const code = target.parentElement?.querySelector("code")?.textContent ?? "";
  void navigator.clipboard?.writeText(code).then(
    () => {
      target.textContent = "Copied";
      setTimeout(() => (target.textContent = "Copy"), 1200);
    },
    () => undefined,
  );
}

export const MarkdownView = memo(function MarkdownView({ text }: { text: string }) {
  const blocks = useMemo(() => splitBlocks(text), [text]);
  return (
    <div className="markdown" onClick={onCopyClick}>
      {blocks.map((source, i) => (
        <Block key={i} source={source} />
      ))}
    </div>
  );
});
