/**
 * Per-workspace services that live as long as the core: the MCP servers
 * (started when the workspace's first session needs tools), the file index
 * for @-mentions, and the per-session Ask mode history. Closed with the core.
 */
import type { McpStatus, ModeChange, SessionMode } from "../../../shared/api";
import { join } from "node:path";
import { z } from "zod";
import { USER_MCP_FILE, WORKSPACE_MCP_FILE } from "../mcp/config";
import { McpWorkspace, type McpWorkspaceStatus } from "../mcp/manager";
import { TrustedPinSchema, trustVerdict, trustedPinOf, type McpTrustRecord } from "../mcp/trust";
import { FileIndex } from "../mentions/file-index";
import type { SessionStore } from "../store";

/** How long a turn waits for MCP servers still starting before it goes on without their tools. */
export const MCP_TURN_WAIT_MS = 20_000;

export interface WorkspaceServicesOptions {
  store: SessionStore;
  configDir: string;
  env: Record<string, string | undefined>;
  version: string;
  onMcpStatus(status: McpStatus): void;
}

const modeKey = (sessionId: string) => `session.mode.${sessionId}`;
const mcpTrustKey = (workspaceId: string) => `mcp.trust.${workspaceId}`;
const mcpAllowKey = (workspaceId: string) => `mcp.allowedTools.${workspaceId}`;

/** "Always allow this tool in this workspace": full tool name → its server and the server's fingerprint then. */
const AllowedToolsSchema = z.record(z.string(), z.object({ server: z.string(), fingerprint: z.string() }));
type AllowedTools = z.infer<typeof AllowedToolsSchema>;

export class WorkspaceServices {
  private readonly mcps = new Map<string, McpWorkspace>();
  private readonly indexes = new Map<string, FileIndex>();

  constructor(private readonly options: WorkspaceServicesOptions) {}

  private path(workspaceId: string): string | null {
    return this.options.store.getWorkspace(workspaceId)?.path ?? null;
  }

  /** The workspace's MCP servers, started on first use; null for an unknown workspace. */
  mcp(workspaceId: string): McpWorkspace | null {
    const existing = this.mcps.get(workspaceId);
    if (existing) return existing;
    const root = this.path(workspaceId);
    if (root === null) return null;
    const mcp = new McpWorkspace({
      workspaceRoot: root,
      configDir: this.options.configDir,
      env: this.options.env,
      clientVersion: this.options.version,
      trust: { verdict: (entry, pin) => trustVerdict(this.mcpTrust(workspaceId), entry, pin) },
      onStatus: (s) => this.options.onMcpStatus(this.statusOf(workspaceId, root, s)),
    });
    this.mcps.set(workspaceId, mcp);
    void mcp.start();
    return mcp;
  }

  /** The status once the config files are read (servers may still be starting). */
  async mcpStatus(workspaceId: string): Promise<McpStatus | null> {
    const mcp = this.mcp(workspaceId);
    const root = this.path(workspaceId);
    if (!mcp || root === null) return null;
    await mcp.configured();
    return this.statusOf(workspaceId, root, mcp.status());
  }

  /** The fingerprints the user trusted for this workspace's `.mcp.json` servers (docs/mcp-trust.md). */
  mcpTrust(workspaceId: string): McpTrustRecord {
    const stored = this.options.store.getSetting(mcpTrustKey(workspaceId));
    if (!stored || typeof stored !== "object" || Array.isArray(stored)) return {};
    const record: McpTrustRecord = {};
    for (const [name, value] of Object.entries(stored)) {
      // A bare string: trust stored before the pin covered files (it no longer matches any pin).
      const parsed =
        typeof value === "string" ? { success: true as const, data: { fingerprint: value } } : TrustedPinSchema.safeParse(value);
      if (parsed.success) record[name] = parsed.data;
    }
    return record;
  }

