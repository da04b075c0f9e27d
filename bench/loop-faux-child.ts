/**
 * The faux provider for bench:loop, in its own process so that the server's
 * CPU time is not charged to the loop. Answers ROUND_TRIPS tool calls, then
 * text. Prints `READY <anthropic base url>`; on stdin "report" prints the
 * per-request timestamps (epoch ms) as one JSON line and exits.
 */
import { performance } from "node:perf_hooks";
import { startFauxProvider } from "../electron/core/faux";

const roundTrips = Number(process.argv[2] ?? 1000);
const epoch = (t: number) => performance.timeOrigin + t;

async function main(): Promise<void> {
  const faux = await startFauxProvider({ recordBodies: false });
  let calls = 0;
  faux.setDefaultResponder(() => {
    calls++;
    return calls <= roundTrips
      ? { type: "reply", content: [{ type: "toolCall", id: `toolu_${calls}`, name: "read", arguments: { path: "a.txt" } }] }
      : { type: "reply", content: [{ type: "text", text: "done" }] };
  });
  process.stdout.write(`READY ${faux.baseUrls.anthropic}\n`);
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", async (chunk: string) => {
    if (!chunk.includes("report")) return;
    const timings = faux.requests.map((r) => ({
      receivedAt: epoch(r.receivedAt),
      respondedAt: r.respondedAt === null ? null : epoch(r.respondedAt),
      accepted: r.accepted,
    }));
    process.stdout.write(`${JSON.stringify(timings)}\n`);
    await faux.close();
    process.exit(0);
  });
}

void main();
