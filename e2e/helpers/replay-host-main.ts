/**
 * The web host for the replay specs: the real core and web host against the
 * faux provider, with one finished session seeded by driving the real agent
 * loop through the WorkbenchApi (no hand-written rows):
 *
 *   turn 1 on Claude Sonnet 4.6 (Anthropic): read README.md, edit it (approved), answer;
 *   switch to GPT-4.1 on Chat Completions, whose 40-character id limit makes
 *   the transform rewrite the long stored id of the first edit;
 *   turn 2: edit src/math.ts (approved), bash denied, answer;
 *   turn 3: a 500 from the provider (stored as an error entry), retried, answer.
 *
 * After the seed, every request is answered with a short text naming the model
 * (the fork spec continues a forked session with it). Prints one line
 * `E2E_REPLAY_HOST {json}` when ready. Env: E2E_DB, E2E_WORKSPACE, E2E_STATIC.
 */
import type { EventPayload, RequestMethod, RequestParams, RequestResult } from "../../shared/api";
import type { ModelRef } from "../../shared/protocol";
import { createWorkbench } from "../../electron/core/api/create-workbench";
import { faults, reply, startFauxProvider, text, toolCall } from "../../electron/core/faux";
import { runHostMain, serveUntilStopped } from "./host-runtime";
import { REPLAY_SEED, type ReplayHostInfo } from "./replay-seed";

const ANTHROPIC: ModelRef = { provider: "anthropic", api: "anthropic-messages", id: "claude-sonnet-4-6" };
const OPENAI_CHAT: ModelRef = { provider: "openai", api: "openai-completions", id: "gpt-4.1" };

async function main(): Promise<void> {
  const dbPath = process.env.E2E_DB;
  const staticDir = process.env.E2E_STATIC;
  const workspace = process.env.E2E_WORKSPACE;
  if (!dbPath || !staticDir || !workspace) throw new Error("E2E_DB, E2E_STATIC and E2E_WORKSPACE are required");

  const faux = await startFauxProvider({});
  const workbench = await createWorkbench({
    dbPath,
    host: { mode: "web", notices: [] },
    version: "e2e-replay",
    env: { ANTHROPIC_API_KEY: "sk-ant-e2e-not-a-real-key", OPENAI_API_KEY: "sk-e2e-not-a-real-key" },
    initialWorkspace: workspace,
    baseUrlOverrides: { anthropic: faux.baseUrls.anthropic, openai: faux.baseUrls.openai },
    demo: false,
    // The scripted 500 is retried at once.
    sleep: async () => undefined,
  });

  const call = async <M extends RequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> => {
    const res = await workbench.handle(method, params);
    if (!res.ok) throw new Error(`${method} failed: ${res.error.code} ${res.error.message}`);
    return res.result as RequestResult<M>;
  };

  const ws = await call("workspace.open", { path: workspace });
  const session = await call("session.create", { workspaceId: ws.id, model: ANTHROPIC, title: REPLAY_SEED.title });

  // Approvals as a user would answer them; a turn is over when its state goes back to idle.
  let idleWaiter: (() => void) | null = null;
  let running = false;
  workbench.onEvent((event, payload) => {
    if (event !== "turn.state") return;
    const turn = payload as EventPayload<"turn.state">;
    if (turn.sessionId !== session.id) return;
    const pending = turn.pendingApproval;
    if (pending) {
      const deny = pending.toolName === "bash";
      void call("approval.answer", {
        sessionId: session.id,
        toolCallId: pending.toolCallId,
        decision: deny ? "deny" : "approve",
        ...(deny ? { reason: REPLAY_SEED.denyReason } : {}),
      });
    }
    if (turn.status !== "idle") running = true;
    else if (running) {
      running = false;
      idleWaiter?.();
    }
  });
  const turn = async (message: string) => {
    const idle = new Promise<void>((resolve) => (idleWaiter = resolve));
    await call("chat.send", { sessionId: session.id, text: message });
    await idle;
  };

  faux.script([
    reply([text(REPLAY_SEED.readIntro), toolCall("read", { path: "README.md" }, REPLAY_SEED.readId)]),
    reply([
      toolCall(
        "edit",
        { path: "README.md", edits: [{ oldText: REPLAY_SEED.readmeOld, newText: REPLAY_SEED.readmeNew }] },
        REPLAY_SEED.longEditId,
      ),
    ]),
    reply(REPLAY_SEED.answer1),
  ]);
  await turn(REPLAY_SEED.user1);
  await call("chat.switchModel", { sessionId: session.id, model: OPENAI_CHAT });

  faux.script([
    reply([
      toolCall(
        "edit",
        { path: "src/math.ts", edits: [{ oldText: REPLAY_SEED.mathOld, newText: REPLAY_SEED.mathNew }] },
        REPLAY_SEED.mathEditId,
      ),
    ]),
    reply([toolCall("bash", { command: "npm test" }, REPLAY_SEED.bashId)]),
    reply(REPLAY_SEED.answer2),
  ]);
  await turn(REPLAY_SEED.user2);

  faux.script([faults.serverError(), reply(REPLAY_SEED.answer3)]);
  await turn(REPLAY_SEED.user3);

  const rejected = faux.requests.filter((r) => !r.accepted);
  if (rejected.length > 0) throw new Error(`the faux provider rejected a seed request: ${rejected[0].rejection?.message ?? "?"}`);
  if (faux.pending() > 0) throw new Error("the seed script was not used up");

  faux.setDefaultResponder((request) => reply(`${REPLAY_SEED.forkAnswerPrefix} ${request.model ?? "unknown"}.`));

  const info: Omit<ReplayHostInfo, "url"> = { sessionId: session.id, title: REPLAY_SEED.title };
  await serveUntilStopped({ workbench, staticDir, readyTag: "E2E_REPLAY_HOST", info, closeLast: () => faux.close() });
}

runHostMain("e2e replay host", main);
