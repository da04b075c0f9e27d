/**
 * The demo agent played by `npm run faux` (and usable by e2e tests): a small
 * coding agent that answers what is asked — a greeting in words, "explain X"
 * by reading X, a change by reading the file and proposing an edit anchored on
 * a line that occurs once — on any repository, on any wire API, with no key. A
 * message asking to "run `<command>`" gets that exact bash call.
 */
import { clip, commentFor, describeFile, describeListing, intentOf, pickFile, readLines, uniqueAnchor } from "./demo-reading";
import { reply, text, thinking, toolCall } from "./script";
import type { FauxReply, FauxRequest, FauxResponder, FauxTurn } from "./types";

const PACE = { chunkSize: 6, chunkDelayMs: 12 } as const;

export function createDemoResponder(options: { pace?: { chunkSize: number; chunkDelayMs: number } } = {}): FauxResponder {
  const pace = options.pace ?? PACE;
  return (request: FauxRequest): FauxReply => {
    const say = (content: Parameters<typeof reply>[0]) => reply(content, { ...pace });
    const has = (name: string) => request.tools.some((t) => t.name === name);
    const last = request.lastTurn;
    const userText = lastUserText(request.turns);
    const intent = intentOf(userText);

    if (last === null || last.role !== "toolResult") {
      // "Run `npm test`": the demo runs exactly the quoted command.
      const command = /\brun `([^`]+)`/i.exec(userText)?.[1];
      if (command && has("bash")) return say([text(`I'll run \`${clip(command, 80)}\`.`), toolCall("bash", { command })]);
      if (intent === "greet") {
        return say(
          "Hello! I am the offline demo model: I can look around this workspace, explain a file, or make a small edit you approve. " +
            'Try "explain README.md" or "add a comment to <file>".',
        );
      }
      if (has("list")) {
        return say([
          thinking(`The user asks: "${clip(userText, 80)}". I should look at the workspace before answering.`),
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
    if (tool === "list") {
      if (intent === "explore" || !has("read")) return say(describeListing(last.text));
      const file = pickFile(userText, last.text);
      if (file === null) return say("The workspace looks empty: there is no text file I could open.");
      return say([text(`I'll open \`${file}\`.`), toolCall("read", { path: file })]);
    }
    if (tool === "read") {
      const path = argument(call?.arguments, "path") ?? "the file";
      const lines = readLines(last.text);
      if (intent !== "change") return say(describeFile(path, lines));
      const note = commentFor(path, "Reviewed by the Agent Workbench demo agent.");
      if (note === "") return say(`${describeFile(path, lines)} This kind of file has no comment syntax, so I left it as it is.`);
      const target = uniqueAnchor(lines);
      if (target === null || !has("edit")) {
        return say(
          `I read \`${path}\` (${lines.length} lines) but found no line that occurs only once to anchor an edit on; I have changed nothing.`,
        );
      }
      return say([
        thinking(`A small, safe change: add a note above "${clip(target, 40)}", a line that occurs once in the file.`),
        text(`I'll add a short review note to \`${path}\`.`),
        toolCall("edit", { path, edits: [{ oldText: target, newText: `${note}\n${target}` }] }),
      ]);
    }
    if (tool === "edit" || tool === "write") {
      const path = argument(call?.arguments, "path") ?? "the file";
      return say(
        `Done: I added a review note to \`${path}\`. You can see the diff in the tool card above; undo it with your editor or git if you prefer.`,
      );
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

function countLines(text: string): number {
  return text === "" ? 0 : text.split("\n").length;
}

function firstLine(text: string): string {
  return clip(text.split("\n")[0] ?? "", 200);
}
