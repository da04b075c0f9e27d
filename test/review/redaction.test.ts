import { describe, expect, it } from "vitest";
import type { ExportFormat } from "../../shared/review";
import { exportSession } from "../../electron/core/review/export-session";
import { importEnvelope, parseEnvelope } from "../../electron/core/review/export-json";
import { REDACTED, createRedactor, redactText } from "../../electron/core/review/redact";
import { SONNET, T0, buildSession } from "./fixture";

/** API-key-shaped strings, each planted somewhere in the session. */
const SECRETS = {
  anthropic: "sk-ant-api03-Zq8Xw7Vb6Nm5Lk4Jh3Gf2Ds1Aa0Pp9Oo8Ii7Uu6Yy5Tt4",
  openai: "sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56",
  aws: "AKIAIOSFODNN7REALKEY",
  github: "ghp_R4nd0mT0k3nV4lu3Xy7Zq9Wm2Lp5Ks8Jd1Hf",
  slack: "xoxb-2048-1357911-Qw3Er5Ty7Ui9Op1As",
  bearer: "d8F3kL9pQ2wX7vB4nM6zR1tY5uI0oP3a",
  jwt: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.c2lnbmF0dXJlLXNlY3JldA",
  pemBody: "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2g",
  password: "c0rrectHorseBatteryStaple",
  token: "9f8e7d6c5b4a39281706f5e4d3c2b1a0ZzQx",
  secretField: "plain-looking-value",
  known: "custom-gateway-credential-1234567890",
};

