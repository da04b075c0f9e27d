/**
 * The provider fetch under plain Node, per network settings: one
 * `createNodeNetwork` per CA file setting, built when first needed. A CA
 * file that cannot be used fails each call with its NetworkSetupError (a
 * retryable turn error naming the file), never silently without the CA.
 */
import type { NetworkSettings } from "../../../shared/api";
import { createNodeNetwork, type FetchFunction, type NodeNetwork } from "./node-fetch";

export function nodeProviderFetch(env: Record<string, string | undefined>): (network: NetworkSettings) => FetchFunction {
  let kept: { caFile: string | null; fetch: FetchFunction; network: NodeNetwork | null } | null = null;
  return (network) => {
    if (kept !== null && kept.caFile === network.caFile) return kept.fetch;
    void kept?.network?.close();
    try {
      const made = createNodeNetwork({ env, caFile: network.caFile ?? undefined });
      kept = { caFile: network.caFile, fetch: made.fetch, network: made };
    } catch (err) {
      const failure = err instanceof Error ? err : new Error(String(err));
      kept = { caFile: network.caFile, fetch: () => Promise.reject(failure), network: null };
    }
    return kept.fetch;
  };
}
