/** A search snippet as text nodes, its matches in <mark>: stored text is never parsed as HTML. */
import { splitSnippet } from "../../lib/snippet";

export function SnippetText({ snippet }: { snippet: string }) {
  return <>{splitSnippet(snippet).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}</>;
}
