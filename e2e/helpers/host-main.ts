/**
 * The web host the e2e specs drive: the real core and web host, with the
 * Anthropic and OpenAI providers pointed at the faux provider (real SDKs, real
 * wire formats, strict request validation). Run as a child process by the
 * fixtures; prints one line `E2E_HOST {json}` when ready.
 *
 * The faux agent is the bundled demo (list → read → edit → answer). A user
 * message containing "[slow]" gets a long answer that streams and then holds
 * the connection open until the client aborts (the Stop test). The first request
 * for a message containing "[fail-once]" gets a 401 whose body echoes the API
 * key (the error and Retry test; the key must never reach the screen). A
 * message containing "[three-hunks]" gets an edit of `hunks.txt` (lines 2, 10
 * and 18 of the 20 the spec writes there: three hunks) for per-hunk review.
 * A message containing "[big-line]" gets an edit of 14 characters in
 * `big.txt` (a 5 MB one-line file the spec writes).
 *
 * A user message containing "[mcp]" makes the model call the offered MCP tool
 * whose name ends with "toggle-simulated-logging" (server-everything; not
 * read-only, so it needs approval), then answer with the tool's result.
 *
 * A user message containing "[quiet]" gets a one-line answer naming the files
 * attached to it (no tools). "[overlay-html]" gets an answer whose HTML tries to
 * cover its own tool card (a read of README.md) with a fake one. "[bidi-bash]"
 * and "[bidi-write]" get a bash call `cat readme\u202Etxt.sh` / a write of that file.
 *
 * "[plan-delegate]", "[plan-delegate-hang]" and "[steer-loop]": the todo plan, a sub-agent and
 * steering (e2e/helpers/agent-tree-script.ts).
 *
 * Env: E2E_DB, E2E_WORKSPACE, E2E_STATIC, E2E_CONFIG_DIR (the user's config folder: mcp.json, AGENTS.md, commands/),
 * E2E_NOTICES (a JSON array of start notices), E2E_DEMO ("1": the demo provider is on, as with --demo),
 * E2E_SEED (a session written into the store before the workbench opens it: seed-session.ts),
 * E2E_KEY_FILE (a key file: the host has a key store, as `npm run web` has).
 */
import { createServer } from "node:http";
import { z } from "zod";
import type { AddressInfo } from "node:net";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import { createFileSecretStore } from "../../electron/core/host/file-secret-store";
import {
  createDemoResponder,
  faults,
  reply,
  startFauxProvider,
  text,
  toolCall,
  type FauxRecordedRequest,
  type FauxRequest,
} from "../../electron/core/faux";
import { readTranscript } from "../../electron/core/faux/transcript";
import { runHostMain, serveUntilStopped } from "./host-runtime";
import { SeedSchema, seedSession } from "./seed-session";
import { agentTreeReply } from "./agent-tree-script";

