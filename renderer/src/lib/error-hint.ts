/**
 * What to do about a failed model request, in one sentence, from the stored
 * error text ("401 authentication_error: …", "network error: …") and where the
 * provider's key comes from. The error text stays as the provider worded it;
 * this only adds the next step a user would otherwise have to work out.
 */
import type { RequestResult } from "../../../shared/api";

/** What the renderer knows of a provider (the `providers.list` result); never the key. */
export type ProviderFacts = RequestResult<"providers.list">[number];

export interface ErrorHint {
  text: string;
  /** The fix is in Settings (a key to add or replace). */
  opensSettings: boolean;
}

const AUTH = /authentication_error|invalid_api_key|invalid x-api-key|incorrect api key|invalid api key|unauthori[sz]ed/i;
const QUOTA = /insufficient_quota|billing|credit balance|exceeded your current quota/i;
const MODEL_MISSING = /model\b.*\bnot found|not_found_error.*model|model_not_found|does not exist|unknown model|try pulling it/i;
const LOOPBACK = /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:|\/|$)/i;

function statusOf(text: string): number | null {
  const m = /^(\d{3})\b/.exec(text);
  return m ? Number(m[1]) : null;
}

function refusedKeyHint(p: ProviderFacts | undefined): ErrorHint {
  if (!p) return { text: "The provider refused the API key. Check the key in Settings.", opensSettings: true };
  switch (p.keySource) {
    case "env":
      return {
        text: `${p.label} refused the key in ${p.apiKeyEnv ?? "its environment variable"}. Check its value, then restart the app.`,
        opensSettings: false,
      };
    case "keychain":
      return {
        text: `${p.label} refused the saved key${p.keyHint ? ` (ending ${p.keyHint})` : ""}. Replace it in Settings.`,
        opensSettings: true,
      };
    case "none":
      return { text: `No API key is set for ${p.label}. Add one in Settings.`, opensSettings: true };
    case "notNeeded":
      return {
        text: `${p.label} at ${p.baseUrl} asked for a key this app does not send. Check the server's settings.`,
        opensSettings: false,
      };
    case "awsChain":
    case "awsMissing":
      return {
        text: `${p.label} refused the AWS credentials. Check AWS_PROFILE or your AWS keys (or run aws sso login), then restart the app.`,
        opensSettings: false,
      };
  }
}

export function errorHint(errorText: string, modelId: string, provider: ProviderFacts | undefined): ErrorHint | null {
  const status = statusOf(errorText);
  const label = provider?.label ?? "The provider";
  if (errorText.startsWith("network error:")) {
    // The address the request used, as the error names it: the provider's details may predate a Save.
    const used = /ECONNREFUSED ((?:\[[0-9a-f:]+\]|[\w.-]+):\d+)/i.exec(errorText)?.[1];
    const local = used !== undefined ? LOOPBACK.test(`http://${used}`) : provider !== undefined && LOOPBACK.test(provider.baseUrl);
    if (/ECONNREFUSED/.test(errorText) && local && provider !== undefined) {
      const start = provider.key === "ollama" ? " Start it with: ollama serve" : "";
      const where = used === undefined || sameAddress(provider.baseUrl, used) ? provider.baseUrl : used;
      return { text: `Nothing is listening at ${where}. Is ${provider.label} running?${start}`, opensSettings: false };
    }
    if (/ENOTFOUND|EAI_AGAIN/.test(errorText)) {
      return {
        text: `The provider's host name could not be resolved. Check the network connection, or the base URL in Settings.`,
        opensSettings: true,
      };
    }
    return { text: `The connection to ${label} failed, also when retried. Check the network, then Retry.`, opensSettings: false };
  }
  if (status === 401 || (status !== 403 && AUTH.test(errorText))) return refusedKeyHint(provider);
  if (status === 403) {
    return {
      text: `${label} accepted the key but does not let it use ${modelId}. Pick another model, or check the account's access.`,
      opensSettings: false,
    };
  }
  if (status === 404 && MODEL_MISSING.test(errorText)) {
    if (provider?.key === "ollama")
      return { text: `Ollama does not have ${modelId} yet. Install it with: ollama pull ${modelId}`, opensSettings: false };
    return { text: `${label} does not know the model ${modelId}. Pick another model.`, opensSettings: false };
  }
  if (QUOTA.test(errorText))
    return { text: `The ${provider?.label ?? "provider"} account is out of credit or over its spending limit.`, opensSettings: false };
  const asked = /the provider asks to wait (\d+ (?:s|min|h)(?: \d+ min)?)/.exec(errorText);
  if (status === 429 && asked)
    return { text: `${label} asks to wait ${asked[1]} before the next request. Retry after that.`, opensSettings: false };
  if (status === 429)
    return {
      text: `${label} is limiting the request rate, also after automatic retries. Wait a minute, then Retry.`,
      opensSettings: false,
    };
  if ((status !== null && status >= 500) || /overloaded/i.test(errorText)) {
    return { text: `${label} had a problem on its side, also when retried. Retry in a moment.`, opensSettings: false };
  }
  return null;
}

/** The base URL points at `address` (host:port, localhost and 127.0.0.1 alike). */
function sameAddress(baseUrl: string, address: string): boolean {
  try {
    const url = new URL(baseUrl);
    const port = url.port || (url.protocol === "https:" ? "443" : "80");
    const host = (h: string) => (h === "localhost" ? "127.0.0.1" : h.replace(/^\[|\]$/g, ""));
    const i = address.lastIndexOf(":");
    return host(url.hostname) === host(address.slice(0, i)) && port === address.slice(i + 1);
  } catch {
    return false;
  }
}
