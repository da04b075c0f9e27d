/**
 * The team.* requests (docs/team.md): Settings → Team, publish, the library,
 * notes, review state. The password lives in the host's key store under
 * TEAM_SECRET (never in SQLite, results or events); without a key store it
 * comes from WORKBENCH_TEAM_PASSWORD.
 */
import type { RequestParams, RequestResult } from "../../../shared/api";
import type { TeamConnection } from "../../../shared/team";
import { parseTeamUrl } from "../team/connection";
import { TeamError } from "../team/errors";
import { TEAM_SECRET, TeamService } from "../team/service";
import { createRedactor } from "../review/redact";
import type { SessionStore } from "../store";
import { ApiFailure, type HandlerTable, type TeamMethod } from "./dispatch";
import type { SecretStore } from "./workbench";
import type { EventName, EventPayload } from "../../../shared/api";

type P<M extends TeamMethod> = RequestParams<M>;
type R<M extends TeamMethod> = RequestResult<M>;

export const TEAM_PASSWORD_ENV = "WORKBENCH_TEAM_PASSWORD";

export interface TeamHandlerDeps {
  store: SessionStore;
  secrets: SecretStore | undefined;
  env: Record<string, string | undefined>;
  knownSecrets: () => readonly string[];
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
}

interface Team {
  service: TeamService;
  password(): Promise<string | null>;
  setPassword(value: string | null): Promise<void>;
}

function createTeam(deps: TeamHandlerDeps): Team {
  let cached: string | null | undefined;
  const password = async () => {
    if (cached === undefined) cached = deps.secrets ? await deps.secrets.get(TEAM_SECRET) : (deps.env[TEAM_PASSWORD_ENV] ?? null);
    return cached;
  };
  const service = new TeamService({
    store: deps.store,
    // The team password is a secret an export must not carry, like the API keys.
    redactor: () => createRedactor([...deps.knownSecrets(), ...(cached ? [cached] : [])]),
    password,
    events: {
      note: (n) => deps.emit("team.note", n),
      review: (s) => deps.emit("team.review", s),
      status: (s) => deps.emit("team.status", s),
    },
  });
  const setPassword = async (value: string | null) => {
    if (!deps.secrets)
      throw new ApiFailure("UNSUPPORTED", `This host has no key store: set ${TEAM_PASSWORD_ENV} in the environment instead`);
    await deps.secrets.set(TEAM_SECRET, value);
    cached = value;
  };
  return { service, password, setPassword };
}

export function createTeamHandlers(deps: TeamHandlerDeps): { table: Pick<HandlerTable, TeamMethod>; service: TeamService } {
  const team = createTeam(deps);
  const { service } = team;
  const settings = async (): Promise<R<"team.settings">> => ({
    connection: service.connection(),
    passwordSet: (await team.password()) !== null,
    status: service.status(),
    autoPublish: service.autoPublishing(),
  });
  // Live notes from the start when a library is set up; a server that is down is retried in the background.
  if (service.connection()) void service.watch().catch(() => undefined);
  const table: Pick<HandlerTable, TeamMethod> = {
    "team.settings": settings,
    "team.configure": async (p: P<"team.configure">) => {
      let connection: TeamConnection | null | undefined = p.connection;
      let password = p.password;
      if (p.url !== undefined) {
        const parsed = parseTeamUrl(p.url, p.defaultProject ?? service.connection()?.defaultProject ?? "default");
        connection = { ...parsed.connection, ...(p.connection ? { tls: p.connection.tls, caFile: p.connection.caFile } : {}) };
        if (parsed.password !== null && password === undefined) password = parsed.password;
      }
      if (password !== undefined) await team.setPassword(password);
      if (connection !== undefined) await service.configure(connection);
      if (connection) void service.watch().catch(() => undefined);
      return settings();
    },
    "team.autoPublish": (p: P<"team.autoPublish">) => {
      if (!deps.store.getWorkspace(p.workspaceId)) throw new ApiFailure("NOT_FOUND", `no workspace ${p.workspaceId}`);
      service.setAutoPublish(p.workspaceId, p.on);
      return settings();
    },
    "team.publish": async (p: P<"team.publish">) => {
      if (!deps.store.getSession(p.sessionId)) throw new ApiFailure("NOT_FOUND", `no session ${p.sessionId}`);
      const out = await service.publish(p.sessionId, p.project);
      if (out.queued) return { queued: true as const, outboxId: out.id };
      const { sessionId, revision, entries, bytes } = out.value;
      return { queued: false as const, sessionId, revision, entries, bytes };
    },
    "team.list": (p: P<"team.list">) => service.list(p),
    "team.search": (p: P<"team.search">) => service.search(p.query, { project: p.project, limit: p.limit }),
    "team.open": async (p: P<"team.open">) => {
      if (!deps.store.getWorkspace(p.workspaceId)) throw new ApiFailure("NOT_FOUND", `no workspace ${p.workspaceId}`);
      const { session, revision } = await service.open(p.id, p.workspaceId, p.revision);
      return { localSessionId: session.id, revision };
    },
    "team.notes": (p: P<"team.notes">) => service.notes(p.id),
    "team.notes.add": async (p: P<"team.notes.add">) => {
      const out = await service.addNote(p);
      return out.queued ? { queued: true as const, outboxId: out.id } : { queued: false as const, note: out.value };
    },
    "team.review.state": async (p: P<"team.review.state">) => {
      const out = await service.setReviewState(p.id, p.state);
      return out.queued ? { queued: true as const, outboxId: out.id } : { queued: false as const };
    },
    "team.review.request": async (p: P<"team.review.request">) => {
      const out = await service.requestReview(p.id, p.assignee);
      return out.queued ? { queued: true as const, outboxId: out.id } : { queued: false as const };
    },
    "team.sync": async () => {
      if (!service.connection()) throw new TeamError("TEAM_NOT_CONFIGURED", "No team library is set up (Settings → Team)");
      await service.sync();
      return service.status();
    },
  };
  return { table, service };
}
