/** One provider's key: where it comes from and its last characters; a field to replace it where the host can keep keys. */
import { useState } from "react";
import { useModelsStore, type ProviderStatus } from "../../stores/models-store";

const SOURCE_LABEL: Record<ProviderStatus["keySource"], string> = {
  keychain: "stored in the keychain",
  env: "from the environment",
  none: "no key",
  notNeeded: "no key needed",
  awsChain: "AWS credentials found (environment, profile or SSO)",
  awsMissing: "no AWS credentials: set AWS_PROFILE or AWS keys, or run aws sso login",
};

export function ApiKeyRow({
  provider,
  editable,
  storedLabel = SOURCE_LABEL.keychain,
}: {
  provider: ProviderStatus;
  editable: boolean;
  /** How a saved key is described ("stored in the keychain", "stored in the key file"). */
  storedLabel?: string;
}) {
  const setApiKey = useModelsStore((s) => s.setApiKey);
  const [value, setValue] = useState("");
  const [busy, setBusy] = useState(false);

  const save = async (key: string) => {
    setBusy(true);
    const ok = await setApiKey(provider.key, key);
    setBusy(false);
    if (ok) setValue("");
  };

  return (
    <li className="key-row">
      <div>
        <strong>{provider.label}</strong>{" "}
        <span className={`badge ${provider.keySource === "none" || provider.keySource === "awsMissing" ? "warn" : "ok"}`}>
          {provider.keySource === "keychain" ? storedLabel : SOURCE_LABEL[provider.keySource]}
        </span>
        {provider.keyHint && <span className="muted"> ••••{provider.keyHint}</span>}
        {provider.apiKeyEnv && provider.keySource !== "keychain" && <span className="muted small"> ({provider.apiKeyEnv})</span>}
      </div>
      {editable && provider.keySource !== "notNeeded" && !provider.keySource.startsWith("aws") && (
        <form
          className="key-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (value.trim()) void save(value.trim());
          }}
        >
          <input
            type="password"
            autoComplete="off"
            aria-label={`API key for ${provider.label}`}
            placeholder={provider.keySource === "keychain" ? "Replace key…" : "Paste key…"}
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
          <button type="submit" disabled={busy || !value.trim()}>
            Save key
          </button>
          {provider.keySource === "keychain" && (
            <button type="button" disabled={busy} onClick={() => void save("")} aria-label={`Remove the API key for ${provider.label}`}>
              Remove
            </button>
          )}
        </form>
      )}
    </li>
  );
}
