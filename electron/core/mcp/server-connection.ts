/**
 * One MCP server, through the official SDK client: start (stdio child or
 * streamable HTTP), list its tools, call them, restart, stop.
 *
 * Contract: nothing here throws past `start`, `call` or `stop`. A server that
 * crashes, hangs or writes garbage changes its own status ("failed" with the
 * tail of its stderr) and fails its own calls; it never takes the host down.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { isAbsolute, resolve } from "node:path";
import type { McpServerEntry } from "./config";
import { expandEnv } from "./config";
import type { LaunchPin } from "./launch-pin";
import { launchSummary, type TrustVerdict } from "./trust";

export const MCP_START_TIMEOUT_MS = 30_000;
export const MCP_CALL_TIMEOUT_MS = 120_000;
const STDERR_TAIL_BYTES = 4096;

/** "untrusted": a workspace server the user has not trusted yet (docs/mcp-trust.md); never started. */
export type McpServerState = "starting" | "ready" | "failed" | "stopped" | "untrusted";

export interface McpServerStatus {
  name: string;
  source: McpServerEntry["source"];
  transport: "stdio" | "http";
  state: McpServerState;
  toolCount: number;
  /** Why it failed (or why tools were skipped), for Settings. */
  error: string | null;
  stderrTail: string;
  /** What starting it runs or connects to, for the user to judge before trusting it. */
  launch: string;
  /** Identifies this exact configuration and the workspace files it runs (launch-pin.ts); trusting it stores this value. */
  fingerprint: string;
  /** The workspace files the fingerprint covers, and what it cannot cover, in words. */
  pins: { files: string[]; notes: string[] };
}

export type McpCallResult = { ok: true; result: CallToolResult } | { ok: false; message: string; timedOut: boolean };

export class McpServerConnection {
  private client: Client | null = null;
  private state: McpServerState = "stopped";
  private error: string | null = null;
  private stderr = "";
  private tools: Tool[] = [];
  private generation = 0;
  private starting: Promise<void> | null = null;
  private pin: LaunchPin | null = null;

  constructor(
    readonly entry: McpServerEntry,
    private readonly options: {
      workspaceRoot: string;
      env: Record<string, string | undefined>;
      clientVersion: string;
      /** The entry and the workspace files it runs, computed again at every start (launch-pin.ts). */
      pin: () => Promise<LaunchPin>;
      /** Asked at every start with the fresh pin: an untrusted server is never spawned or connected to. */
      trust: (pin: LaunchPin) => TrustVerdict;
      onChange: () => void;
    },
  ) {}

  /** Computes the pin, so the status shows what trusting would cover, and marks an untrusted server as such. */
  async prepare(): Promise<void> {
    const generation = this.generation;
    this.pin = await this.options.pin();
    if (generation !== this.generation) return;
    const verdict = this.verdict(this.pin);
    if (!verdict.trusted && this.state === "stopped") this.set("untrusted", verdict.reason);
  }

  /** The pin the status shows (null before `prepare`). */
  currentPin(): LaunchPin | null {
    return this.pin;
  }

  private verdict(pin: LaunchPin): TrustVerdict {
    try {
      return this.options.trust(pin);
    } catch (err) {
      // The trust record cannot be read (the core is closing): not trusted, so nothing starts.
      return { trusted: false, reason: `not started: trust could not be checked (${errorText(err)})` };
    }
  }

  status(): McpServerStatus {
    return {
      name: this.entry.name,
      source: this.entry.source,
      transport: this.entry.config.transport,
      state: this.state,
      toolCount: this.state === "ready" ? this.tools.length : 0,
      error: this.error,
      stderrTail: this.stderr,
      launch: launchSummary(this.entry),
      fingerprint: this.pin?.fingerprint ?? "",
      pins: {
        files: Object.entries(this.pin?.files ?? {})
          .filter(([, v]) => v.startsWith("sha256:"))
          .map(([k]) => k)
          .sort(),
        notes: this.pin?.notes ?? [],
      },
    };
  }

  listTools(): readonly Tool[] {
    return this.state === "ready" ? this.tools : [];
  }

  /** Starts (or restarts) the server; resolves when it is ready or has failed. */
  start(): Promise<void> {
    const generation = ++this.generation;
    const run = this.startOnce(generation).finally(() => {
      if (this.starting === run) this.starting = null;
    });
    this.starting = run;
    return run;
  }

  /** Resolves once a start in progress has ended. */
  async ready(): Promise<void> {
    while (this.starting) await this.starting;
  }

