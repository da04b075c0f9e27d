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
 * key (the error and Retry test; the key must never reach the screen).
 *
 * Env: E2E_DB, E2E_WORKSPACE, E2E_STATIC, E2E_NOTICES (a JSON array of start notices),
 * E2E_DEMO ("1": the demo provider is on, as with --demo).
 */
import { createServer } from "node:http";
import { z } from "zod";
import type { AddressInfo } from "node:net";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import { createDemoResponder, faults, reply, startFauxProvider, text, type FauxRequest } from "../../electron/core/faux";
import { startWebHost } from "../../electron/core/web/server";

const SLOW_MARK = "[slow]";
const FAIL_ONCE_MARK = "[fail-once]";
/** The one model the local Ollama the faux plays has installed. */
const LOCAL_MODEL = "qwen2.5-coder:14b";

/** Image blocks in a request body: Anthropic `{type:"image"}`, Chat Completions `image_url`, Responses `input_image`. */
function imagesIn(body: unknown): number {
  const text = JSON.stringify(body ?? null);
  return (text.match(/"type":"(image|image_url|input_image)"/g) ?? []).length;
}

function lastUserText(request: FauxRequest): string {
  for (let i = request.turns.length - 1; i >= 0; i--) {
    const t = request.turns[i];
    if (t.role === "user") return t.text;
  }
  return "";
}

async function main(): Promise<void> {
  const dbPath = process.env.E2E_DB;
  const staticDir = process.env.E2E_STATIC;
  if (!dbPath || !staticDir) throw new Error("E2E_DB and E2E_STATIC are required");

  const faux = await startFauxProvider({});
  faux.setModels([LOCAL_MODEL]);
  const demo = createDemoResponder({ pace: { chunkSize: 12, chunkDelayMs: 4 } });
  faux.setDefaultResponder((request) => {
    if (request.lastTurn?.role === "user" && lastUserText(request).includes(SLOW_MARK)) {
      const paragraph = "Streaming a long answer so that the Stop button can interrupt it. ";
      return reply([text(paragraph.repeat(200))], { chunkSize: 8, chunkDelayMs: 15, hangAfterEvents: 60 });
    }
    // Count occurrences, not turns: a retried message may be merged with the failed one into one user turn.
    const failing = request.turns.reduce((n, t) => n + (t.role === "user" ? t.text.split(FAIL_ONCE_MARK).length - 1 : 0), 0);
    if (request.lastTurn?.role === "user" && failing === 1) return faults.authError();
    return demo(request);
  });

  const workbench = await createWorkbench({
    dbPath,
    host: { mode: "web", notices: z.array(z.string()).parse(JSON.parse(process.env.E2E_NOTICES || "[]")) },
    version: "e2e",
    env: { ANTHROPIC_API_KEY: "sk-ant-e2e-not-a-real-key", OPENAI_API_KEY: "sk-e2e-not-a-real-key" },
    initialWorkspace: process.env.E2E_WORKSPACE || undefined,
    // The faux's OpenAI routes also play a local Ollama that has one model installed (GET /models lists it);
    // LM Studio points at a port nothing listens on (a server that is not running).
    baseUrlOverrides: {
      anthropic: faux.baseUrls.anthropic,
      openai: faux.baseUrls.openai,
      ollama: faux.baseUrls.openai,
      lmstudio: "http://127.0.0.1:1/v1",
      demo: faux.baseUrls.anthropic,
    },
    demo: process.env.E2E_DEMO === "1",
  });
  const host = await startWebHost({ workbench, staticDir });

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
    }));
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  const controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;

  const stop = async () => {
    control.close();
    await host.close();
    await workbench.close();
    await faux.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
  console.log(`E2E_HOST ${JSON.stringify({ url: host.url, controlUrl })}`);
}

main().catch((err: unknown) => {
  console.error(`e2e host failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});
