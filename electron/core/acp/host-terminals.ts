/**
 * ACP `terminal/*` for a hosted agent, on our `bash` tool: each terminal is one
 * bash call (the policy, the approval card, the OS sandbox, its time and output
 * limits). ACP's asynchronous shape (create now, read output and wait later)
 * wraps the call's promise; output is what the call returned once it ended.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { ToolRuntime, UserAnswer } from "../tools/runtime-types";
import type { Proposal, ToolOutcome } from "../tools/types";

/** Terminals one agent may hold at once (released ones do not count). */
export const MAX_TERMINALS = 32;

interface Term {
  controller: AbortController;
  done: Promise<ToolOutcome>;
  outcome: ToolOutcome | null;
}

/** POSIX single quotes: ACP gives a program and its arguments, bash takes one line. */
function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function textOf(o: ToolOutcome): string {
  return o.ok ? o.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n") : `${o.error.errorCode}: ${o.error.message}`;
}

export class HostTerminals {
  private readonly terms = new Map<string, Term>();
  private next = 0;

  constructor(
    private readonly runtime: ToolRuntime,
    private readonly ask: (proposal: Proposal, sessionId: string) => Promise<UserAnswer>,
  ) {}

  create(params: acp.CreateTerminalRequest, root: string): acp.CreateTerminalResponse {
    if (this.terms.size >= MAX_TERMINALS) throw acp.RequestError.invalidRequest(undefined, `at most ${MAX_TERMINALS} terminals at once`);
    const command = [params.command, ...(params.args ?? [])].map(shellQuote).join(" ");
    const env = (params.env ?? []).map((v) => `${v.name}=${shellQuote(v.value)}`).join(" ");
    const workdir = params.cwd && params.cwd !== root ? { workdir: params.cwd } : {};
    const id = `term-${++this.next}`;
    const controller = new AbortController();
    const call = { id: `acp-${id}`, name: "bash", arguments: { command: env ? `env ${env} ${command}` : command, ...workdir } };
    const term: Term = { controller, outcome: null, done: Promise.resolve(null as unknown as ToolOutcome) };
    term.done = this.runtime
      .run(call, { signal: controller.signal, ask: (p) => this.ask(p, params.sessionId) })
      .then((o) => (term.outcome = o));
    this.terms.set(id, term);
    return { terminalId: id };
  }

  private get(id: string): Term {
    const t = this.terms.get(id);
    if (!t) throw new acp.RequestError(-32002, `no terminal ${id}`);
    return t;
  }

  private status(o: ToolOutcome): acp.TerminalExitStatus {
    const d = o.details ?? {};
    const exitCode = typeof d.exitCode === "number" ? d.exitCode : o.ok ? 0 : 1;
    return { exitCode, signal: typeof d.signal === "string" ? d.signal : null };
  }

  output(id: string): acp.TerminalOutputResponse {
    const t = this.get(id);
    if (!t.outcome) return { output: "", truncated: false };
    return { output: textOf(t.outcome), truncated: t.outcome.details?.truncated === true, exitStatus: this.status(t.outcome) };
  }

  async waitForExit(id: string): Promise<acp.WaitForTerminalExitResponse> {
    return this.status(await this.get(id).done);
  }

  kill(id: string): acp.KillTerminalResponse {
    this.get(id).controller.abort();
    return {};
  }

  release(id: string): acp.ReleaseTerminalResponse {
    this.terms.get(id)?.controller.abort();
    this.terms.delete(id);
    return {};
  }

  killAll(): void {
    for (const t of this.terms.values()) t.controller.abort();
  }

  closeAll(): void {
    this.killAll();
    this.terms.clear();
  }
}
