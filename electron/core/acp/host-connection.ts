/**
 * An external ACP agent (Claude Code, Codex, Gemini CLI, opencode, a custom
 * command) run by the workbench: docs/acp.md#acp-host. We start its process
 * in the workspace with an allow-listed environment and are its client:
 *
 * - `fs/read_text_file` reads through our workspace sandbox (tools/sandbox.ts:
 *   paths outside the workspace and symlinks that leave it are refused);
 * - `fs/write_text_file` is our `write` tool (its diff preview, the policy and
 *   the approval the host's `ask` gives, git protection);
 * - `terminal/*` runs our `bash` tool (approval, OS sandbox, output limits);
 * - `session/request_permission` and `session/update` go to the host's ports.
 *
 * Contract: nothing the agent sends can throw into the core or block it.
 * Malformed JSON-RPC is answered or dropped by the SDK; a refused request
 * answers a JSON-RPC error; updates past MAX_UPDATES_PER_PROMPT in one prompt
 * are counted, not delivered; a process that dies rejects what waits on it
 * with an `AcpHostError` ("EXITED"), a missing binary with "MISSING_BINARY".
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as acp from "@agentclientprotocol/sdk";
import { Sandbox } from "../tools/sandbox";
import type { ToolRuntime, UserAnswer } from "../tools/runtime-types";
import type { Proposal, ToolOutcome } from "../tools/types";
import { acpStdio } from "./stdio";
import { HostTerminals } from "./host-terminals";

/** Per prompt: beyond this many `session/update`s the rest are dropped (a runaway or hostile agent). */
export const MAX_UPDATES_PER_PROMPT = 20_000;
/** The largest text file `fs/read_text_file` returns. */
export const MAX_READ_BYTES = 10 * 1024 * 1024;

export type AcpHostErrorCode = "MISSING_BINARY" | "EXITED" | "PROTOCOL" | "AUTH_REQUIRED";

export class AcpHostError extends Error {
  constructor(
    readonly code: AcpHostErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "AcpHostError";
  }
}

export interface AcpLaunch {
  /** Shown in errors: "Gemini CLI". */
  label: string;
  command: string;
  args: readonly string[];
  cwd: string;
  /** The whole environment of the process (agent-env.ts builds it): nothing else is inherited. */
  env: Record<string, string>;
}

export interface AcpHostPorts {
  /** Every `session/update`, in arrival order. */
  onUpdate(notification: acp.SessionNotification): void;
  /** The agent's own permission request (for a tool it runs itself): the approval card answers. */
  requestPermission(request: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  /** A write or command of ours the agent asked for, whose policy says "ask": the approval card answers. */
  ask(proposal: Proposal, sessionId: string): Promise<UserAnswer>;
  /** The agent process ended (also after `close`). */
  onExit?(info: { code: number | null; signal: NodeJS.Signals | null; stderrTail: string }): void;
}

function refused(o: ToolOutcome & { ok: false }): acp.RequestError {
  const code = o.error.errorCode;
  // -32002: resource not found (ACP); a refusal or a path outside the workspace is the request's fault.
  if (code === "NOT_FOUND") return new acp.RequestError(-32002, o.error.message);
  return new acp.RequestError(code === "IO_ERROR" ? -32603 : -32602, `${code}: ${o.error.message}`);
}

export class AcpHostConnection {
  private child: ChildProcess | null = null;
  private connection: acp.ClientConnection | null = null;
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private stderrTail = "";
  private updatesThisPrompt = 0;
  /** Updates dropped past MAX_UPDATES_PER_PROMPT since the connection started. */
  dropped = 0;
  agentCapabilities: acp.AgentCapabilities = {};
  agentInfo: acp.Implementation | null = null;
  private readonly sandbox: Promise<Sandbox>;
  private readonly terminals: HostTerminals;
  private exited!: Promise<void>;
  private calls = 0;

