/**
 * Assembles the core: store, model registry, keys, tool runtimes and one
 * SessionAgent per active session, behind the zod-validated request table.
 */
import { loadHooks } from "../hooks/config";
import { HookTrust } from "../hooks/trust";
import { withHooks } from "../hooks/with-hooks";
import { childEnvironment } from "../tools/env";
import { detectBashSandbox } from "../tools/bash-sandbox";
import { WorkspaceSkills } from "../skills/skill-tool";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import { platform, tmpdir } from "node:os";
import type {
  ApprovalPolicy,
  EventName,
  EventPayload,
  ModelOption,
  NetworkSettings,
  SessionSummary,
  TurnState,
  Workspace,
} from "../../../shared/api";
import type { ModelInfo, ProviderConfig } from "../../../shared/models";
import { nodeProviderFetch } from "../network/provider-fetch";
import type { ExportFormat } from "../../../shared/review";
import type { ModelRef } from "../../../shared/protocol";
import { SessionAgent } from "../agent/session-agent";
import { SubAgents } from "../agent/sub-agent";
import { withAgentTools } from "../agent/agent-tools";
import { createSubAgentHost, offeredToolSpecs } from "./sub-agent-host";
import { loadInstructions, touchedPaths } from "../agent/instructions";
import { PromptSourceLog } from "./prompt-sources";
import { builtInToolSpecs } from "../tools/tool-specs";
import { TOOL_DEFS } from "../tools/registry";
import { sweepLegacyOutputs, ToolOutputs } from "../tools/output-files";
import { userConfigDir } from "../mcp/config";
import { MCP_TURN_WAIT_MS, WorkspaceServices } from "./workspace-services";
import type { AgentDeps } from "../agent/ports";
import { createCheckpointHandlers } from "../checkpoints/handlers";
import { CheckpointService } from "../checkpoints/service";
import { fileStatesFromCheckpoints, sessionWorkspaceDiff } from "../checkpoints/review";
import { withWorkspaceDiff } from "../checkpoints/export-diff";
import { createReviewHandlers } from "../review/handlers";
import { createImporterHandlers } from "../importers/handlers";
import { agentRoots } from "../importers/discover";
import { redactText } from "../review/redact";
import { SessionStore } from "../store";
import { dispatch, type HandlerTable } from "./dispatch";
import { createTeamHandlers } from "./team-handlers";
import { damageNotice, lossNotice, recoveredNotice } from "./store-notices";
import { createHandlers } from "./handlers";
import { createEcosystemHandlers } from "./ecosystem-handlers";
import { createStorageHandlers } from "./storage-handlers";
import { createOtelHandlers } from "./otel-handlers";
import { OtelService } from "../otel/service";
import { createRedactor } from "../review/redact";
import { KeyRing } from "./keys";
import { ModelCatalog } from "./model-catalog";
import { catalogUrl, LiveCatalog } from "../providers/catalog/live-catalog";
import { listProviders, snapshotCatalogModels } from "../providers/registry";
import { ModelPolicy } from "./model-policy";
import { NotFound } from "./errors";
import { openWorkspaceFolder } from "./lookups";
import { SessionSummaries } from "./session-summaries";
import { ToolAudit } from "./tool-audit";
import { LAST_MODEL_KEY, SETTINGS_KEY, parseSettings } from "./settings";
import { createSessionTools } from "./session-tools";
import type { HostServices, Workbench, WorkbenchEventListener } from "./workbench";

