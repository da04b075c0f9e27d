/** The WorkbenchApi request handlers (params already parsed by dispatch). */
import type { RequestParams, RequestResult } from "../../../shared/api";
import type { CoreContext } from "./create-workbench";
import { openWorkspaceFolder } from "./lookups";
import type { CoreHandlerTable, HandlerTable } from "./dispatch";
import { ApiFailure, NotFound, requireSession as findSession, requireWorkspace as findWorkspace } from "./errors";
import { isStorageFailure } from "../store";
import { readCaFile } from "../network/node-fetch";
import { parseSettings } from "./settings";
import { invalidBashAllow } from "../tools/approval/rule-match";
import { detectBashSandbox } from "../tools/bash-sandbox";
import { composeMessage } from "./compose-message";
import { listFolders } from "./folder-browser";
import type { EcosystemMethod } from "./ecosystem-handlers";
import type { StorageMethod } from "./storage-handlers";
import { withOrigin, type ImporterMethod } from "../importers/handlers";
import { withResults } from "../review/fork";
import type { OtelMethod } from "./otel-handlers";

/** A bash allow rule must name its program; any rule needs text. */
function checkRulePattern(tool: string, action: string, pattern: string): void {
  const problem = tool === "bash" && action === "allow" ? invalidBashAllow(pattern) : pattern.trim() === "" ? "the rule is empty" : null;
  if (problem) throw new ApiFailure("INVALID_REQUEST", problem);
}

type P<M extends keyof HandlerTable> = RequestParams<M>;
type R<M extends keyof HandlerTable> = RequestResult<M>;

