/**
 * Command-line flags of the desktop app, the same as web mode's where they
 * overlap (`npm start -- --workspace <dir>` works in both):
 *   --workspace <dir>   open this folder at start
 *   --demo              force the offline demo model
 *   --user-data <dir>   keep data and keys elsewhere (tests, portable use)
 * Chromium and Playwright switches (--inspect=0, --no-sandbox, …) are ignored.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";

export interface AppArgs {
  workspace?: string;
  demo: boolean;
  userDataDir?: string;
}

export function parseAppArgs(argv: readonly string[], isPackaged: boolean, cwd: string): AppArgs {
  // Unpackaged: [electron, <app dir>, ...]; packaged: [app, ...].
  const args = argv.slice(isPackaged ? 1 : 2);
  const { values } = parseArgs({
    args,
    options: {
      workspace: { type: "string" },
      demo: { type: "boolean" },
      "user-data": { type: "string" },
    },
    strict: false,
    allowPositionals: true,
  });
  const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? resolve(cwd, v) : undefined);
  return {
    workspace: str(values.workspace),
    demo: values.demo === true,
    userDataDir: str(values["user-data"]),
  };
}
