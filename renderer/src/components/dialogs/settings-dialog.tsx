/**
 * Settings: API keys (stored by the main process in the OS keychain; in web mode
 * they come from environment variables), base URLs with presets, default model,
 * approval policy, run budgets, sub-agents, theme. Keys are never shown back, only a hint.
 */
import { McpServersSection } from "./mcp-servers-section";
import { useEffect, useId, useRef, useState } from "react";
import type { Settings } from "../../../../shared/api";
import { useAppStore } from "../../stores/app-store";
import { missingCredential, modelRefOf, sameModel, useModelsStore } from "../../stores/models-store";
import { useSettingsStore } from "../../stores/settings-store";
import { useUiStore } from "../../stores/ui-store";
import { ApiKeyRow } from "./api-key-row";
import { BashSandboxSection } from "./bash-sandbox-settings";
import { CheckpointSettingsSection } from "./checkpoint-settings";
import { SubAgentSettingsSection } from "./sub-agent-settings";
import { TurnLimitsSection } from "./turn-limits-settings";
import { StorageSettingsSection } from "./storage-settings";
import { ImportAgentsSection } from "./import-agents-settings";
import { ObservabilitySettingsSection } from "./observability-settings";
import { TeamSettingsSection } from "./team-settings";
import { WorkspaceRules } from "./workspace-rules";

const BASE_URL_PRESETS: { label: string; url: string }[] = [
  { label: "Ollama (local)", url: "http://127.0.0.1:11434/v1" },
  { label: "LM Studio (local)", url: "http://127.0.0.1:1234/v1" },
  { label: "vLLM (local)", url: "http://127.0.0.1:8000/v1" },
  { label: "OpenRouter", url: "https://openrouter.ai/api/v1" },
  { label: "Mistral", url: "https://api.mistral.ai/v1" },
  { label: "Groq", url: "https://api.groq.com/openai/v1" },
  { label: "xAI", url: "https://api.x.ai/v1" },
  { label: "OpenAI", url: "https://api.openai.com/v1" },
  { label: "Anthropic", url: "https://api.anthropic.com" },
];

const POLICY_TOOLS = ["write", "edit", "bash"] as const;
const BUDGET_FIELDS: { key: keyof Settings["budget"]; label: string }[] = [
  { key: "maxToolCalls", label: "Max tool calls per turn" },
  { key: "maxSideEffects", label: "Max side-effect actions per turn" },
  { key: "maxOutputBytes", label: "Max tool output bytes per turn" },
  { key: "maxDurationMs", label: "Max turn duration (ms)" },
];

function lines(text: string): string[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
}

export function SettingsDialog() {
  const open = useUiStore((s) => s.settingsOpen);
  const setOpen = useUiStore((s) => s.setSettingsOpen);
  if (!open) return null;
  return <SettingsForm onClose={() => setOpen(false)} />;
}

