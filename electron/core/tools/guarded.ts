/** One tool call's work under a deadline and the caller's abort signal, with exceptions turned into tool errors. */
import { errors, toolError } from "./errors";
import type { ToolError } from "./types";

const NEVER_ABORTED = new AbortController().signal;

/**
 * Runs `work` with a deadline and the caller's signal; an exception becomes
 * IO_ERROR. With `timeoutMs` null the work handles abort itself (bash must
 * kill its process group before answering). `ownSignal` false: the work
 * never looks at its signal, so it gets the caller's (or one never aborted)
 * instead of a new controller's (an AbortSignal costs more to create than a
 * small read).
 */
export async function runGuarded<T>(
  signal: AbortSignal | undefined,
  timeoutMs: number | null,
  work: (signal: AbortSignal) => Promise<T>,
  onError: (error: ToolError) => T,
  ownSignal = true,
): Promise<T> {
  if (signal?.aborted) return onError(errors.aborted());
  const controller = ownSignal || timeoutMs === null ? new AbortController() : null;
  const workSignal = controller?.signal ?? signal ?? NEVER_ABORTED;
  const cleanups: (() => void)[] = [];
  const stop = new Promise<T>((resolve) => {
    if (timeoutMs === null) return;
    const timer = setTimeout(() => {
      controller?.abort();
      resolve(onError(errors.timeout("The tool call", timeoutMs)));
    }, timeoutMs);
    cleanups.push(() => clearTimeout(timer));
    const onAbort = () => {
      controller?.abort();
      resolve(onError(errors.aborted()));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    cleanups.push(() => signal?.removeEventListener("abort", onAbort));
  });
  if (controller && timeoutMs === null && signal) {
    const relay = () => controller.abort();
    signal.addEventListener("abort", relay, { once: true });
    cleanups.push(() => signal.removeEventListener("abort", relay));
  }
  try {
    const run = work(workSignal).catch((err: unknown) =>
      onError(
        toolError(
          "IO_ERROR",
          `The tool failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`,
          "Try again; if it keeps failing, use another approach.",
        ),
      ),
    );
    return await (timeoutMs === null ? run : Promise.race([run, stop]));
  } finally {
    for (const c of cleanups) c();
  }
}
