/**
 * The faux provider for bench:compaction, in its own process so that neither
 * its CPU time nor its memory is charged to the core under test. Enforces the
 * bench model's window (argv[3] tokens for model argv[4]), answers compaction's
 * summary requests with a summary, and the others with a `read` call until
 * argv[2] calls were made, then text. Prints `READY <anthropic base url>`; on
 * stdin "report" prints per request its token count, whether it was a summary
 * request and whether it was accepted, as one JSON line, and exits.
 */
import { startFauxProvider } from "../electron/core/faux";

const roundTrips = Number(process.argv[2] ?? 2000);
const window = Number(process.argv[3] ?? 32_000);
const model = process.argv[4] ?? "bench-window";

async function main(): Promise<void> {
  const faux = await startFauxProvider({ recordBodies: false, contextWindows: { [model]: window } });
  const summary: boolean[] = [];
  let calls = 0;
  faux.setDefaultResponder((req) => {
    const isSummary = req.turns.some((t) => t.role === "system" && t.text.startsWith("You compact coding-agent conversations"));
    summary[req.seq] = isSummary;
    if (isSummary)
      return { type: "reply", content: [{ type: "text", text: `SUMMARY after ${calls} reads: reading src/file-*.ts as asked.` }] };
    calls++;
    return calls <= roundTrips
      ? {
          type: "reply",
          content: [{ type: "toolCall", id: `toolu_${calls}`, name: "read", arguments: { path: `src/file-${calls % 50}.ts` } }],
        }
      : { type: "reply", content: [{ type: "text", text: "done" }] };
  });
  process.stdout.write(`READY ${faux.baseUrls.anthropic}\n`);
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk: string) => {
    if (!chunk.includes("report")) return;
    const report = faux.requests.map((r) => ({ tokens: r.tokens, summary: summary[r.seq] === true, accepted: r.accepted }));
    process.stdout.write(`${JSON.stringify(report)}\n`);
    void faux.close().then(() => process.exit(0));
  });
}

void main();
