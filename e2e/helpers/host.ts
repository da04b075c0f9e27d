/** Starts e2e/helpers/host-main.ts in a child process with a fresh database and workspace. */
import { join } from "node:path";
import { spawnHost } from "./host-process";
import type { Seed } from "./seed-session";

export interface E2EHost {
  url: string;
  controlUrl: string;
  workspace: string;
  dir: string;
  /** Requests the faux provider received (route, model, strict-validation verdict). */
  /** `images`: image blocks in the request body (any API's shape). */
  /** `reasoning`: the body's reasoning fields (thinking, output_config, reasoning, reasoning_effort, include). */
  /** `lastUserText` / `lastToolResult`: the text of the request's last user turn / tool result. */
  fauxRequests(): Promise<
    Array<{
      route: string;
      model: string | null;
      accepted: boolean;
      outcome: string;
      rejection: string | null;
      images: number;
      reasoning: Record<string, unknown>;
      lastUserText: string | null;
      lastToolResult: string | null;
      /** The roles of the request's last three turns. */
      tailRoles: string[];
    }>
  >;
  stop(): Promise<void>;
}

export const WORKSPACE_FILES: Record<string, string> = {
  "README.md": "# Demo project\n\nA tiny project used by the end-to-end tests.\n",
  "src/math.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
};

/**
 * `notices`: what the host says at start (app.info notices, shown as toasts).
 * `files`: the workspace's files instead of WORKSPACE_FILES. `demo`: the offline
 * demo provider is on (as with `--demo`), played by the same faux server.
 * `seed`: a session of these entries is in the store, in the workspace, before the app starts (seed-session.ts).
 * `keyStore`: the host keeps saved secrets in a key file in its folder, as `npm run web` does.
 */
export async function startHost(
  options: { notices?: string[]; files?: Record<string, string>; demo?: boolean; seed?: Omit<Seed, "workspace">; keyStore?: boolean } = {},
): Promise<E2EHost> {
  const host = await spawnHost<{ url: string; controlUrl: string }>({
    script: "e2e/helpers/host-main.ts",
    readyTag: "E2E_HOST",
    files: options.files ?? WORKSPACE_FILES,
    // The specs open the workspace through the UI.
    workspaceEnv: false,
    env: ({ dir, workspace }) => ({
      E2E_CONFIG_DIR: join(dir, "user-config"),
      E2E_NOTICES: JSON.stringify(options.notices ?? []),
      E2E_DEMO: options.demo ? "1" : "",
      E2E_SEED: options.seed ? JSON.stringify({ workspace, ...options.seed }) : "",
      E2E_KEY_FILE: options.keyStore ? join(dir, "keys.json") : "",
    }),
  });
  const { url, controlUrl } = host.info;
  return {
    url,
    controlUrl,
    workspace: host.workspace,
    dir: host.dir,
    async fauxRequests() {
      const res = await fetch(`${controlUrl}/requests`);
      return (await res.json()) as Awaited<ReturnType<E2EHost["fauxRequests"]>>;
    },
    stop: () => host.stop(),
  };
}
