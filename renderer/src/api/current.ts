/**
 * The one client instance the stores talk to, set once at start-up (and by
 * tests). Kept out of React so stores and event routing can reach it.
 */
import { WorkbenchApiError } from "../../../shared/api";
import type { AppClient } from "./client";

let current: AppClient | null = null;

export function setClient(client: AppClient | null): void {
  current = client;
}

export function client(): AppClient {
  if (!current) throw new WorkbenchApiError({ code: "UNAVAILABLE", message: "The workbench client is not connected" });
  return current;
}

/** Human text for any error a call can reject with. */
export function errorText(err: unknown): string {
  if (err instanceof WorkbenchApiError) {
    const issue = err.error.issues?.[0];
    return issue ? `${err.message} (${issue.path}: ${issue.message})` : err.message;
  }
  return err instanceof Error ? err.message : String(err);
}
