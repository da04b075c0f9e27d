/**
 * The faux provider for bench:loop, in its own process so that the server's
 * CPU time is not charged to the loop. Answers ROUND_TRIPS tool calls, then
 * text. Prints `READY <anthropic base url>`; on stdin "report" prints, per
 * request, the server's own time (from starting to handle the request to
 * having written the whole response; wall and CPU) as one JSON line and exits.
 * With a folder as second argument, it also writes each request's body there
 * as it was received (`<n>.json`, from 0) before it reports: the bench replays
 * them, and recording them here costs the client under test nothing.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFauxProvider } from "../electron/core/faux";

const roundTrips = Number(process.argv[2] ?? 1000);
const bodiesDir = process.argv[3];

async function main(): Promise<void> {
  const bodies: string[] = [];
  const faux = await startFauxProvider({
    recordBodies: false,
    recordCpu: true,
    onRawBody: bodiesDir ? (raw) => bodies.push(raw) : undefined,
  });
  let calls = 0;
  faux.setDefaultResponder(() => {
    calls++;
    return calls <= roundTrips
      ? { type: "reply", content: [{ type: "toolCall", id: `toolu_${calls}`, name: "read", arguments: { path: "a.txt" } }] }
      : { type: "reply", content: [{ type: "text", text: "done" }] };
  });
  process.stdout.write(`READY ${faux.baseUrls.anthropic}\n`);
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk: string) => {
    if (!chunk.includes("report")) return;
    if (bodiesDir) bodies.forEach((body, i) => writeFileSync(join(bodiesDir, `${i}.json`), body));
    // Durations on this process's clock: comparing stamps across processes would need synchronized clocks.
    const timings = faux.requests.map((r) => ({
      serverMs: r.endedAt === null ? null : r.endedAt - r.receivedAt,
      serverCpuMs: r.cpuMs,
      accepted: r.accepted,
    }));
    process.stdout.write(`${JSON.stringify(timings)}\n`);
    void faux.close().then(() => process.exit(0));
  });
}

void main();