function plantedSession() {
  const f = buildSession();
  const { store, sessionId } = f;
  const at = (ms: number) => T0 + 50_000 + ms;
  f.clock.set(at(0));
  store.renameSession(sessionId, `Deploy with ${SECRETS.github}`);
  store.appendEntry(sessionId, {
    type: "message",
    message: {
      role: "user",
      content: [
        {
          type: "text",
          text: `My key is ${SECRETS.anthropic} and here is the deploy key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n${SECRETS.pemBody}\n-----END OPENSSH PRIVATE KEY-----`,
        },
      ],
      timestamp: at(1),
    },
  });
  store.appendEntry(sessionId, {
    type: "message",
    message: {
      role: "assistant",
      content: [
        {
          type: "thinking",
          thinking: `The user's password=${SECRETS.password} should not be echoed.`,
          signature: `sig-${SECRETS.anthropic}`,
        },
        {
          type: "toolCall",
          id: "toolu_S1",
          name: "bash",
          arguments: {
            command: `curl -H "Authorization: Bearer ${SECRETS.bearer}" -H 'X-Token: ${SECRETS.jwt}' https://api.example.com`,
            env: { OPENAI_API_KEY: SECRETS.openai },
          },
        },
        {
          type: "toolCall",
          id: "toolu_S2",
          name: "write",
          arguments: { path: ".env", content: `SLACK=${SECRETS.slack}\napi_token=${SECRETS.token}\n`, clientSecret: SECRETS.secretField },
        },
      ],
      stopReason: "toolUse",
      model: SONNET,
      usage: {
        input: 1,
        output: 1,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 2,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      timestamp: at(2),
    },
  });
  store.appendEntry(sessionId, {
    type: "message",
    message: {
      role: "toolResult",
      toolCallId: "toolu_S1",
      toolName: "bash",
      isError: false,
      content: [{ type: "text", text: `aws_access_key_id = ${SECRETS.aws}\nGITHUB_TOKEN=${SECRETS.github}` }],
      details: { exitCode: 0, env: { password: SECRETS.password }, stdoutTail: `token=${SECRETS.token}` },
      timestamp: at(3),
    },
  });
  store.appendEntry(sessionId, {
    type: "message",
    message: {
      role: "toolResult",
      toolCallId: "toolu_S2",
      toolName: "write",
      isError: false,
      content: [{ type: "text", text: "Created .env (2 lines)." }],
      details: {
        path: ".env",
        created: true,
        before: null,
        after: `SLACK=${SECRETS.slack}\n`,
        diff: { unifiedDiff: `+SLACK=${SECRETS.slack}`, added: 1, removed: 0 },
      },
      timestamp: at(4),
    },
  });
  store.appendEntry(sessionId, {
    type: "message",
    message: {
      role: "assistant",
      content: [],
      stopReason: "error",
      model: SONNET,
      usage: {
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 0,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      errorMessage: `401 Incorrect API key provided: ${SECRETS.openai}. Gateway said ${SECRETS.known}`,
      timestamp: at(5),
    },
  });
  store.recordToolCall({
    sessionId,
    toolCallId: "toolu_S1",
    toolName: "bash",
    args: { command: `export TOKEN=${SECRETS.bearer}`, apiKey: SECRETS.openai },
    status: "done",
  });
  store.addNote({ sessionId, seq: 24, author: "rita", verdict: "problem", text: `Leaked ${SECRETS.known} and ${SECRETS.aws}` });
  return f;
}

describe("secret redaction in exports", () => {
  it("leaves none of the planted secrets in any export format", () => {
    const { store, sessionId } = plantedSession();
    const redactor = createRedactor([SECRETS.known]);
    for (const format of ["json", "markdown", "html"] as ExportFormat[]) {
      const r = exportSession(store, sessionId, format, redactor);
      if (!r.ok) throw new Error(r.error.message);
      const text = r.value.content;
      for (const [name, secret] of Object.entries(SECRETS)) {
        expect(text.includes(secret), `${format} export still contains the ${name} secret`).toBe(false);
        // Not even a tail of it.
        expect(text.includes(secret.slice(-12)), `${format} export contains the end of the ${name} secret`).toBe(false);
      }
      expect(text).toContain(REDACTED);
      expect(r.value.filename).not.toContain("ghp_");
    }
  });

  it("keeps the redacted JSON a valid, importable session", async () => {
    const { store, sessionId, workspaceId } = plantedSession();
    const r = exportSession(store, sessionId, "json", createRedactor([SECRETS.known]));
    if (!r.ok) throw new Error(r.error.message);
    const parsed = parseEnvelope(r.value.content);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const user = parsed.value.entries.find((e) => e.seq === 24)?.entry;
    expect(user?.type === "message" && user.message.content[0]).toEqual({
      type: "text",
      text: `My key is ${REDACTED} and here is the deploy key:\n${REDACTED}`,
    });
    const call = parsed.value.entries.find((e) => e.seq === 25)?.entry;
    expect(call?.type === "message" && call.message.role === "assistant" && call.message.content[1]).toMatchObject({
      type: "toolCall",
      id: "toolu_S1",
      arguments: {
        command: `curl -H "Authorization: Bearer ${REDACTED}" -H 'X-Token: ${REDACTED}' https://api.example.com`,
        env: { OPENAI_API_KEY: REDACTED },
      },
    });
    expect(await importEnvelope(store, workspaceId, parsed.value)).toMatchObject({ ok: true });
  });

  it("leaves ordinary text alone", () => {
    for (const text of [
      "max_tokens=4096 and input_tokens: 1234567890123456",
      "the author: alice, key: value",
      "task-force-abcdefghijklmnop is a branch name",
      "sha256:0123456789abcdef0123456789abcdef in the fingerprint",
      "call_abc|fc_1 toolu_01ABCDEF",
      "Tool budget exceeded; ask again with a smaller request.",
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });

  it("is idempotent, so a re-export of an imported session changes nothing", () => {
    const redactor = createRedactor([SECRETS.known]);
    const once = redactor.text(`Bearer ${SECRETS.bearer} password=${SECRETS.password} ${SECRETS.openai} api_key=${SECRETS.token}`);
    expect(once).toBe(`Bearer ${REDACTED} password=${REDACTED} ${REDACTED} api_key=${REDACTED}`);
    expect(redactor.text(once)).toBe(once);
  });
});