function SettingsForm({ onClose }: { onClose: () => void }) {
  const id = useId();
  const mode = useAppStore((s) => s.info?.mode ?? "web");
  const keyStore = useAppStore((s) => s.info?.keyStore ?? null);
  const settings = useSettingsStore((s) => s.settings);
  const update = useSettingsStore((s) => s.update);
  const models = useModelsStore((s) => s.models);
  const providers = useModelsStore((s) => s.providers);
  const [draft, setDraft] = useState<Settings | null>(settings);
  const [allowText, setAllowText] = useState((settings?.approvalPolicy.bashAllow ?? []).join("\n"));
  const [denyText, setDenyText] = useState((settings?.approvalPolicy.bashDeny ?? []).join("\n"));
  const [saving, setSaving] = useState(false);
  const firstRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    void useModelsStore.getState().load();
    firstRef.current?.focus();
  }, []);

  // A button that is disabled while its call runs (Restart, Trust and start) drops the focus to the page body,
  // where the dialog's own Escape handler no longer hears keys: Escape must still close it.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && (document.activeElement === null || document.activeElement === document.body)) onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);

  if (!draft) return null;
  const set = (patch: Partial<Settings>) => setDraft({ ...draft, ...patch });

  const save = async () => {
    setSaving(true);
    const baseUrls = Object.fromEntries(Object.entries(draft.baseUrls).filter(([, v]) => v.trim() !== ""));
    const ok = await update({
      defaultModel: draft.defaultModel,
      approvalPolicy: { ...draft.approvalPolicy, bashAllow: lines(allowText), bashDeny: lines(denyText) },
      budget: draft.budget,
      baseUrls,
      theme: draft.theme,
      demoteOtherReasoning: draft.demoteOtherReasoning,
      network: { caFile: draft.network.caFile?.trim() ? draft.network.caFile.trim() : null },
      modelCatalogUrl: draft.modelCatalogUrl?.trim() ? draft.modelCatalogUrl.trim() : null,
      checkpoints: draft.checkpoints,
      bashSandbox: draft.bashSandbox,
      subAgents: draft.subAgents,
      limits: draft.limits,
      compaction: draft.compaction,
    });
    setSaving(false);
    if (ok) {
      useAppStore.getState().notify("info", "Settings saved");
      onClose();
    }
  };

  const defaultIdx = draft.defaultModel ? models.findIndex((m) => sameModel(modelRefOf(m), draft.defaultModel)) : -1;

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="modal settings"
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-t`}
        onKeyDown={(e) => e.key === "Escape" && onClose()}
      >
        <h2 id={`${id}-t`} ref={firstRef} tabIndex={-1}>
          Settings
        </h2>

        <section aria-labelledby={`${id}-keys`}>
          <h3 id={`${id}-keys`}>API keys</h3>
          {mode === "web" && keyStore !== null ? (
            <p className="muted">
              Keys saved here are kept in <code>{keyStore}</code>, readable only by your user (never in the sessions database). Environment
              variables set before <code>npm run web</code> work too. Saved keys are never shown again, only their last characters.
            </p>
          ) : mode === "web" ? (
            <p className="muted">
              In web mode, keys come from environment variables set before <code>npm run web</code> (for example{" "}
              {providers
                .map((p) => p.apiKeyEnv)
                .filter(Boolean)
                .slice(0, 3)
                .map((env, i) => (
                  <span key={env}>
                    {i > 0 ? ", " : ""}
                    <code>{env}</code>
                  </span>
                ))}
              ). They are never stored or shown.
            </p>
          ) : (
            <p className="muted">
              Keys are kept in the operating system's keychain by the app. They are never shown again, only their last characters.
            </p>
          )}
          <ul className="key-list">
            {providers.map((p) => (
              <ApiKeyRow
                key={p.key}
                provider={p}
                editable={keyStore !== null}
                storedLabel={mode === "web" ? "stored in the key file" : "stored in the keychain"}
              />
            ))}
          </ul>
        </section>

        <section aria-labelledby={`${id}-urls`}>
          <h3 id={`${id}-urls`}>Base URLs</h3>
          <datalist id={`${id}-presets`}>
            {BASE_URL_PRESETS.map((p) => (
              <option key={p.url} value={p.url} label={p.label} />
            ))}
          </datalist>
          {providers.map((p) => (
            <label key={p.key} className="field">
              <span>{p.label}</span>
              <input
                aria-label={`Base URL for ${p.label}`}
                list={`${id}-presets`}
                placeholder={p.baseUrl}
                value={draft.baseUrls[p.key] ?? ""}
                onChange={(e) => set({ baseUrls: { ...draft.baseUrls, [p.key]: e.target.value } })}
                spellCheck={false}
              />
            </label>
          ))}
        </section>

        <section aria-labelledby={`${id}-model`}>
          <h3 id={`${id}-model`}>Default model</h3>
          <select
            aria-label="Default model"
            value={defaultIdx}
            onChange={(e) => {
              const m = models[Number(e.target.value)];
              set({ defaultModel: m ? modelRefOf(m) : null });
            }}
          >
            <option value={-1}>None</option>
            {models.map((m, i) => (
              <option key={`${m.provider}/${m.id}`} value={i}>
                {m.providerLabel} · {m.name}
                {m.configured ? "" : ` (${missingCredential(m)})`}
              </option>
            ))}
          </select>
        </section>

        <section aria-labelledby={`${id}-policy`}>
          <h3 id={`${id}-policy`}>Approval policy</h3>
          <div className="policy-grid">
            {POLICY_TOOLS.map((tool) => (
              <label key={tool} className="field">
                <span>{tool}</span>
                <select
                  aria-label={`Policy for ${tool}`}
                  value={draft.approvalPolicy[tool]}
                  onChange={(e) => set({ approvalPolicy: { ...draft.approvalPolicy, [tool]: e.target.value as "ask" | "allow" | "deny" } })}
                >
                  <option value="ask">Ask me</option>
                  <option value="allow">Always allow</option>
                  <option value="deny">Always deny</option>
                </select>
              </label>
            ))}
          </div>
          <label className="field">
            <span>Commands always allowed, every workspace (one rule per line; add * for further arguments: npm test *)</span>
            <textarea
              aria-label="Commands always allowed"
              rows={3}
              value={allowText}
              onChange={(e) => setAllowText(e.target.value)}
              spellCheck={false}
            />
          </label>
          <label className="field">
            <span>Commands always denied (wins over allowed)</span>
            <textarea
              aria-label="Commands always denied"
              rows={3}
              value={denyText}
              onChange={(e) => setDenyText(e.target.value)}
              spellCheck={false}
            />
          </label>
        </section>

        <WorkspaceRules headingId={`${id}-rules`} />

        <section aria-labelledby={`${id}-budget`}>
          <h3 id={`${id}-budget`}>Run budget</h3>
          <div className="policy-grid">
            {BUDGET_FIELDS.map((f) => (
              <label key={f.key} className="field">
                <span>{f.label}</span>
                <input
                  type="number"
                  min={f.key === "maxSideEffects" ? 0 : 1}
                  aria-label={f.label}
                  value={draft.budget[f.key]}
                  onChange={(e) => set({ budget: { ...draft.budget, [f.key]: Math.max(0, Math.floor(Number(e.target.value) || 0)) } })}
                />
              </label>
            ))}
          </div>
        </section>

        <SubAgentSettingsSection
          headingId={`${id}-sub-agents`}
          value={draft.subAgents}
          models={models}
          onChange={(subAgents) => set({ subAgents })}
        />
        <TurnLimitsSection headingId={`${id}-limits`} limits={draft.limits} compaction={draft.compaction} onChange={set} />

        <section aria-labelledby={`${id}-reasoning`}>
          <h3 id={`${id}-reasoning`}>Reasoning after a model switch</h3>
          <label className="field">
            <input type="checkbox" checked={draft.demoteOtherReasoning} onChange={(e) => set({ demoteOtherReasoning: e.target.checked })} />{" "}
            Send other models&apos; reasoning as plain text (never to Anthropic models, which refuse it)
          </label>
          <p className="muted small">
            Off by default: each model sees only its own reasoning, plus the text and tool calls every model wrote.
          </p>
        </section>

        <BashSandboxSection headingId={`${id}-sandbox`} value={draft.bashSandbox} onChange={(bashSandbox) => set({ bashSandbox })} />
        <section aria-labelledby={`${id}-network`}>
          <h3 id={`${id}-network`}>Network</h3>
          <label className="field">
            <span>CA file</span>
            <input
              aria-label="CA file"
              placeholder="/path/to/corporate-ca.pem"
              value={draft.network.caFile ?? ""}
              onChange={(e) => set({ network: { caFile: e.target.value } })}
              spellCheck={false}
            />
          </label>
          <p className="muted small">
            A PEM file of extra certificate authorities to trust, for a network or proxy that inspects TLS. Proxies come from the system
            settings in the desktop app, and from HTTPS_PROXY / HTTP_PROXY / NO_PROXY in web mode.
          </p>
          <label className="field">
            <span>Model catalog URL</span>
            <input
              aria-label="Model catalog URL"
              placeholder="https://models.dev/api.json"
              value={draft.modelCatalogUrl ?? ""}
              onChange={(e) => set({ modelCatalogUrl: e.target.value })}
              spellCheck={false}
            />
          </label>
          <p className="muted small">
            Where model limits and capabilities are fetched from at start (a copy of models.dev&apos;s api.json); empty: models.dev. The
            AGENT_WORKBENCH_MODELS_URL environment variable, when set, wins.
          </p>
        </section>

        <McpServersSection headingId={`${id}-mcp`} />
        <CheckpointSettingsSection
          headingId={`${id}-checkpoints`}
          value={draft.checkpoints}
          onChange={(checkpoints) => set({ checkpoints })}
        />
        <ObservabilitySettingsSection headingId={`${id}-otel`} />
        <TeamSettingsSection headingId={`${id}-team`} />
        <StorageSettingsSection headingId={`${id}-storage`} />
        <ImportAgentsSection headingId={`${id}-import-agents`} />

        <section aria-labelledby={`${id}-theme`}>
          <h3 id={`${id}-theme`}>Appearance</h3>
          <select aria-label="Theme" value={draft.theme} onChange={(e) => set({ theme: e.target.value as Settings["theme"] })}>
            <option value="system">Follow the system</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </section>

        <div className="modal-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="primary" disabled={saving} onClick={() => void save()}>
            Save settings
          </button>
        </div>
      </div>
    </div>
  );
}
