/**
 * Per-test time limits above vitest's default (120 s, vitest.config.ts), for
 * tests that start processes: git, MCP servers, bash, the core under tsx, the
 * headless CLI. On a loaded 2-core CI machine these run 3–5× slower than on a
 * quiet one (docs/architecture.md#testing). A limit only bounds a failing run.
 */
export const PROCESS_TEST_TIMEOUT_MS = 180_000;
/** Tests that run the headless CLI several times in a row. */
export const CLI_TEST_TIMEOUT_MS = 300_000;