const SLOW_MARK = "[slow]";
const FAIL_ONCE_MARK = "[fail-once]";
/** The "[fail-once]" messages already failed. */
const failedOnce = new Set<string>();
const MCP_MARK = "[mcp]";
const QUIET_MARK = "[quiet]";
/** An answer whose markdown carries HTML a sanitizer must defuse (e2e/web/start-up.spec.ts). */
const UNSAFE_HTML_MARK = "[unsafe-html]";
const UNSAFE_HTML_ANSWER = [
  "Here is **bold** text and a [link](https://example.com/docs).",
  "",
  '<img src="data:," onerror="window.__xss = 1"> <a href="javascript:window.__xss = 2">click</a>',
  "",
  "<style>body { display: none }</style>",
  "",
  '<form action="https://example.com"><input name="q"></form>',
  "",
  "<script>window.__xss = 3</script>",
].join("\n");
/** An answer whose HTML tries to cover the tool card beside it with a fake one (e2e/web/hostile-content.spec.ts). */
const OVERLAY_HTML_MARK = "[overlay-html]";
const OVERLAY_HTML_ANSWER = [
  "Let me read the file.",
  "",
  '<div style="position:fixed;inset:0;z-index:2147483647;background:#fff;padding:40px" class="tool-card status-done modal-backdrop" id="composer-input" role="region" aria-label="Approval required">',
  "<b>read README.md · Done</b> Nothing to review here, all good.",
  "</div>",
  "",
  '<a href="#approve" class="primary" style="display:inline-block;padding:8px 16px">Approve once</a>',
].join("\n");
/** Tool calls whose command or path hold a right-to-left override (e2e/web/hostile-content.spec.ts). */
const BIDI_BASH_MARK = "[bidi-bash]";
const BIDI_WRITE_MARK = "[bidi-write]";
const BIDI_NAME = "readme\u202Etxt.sh";
const THREE_HUNKS_MARK = "[three-hunks]";
const THREE_HUNK_EDITS = [
  { oldText: "line 2\n", newText: "LINE TWO\n" },
  { oldText: "line 10\n", newText: "LINE TEN\n" },
  { oldText: "line 18\n", newText: "LINE EIGHTEEN\n" },
];
/** An edit of 14 characters at the end of `big.txt`, one 5 MB line written by the spec (bounded diffs). */
const BIG_LINE_MARK = "[big-line]";
/** A turn that edits README.md and src/math.ts, then runs a bash command creating notes.txt (the rewind test). */
const THREE_FILES_MARK = "[three-files]";
/** A model that never stops calling tools (e2e/web/long-turn.spec.ts): it reads README.md until tools are taken away. */
const LOOP_MARK = "[loop]";
/** Compaction's summary requests (the agent's own system prompt for them). */
const SUMMARY_SYSTEM = "You compact coding-agent conversations";
/** The one model the local Ollama the faux plays has installed. */
const LOCAL_MODEL = "qwen2.5-coder:14b";
/** A model Anthropic's models endpoint (the faux) lists that the catalog does not know (e2e/web/listed-models.spec.ts). */
const LISTED_ANTHROPIC_MODEL = "claude-faux-frontier-1";

/** Image blocks in a request body: Anthropic `{type:"image"}`, Chat Completions `image_url`, Responses `input_image`. */
function imagesIn(body: unknown): number {
  const text = JSON.stringify(body ?? null);
  return (text.match(/"type":"(image|image_url|input_image)"/g) ?? []).length;
}

/** The body's reasoning request, per API: Anthropic `thinking` / `output_config`, Responses `reasoning`, Chat `reasoning_effort`. */
function reasoningIn(body: unknown): Record<string, unknown> {
  if (typeof body !== "object" || body === null) return {};
  const b = body as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of ["thinking", "output_config", "reasoning", "reasoning_effort", "include"]) if (key in b) out[key] = b[key];
  return out;
}

function lastUserText(request: FauxRequest): string {
  for (let i = request.turns.length - 1; i >= 0; i--) {
    const t = request.turns[i];
    if (t.role === "user") return t.text;
  }
  return "";
}

function turnsOf(route: FauxRecordedRequest["route"], body: unknown): FauxRequest["turns"] {
  try {
    return readTranscript(route, body).turns;
  } catch {
    return [];
  }
}

/** The text of the request's last user turn / tool result (what the model was told last). */
function lastUserTextOf(turns: FauxRequest["turns"]): string | null {
  const t = [...turns].reverse().find((x) => x.role === "user");
  return t ? t.text : null;
}
function lastToolResultOf(turns: FauxRequest["turns"]): string | null {
  const t = [...turns].reverse().find((x) => x.role === "toolResult");
  return t ? t.text : null;
}

