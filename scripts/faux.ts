/**
 * `npm run faux [-- --port N]`: starts the faux LLM provider on 127.0.0.1 with
 * the demo agent answering, so the app can be tried with no API key.
 * Ctrl-C stops it.
 */
import { createDemoResponder, startFauxProvider } from "../electron/core/faux";

function portArg(argv: readonly string[]): number {
  const i = argv.indexOf("--port");
  const raw = i >= 0 ? argv[i + 1] : process.env.FAUX_PORT;
  const port = raw === undefined ? 0 : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`faux: invalid port ${String(raw)}`);
    process.exit(2);
  }
  return port;
}

/** A start failure the user can act on, in one line; anything else keeps its stack. */
function startFailure(err: unknown, port: number): string | null {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === "EADDRINUSE") return `faux: port ${port} is already in use; pass --port N (or FAUX_PORT) with a free port, or 0 for any`;
  if (code === "EACCES") return `faux: not allowed to listen on port ${port}; use a port above 1023`;
  return null;
}

async function main(): Promise<void> {
  const port = portArg(process.argv.slice(2));
  let faux: Awaited<ReturnType<typeof startFauxProvider>>;
  try {
    faux = await startFauxProvider({
      port,
      onRequest: (r) => {
        const verdict = r.accepted ? "accepted" : `REJECTED ${r.rejection?.status}: ${r.rejection?.message}`;
        console.log(`#${r.seq} ${r.route} model=${r.model ?? "?"} ${r.stream ? "stream" : "json"} ${verdict}`);
      },
    });
  } catch (err) {
    const line = startFailure(err, port);
    if (line === null) throw err;
    console.error(line);
    process.exit(1);
  }
  faux.setDefaultResponder(createDemoResponder());
  console.log("Faux LLM provider (loopback only; any API key is accepted)");
  console.log(`  Anthropic Messages          ${faux.baseUrls.anthropic}`);
  console.log(`  OpenAI Chat + Responses     ${faux.baseUrls.openai}`);
  console.log(`  Mistral (Chat Completions)  ${faux.baseUrls.mistral}`);
  console.log(`  Google Gemini               ${faux.baseUrls.gemini}`);
  console.log(`  Amazon Bedrock (Converse)   ${faux.baseUrls.bedrock}`);
  console.log("Demo scenario: a small coding agent that lists the workspace, reads a file,");
  console.log("proposes an edit and answers. Every request is validated with the real providers' rules.");
  console.log("Ctrl-C to stop.");

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void faux.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

void main();