export function createHandlers(ctx: CoreContext): Omit<CoreHandlerTable, EcosystemMethod | StorageMethod | ImporterMethod | OtelMethod> {
  const { store } = ctx;

  const requireSession = (id: string) => findSession(store, id);

  const requireWorkspace = (id: string) => findWorkspace(store, id);

  const providerStatus = (key: string): R<"secrets.setApiKey"> => {
    const p = ctx.catalog.provider(key);
    if (!p) throw new NotFound(`unknown provider ${key}`);
    return {
      key: p.key,
      label: p.label,
      baseUrl: p.baseUrl,
      keySource: ctx.keys.source(p),
      keyHint: ctx.keys.hint(p),
      apiKeyEnv: p.apiKeyEnv ?? null,
    };
  };

  return {
    "app.info": (): R<"app.info"> => {
      // Computed once: the default model is picked among the same options.
      const options = ctx.modelOptions();
      return {
        mode: ctx.options.host.mode,
        version: ctx.options.version,
        initialWorkspace: ctx.initialWorkspaceId ? (store.getWorkspace(ctx.initialWorkspaceId) ?? null) : null,
        demo: ctx.options.demo ?? false,
        defaultModel: ctx.defaultModel(options),
        keyStore: ctx.options.host.secrets ? (ctx.options.host.secretsWhere ?? "the app's key store") : null,
        notices: [
          ...ctx.notices,
          // Keyless local servers (Ollama, LM Studio) always count as configured: only a provider that needs a key tells.
          ...(options.some((m) => m.configured && !m.demo && ctx.catalog.provider(m.provider)?.apiKeyEnv)
            ? []
            : ctx.options.demo
              ? [
                  "No API key is configured: the offline demo model is selected. Add a key in Settings (or an environment variable in web mode) to use real models, or pick a model of a local server (Ollama, LM Studio).",
                ]
              : [
                  "No API key is configured. Add a key in Settings (or a provider's environment variable in web mode), or pick a model of a local server (Ollama, LM Studio).",
                ]),
        ],
      };
    },

    "workspace.open": (p: P<"workspace.open">) => openWorkspaceFolder(store, p.path),
    "workspace.pick": async () => {
      if (!ctx.options.host.pickFolder) throw new ApiFailure("UNSUPPORTED", "this host has no folder dialog; type the folder path instead");
      const path = await ctx.options.host.pickFolder();
      return path ? openWorkspaceFolder(store, path) : null;
    },
    "workspace.recent": () => store.recentWorkspaces(20),
    "workspace.browse": (p: P<"workspace.browse">) => listFolders(p.path, p.showHidden === true),

    "session.list": (p: P<"session.list">) => {
      const page = store.listSessions(p.workspaceId, { limit: p.limit, before: p.before });
      return { ...page, sessions: page.sessions.map((s) => withOrigin(store, s)) };
    },
    "session.search": (p: P<"session.search">) => store.search(p.query, { workspaceId: p.workspaceId, limit: p.limit }),
    "search.everything": (p: P<"search.everything">) => store.searchEverything(p.query, p.filters, p.limit),
    "session.create": (p: P<"session.create">) => {
      if (!store.getWorkspace(p.workspaceId)) throw new NotFound(`no workspace ${p.workspaceId}`);
      if (p.model) ctx.rememberModel(p.model);
      const model = p.model ?? ctx.defaultModel();
      return store.createSession({ workspaceId: p.workspaceId, title: p.title, model: model ?? undefined });
    },
    "session.rename": (p: P<"session.rename">) => {
      requireSession(p.sessionId);
      const s = ctx.renameSession(p.sessionId, p.title);
      ctx.emit("session.updated", s);
      return s;
    },
    "session.delete": (p: P<"session.delete">) => {
      requireSession(p.sessionId);
      ctx.dropAgent(p.sessionId);
      store.deleteSession(p.sessionId);
      // Its bash output files go with it (docs/tool-sandbox.md#output-files).
      void ctx.toolOutputs.removeSession(p.sessionId);
      return { ok: true as const };
    },
    "session.fork": (p: P<"session.fork">) => {
      requireSession(p.sessionId);
      // A step's tool calls go with their results (review/fork.ts): no false "aborted" in the fork.
      let fork = store.forkSession(p.sessionId, withResults(store.loadEntries(p.sessionId), p.atSeq));
      if (p.model) {
        ctx.agent(fork.id).switchModel(p.model);
        fork = requireSession(fork.id);
      }
      return fork;
    },
    "session.load": (p: P<"session.load">) => {
      const session = requireSession(p.sessionId);
      const agent = ctx.activeAgent(p.sessionId);
      if (!agent || agent.turnState().status === "idle") {
        try {
          store.repairSession(p.sessionId);
        } catch (err) {
          // A store that refuses the write (locked, full) still lets the session be read; the repair runs at the next load.
          if (!isStorageFailure(err)) throw err;
        }
      }
      const current = requireSession(p.sessionId);
      const fromSeq = p.tail ? Math.max(1, current.entryCount - p.tail + 1) : undefined;
      // Checked: a row that no longer reads is shown as damaged, not silently left out.
      const { entries, problems } = store.loadEntriesChecked(session.id, { fromSeq });
      return {
        session: current,
        entries,
        damaged: problems,
        turn: agent?.turnState() ?? {
          sessionId: session.id,
          mode: ctx.services.mode(session.id),
          status: "idle" as const,
          queued: [],
          pendingApproval: null,
        },
        modeChanges: ctx.services.modeChanges(session.id),
      };
    },

    "session.entries": (p: P<"session.entries">) => {
      requireSession(p.sessionId);
      const { entries, problems } = store.loadEntriesChecked(p.sessionId, { fromSeq: p.fromSeq, toSeq: p.toSeq });
      return { entries, damaged: problems };
    },

    "chat.send": async (p: P<"chat.send">) => {
      requireSession(p.sessionId);
      if (!p.text.trim() && !(p.images?.length ?? 0) && !(p.mentions?.length ?? 0) && !p.command)
        throw new ApiFailure("INVALID_REQUEST", "the message is empty");
      const { text, blocks } = await composeMessage(p, {
        workspaceRoot: ctx.workspaceRootOf(p.sessionId),
        configDir: ctx.configDir,
        sources: ctx.promptSources,
      });
      const askEach = p.approvals === "askEach" ? "this run asks for every change and command" : undefined;
      const sent = ctx.agent(p.sessionId).send(text, p.images ?? [], blocks, {
        ...(askEach ? { askEach } : {}),
        ...(p.delivery === "steer" ? { steer: true } : {}),
        ...(p.limits ? { limits: p.limits } : {}),
      });
      // Not saved, so not sent: the caller keeps the message and sends it again once the store takes it.
      if (sent.notSaved !== undefined) throw new ApiFailure("STORAGE", sent.notSaved);
      return { queued: sent.queued };
    },
    "session.setPlan": (p: P<"session.setPlan">) => {
      requireSession(p.sessionId);
      ctx.agent(p.sessionId).setPlan(p.items);
      return { ok: true as const };
    },
    "chat.abort": (p: P<"chat.abort">) => {
      requireSession(p.sessionId);
      ctx.activeAgent(p.sessionId)?.abort();
      return { ok: true as const };
    },
    "chat.retry": (p: P<"chat.retry">) => {
      requireSession(p.sessionId);
      const refused = ctx.agent(p.sessionId).retry();
      if (refused !== null) throw new ApiFailure("CONFLICT", refused);
      return { ok: true as const };
    },
    "chat.activeTurns": () => ctx.activeTurns(),
    "chat.switchModel": (p: P<"chat.switchModel">) => {
      requireSession(p.sessionId);
      if (!ctx.catalog.find(p.model)) throw new NotFound(`unknown model ${p.model.provider}/${p.model.id}`);
      ctx.agent(p.sessionId).switchModel(p.model);
      ctx.rememberModel(p.model);
      return requireSession(p.sessionId);
    },
    "chat.setReasoning": (p: P<"chat.setReasoning">) => {
      requireSession(p.sessionId);
      ctx.agent(p.sessionId).setReasoning(p.level);
      return requireSession(p.sessionId);
    },
    "approval.answer": (p: P<"approval.answer">) => {
      requireSession(p.sessionId);
      const agent = ctx.activeAgent(p.sessionId);
      if (!agent) throw new ApiFailure("CONFLICT", "no approval is pending for that tool call");
      const refused = agent.answerApproval(p.toolCallId, p.decision, p.reason, p.rule, p.review);
      if (refused) throw new ApiFailure(refused.code, refused.message);
      return { ok: true as const };
    },

    "rules.list": (p: P<"rules.list">) => {
      requireWorkspace(p.workspaceId);
      // Rules saved before the program tables existed may cover nothing now: say so rather than keep them silently.
      return store.listRules(p.workspaceId).map((rule) => {
        const problem = rule.tool === "bash" && rule.action === "allow" ? invalidBashAllow(rule.pattern) : null;
        return problem ? { ...rule, problem } : rule;
      });
    },
    "rules.add": (p: P<"rules.add">) => {
      requireWorkspace(p.workspaceId);
      checkRulePattern(p.tool, p.action, p.pattern);
      return store.addRule(p);
    },
    "rules.update": (p: P<"rules.update">) => {
      requireWorkspace(p.workspaceId);
      const existing = store.listRules(p.workspaceId).find((r) => r.id === p.id);
      if (!existing) throw new NotFound(`no rule ${p.id} in this workspace`);
      checkRulePattern(existing.tool, p.action ?? existing.action, p.pattern ?? existing.pattern);
      return store.updateRule(p.workspaceId, p.id, {
        ...(p.action ? { action: p.action } : {}),
        ...(p.pattern ? { pattern: p.pattern } : {}),
      });
    },
    "rules.remove": (p: P<"rules.remove">) => {
      requireWorkspace(p.workspaceId);
      if (!store.removeRule(p.workspaceId, p.id)) throw new NotFound(`no rule ${p.id} in this workspace`);
      return { ok: true as const };
    },

    "models.list": () => ctx.modelOptions(),
    "models.refresh": async () => {
      await ctx.catalog.discoverModels({ ready: (p) => ctx.keys.ready(p), apiKey: (p) => ctx.keys.get(p) });
      return ctx.modelOptions();
    },
    "providers.list": () => ctx.catalog.providers().map((p) => providerStatus(p.key)),
    "secrets.setApiKey": async (p: P<"secrets.setApiKey">) => {
      providerStatus(p.provider);
      if (!ctx.keys.canStore()) {
        const env = ctx.catalog.provider(p.provider)?.apiKeyEnv;
        throw new ApiFailure(
          "UNSUPPORTED",
          `keys cannot be stored in web mode; set ${env ?? "the provider's environment variable"} and restart`,
        );
      }
      await ctx.keys.set(p.provider, p.apiKey.trim() || null);
      return providerStatus(p.provider);
    },
    "settings.get": () => ctx.settings(),
    "tools.sandboxStatus": () => {
      const info = detectBashSandbox();
      return info.reason === undefined ? { kind: info.kind } : { kind: info.kind, reason: info.reason };
    },
    "settings.update": (p: P<"settings.update">) => {
      // A CA file that cannot be used is refused now, with its reason, rather than failing every later call.
      const caFile = p.network?.caFile;
      if (caFile) {
        try {
          readCaFile(caFile, "Settings → Network → CA file");
        } catch (err) {
          throw new ApiFailure("INVALID_REQUEST", err instanceof Error ? err.message : String(err));
        }
      }
      const next = parseSettings({ ...ctx.settings(), ...p });
      ctx.saveSettings(next);
      return next;
    },
  };
}
