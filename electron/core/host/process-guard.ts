/**
 * The process-wide last line: an unhandled promise rejection or an uncaught
 * exception anywhere in the core is logged and reported to the user, and the
 * process keeps serving. Node's default ends the process (exit code 1), which
 * for the desktop app's main process and web mode means every open session
 * and unsaved draft goes with it for one missed `catch`.
 *
 * Installed first thing by each host (web mode, the Electron main process,
 * the headless CLI); `reportTo` connects it to the core's notices once the
 * core is up. Reports are capped so a failure in a loop cannot flood the UI;
 * the log keeps every one.
 */

export interface ProcessGuard {
  /** Where reports go from now on (the workbench's notices); before this they are only logged. */
  reportTo(report: (message: string) => void): void;
  /** Removes the handlers (tests). */
  dispose(): void;
}

/** Reports shown to the user per process; later ones are only logged. */
export const MAX_REPORTS = 20;

function describe(value: unknown): { message: string; stack: string } {
  if (value instanceof Error) return { message: value.message || value.name, stack: value.stack ?? value.message };
  const text =
    typeof value === "string"
      ? value
      : (() => {
          try {
            return JSON.stringify(value) ?? String(value);
          } catch {
            return String(value);
          }
        })();
  return { message: text, stack: text };
}

export function installProcessGuard(log: (line: string) => void, proc: NodeJS.Process = process): ProcessGuard {
  let report: ((message: string) => void) | null = null;
  let reported = 0;
  const handle = (what: string, value: unknown) => {
    const { message, stack } = describe(value);
    log(`${what} (the app keeps running): ${stack}`);
    if (report === null) return;
    reported++;
    if (reported > MAX_REPORTS) return;
    const text =
      reported === MAX_REPORTS
        ? `An internal error was not handled: ${message}. Further ones are only written to the log.`
        : `An internal error was not handled: ${message}. The app keeps running; if something looks wrong, restart it.`;
    try {
      report(text);
    } catch (err) {
      log(`the report of that error failed too: ${describe(err).stack}`);
    }
  };
  const onRejection = (reason: unknown) => handle("unhandled promise rejection", reason);
  const onException = (err: Error) => handle("uncaught exception", err);
  proc.on("unhandledRejection", onRejection);
  proc.on("uncaughtException", onException);
  return {
    reportTo(next) {
      report = next;
    },
    dispose() {
      proc.off("unhandledRejection", onRejection);
      proc.off("uncaughtException", onException);
    },
  };
}
