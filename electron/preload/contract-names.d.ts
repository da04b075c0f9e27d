/**
 * Method and event names of shared/api.ts, inlined into the preload bundle at
 * build time (electron.vite.config.ts `define`), so the allow-list follows the
 * contract without pulling zod into the sandboxed preload.
 */
declare const __WB_REQUEST_METHODS__: readonly string[];
declare const __WB_EVENT_NAMES__: readonly string[];
