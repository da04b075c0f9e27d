/**
 * Which workspaces' hooks the user trusted, pinned by content: the
 * fingerprint of the workspace's hook definitions (config.ts) per workspace,
 * in the store's settings table. A changed hook has another fingerprint, so
 * it is untrusted (and does not run) until the user trusts it again.
 * See docs/conventions.md#hooks.
 */
import { z } from "zod";

export const HOOK_TRUST_KEY = "hooks.trusted.v1";
const TrustRecord = z.record(z.string(), z.string());

export interface SettingsPort {
  getSetting(key: string): unknown;
  setSetting(key: string, value: unknown): void;
}

export class HookTrust {
  constructor(private readonly store: SettingsPort) {}

  private all(): Record<string, string> {
    const parsed = TrustRecord.safeParse(this.store.getSetting(HOOK_TRUST_KEY));
    return parsed.success ? parsed.data : {};
  }

  trusted(workspaceId: string, fingerprint: string): boolean {
    return this.all()[workspaceId] === fingerprint;
  }

  /** Trusts the hooks with this fingerprint (what the user was shown); null forgets the trust. */
  set(workspaceId: string, fingerprint: string | null): void {
    const all = this.all();
    if (fingerprint === null) delete all[workspaceId];
    else all[workspaceId] = fingerprint;
    this.store.setSetting(HOOK_TRUST_KEY, all);
  }
}
