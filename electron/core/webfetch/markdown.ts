/** HTML to markdown for the model (turndown): scripts, styles, frames and the head dropped, links kept. */
import TurndownService from "turndown";

const DROPPED = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "IFRAME", "OBJECT", "EMBED", "HEAD", "TITLE", "SVG"]);

let service: TurndownService | null = null;

function turndown(): TurndownService {
  if (service) return service;
  service = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  service.remove((node) => DROPPED.has(node.nodeName.toUpperCase()));
  return service;
}

export function htmlToMarkdown(html: string): string {
  return turndown()
    .turndown(html)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