  /**
   * Records trust (or its revocation) for the given servers, then starts or stops them. Trust stores the pin the
   * status showed (the caller checked `fingerprint` against it), so what starts is what the user saw, or nothing.
   */
  async setMcpTrust(workspaceId: string, servers: readonly { name: string; fingerprint: string }[], trusted: boolean): Promise<void> {
    const record = this.mcpTrust(workspaceId);
    const mcp = this.mcp(workspaceId);
    for (const { name, fingerprint } of servers) {
      const pin = mcp?.pinOf(name);
      if (trusted) record[name] = pin?.fingerprint === fingerprint ? trustedPinOf(pin) : { fingerprint };
      else delete record[name];
    }
    this.options.store.setSetting(mcpTrustKey(workspaceId), record);
    await mcp?.retrust(servers.map((s) => s.name));
  }

  private allowedTools(workspaceId: string): AllowedTools {
    const parsed = AllowedToolsSchema.safeParse(this.options.store.getSetting(mcpAllowKey(workspaceId)) ?? {});
    return parsed.success ? parsed.data : {};
  }

  /**
   * Saves "always allow this MCP tool in this workspace" (docs/mcp-trust.md#approving-mcp-tools), bound to what its
   * server runs now: once the server's entry or files change, the tool is asked again.
   */
  allowMcpTool(workspaceId: string, toolName: string): void {
    const mcp = this.mcps.get(workspaceId);
    const server = mcp?.serverOfTool(toolName);
    const fingerprint = server ? mcp?.pinOf(server)?.fingerprint : undefined;
    if (!server || !fingerprint) return;
    this.options.store.setSetting(mcpAllowKey(workspaceId), { ...this.allowedTools(workspaceId), [toolName]: { server, fingerprint } });
  }

  /** Forgets a saved allow (Settings); false when there was none. */
  forgetMcpTool(workspaceId: string, toolName: string): boolean {
    const allowed = this.allowedTools(workspaceId);
    if (!(toolName in allowed)) return false;
    delete allowed[toolName];
    this.options.store.setSetting(mcpAllowKey(workspaceId), allowed);
    return true;
  }

  /** The saved allows that still apply: their server runs what it ran when the user allowed them. */
  mcpAllowedNow(workspaceId: string): Set<string> {
    const mcp = this.mcps.get(workspaceId);
    const out = new Set<string>();
    if (!mcp) return out;
    for (const [tool, { server, fingerprint }] of Object.entries(this.allowedTools(workspaceId))) {
      if (mcp.pinOf(server)?.fingerprint === fingerprint) out.add(tool);
    }
    return out;
  }

  private statusOf(workspaceId: string, root: string, s: McpWorkspaceStatus): McpStatus {
    const allowed = Object.entries(this.allowedTools(workspaceId));
    const servers = s.servers.map((server) => ({
      ...server,
      alwaysAllowed: allowed
        .filter(([, a]) => a.server === server.name && a.fingerprint === server.fingerprint)
        .map(([tool]) => tool)
        .sort(),
    }));
    return {
      workspaceId,
      ...s,
      servers,
      files: { workspace: join(root, WORKSPACE_MCP_FILE), user: join(this.options.configDir, USER_MCP_FILE) },
    };
  }

  fileIndex(workspaceId: string): FileIndex | null {
    const existing = this.indexes.get(workspaceId);
    if (existing) return existing;
    const root = this.path(workspaceId);
    if (root === null) return null;
    const index = new FileIndex(root);
    this.indexes.set(workspaceId, index);
    return index;
  }

  modeChanges(sessionId: string): ModeChange[] {
    const stored = this.options.store.getSetting(modeKey(sessionId));
    return Array.isArray(stored) ? (stored as ModeChange[]).filter((c) => c && (c.mode === "ask" || c.mode === "agent")) : [];
  }

  mode(sessionId: string): SessionMode {
    return this.modeChanges(sessionId).at(-1)?.mode ?? "agent";
  }

  recordMode(sessionId: string, change: ModeChange): void {
    this.options.store.setSetting(modeKey(sessionId), [...this.modeChanges(sessionId), change]);
  }

  async close(): Promise<void> {
    for (const index of this.indexes.values()) index.close();
    await Promise.all([...this.mcps.values()].map((m) => m.close()));
  }
}
