/**
 * Starts the core for a host (Electron or web): the store, the workbench and,
 * when asked or when no API key is configured anywhere, the offline demo
 * provider (the faux server playing a small coding agent).
 */
import { dirname, join } from "node:path";
import type { ApprovalPolicy } from "../../../shared/api";
import type { ModelInfo, ProviderConfig } from "../../../shared/models";
import { createWorkbench, type WorkbenchOptions } from "../api/create-workbench";
import type { HostServices, Workbench } from "../api/workbench";
import { createDemoResponder, startFauxProvider } from "../faux";
import { listProviders } from "../providers/registry";
import { MODELS_URL_ENV } from "../providers/catalog/live-catalog";
import { takeKeysFromProcess } from "./startup-environ";

function providerKeyNames(): string[] {
  return listProviders().flatMap((p) => (p.apiKeyEnv ? [p.apiKeyEnv] : []));
}

export interface StartCoreOptions {
  dbPath: string;
  /** better_sqlite3.node for Electron's ABI; absent under Node. */
  nativeBinding?: string;
  host: HostServices;
  version: string;
  /** "auto": start the demo only when no provider has a key. */
  demo: boolean | "auto";
  initialWorkspace?: string;
  env?: Record<string, string | undefined>;
  extraProviders?: ProviderConfig[];
  extraModels?: ModelInfo[];
  /** Derives the approval policy in force from the saved one, never stored (the headless run). */
  approvalPolicy?: (saved: ApprovalPolicy) => ApprovalPolicy;
  /** The provider fetch (the desktop app: Electron's net.fetch); absent, the Node one (see WorkbenchOptions). */
  providerFetch?: WorkbenchOptions["providerFetch"];
}

export interface RunningCore {
  workbench: Workbench;
  demoBaseUrl: string | null;
  close(): Promise<void>;
}

export async function startCore(options: StartCoreOptions): Promise<RunningCore> {
  // Keys are read once, then removed from process.env and wiped from the start-up environment (docs/tool-sandbox.md).
  const env = options.env ?? takeKeysFromProcess(providerKeyNames());
  const hasSecrets = options.host.secrets ? (await options.host.secrets.list()).length > 0 : false;
  const anyEnvKey = listProviders().some((p) => p.apiKeyEnv && env[p.apiKeyEnv]);
  const wantDemo = options.demo === "auto" ? !anyEnvKey && !hasSecrets : options.demo;

  const faux = wantDemo ? await startFauxProvider({}) : null;
  if (faux) faux.setDefaultResponder(createDemoResponder());
  const demoBaseUrl = faux ? faux.baseUrls.anthropic : null;

  const workbenchOptions: WorkbenchOptions = {
    dbPath: options.dbPath,
    nativeBinding: options.nativeBinding,
    host: options.host,
    version: options.version,
    env,
    initialWorkspace: options.initialWorkspace,
    demo: wantDemo,
    baseUrlOverrides: demoBaseUrl ? { demo: demoBaseUrl } : {},
    extraProviders: options.extraProviders,
    extraModels: options.extraModels,
    approvalPolicy: options.approvalPolicy,
    providerFetch: options.providerFetch,
    // The catalog is kept current beside the database (docs/architecture.md#model-catalog).
    modelCatalog: {
      cacheFile: options.dbPath === ":memory:" ? null : join(dirname(options.dbPath), "models-dev.json"),
      ...(process.env[MODELS_URL_ENV] ? { url: process.env[MODELS_URL_ENV] } : {}),
    },
  };
  const workbench = await createWorkbench(workbenchOptions);
  return {
    workbench,
    demoBaseUrl,
    close: async () => {
      await workbench.close();
      await faux?.close();
    },
  };
}