  constructor(
    private readonly launch: AcpLaunch,
    private readonly runtime: ToolRuntime,
    private readonly ports: AcpHostPorts,
  ) {
    this.sandbox = Sandbox.open(launch.cwd).then((r) => {
      if (!r.ok) throw new acp.RequestError(-32603, r.error.message);
      return r.value;
    });
    this.terminals = new HostTerminals(runtime, (proposal, sessionId) => ports.ask(proposal, sessionId));
  }

  /** Starts the process and runs `initialize`. */
  async start(): Promise<acp.InitializeResponse> {
    const child = spawn(this.launch.command, [...this.launch.args], {
      cwd: this.launch.cwd,
      env: this.launch.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: process.platform !== "win32",
    });
    this.child = child;
    const spawned = new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", (err: NodeJS.ErrnoException) =>
        reject(
          err.code === "ENOENT"
            ? new AcpHostError(
                "MISSING_BINARY",
                `${this.launch.label}: \`${this.launch.command}\` was not found; install it or set its command in Settings → Agents`,
              )
            : new AcpHostError("EXITED", `${this.launch.label} could not start: ${err.message}`),
        ),
      );
    });
    this.exited = new Promise<void>((resolve) =>
      child.once("close", (code, signal) => {
        this.exitInfo = { code, signal };
        this.terminals.closeAll();
        this.connection?.close(new AcpHostError("EXITED", this.exitMessage()));
        this.ports.onExit?.({ code, signal, stderrTail: this.stderrTail });
        resolve();
      }),
    );
    child.stderr.on("data", (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString()).slice(-4000);
    });
    // A write to a dead process must not become an unhandled 'error' event.
    child.stdin.on("error", () => undefined);
    await spawned;
    this.connection = this.clientApp().connect(acpStdio(child.stdin, child.stdout));
    const init = await this.guard(
      this.connection.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
        clientInfo: { name: "agent-workbench", title: "Agent Workbench", version: "0.1.0" },
      }),
    );
    this.agentCapabilities = init.agentCapabilities ?? {};
    this.agentInfo = init.agentInfo ?? null;
    return init;
  }

  private exitMessage(): string {
    const how = this.exitInfo?.signal ? `killed by ${this.exitInfo.signal}` : `exited with code ${this.exitInfo?.code ?? "?"}`;
    const tail = this.stderrTail.trim().split("\n").slice(-3).join(" | ");
    return `${this.launch.label} ${how}${tail ? `: ${tail}` : ""}`;
  }

  /** A request to the agent that rejects with EXITED when the process dies first. */
  private async guard<T>(work: Promise<T>): Promise<T> {
    const died = this.exited.then(() => {
      throw new AcpHostError("EXITED", this.exitMessage());
    });
    try {
      return await Promise.race([work, died]);
    } catch (e) {
      if (e instanceof AcpHostError) throw e;
      // The agent's stdout closes just before the process is reaped: a closed connection waits for the exit.
      if (this.connection?.signal.aborted) await Promise.race([this.exited, new Promise((r) => setTimeout(r, 2000))]);
      if (this.exitInfo) throw new AcpHostError("EXITED", this.exitMessage());
      const err = e as { code?: number; message?: string };
      if (err.code === -32000) throw new AcpHostError("AUTH_REQUIRED", `${this.launch.label} needs a login: ${err.message ?? ""}`);
      throw new AcpHostError("PROTOCOL", `${this.launch.label}: ${err.message ?? String(e)}`);
    } finally {
      void died.catch(() => undefined);
    }
  }

  private agent(): acp.ClientContext {
    if (!this.connection || this.exitInfo) throw new AcpHostError("EXITED", this.exitMessage());
    return this.connection.agent;
  }

  async newSession(): Promise<acp.NewSessionResponse> {
    return this.guard(this.agent().request(acp.methods.agent.session.new, { cwd: this.launch.cwd, mcpServers: [] }));
  }

  async loadSession(sessionId: string): Promise<acp.LoadSessionResponse> {
    if (!this.agentCapabilities.loadSession) throw new AcpHostError("PROTOCOL", `${this.launch.label} cannot load a stored session`);
    return (
      (await this.guard(this.agent().request(acp.methods.agent.session.load, { sessionId, cwd: this.launch.cwd, mcpServers: [] }))) ?? {}
    );
  }

  async prompt(sessionId: string, prompt: acp.ContentBlock[]): Promise<acp.PromptResponse> {
    this.updatesThisPrompt = 0;
    return this.guard(this.agent().request(acp.methods.agent.session.prompt, { sessionId, prompt }));
  }

  async cancel(sessionId: string): Promise<void> {
    if (!this.connection || this.exitInfo) return;
    await this.connection.agent.notify(acp.methods.agent.session.cancel, { sessionId }).catch(() => undefined);
    this.terminals.killAll();
  }

  get alive(): boolean {
    return this.child !== null && this.exitInfo === null;
  }

  /** Ends the process (its whole group): SIGTERM, then SIGKILL after `graceMs`. */
  async close(graceMs = 2000): Promise<void> {
    const child = this.child;
    if (!child || this.exitInfo) return;
    const kill = (sig: NodeJS.Signals) => {
      try {
        if (child.pid && process.platform !== "win32") process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch {
        // already gone
      }
    };
    child.stdin?.end();
    kill("SIGTERM");
    const timer = setTimeout(() => kill("SIGKILL"), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  private clientApp(): acp.ClientApp {
    return acp
      .client({ name: "agent-workbench" })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        if (++this.updatesThisPrompt > MAX_UPDATES_PER_PROMPT) {
          this.dropped++;
          return;
        }
        try {
          this.ports.onUpdate(params);
        } catch {
          // A port's failure is its own; the connection keeps going.
        }
      })
      .onRequest(acp.methods.client.session.requestPermission, ({ params, signal }) => this.ports.requestPermission(params, signal))
      .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => this.readTextFile(params))
      .onRequest(acp.methods.client.fs.writeTextFile, ({ params, signal }) => this.writeTextFile(params, signal))
      .onRequest(acp.methods.client.terminal.create, ({ params }) => this.terminals.create(params, this.launch.cwd))
      .onRequest(acp.methods.client.terminal.output, ({ params }) => this.terminals.output(params.terminalId))
      .onRequest(acp.methods.client.terminal.waitForExit, ({ params }) => this.terminals.waitForExit(params.terminalId))
      .onRequest(acp.methods.client.terminal.kill, ({ params }) => this.terminals.kill(params.terminalId))
      .onRequest(acp.methods.client.terminal.release, ({ params }) => this.terminals.release(params.terminalId));
  }

  private async readTextFile(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
    const sandbox = await this.sandbox;
    const resolved = await sandbox.resolve(params.path);
    if (!resolved.ok) throw refused({ ok: false, error: resolved.error });
    if (resolved.value.kind !== "file") throw new acp.RequestError(-32002, `not a file: ${params.path}`);
    const data = await sandbox.readFile(resolved.value, MAX_READ_BYTES);
    if (!data.ok) throw refused({ ok: false, error: data.error });
    let content = data.value.toString("utf8");
    if (params.line != null || params.limit != null) {
      const lines = content.split("\n");
      const from = Math.max(0, (params.line ?? 1) - 1);
      content = lines.slice(from, params.limit != null ? from + params.limit : undefined).join("\n");
    }
    return { content };
  }

  private async writeTextFile(params: acp.WriteTextFileRequest, signal: AbortSignal): Promise<acp.WriteTextFileResponse> {
    const call = { id: `acp-write-${++this.calls}`, name: "write", arguments: { path: params.path, content: params.content } };
    const outcome = await this.runtime.run(call, { signal, ask: (proposal) => this.ports.ask(proposal, params.sessionId) });
    if (!outcome.ok) throw refused(outcome);
    return {};
  }
}
