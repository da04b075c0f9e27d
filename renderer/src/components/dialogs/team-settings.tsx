/**
 * Settings → Team: where the team library's PostgreSQL is (discrete fields or
 * a postgresql:// URL), TLS with a CA file, and a status line that follows
 * team.status events. The password goes to the key store through
 * team.configure and is never shown back (docs/team.md).
 */
import { useEffect, useRef, useState } from "react";
import type { TeamConnection } from "../../../../shared/team";
import { useAppStore } from "../../stores/app-store";
import { linkState, useTeamStore, type TeamLinkState } from "../../stores/team-store";
import { useWorkspaceStore } from "../../stores/workspace-store";

const STATE_TEXT: Record<TeamLinkState, string> = {
  notConfigured: "Not set up",
  unknown: "Not contacted yet",
  connected: "Connected",
  unreachable: "Unreachable: publishing and notes are queued until it is back",
  denied: "Denied by the server",
};

interface Draft {
  url: string;
  host: string;
  port: string;
  database: string;
  user: string;
  password: string;
  tls: TeamConnection["tls"];
  caFile: string;
  defaultProject: string;
}

function draftOf(c: TeamConnection | null): Draft {
  return {
    url: "",
    host: c?.host ?? "",
    port: String(c?.port ?? 5432),
    database: c?.database ?? "",
    user: c?.user ?? "",
    password: "",
    tls: c?.tls ?? "off",
    caFile: c?.caFile ?? "",
    defaultProject: c?.defaultProject ?? "default",
  };
}

export function TeamStatusLine() {
  const state = useTeamStore((s) => linkState(s));
  const status = useTeamStore((s) => s.status);
  const denied = useTeamStore((s) => s.denied);
  const detail = state === "denied" ? denied : state === "unreachable" ? status?.lastError : null;
  return (
    <p className={`small team-status team-${state}`} role="status" aria-label="Team library status">
      <span className={`badge${state === "connected" ? " ok" : state === "notConfigured" || state === "unknown" ? "" : " warn"}`}>
        {STATE_TEXT[state]}
      </span>
      {status && status.queued > 0 && <span className="muted"> · {status.queued} waiting to be sent</span>}
      {status && status.failed.length > 0 && <span className="muted"> · {status.failed.length} refused</span>}
      {detail && <span className="muted"> · {detail}</span>}
    </p>
  );
}

export function TeamSettingsSection({ headingId }: { headingId: string }) {
  const settings = useTeamStore((s) => s.settings);
  const configure = useTeamStore((s) => s.configure);
  const workspaceId = useWorkspaceStore((s) => s.workspace?.id ?? null);
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings?.connection ?? null));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** Set once the user types: settings read after that never replace what they typed. */
  const edited = useRef(false);

  useEffect(() => {
    void useTeamStore
      .getState()
      .loadSettings()
      .then(() => {
        if (!edited.current) setDraft(draftOf(useTeamStore.getState().settings?.connection ?? null));
      })
      .catch((err: unknown) => useAppStore.getState().reportError("Could not read the team settings", err));
  }, []);

  const set = (patch: Partial<Draft>) => {
    edited.current = true;
    setDraft({ ...draft, ...patch });
  };
  const tlsPart = { tls: draft.tls, caFile: draft.tls === "verify" && draft.caFile.trim() ? draft.caFile.trim() : null };

  const save = async () => {
    setSaving(true);
    setError(null);
    const password = draft.password === "" ? undefined : draft.password;
    const project = draft.defaultProject.trim() || "default";
    let failed: string | null;
    if (draft.url.trim()) {
      // The server parses the URL (its password goes to the key store); TLS choices from the form are applied on top.
      failed = await configure({ url: draft.url.trim(), defaultProject: project, ...(password !== undefined ? { password } : {}) });
      const parsed = useTeamStore.getState().settings?.connection;
      if (!failed && parsed && draft.tls === "verify") failed = await configure({ connection: { ...parsed, ...tlsPart } });
    } else {
      const port = Number(draft.port);
      failed = await configure({
        connection: {
          host: draft.host.trim(),
          port: Number.isInteger(port) ? port : 0,
          database: draft.database.trim(),
          user: draft.user.trim(),
          ...tlsPart,
          defaultProject: project,
        },
        ...(password !== undefined ? { password } : {}),
      });
    }
    setSaving(false);
    setError(failed);
    if (!failed) {
      setDraft(draftOf(useTeamStore.getState().settings?.connection ?? null));
      useAppStore.getState().notify("info", "Team library saved");
    }
  };

  const disconnect = async () => {
    setSaving(true);
    const failed = await configure({ connection: null });
    setSaving(false);
    setError(failed);
    if (!failed) setDraft(draftOf(null));
  };

  const field = (key: keyof Draft, label: string, extra: { type?: string; placeholder?: string } = {}) => (
    <label className="field">
      <span>{label}</span>
      <input
        aria-label={`Team ${label.toLowerCase()}`}
        type={extra.type ?? "text"}
        placeholder={extra.placeholder}
        value={draft[key]}
        onChange={(e) => set({ [key]: e.target.value })}
        spellCheck={false}
        autoComplete="off"
      />
    </label>
  );

  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Team</h3>
      <p className="muted">
        A team library in PostgreSQL: publish sessions, and review sessions published by others with notes and verdicts. The password is
        kept in the key store, never in the sessions database.
      </p>
      <TeamStatusLine />
      {field("url", "URL", { placeholder: "postgresql://user:password@host:5432/database (fills the fields below)" })}
      <div className="policy-grid">
        {field("host", "Host", { placeholder: "db.example.com" })}
        {field("port", "Port", { type: "number" })}
        {field("database", "Database")}
        {field("user", "User")}
      </div>
      {field("password", "Password", {
        type: "password",
        placeholder: settings?.passwordSet ? "stored (leave empty to keep it)" : "not stored",
      })}
      <label className="field">
        <span>TLS</span>
        <select aria-label="Team TLS" value={draft.tls} onChange={(e) => set({ tls: e.target.value as TeamConnection["tls"] })}>
          <option value="off">Off (loopback or a trusted network)</option>
          <option value="verify">Verify the server&apos;s certificate</option>
        </select>
      </label>
      {draft.tls === "verify" && field("caFile", "CA file", { placeholder: "/path/to/team-ca.pem (empty: the system's CAs)" })}
      {field("defaultProject", "Default project")}
      {settings?.connection && workspaceId && (
        <label className="field inline">
          <input
            type="checkbox"
            checked={settings.autoPublish.includes(workspaceId)}
            disabled={saving}
            onChange={(e) => void useTeamStore.getState().setAutoPublish(workspaceId, e.target.checked).then(setError)}
          />
          Publish this workspace&apos;s sessions at the end of each turn (a new revision each time; queued while the server is unreachable)
        </label>
      )}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      <p>
        <button type="button" disabled={saving} onClick={() => void save()}>
          {saving ? "Saving…" : "Save team connection"}
        </button>
        {settings?.connection && (
          <button type="button" disabled={saving} onClick={() => void disconnect()}>
            Disconnect
          </button>
        )}
      </p>
    </section>
  );
}
