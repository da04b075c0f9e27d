/**
 * The demo agent played by `npm run faux` (and usable by e2e tests): a small
 * coding agent that lists the workspace, reads a file, proposes an edit and
 * answers — reacting to the conversation, on any wire API, with no key. A
 * message asking to "run `<command>`" gets that exact bash call.
 */
import { reply, text, thinking, toolCall } from "./script";
import type { FauxReply, FauxRequest, FauxResponder, FauxTurn } from "./types";

const PACE = { chunkSize: 6, chunkDelayMs: 12 } as const;

const TEXT_EXTENSIONS = /\.(md|txt|ts|tsx|js|jsx|mjs|cjs|json|py|rb|go|rs|java|c|h|cpp|css|html|yml|yaml|toml|sh)$/i;

export function createDemoResponder(options: { pace?: { chunkSize: number; chunkDelayMs: number } } = {}): FauxResponder {
  const pace = options.pace ?? PACE;
  return (request: FauxRequest): FauxReply => {
    const say = (content: Parameters<typeof reply>[0]) => reply(content, { ...pace });
    const has = (name: string) => request.tools.some((t) => t.name === name);
    const last = request.lastTurn;
    const userText = lastUserText(request.turns);

    if (last === null || last.role !== "toolResult") {
      // "Run `npm test`": the demo runs exactly the quoted command.
      const command = /\brun `([^`]+)`/i.exec(userText)?.[1];
      if (command && has("bash")) return say([text(`I'll run \`${clip(command, 80)}\`.`), toolCall("bash", { command })]);
      if (has("list")) {
        return say([
          thinking(`The user asks: "${clip(userText, 80)}". I should look at the workspace before changing anything.`),
          text("Let me look at the workspace first."),
          toolCall("list", { path: "." }),
        ]);
      }
      return say(`(demo model) You said: "${clip(userText, 200)}". Offer me tools and I will read and edit files.`);
    }

    const call = findCall(request.turns, last.toolCallId);
    const tool = call?.name ?? "";
    if (last.isError) {
      return say(`The ${tool || "tool"} call failed: ${firstLine(last.text)}. I will stop here so you can decide what to do next.`);
    }
    if (tool === "list" && has("read")) {
      const file = pickFile(userText, last.text);
      if (file === null) return say("The workspace looks empty: there is no text file I could open.");
      return say([text(`I'll open \`${file}\`.`), toolCall("read", { path: file })]);
    }
    if (tool === "read") {
      const path = argument(call?.arguments, "path") ?? "the file";
      const target = uniqueLine(last.text);
      const note = commentFor(path, "Reviewed by the Agent Workbench demo agent.");
      if (target === null || note === "" || !has("edit")) {
        return say(`I read \`${path}\` (${countLines(last.text)} lines). It looks fine; I have nothing to change.`);
      }
      return say([
        thinking(`A small, safe change: add a note above "${clip(target, 40)}".`),
        text(`I'll add a short review note at the top of \`${path}\`.`),
        toolCall("edit", { path, edits: [{ oldText: target, newText: `${note}\n${target}` }] }),
      ]);
    }
    if (tool === "edit" || tool === "write") {
      const path = argument(call?.arguments, "path") ?? "the file";
      return say(`Done: I added a review note to \`${path}\`. You can see the diff in the tool card above; undo it with your editor or git if you prefer.`);
    }
    return say(`The ${tool || "tool"} call returned ${countLines(last.text)} lines. That is all I needed.`);
  };
}

function lastUserText(turns: FauxTurn[]): string {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i];
    if (turn.role === "user" && turn.text !== "") return turn.text;
  }
  return "";
}

function findCall(turns: FauxTurn[], id: string): { name: string; arguments: string } | undefined {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i];
    if (turn.role !== "assistant") continue;
    const call = turn.toolCalls.find((c) => c.id === id);
    if (call) return call;
  }
  return undefined;
}

function argument(raw: string | undefined, key: string): string | undefined {
  if (raw === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === "object" && value !== null && key in value) {
      const found = (value as Record<string, unknown>)[key];
      return typeof found === "string" ? found : undefined;
    }
  } catch {
    // Arguments the demo itself wrote are JSON; anything else has no path to report.
  }
  return undefined;
}

/** A path the user named, else README.md, else the first text file in the listing. */
function pickFile(userText: string, listing: string): string | null {
  const named = userText.match(/[\w./-]+\.[A-Za-z0-9]+/g)?.find((t) => TEXT_EXTENSIONS.test(t));
  if (named) return named.replace(/^\.\//, "");
  const files = listing
    .split("\n")
    .map((l) => l.replace(/^[\s│├└─|`+*-]+/, "").replace(/\s+->.*$/, "").trim())
    .filter((l) => TEXT_EXTENSIONS.test(l) && !/\s/.test(l));
  return files.find((f) => /(^|\/)readme\.md$/i.test(f)) ?? files[0] ?? null;
}

/** The first non-empty line that occurs once (read output has "N<TAB>" prefixes). */
function uniqueLine(readOutput: string): string | null {
  const lines = readOutput
    .split("\n")
    .filter((l) => /^\s*\d+\t/.test(l))
    .map((l) => l.replace(/^\s*\d+\t/, ""));
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  return lines.find((l) => l.trim() !== "" && counts.get(l) === 1) ?? null;
}

function commentFor(path: string, note: string): string {
  if (/\.(md|html)$/i.test(path)) return `<!-- ${note} -->`;
  if (/\.(py|rb|sh|ya?ml|toml)$/i.test(path)) return `# ${note}`;
  if (/\.css$/i.test(path)) return `/* ${note} */`;
  if (/\.json$/i.test(path)) return "";
  return `// ${note}`;
}

function countLines(text: string): number {
  return text === "" ? 0 : text.split("\n").length;
}

function firstLine(text: string): string {
  return clip(text.split("\n")[0] ?? "", 200);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