export interface WorkbenchOptions {
  /** SQLite file (":memory:" for tests). */
  dbPath: string;
  /** better_sqlite3.node for Electron's ABI (the desktop app); absent under Node. */
  nativeBinding?: string;
  host: HostServices;
  version: string;
  /** Environment for API keys in web mode; defaults to process.env. */
  env?: Record<string, string | undefined>;
  now?: () => number;
  /** A workspace folder to open at start (command line). */
  initialWorkspace?: string;
  /** Base URL overrides per provider key, applied before user settings (e.g. the demo server). */
  baseUrlOverrides?: Record<string, string>;
  /** Extra models and providers (custom models, the demo). */
  extraProviders?: ProviderConfig[];
  extraModels?: ModelInfo[];
  /** True when the offline demo provider is running. */
  demo?: boolean;
  /**
   * Derives the approval policy in force from the saved one, never stored (the
   * headless `run` turns "allow" into "ask" so that `--approve` decides each call).
   */
  approvalPolicy?: (saved: ApprovalPolicy) => ApprovalPolicy;
  /**
   * Folder of the workspace checkpoint repositories (docs/checkpoints.md).
   * Default: `checkpoints/` next to the database file; none (off) for ":memory:".
   */
  checkpointDir?: string | null;
  /** The app's idle-stream timeout (default 120 s, docs/networks.md#retries-and-stalled-streams); tests shorten it. */
  streamIdleTimeoutMs?: number;
  /** Test hook: replaces the backoff sleep between retries. */
  sleep?: AgentDeps["sleep"];
  /** The user's config folder (user-level mcp.json, AGENTS.md, commands/); default: userConfigDir(env). */
  userConfigDir?: string;
  /**
   * Keep the model catalog current at run time (docs/architecture.md#model-catalog):
   * `cacheFile` in the data folder; `url` from the environment (AGENT_WORKBENCH_MODELS_URL),
   * else the one in Settings, else models.dev; "off": never fetch. Absent: the bundled snapshot only.
   */
  modelCatalog?: { cacheFile: string | null; url?: string };
  /**
   * The fetch the provider SDK clients use, for the current network settings:
   * Electron's `net.fetch` in the desktop app; absent, a Node fetch honouring
   * HTTPS_PROXY / NO_PROXY and the CA files (electron/core/network).
   */
  providerFetch?: (network: NetworkSettings) => typeof globalThis.fetch;
}

export interface CoreContext {
  store: SessionStore;
  keys: KeyRing;
  catalog: ModelCatalog;
  options: WorkbenchOptions;
  notices: string[];
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  agent(sessionId: string): SessionAgent;
  /** Renames a session and emits the rename entry. */
  renameSession(sessionId: string, title: string): SessionSummary;
  activeAgent(sessionId: string): SessionAgent | undefined;
  /** Turn states of the sessions not idle. */
  activeTurns(): TurnState[];
  dropAgent(sessionId: string): void;
  modelOptions(): ModelOption[];
  /** `options`: the model options just computed, when the caller has them. */
  defaultModel(options?: ModelOption[]): ModelRef | null;
  /** The user picked this model: later new sessions default to it. */
  rememberModel(ref: ModelRef): void;
  settings(): ReturnType<typeof parseSettings>;
  checkpoints: CheckpointService;
  saveSettings(settings: ReturnType<typeof parseSettings>): void;
  initialWorkspaceId: string | null;
  services: WorkspaceServices;
  /** bash's output files, per session. */
  toolOutputs: ToolOutputs;
  configDir: string;
  workspaceRootOf(sessionId: string): string;
  /** Where the blocks of stored user messages came from (templates, @-mentions). */
  promptSources: PromptSourceLog;
}

