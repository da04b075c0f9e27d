/**
 * The MCP servers of one workspace (its `.mcp.json` plus the user's
 * `mcp.json`): started when the workspace's first session needs tools,
 * restartable one by one, stopped when the core closes.
 *
 * Contract: `toolSet()` never waits and never throws: it answers the tools of
 * the servers that are ready now. `whenStarted()` lets a turn wait (bounded)
 * for servers still starting, so the first message already sees their tools.
 */
import { loadMcpConfig, type McpConfigLoad } from "./config";
import { McpServerConnection, type McpServerStatus } from "./server-connection";
import { mcpToolName, mcpToolSet, type McpToolSet } from "./tool-defs";
import { pinLaunch, type LaunchPin } from "./launch-pin";
import { needsTrust, type McpTrust } from "./trust";

export interface McpWorkspaceStatus {
  servers: (McpServerStatus & { skippedTools: string[] })[];
  /** Problems in the config files. */
  problems: string[];
}

export interface McpManagerOptions {
  workspaceRoot: string;
  configDir: string;
  env: Record<string, string | undefined>;
  clientVersion: string;
  /** Decides whether a workspace server may start (docs/mcp-trust.md); asked again at every start. */
  trust: McpTrust;
  onStatus(status: McpWorkspaceStatus): void;
}

export class McpWorkspace {
  private connections = new Map<string, McpServerConnection>();
  private problems: string[] = [];
  private loaded: Promise<void> | null = null;
  private configRead: Promise<void> | null = null;
  private tools: McpToolSet | null = null;
  private closed = false;

  constructor(private readonly options: McpManagerOptions) {}

  /** Reads the config and starts every server (once; `reload` reads it again). */
  start(): Promise<void> {
    this.loaded ??= this.load();
    return this.loaded;
  }

  async reload(): Promise<void> {
    await this.stopAll();
    this.loaded = this.load();
    return this.loaded;
  }

  /** Resolves once the config files are read (the status lists every server), without waiting for servers to start. */
  async configured(): Promise<void> {
    void this.start();
    await this.configRead;
  }

  /** Resolves once the config is read and every server has started or failed, or after `maxMs`. */
  async whenStarted(maxMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, maxMs);
    });
    const started = (async () => {
      await this.start();
      await Promise.all([...this.connections.values()].map((c) => c.ready()));
    })();
    try {
      await Promise.race([started, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  status(): McpWorkspaceStatus {
    const skipped = (name: string) => {
      const conn = this.connections.get(name);
      return conn ? mcpToolSet({ server: name, tools: conn.listTools(), call: () => Promise.reject(new Error("unused")) }).skipped : [];
    };
    return {
      servers: [...this.connections.values()].map((c) => ({ ...c.status(), skippedTools: skipped(c.entry.name) })),
      problems: [...this.problems],
    };
  }

  toolSet(): McpToolSet {
    if (this.tools) return this.tools;
    const set: McpToolSet = { defs: [], specs: [], skipped: [] };
    for (const conn of this.connections.values()) {
      const one = mcpToolSet({
        server: conn.entry.name,
        tools: conn.listTools(),
        call: (tool, args, signal) => conn.call(tool, args, signal),
      });
      set.defs.push(...one.defs);
      set.specs.push(...one.specs);
      set.skipped.push(...one.skipped);
    }
    this.tools = set;
    return set;
  }

  /** Restarts one server (Settings' Restart button); unknown names are refused. */
  async restart(name: string): Promise<boolean> {
    const conn = this.connections.get(name);
    if (!conn) return false;
    await conn.start();
    return true;
  }

  /**
   * Applies a change of trust to the named servers: a newly trusted one starts,
   * one whose trust was revoked stops and stays untrusted. The configuration is
   * not read again, so what starts is exactly the entry the user looked at.
   */
  async retrust(names: readonly string[]): Promise<void> {
    await Promise.all(
      names.flatMap((name) => {
        const conn = this.connections.get(name);
        return conn && needsTrust(conn.entry) ? [conn.start()] : [];
      }),
    );
  }

  /** The server a tool (by its full `mcp__<server>__<tool>` name) belongs to, or null. */
  serverOfTool(toolName: string): string | null {
    for (const conn of this.connections.values()) {
      if (conn.listTools().some((t) => mcpToolName(conn.entry.name, t.name) === toolName)) return conn.entry.name;
    }
    return null;
  }

  /** The launch pin a server's status shows (what `mcp.trust` stores), or null. */
  pinOf(name: string): LaunchPin | null {
    return this.connections.get(name)?.currentPin() ?? null;
  }

  async stop(name: string): Promise<boolean> {
    const conn = this.connections.get(name);
    if (!conn) return false;
    await conn.stop();
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stopAll();
  }

  private async stopAll(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.stop()));
    this.connections.clear();
    this.tools = null;
  }

  private async load(): Promise<void> {
    this.configRead = this.readConfig();
    await this.configRead;
    if (this.closed) return;
    await Promise.all([...this.connections.values()].map((c) => c.start()));
  }

  private async readConfig(): Promise<void> {
    let config: McpConfigLoad;
    try {
      config = await loadMcpConfig(this.options.workspaceRoot, this.options.configDir);
    } catch (error) {
      config = {
        servers: [],
        problems: [`MCP configuration could not be read: ${error instanceof Error ? error.message : String(error)}`],
      };
    }
    if (this.closed) return;
    this.problems = config.problems;
    for (const entry of config.servers) {
      const conn = new McpServerConnection(entry, {
        workspaceRoot: this.options.workspaceRoot,
        env: this.options.env,
        clientVersion: this.options.clientVersion,
        pin: () => pinLaunch(entry, this.options.workspaceRoot),
        trust: (pin) => this.options.trust.verdict(entry, pin),
        onChange: () => this.changed(),
      });
      this.connections.set(entry.name, conn);
    }
    // The status lists each server with what trusting it would pin.
    await Promise.all([...this.connections.values()].map((c) => c.prepare()));
    this.changed();
  }

  private changed(): void {
    this.tools = null;
    try {
      this.options.onStatus(this.status());
    } catch {
      // A listener failing must not stop the servers.
    }
  }
}
