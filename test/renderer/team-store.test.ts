/**
 * The renderer's team library state: the status line says "denied" after the
 * server refused (and not once a call succeeds), a note seen both live and in
 * the loaded list is shown once, and a note list that loads after a live note
 * arrived does not drop it.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WorkbenchApiError } from "../../shared/api";
import type { TeamNote, TeamStatus } from "../../shared/team";
import type { AppClient } from "../../renderer/src/api/client";
import { setClient } from "../../renderer/src/api/current";
import { linkState, useTeamStore } from "../../renderer/src/stores/team-store";

const TEAM_ID = "6f1f2a36-3c1e-4d7b-9a51-3d3c0a0b8f10";
const CONNECTION = {
  host: "127.0.0.1",
  port: 5432,
  database: "workbench",
  user: "bob",
  tls: "off" as const,
  caFile: null,
  defaultProject: "alpha",
};
const STATUS: TeamStatus = { configured: true, reachable: true, queued: 0, failed: [], lastError: null };

function note(id: number, text: string): TeamNote {
  return { id, sessionId: TEAM_ID, revision: 1, seq: 1, author: "bob", verdict: null, text, createdAt: id, path: null, line: null };
}

function fakeClient(answer: (method: string) => Promise<unknown>): AppClient {
  return { call: (method: string) => answer(method) } as unknown as AppClient;
}

const initial = useTeamStore.getState();
beforeEach(() =>
  useTeamStore.setState({
    ...initial,
    settings: { connection: CONNECTION, passwordSet: true, status: STATUS, autoPublish: [] },
    status: STATUS,
  }),
);
afterEach(() => setClient(null));

describe("team store", () => {
  it("says denied after the server refused, with its reason, and connected again once a call goes through", async () => {
    let refuse = true;
    setClient(
      fakeClient((method) => {
        if (method !== "team.list") throw new Error(`unexpected ${method}`);
        return refuse
          ? Promise.reject(new WorkbenchApiError({ code: "TEAM_DENIED", message: "password authentication failed for user bob" }))
          : Promise.resolve([]);
      }),
    );
    await useTeamStore.getState().refresh();
    expect(linkState(useTeamStore.getState())).toBe("denied");
    expect(useTeamStore.getState().denied).toContain("password authentication failed");
    refuse = false;
    await useTeamStore.getState().refresh();
    expect(linkState(useTeamStore.getState())).toBe("connected");
  });

  it("does not call an unreachable server denied", async () => {
    setClient(fakeClient(() => Promise.reject(new WorkbenchApiError({ code: "TEAM_UNREACHABLE", message: "connect ECONNREFUSED" }))));
    useTeamStore.getState().setStatus({ ...STATUS, reachable: false, lastError: "connect ECONNREFUSED" });
    await useTeamStore.getState().refresh();
    expect(linkState(useTeamStore.getState())).toBe("unreachable");
  });

  it("keeps a live note that arrived while the list loaded, and shows a note seen twice once", async () => {
    let release: (v: TeamNote[]) => void = () => undefined;
    setClient(fakeClient(() => new Promise((resolve) => (release = resolve as (v: TeamNote[]) => void))));
    const loading = useTeamStore.getState().loadNotes(TEAM_ID);
    useTeamStore.getState().applyNote(note(2, "live"));
    useTeamStore.getState().applyNote(note(2, "live"));
    release([note(1, "older")]);
    await loading;
    expect(useTeamStore.getState().notes[TEAM_ID].map((n) => n.text)).toEqual(["older", "live"]);
  });
});