async function main(): Promise<void> {
  const dbPath = process.env.E2E_DB;
  const staticDir = process.env.E2E_STATIC;
  if (!dbPath || !staticDir) throw new Error("E2E_DB and E2E_STATIC are required");

  // The AWS SDK reads credentials from the environment; the faux provider checks no signature.
  process.env.AWS_ACCESS_KEY_ID = "AKIAE2EFAUXFAUXFAUX0";
  process.env.AWS_SECRET_ACCESS_KEY = "e2e-faux-secret-access-key";
  const faux = await startFauxProvider({});
  faux.setModels([LOCAL_MODEL]);
  faux.setListedModels("anthropic", [LISTED_ANTHROPIC_MODEL]);
  const demo = createDemoResponder({ pace: { chunkSize: 12, chunkDelayMs: 4 } });
  faux.setDefaultResponder((request) => {
    const tree = agentTreeReply(request);
    if (tree) return tree;
    const userText = lastUserText(request);
    if (userText.includes(QUIET_MARK)) {
      const attached = [...userText.matchAll(/<attached-file path="([^"]*)"/g)].map((m) => m[1]);
      return reply([text(`Quiet answer; attached: ${attached.join(", ") || "none"}.`)]);
    }
    if (userText.includes(UNSAFE_HTML_MARK)) return reply([text(UNSAFE_HTML_ANSWER)]);
    if (userText.includes(BIDI_BASH_MARK) || userText.includes(BIDI_WRITE_MARK)) {
      if (request.lastTurn?.role === "toolResult") return reply([text("Done with that file.")]);
      if (userText.includes(BIDI_BASH_MARK)) return reply([toolCall("bash", { command: `cat ${BIDI_NAME}` })]);
      return reply([toolCall("write", { path: BIDI_NAME, content: "hello\n" })]);
    }
    if (userText.includes(OVERLAY_HTML_MARK)) {
      if (request.lastTurn?.role === "toolResult") return reply([text("I read README.md.")]);
      return reply([text(OVERLAY_HTML_ANSWER), toolCall("read", { path: "README.md" })]);
    }
    if (request.turns.some((t) => t.role === "system" && t.text.startsWith(SUMMARY_SYSTEM))) {
      return reply([text("SUMMARY: the user asked the agent to read README.md again and again.")]);
    }
    if (request.turns.some((t) => t.role === "user" && t.text.includes(LOOP_MARK))) {
      if (request.tools.length === 0) return reply([text("Where it stands: README.md was read several times; nothing is left to do.")]);
      return reply([toolCall("read", { path: "README.md" })]);
    }
    if (userText.includes(MCP_MARK)) {
      if (request.lastTurn?.role === "toolResult") return reply([text(`MCP tool answered: ${request.lastTurn.text}`)]);
      const tool = request.tools.find((t) => t.name.endsWith("toggle-simulated-logging"));
      // One id per call: a session may call it more than once.
      if (tool) return reply([{ type: "toolCall", id: `toolu_mcp_${request.turns.length}`, name: tool.name, arguments: {} }]);
      return reply([text(`No MCP tool offered (tools: ${request.tools.map((t) => t.name).join(", ")}).`)]);
    }
    if (request.lastTurn?.role === "user" && lastUserText(request).includes(SLOW_MARK)) {
      const paragraph = "Streaming a long answer so that the Stop button can interrupt it. ";
      return reply([text(paragraph.repeat(200))], { chunkSize: 8, chunkDelayMs: 15, hangAfterEvents: 60 });
    }
    // Count occurrences, not turns: a retried message may be merged with the failed one into one user turn.
    // The first request for each such message fails; Retry (which sends the message once more, not twice) succeeds.
    const failing = request.lastTurn?.role === "user" ? lastUserText(request) : "";
    if (failing.includes(FAIL_ONCE_MARK) && !failedOnce.has(failing)) {
      failedOnce.add(failing);
      return faults.authError();
    }
    if (request.lastTurn?.role === "user" && lastUserText(request).includes(THREE_HUNKS_MARK)) {
      return reply([text("I'll make three changes to `hunks.txt`."), toolCall("edit", { path: "hunks.txt", edits: THREE_HUNK_EDITS })], {
        chunkSize: 40,
        chunkDelayMs: 2,
      });
    }
    if (lastUserText(request).includes(BIG_LINE_MARK)) {
      if (request.lastTurn?.role === "user") {
        return reply([toolCall("edit", { path: "big.txt", edits: [{ oldText: "needle-in-here", newText: "NEEDLE-IN-HERE" }] })]);
      }
      if (request.lastTurn?.role === "toolResult") return reply("Changed the needle.");
    }
    if (lastUserText(request).includes(THREE_FILES_MARK)) {
      if (request.lastTurn?.role === "user") {
        return reply([
          text("Editing two files and writing notes with a command."),
          toolCall("edit", { path: "README.md", edits: [{ oldText: "A tiny project", newText: "A tiny, rewound project" }] }),
          toolCall("edit", { path: "src/math.ts", edits: [{ oldText: "return a + b;", newText: "return b + a;" }] }),
          toolCall("bash", { command: "echo created-by-bash > notes.txt" }),
        ]);
      }
      if (request.lastTurn?.role === "toolResult") return reply("All three changes are done.");
    }
    return demo(request);
  });

  if (process.env.E2E_SEED) seedSession(dbPath, SeedSchema.parse(JSON.parse(process.env.E2E_SEED)));

  const workbench = await createWorkbench({
    dbPath,
    host: {
      mode: "web",
      notices: z.array(z.string()).parse(JSON.parse(process.env.E2E_NOTICES || "[]")),
      // A key file as `npm run web` keeps (the team password goes there through Settings → Team).
      ...(process.env.E2E_KEY_FILE ? { secrets: createFileSecretStore({ filePath: process.env.E2E_KEY_FILE }) } : {}),
    },
    version: "e2e",
    env: {
      ANTHROPIC_API_KEY: "sk-ant-e2e-not-a-real-key",
      OPENAI_API_KEY: "sk-e2e-not-a-real-key",
      GEMINI_API_KEY: "gemini-e2e-not-a-real-key",
      AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID,
    },
    initialWorkspace: process.env.E2E_WORKSPACE || undefined,
    userConfigDir: process.env.E2E_CONFIG_DIR || undefined,
    // The faux's OpenAI routes also play a local Ollama that has one model installed (GET /models lists it);
    // LM Studio points at a port nothing listens on (a server that is not running).
    baseUrlOverrides: {
      anthropic: faux.baseUrls.anthropic,
      openai: faux.baseUrls.openai,
      google: faux.baseUrls.gemini,
      bedrock: faux.baseUrls.bedrock,
      ollama: faux.baseUrls.openai,
      lmstudio: "http://127.0.0.1:1/v1",
      demo: faux.baseUrls.anthropic,
    },
    demo: process.env.E2E_DEMO === "1",
  });
  // What the faux provider received, for assertions on routes and validation.
  const control = createServer((req, res) => {
    if (req.url !== "/requests") {
      res.writeHead(404).end();
      return;
    }
    const body = faux.requests.map((r) => ({
      route: r.route,
      model: r.model,
      accepted: r.accepted,
      outcome: r.outcome,
      rejection: r.rejection?.message ?? null,
      images: imagesIn(r.body),
      reasoning: reasoningIn(r.body),
      lastUserText: lastUserTextOf(turnsOf(r.route, r.body)),
      lastToolResult: lastToolResultOf(turnsOf(r.route, r.body)),
      // The roles of the last three turns: what came right before the last user text.
      tailRoles: turnsOf(r.route, r.body)
        .slice(-3)
        .map((t) => t.role),
    }));
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  const controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;

  await serveUntilStopped({
    workbench,
    staticDir,
    readyTag: "E2E_HOST",
    info: { controlUrl },
    closeFirst: () => control.close(),
    closeLast: () => faux.close(),
  });
}

runHostMain("e2e host", main);