export async function createWorkbench(options: WorkbenchOptions): Promise<Workbench> {
  const now = options.now ?? Date.now;
  // Open without the integrity scan (its cost grows with the whole history); it runs off-thread below.
  const { store, recovered } = SessionStore.openOrRecover(options.dbPath, {
    now,
    nativeBinding: options.nativeBinding,
    integrityCheck: "background",
    // A PASSIVE WAL checkpoint whenever the store goes quiet (wal-checkpoint.ts).
    walCheckpoints: "whenIdle",
  });
  const notices = [...(options.host.notices ?? [])];
  if (recovered) notices.push(recoveredNotice(recovered));
  const lost = lossNotice(store.openReport);
  if (lost) notices.push(lost);
  const repaired = store.openReport.repaired ?? [];
  if (repaired.length > 0) notices.push(`${repaired.length} session(s) interrupted mid-turn were repaired.`);
  const leftovers = store.openReport.leftoverImports;
  if (leftovers.length > 0) {
    const what = leftovers.length === 1 ? `The import of “${leftovers[0].title}” was` : `${leftovers.length} imports were`;
    notices.push(`${what} interrupted when the app stopped; nothing of it was kept. Import the file again.`);
  }

  const keys = new KeyRing(options.env ?? process.env, options.host.secrets);
  await keys.load();
  // Trace export (docs/observability.md); its headers are secrets like the keys, redacted alike.
  const otel: OtelService = new OtelService({
    store,
    secrets: options.host.secrets,
    redactor: () => createRedactor([...catalog.providers().flatMap((p) => keys.get(p) ?? []), ...otel.secretValues()]),
    version: options.version,
    onError: (message) => emit("app.notice", { level: "warning", message }),
  });
  await otel.load();
  const listeners = new Set<WorkbenchEventListener>();
  const agents = new Map<string, SessionAgent>();
  const audit = new ToolAudit(store);
  let settings = parseSettings(store.getSetting(SETTINGS_KEY));
  const providerFetch = options.providerFetch ?? nodeProviderFetch(options.env ?? process.env);
  const checkpoints = new CheckpointService({
    store,
    root:
      options.checkpointDir !== undefined
        ? options.checkpointDir
        : options.dbPath === ":memory:"
          ? null
          : join(dirname(options.dbPath), "checkpoints"),
    settings: () => settings.checkpoints,
    onNotice: (notice) => {
      notices.push(notice.message);
      emit("app.notice", notice);
    },
  });
  const live = options.modelCatalog
    ? new LiveCatalog({
        providers: listProviders(),
        snapshot: snapshotCatalogModels,
        cacheFile: options.modelCatalog.cacheFile,
        fetch: () => providerFetch(settings.network),
      })
    : undefined;
  const catalog = new ModelCatalog({
    live,
    extraProviders: options.extraProviders ?? [],
    extraModels: options.extraModels ?? [],
    baseUrls: () => ({ ...settings.baseUrls, ...(options.baseUrlOverrides ?? {}) }),
    demo: options.demo ?? false,
    fetch: () => providerFetch(settings.network),
    idleTimeoutMs: options.streamIdleTimeoutMs,
  });

  const emit = <E extends EventName>(event: E, payload: EventPayload<E>) => {
    for (const l of listeners) {
      try {
        l(event, payload);
      } catch {
        // A failing listener (a closed socket) must not stop the others.
      }
    }
  };
  // A rewind the app was stopped in is finished now, before the workspace is used (docs/checkpoints.md#an-interrupted-rewind).
  void checkpoints.recoverInterrupted();
  // bash's output files live and die with their sessions (docs/tool-sandbox.md#output-files).
  const memoryOutputs = options.dbPath === ":memory:";
  const toolOutputs = new ToolOutputs(
    memoryOutputs
      ? join(tmpdir(), "agent-workbench-tool-output", `memory-${process.pid}-${randomBytes(4).toString("hex")}`)
      : join(dirname(options.dbPath), "tool-output"),
  );
  // A store closed while the sweep runs throws before anything is removed: the sweep just stops.
  if (!memoryOutputs) void toolOutputs.sweep((id) => store.getSession(id) !== undefined).catch(() => undefined);
  void sweepLegacyOutputs(join(tmpdir(), "agent-workbench-tool-output"), now());
  const env = options.env ?? process.env;
  const configDir = options.userConfigDir ?? userConfigDir(env);
  const services = new WorkspaceServices({ store, configDir, env, version: options.version, onMcpStatus: (s) => emit("mcp.status", s) });

  const models = new ModelPolicy(catalog, keys, () => settings.defaultModel, options.demo ?? false, {
    get: () => store.getSetting(LAST_MODEL_KEY),
    set: (ref) => store.setSetting(LAST_MODEL_KEY, ref),
  });
  const summaries = new SessionSummaries(store, emit);
  const promptSources = new PromptSourceLog(store);
  const modelOptions = () => models.options();
  const defaultModel = (options?: ModelOption[]) => models.defaultModel(options);
  const resolveModel: AgentDeps["resolveModel"] = (ref) => models.resolve(ref);

  const agentFor = (sessionId: string): SessionAgent => {
    const existing = agents.get(sessionId);
    if (existing) return existing;
    const session = store.getSession(sessionId);
    if (!session) throw new NotFound(`no session ${sessionId}`);
    const workspace = store.getWorkspace(session.workspaceId);
    if (!workspace) throw new NotFound(`no workspace for session ${sessionId}`);
    const mcp = services.mcp(workspace.id);
    const sessionTools = createSessionTools({
      workspaceRoot: workspace.path,
      settings: () =>
        options.approvalPolicy ? { ...settings, approvalPolicy: options.approvalPolicy(settings.approvalPolicy) } : settings,
      env,
      rules: () => store.listRules(workspace.id),
      externalAllowed: () => services.mcpAllowedNow(workspace.id),
      externalTools: mcp ? () => mcp.toolSet() : undefined,
      // The sessions database and everything beside it: no command reads or changes it.
      bashHidden: isAbsolute(options.dbPath) ? [dirname(options.dbPath)] : [],
      outputDir: toolOutputs.dirFor(sessionId),
      onOutputKept: () => toolOutputs.boundTotal(),
      traceparent: (toolCallId) => otel.traceparentFor(sessionId, toolCallId),
    });
    // Hooks around the workspace's tools (docs/conventions.md#hooks); sub-agents' calls go through them too.
    const hooked = withHooks(sessionTools, {
      sessionId,
      load: () => loadHooks({ workspaceRoot: workspace.path, userDir: configDir }),
      trusted: (fingerprint) => hookTrust.trusted(workspace.id, fingerprint),
      runContext: () => ({
        workspaceRoot: workspace.path,
        env: childEnvironment(env),
        sandbox:
          settings.bashSandbox.mode === "off" ? { kind: "none", reason: "the sandbox is turned off in the settings" } : detectBashSandbox(),
        hidden: isAbsolute(options.dbPath) ? [dirname(options.dbPath)] : [],
      }),
    });
    // The agent's own tools (todo, task) on top; its sub-agents share this session's runtime (docs/sub-agents.md).
    const subAgentHost = createSubAgentHost({
      store,
      settings: () => settings.subAgents,
      resolveModel,
      emit,
      depsFor: (sid, tools, subAgents) => depsFor(sid, workspace, mcp, tools, subAgents),
      agents,
      skills: skillsOf(workspace),
    });
    const subAgents = new SubAgents(subAgentHost, hooked);
    const deps = depsFor(sessionId, workspace, mcp, withAgentTools(hooked, subAgents, skillsOf(workspace)), subAgents);
    const agent = new SessionAgent(deps, sessionId, session.model ?? defaultModel(), session.reasoning, services.mode(sessionId));
    agents.set(sessionId, agent);
    return agent;
  };

  const hookTrust = new HookTrust(store);
  /** The workspace's skills (docs/conventions.md#skills): listed with the instructions, loaded by the skill tool. */
  const workspaceSkills = new Map<string, WorkspaceSkills>();
  const skillsOf = (workspace: Workspace): WorkspaceSkills => {
    let skills = workspaceSkills.get(workspace.id);
    if (!skills) {
      skills = new WorkspaceSkills({ workspaceRoot: workspace.path, userDir: configDir });
      workspaceSkills.set(workspace.id, skills);
    }
    return skills;
  };

  /** An agent's deps for a session of `workspace` (a sub-agent's too: same store, models, events, audit, checkpoints). */
  const depsFor = (
    sessionId: string,
    workspace: Workspace,
    mcp: ReturnType<WorkspaceServices["mcp"]>,
    tools: AgentDeps["tools"],
    subAgents: AgentDeps["subAgents"],
  ): AgentDeps => {
    const deps: AgentDeps = {
      store,
      tools,
      subAgents,
      resolveModel,
      stream: (resolved, context, streamOptions) => catalog.stream(resolved, context, streamOptions),
      computeCost: (model, message) => catalog.withCost(model, message),
      emit: (event, payload) => {
        // A turn's last summary is announced before the turn says it ended.
        if (event === "stream.end") summaries.announce(sessionId);
        emit(event, payload);
        if (event === "stream.end") otel.turnEnded(sessionId);
        // A publish that fails is kept in the outbox (Settings → Team shows it); the turn never waits for it.
        if (event === "stream.end") void team.service.turnEnded(sessionId).catch(() => undefined);
      },
      audit: (sid, event) => audit.write(sid, event, now()),
      saveRule: (rule) => {
        if (rule.tool !== "webfetch") {
          store.addRule({ workspaceId: workspace.id, ...rule, tool: rule.tool });
          return;
        }
        // Host rules are the user's, for every workspace: kept in the settings (approvalPolicy.hostAllow / hostDeny).
        const policy = settings.approvalPolicy;
        const key = rule.action === "allow" ? "hostAllow" : "hostDeny";
        const list = policy[key] ?? [];
        if (!list.includes(rule.pattern)) ctx.saveSettings({ ...settings, approvalPolicy: { ...policy, [key]: [...list, rule.pattern] } });
      },
      allowToolAlways: (toolName) => services.allowMcpTool(workspace.id, toolName),
      now,
      workspaceRoot: workspace.path,
      platform: platform(),
      onModelChanged: (sid, model) => {
        const updated = store.setSessionModel(sid, model);
        emit("session.updated", updated);
      },
      onReasoningChanged: (sid, level) => {
        emit("session.updated", store.setSessionReasoning(sid, level));
      },
      demoteOtherReasoning: () => settings.demoteOtherReasoning,
      onAppended: (sid, seq, entry) => {
        promptSources.afterAppend(sid, seq, entry);
        summaries.afterAppend(sid, entry);
      },
      sleep: options.sleep,
      prepareTools: async () => {
        checkpoints.warm(workspace.id);
        await mcp?.whenStarted(MCP_TURN_WAIT_MS);
      },
      instructions: async (touched) =>
        skillsOf(workspace).withSkills(await loadInstructions({ workspaceRoot: workspace.path, userDir: configDir, touched })),
      onModeChanged: (sid, mode, afterSeq) => services.recordMode(sid, { mode, afterSeq, timestamp: now() }),
      checkpoint: (sid, point) => checkpoints.record(sid, point),
      turnLimits: () => settings.limits,
      askBeforeCompacting: () => settings.compaction.ask,
    };
    return deps;
  };

  void store.integrity().then((report) => {
    if (report.ok) return;
    const notice = damageNotice(report);
    notices.push(notice);
    emit("app.notice", { level: report.damaged && !report.dataIntact ? "error" : "warning", message: notice });
  });

  let initialWorkspaceId: string | null = null;
  if (options.initialWorkspace) {
    initialWorkspaceId = openWorkspaceFolder(store, options.initialWorkspace).id;
  }

  const ctx: CoreContext = {
    store,
    keys,
    catalog,
    options,
    notices,
    emit,
    agent: agentFor,
    renameSession: (sessionId, title) => summaries.rename(sessionId, title),
    activeAgent: (id) => agents.get(id),
    activeTurns: () => [...agents.values()].map((a) => a.turnState()).filter((t) => t.status !== "idle"),
    dropAgent: (id) => {
      agents.get(id)?.abort();
      agents.delete(id);
    },
    modelOptions,
    defaultModel,
    rememberModel: (ref) => models.remember(ref),
    settings: () => settings,
    checkpoints,
    saveSettings: (next) => {
      const catalogMoved = next.modelCatalogUrl !== settings.modelCatalogUrl;
      settings = next;
      store.setSetting(SETTINGS_KEY, next);
      // A catalog URL set in Settings is asked at once (the environment's, when set, still wins).
      if (catalogMoved && live && options.modelCatalog && options.modelCatalog.url === undefined) {
        void live.refresh(catalogUrl(env, next.modelCatalogUrl), true);
      }
    },
    initialWorkspaceId,
    services,
    toolOutputs,
    configDir,
    promptSources,
    workspaceRootOf: (sessionId) => {
      const session = store.getSession(sessionId);
      const workspace = session && store.getWorkspace(session.workspaceId);
      if (!workspace) throw new NotFound(`no workspace for session ${sessionId}`);
      return workspace.path;
    },
  };
  const review = createReviewHandlers({
    store,
    platform: platform(),
    now,
    resolveModel: (ref) => catalog.forStoredRef(ref),
    usableModel: (ref) => {
      const model = catalog.find(ref);
      return model !== undefined && catalog.provider(model.provider) !== undefined;
    },
    knownSecrets: () => [...catalog.providers().flatMap((p) => keys.get(p) ?? []), ...otel.secretValues()],
    toolSpecs: (sessionId) => {
      const session = store.getSession(sessionId);
      const mcp = session ? services.mcp(session.workspaceId) : null;
      const { mode, network } = settings.bashSandbox;
      const specs = [...builtInToolSpecs({ bashSandbox: mode, bashNetwork: network }), ...(mcp?.toolSet().specs ?? [])];
      const tierOf = (name: string) => TOOL_TIERS.get(name) ?? mcp?.toolSet().defs.find((d) => d.name === name)?.tier;
      return offeredToolSpecs(store, sessionId, settings.subAgents, specs, (name) => tierOf(name) === "sideEffect");
    },
    modelViewExtras: (sessionId) => {
      const session = store.getSession(sessionId);
      const mcp = session ? services.mcp(session.workspaceId) : null;
      const changes = services.modeChanges(sessionId);
      return {
        instructions: (before) =>
          loadInstructions({ workspaceRoot: ctx.workspaceRootOf(sessionId), userDir: configDir, touched: touchedPaths(before) }),
        recordedSources: () => promptSources.list(sessionId),
        modeAt: (before) => {
          const last = before.at(-1)?.seq ?? 0;
          return changes.filter((c) => c.afterSeq <= last).at(-1)?.mode ?? "agent";
        },
        isSideEffect: (name) => (TOOL_TIERS.get(name) ?? mcp?.toolSet().defs.find((d) => d.name === name)?.tier) === "sideEffect",
      };
    },
    demoteOtherReasoning: () => settings.demoteOtherReasoning,
    onSessionChanged: (s) => emit("session.updated", s),
  });
  // In the background: start-up never waits for the network, and what fails keeps the snapshot (or the cached copy).
  if (live && options.modelCatalog) {
    const url = options.modelCatalog.url ?? catalogUrl(env, settings.modelCatalogUrl);
    void live.refresh(url);
  }

  const team = createTeamHandlers({
    store,
    secrets: options.host.secrets,
    env,
    knownSecrets: () => catalog.providers().flatMap((p) => keys.get(p) ?? []),
    emit,
  });
  const table: HandlerTable = {
    ...createHandlers(ctx),
    ...team.table,
    ...createEcosystemHandlers(ctx),
    ...createStorageHandlers(ctx),
    ...createImporterHandlers({ store, roots: () => agentRoots(env), now, onSessionChanged: (s) => emit("session.updated", s) }),
    ...createOtelHandlers(otel),
    ...review,
    // Files at a step and exports read the checkpoints, so what bash changed shows too (docs/checkpoints.md).
    "review.fileStates": async (p: { sessionId: string; seq: number }) =>
      fileStatesFromCheckpoints(checkpoints, p.sessionId, p.seq, review["review.fileStates"](p)),
    // Not refused for damage elsewhere in the file: the export holds what reads, and lists what does not (its problems).
    "review.export": async (p: { sessionId: string; format: ExportFormat; includeWorkspaceDiff?: boolean }) => {
      const file = review["review.export"](p);
      if (!p.includeWorkspaceDiff) return file;
      const diff = await sessionWorkspaceDiff(checkpoints, p.sessionId);
      return withWorkspaceDiff(
        file,
        p.format,
        redactText(
          diff ?? "",
          catalog.providers().flatMap((pr) => keys.get(pr) ?? []),
        ),
      );
    },
    ...createCheckpointHandlers({
      store,
      service: checkpoints,
      turnRunningIn: (workspaceId) =>
        [...agents.values()].some((a) => a.turnState().status !== "idle" && store.getSession(a.sessionId)?.workspaceId === workspaceId),
      onSessionChanged: (s) => emit("session.updated", s),
    }),
  };

  return {
    handle: (method, params) => dispatch(table, method, params),
    onEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notice: (level, message) => {
      notices.push(message);
      emit("app.notice", { level, message });
    },
    close: async () => {
      for (const agent of agents.values()) agent.abort();
      await Promise.all([...agents.values()].map((a) => a.idle()));
      await checkpoints.close();
      summaries.flush();
      await services.close();
      await team.service.close();
      if (memoryOutputs) await rm(toolOutputs.root, { recursive: true, force: true }).catch(() => undefined);
      listeners.clear();
      store.close();
      await store.whenStopped();
    },
  };
}

const TOOL_TIERS = new Map(TOOL_DEFS.map((d) => [d.name, d.tier]));
