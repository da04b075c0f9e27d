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

/** Credentials inside URLs and common token shapes, each inside ordinary text. */
const SHAPES: Array<[name: string, text: string, secret: string, kept: string]> = [
  ["a postgres URL", "connect with postgres://u:pw@host/db then migrate", "pw@", "postgres://u:[REDACTED]@host/db then migrate"],
  [
    "a URL whose password holds an @",
    "DATABASE_URL=mysql://admin:p@ss@w0rd@db.internal:3306/app",
    "ss@w0rd",
    "mysql://admin:[REDACTED]@db.internal:3306/app",
  ],
  [
    "a redis URL with only a password",
    "REDIS=redis://:s3cr3tRedisPass@cache:6379/0",
    "s3cr3tRedisPass",
    "redis://:[REDACTED]@cache:6379/0",
  ],
  [
    "a git remote with a token for user",
    "git clone https://x-access-token:ghs_16C7e42F292c6912E7710c838347Ae178B4a@github.com/org/repo.git",
    "16C7e42F292c",
    "@github.com/org/repo.git",
  ],
  [
    "a token as the whole user part",
    "pip install --index-url https://Zq8Xw7Vb6Nm5Lk4Jh3Gf2Ds1Aa0Pp9@pypi.example.com/simple",
    "Zq8Xw7Vb6Nm5",
    "https://[REDACTED]@pypi.example.com/simple",
  ],
  ["a GitHub classic token", "export GH=ghp_R4nd0mT0k3nV4lu3Xy7Zq9Wm2Lp5Ks8Jd1Hf2 now", "R4nd0mT0k3n", "export GH=[REDACTED] now"],
  [
    "a GitHub fine-grained token",
    "token github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123 ok",
    "11ABCDEFG",
    "token [REDACTED] ok",
  ],
  ["an AWS access key id", "key AKIAIOSFODNN7EXAMPLE in config", "IOSFODNN7", "key [REDACTED] in config"],
  ["a Slack token", "SLACK_BOT=xoxb-2048-1357911-Qw3Er5Ty7Ui9Op1As here", "Qw3Er5Ty7", "SLACK_BOT=[REDACTED] here"],
  ["a JWT", "cookie=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.c2lnbmF0dXJlLXNlY3JldA; path=/", "c2lnbmF0dXJl", "cookie=[REDACTED]; path=/"],
  [
    "a Bearer header",
    "curl -H 'Authorization: Bearer d8F3kL9pQ2wX7vB4nM6zR1tY5uI0oP3a' https://api.example.com",
    "d8F3kL9pQ2",
    "https://api.example.com",
  ],
  [
    "a PEM private key",
    "key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1c7+9z5Pad\n-----END RSA PRIVATE KEY-----\nthanks",
    "MIIEpAIBAAK",
    "thanks",
  ],
  [
    "a PGP private key block",
    "-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBGXx1234ABCD\n-----END PGP PRIVATE KEY BLOCK-----",
    "lQOYBGXx1234",
    "[REDACTED]",
  ],
  ["an npm token", "published with npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 from CI", "AbCdEfGhIjKl", "published with [REDACTED] from CI"],
  [
    "an npm token in .npmrc",
    "//registry.npmjs.org/:_authToken=npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "AbCdEfGhIjKl",
    "//registry.npmjs.org/:_authToken=",
  ],
  ["an Anthropic key", "ANTHROPIC_API_KEY is sk-ant-api03-Zq8Xw7Vb6Nm5Lk4Jh3Gf2Ds1Aa0Pp9Oo8Ii7 set", "Zq8Xw7Vb6", "is [REDACTED] set"],
  ["an OpenAI project key", "use sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56 please", "Ab12Cd34Ef", "use [REDACTED] please"],
  ["a GitLab token", "GITLAB=glpat-xY9zW8vU7tS6rQ5pO4nM here", "xY9zW8vU7", "GITLAB=[REDACTED] here"],
  ["a Stripe secret key", "stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc charge", "4eC39HqLyj", "stripe [REDACTED] charge"],
];

describe("redaction of URL credentials and token shapes", () => {
  it.each(SHAPES)("removes %s and keeps the text around it", (_name, text, secret, kept) => {
    const out = redactText(text);
    expect(out).not.toContain(secret);
    expect(out).toContain(kept);
    expect(redactText(out)).toBe(out);
  });

  it("removes every shape from every export format, keeping the hosts", () => {
    const f = buildSession();
    f.store.appendEntry(f.sessionId, {
      type: "message",
      message: { role: "user", content: [{ type: "text", text: SHAPES.map(([, text]) => text).join("\n") }], timestamp: T0 + 60_000 },
    });
    f.store.appendEntry(f.sessionId, {
      type: "message",
      message: {
        role: "toolResult",
        toolCallId: "toolu_01Y",
        toolName: "bash",
        isError: false,
        content: [{ type: "text", text: `remote: ${SHAPES[3][1]}` }],
        details: { stdoutTail: SHAPES[0][1], env: { DATABASE_URL: SHAPES[1][1] } },
        timestamp: T0 + 61_000,
      },
    });
    for (const format of ["json", "markdown", "html"] as ExportFormat[]) {
      const r = exportSession(f.store, f.sessionId, format, createRedactor());
      if (!r.ok) throw new Error(r.error.message);
      for (const [name, , secret] of SHAPES) expect(r.value.content.includes(secret), `${format}: ${name}`).toBe(false);
      for (const host of ["@host/db", "@db.internal:3306/app", "@github.com/org/repo.git", "@pypi.example.com/simple"]) {
        expect(r.value.content, `${format} keeps ${host}`).toContain(host);
      }
    }
  });

  it("leaves hashes, UUIDs, plain URLs, addresses and the base64 of images alone", () => {
    for (const text of [
      "commit 3f786850e387550fdab836ed7e6dc881de23001b on main",
      "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
      "session 550e8400-e29b-41d4-a716-446655440000 and request req_011CTuZpXr6Z7AaBbCcDdEe",
      "open http://localhost:5173/#/review and https://docs.example.com/a/b?c=d#e",
      "ssh://git@github.com/org/repo.git and git@github.com:org/repo.git",
      "mail rita@example.com or ping @sam",
      "const base64 = 'SGVsbG8gd29ybGQ=' // hello world",
    ]) {
      expect(redactText(text)).toBe(text);
    }
    // An image's bytes are not text: a run that happens to look like a key id stays as it is.
    const data = `iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB/AKIAIOSFODNN7EXAMPLE+password=hunter22/eyJhbGciOiJIUzI1NiJ9xyz==`;
    const image = { type: "image", mimeType: "image/png", data };
    const entry = { type: "message", message: { role: "user", content: [image], timestamp: T0 } };
    expect(createRedactor().value(entry)).toEqual(entry);
  });
});