  private async startOnce(generation: number): Promise<void> {
    await this.closeClient();
    // The files are hashed again now: what starts is what the user trusted, or nothing.
    this.pin = await this.options.pin();
    if (generation !== this.generation) return;
    const verdict = this.verdict(this.pin);
    if (!verdict.trusted) {
      this.stderr = "";
      this.tools = [];
      this.set("untrusted", verdict.reason);
      return;
    }
    this.set("starting", null);
    this.stderr = "";
    this.tools = [];
    if (this.entry.config.disabled) {
      this.set("stopped", "disabled in the configuration");
      return;
    }
    const transport = this.makeTransport();
    if ("error" in transport) {
      this.set("failed", transport.error);
      return;
    }
    const client = new Client({ name: "agent-workbench", version: this.options.clientVersion }, { capabilities: {} });
    client.onclose = () => {
      if (this.client !== client || generation !== this.generation) return;
      this.client = null;
      this.tools = [];
      if (this.state !== "stopped") this.set("failed", `the server closed the connection${this.exitNote()}`);
    };
    // Garbage on the wire (unparsable lines) is reported but does not end the connection.
    client.onerror = (err) => {
      if (generation === this.generation) this.noteStderr(`[transport] ${err.message}\n`);
    };
    this.client = client;
    try {
      await client.connect(transport.value, { timeout: MCP_START_TIMEOUT_MS });
      const tools: Tool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {}, { timeout: MCP_START_TIMEOUT_MS });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
      if (generation !== this.generation) return;
      this.tools = tools;
      this.set("ready", null);
    } catch (err) {
      if (generation !== this.generation) return;
      this.client = null;
      // The connection already failed and that failure is reported below; closing is best effort.
      await client.close().catch(() => undefined);
      this.set("failed", `${errorText(err)}${this.exitNote()}`);
    }
  }

  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal, timeoutMs?: number): Promise<McpCallResult> {
    const client = this.client;
    if (!client || this.state !== "ready") {
      return {
        ok: false,
        timedOut: false,
        message: `MCP server "${this.entry.name}" is ${this.state}${this.error ? `: ${this.error}` : ""}`,
      };
    }
    const timeout = timeoutMs ?? this.entry.config.timeout ?? MCP_CALL_TIMEOUT_MS;
    try {
      const result = (await client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout })) as CallToolResult;
      return { ok: true, result };
    } catch (err) {
      const timedOut = typeof err === "object" && err !== null && "code" in err && err.code === -32001;
      return {
        ok: false,
        timedOut,
        message: `MCP server "${this.entry.name}": ${errorText(err)}${this.stateNow() === "failed" ? this.exitNote() : ""}`,
      };
    }
  }

  /** Read again after an await (the compiler narrows the field as if nothing could change it). */
  private stateNow(): McpServerState {
    return this.state;
  }

  async stop(): Promise<void> {
    this.generation++;
    await this.closeClient();
    if (this.state === "untrusted") return;
    this.set("stopped", null);
  }

  private async closeClient(): Promise<void> {
    const client = this.client;
    this.client = null;
    // Stopping: a transport that fails to close is gone either way.
    if (client) await client.close().catch(() => undefined);
  }

  private makeTransport(): { value: Transport } | { error: string } {
    const { config } = this.entry;
    const env = this.options.env;
    const missing: string[] = [];
    const x = (v: string) => {
      const r = expandEnv(v, env);
      missing.push(...r.missing);
      return r.value;
    };
    if (config.transport === "stdio") {
      const command = x(config.command);
      const args = config.args.map(x);
      const childEnv = Object.fromEntries(Object.entries(config.env).map(([k, v]) => [k, x(v)]));
      const cwd = config.cwd
        ? isAbsolute(config.cwd)
          ? config.cwd
          : resolve(this.options.workspaceRoot, x(config.cwd))
        : this.options.workspaceRoot;
      if (missing.length > 0) return { error: `environment variable(s) not set: ${[...new Set(missing)].join(", ")}` };
      // The SDK passes only a safe default environment (PATH, HOME …) plus `env`: our API keys never reach the server.
      const transport = new StdioClientTransport({ command, args, env: childEnv, cwd, stderr: "pipe" });
      transport.stderr?.on("data", (chunk: Buffer) => this.noteStderr(chunk.toString("utf8")));
      return { value: transport };
    }
    const url = x(config.url);
    const headers = Object.fromEntries(Object.entries(config.headers).map(([k, v]) => [k, x(v)]));
    if (missing.length > 0) return { error: `environment variable(s) not set: ${[...new Set(missing)].join(", ")}` };
    try {
      return { value: new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }) };
    } catch (err) {
      return { error: `bad URL: ${errorText(err)}` };
    }
  }

  private noteStderr(text: string): void {
    this.stderr = (this.stderr + text).slice(-STDERR_TAIL_BYTES);
  }

  private exitNote(): string {
    const tail = this.stderr.trim().split("\n").slice(-3).join(" | ");
    return tail ? ` (stderr: ${tail.slice(-400)})` : "";
  }

  private set(state: McpServerState, error: string | null): void {
    this.state = state;
    this.error = error;
    try {
      this.options.onChange();
    } catch {
      // A listener failing must not break the server's bookkeeping.
    }
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
