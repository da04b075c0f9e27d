/**
 * bash: process-group kills on timeout and abort, tail truncation with the
 * full output kept aside, exit codes, and a scrubbed environment.
 */
import { createReadStream, existsSync, mkdirSync, readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approved, makeFixture, text, type Fixture } from "./helpers";
import { hostPids, uniqueSleep } from "./host-processes";

/** Resolves with the first chunk a command writes into the FIFO. */
function firstWrite(fifo: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stream = createReadStream(fifo, { encoding: "utf8" });
    stream.once("data", (chunk) => {
      resolve(String(chunk));
      stream.destroy();
    });
    stream.once("error", reject);
  });
}

describe("bash", () => {
  let fx: Fixture;
  beforeAll(() => {
    fx = makeFixture({
      env: {
        PATH: process.env.PATH,
        HOME: "/home/someone",
        LANG: "C.UTF-8",
        ANTHROPIC_API_KEY: "sk-ant-api03-secretsecret",
        OPENAI_API_KEY: "sk-proj-secretsecret",
        MY_SERVICE_TOKEN: "tok-123",
        DB_PASSWORD: "hunter2",
        DATABASE_URL: "postgres://app:hunter3@db.internal/app",
        INNOCENT_LOOKING: "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        EDITOR_THEME: "dark",
        GIT_AUTHOR_NAME: "Ada",
        STRIPE_KEY: "rk_live_hidden",
        // Where host services listen: never handed to a command.
        XDG_RUNTIME_DIR: "/run/user/4242",
        DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/4242/bus",
        SSH_AUTH_SOCK: "/tmp/ssh-agent.4242",
        GPG_AGENT_INFO: "/run/user/4242/gnupg/S.gpg-agent:0:1",
        DISPLAY: ":0",
        WAYLAND_DISPLAY: "wayland-0",
        XAUTHORITY: "/run/user/4242/Xauthority",
        XDG_CONFIG_HOME: "/home/someone/.config",
      },
    });
    mkdirSync(join(fx.ws, "src"));
  });
  afterAll(() => fx.cleanup());

  it("reports output and the exit code; a non-zero exit is not a tool error", async () => {
    const outcome = await approved(fx.runtime, "bash", { command: "echo out; echo err >&2; exit 3" });
    expect(outcome.ok).toBe(true);
    const seen = text(fx.runtime, outcome);
    expect(seen).toContain("out\nerr");
    expect(seen).toContain("Exit code: 3");
    expect(outcome.details).toMatchObject({ exitCode: 3, truncated: false, fullOutputPath: null, timedOut: false });
  });

  it("git ignores a bare repository the workspace carries as plain files unless it is named", async () => {
    // A cloned repository can ship fixtures/evil.git/{HEAD,config,objects,refs}: its config's aliases,
    // core.pager and core.sshCommand are commands git would run for any git call inside that folder.
    const bare = join(fx.ws, "fixtures", "evil.git");
    mkdirSync(join(fx.ws, "fixtures"), { recursive: true });
    execFileSync("git", ["init", "-q", "--bare", bare]);
    execFileSync("git", ["--git-dir", bare, "config", "alias.st", "!echo planted-alias-ran"]);
    const run = await approved(fx.runtime, "bash", { command: "git st; git rev-parse --is-bare-repository", workdir: "fixtures/evil.git" });
    const seen = text(fx.runtime, run);
    expect(seen).not.toContain("planted-alias-ran");
    expect(seen).toMatch(/cannot use bare repository|not a git repository/);
  });

  it("runs in the workspace, or in workdir inside it", async () => {
    const root = await approved(fx.runtime, "bash", { command: "pwd" });
    expect(text(fx.runtime, root)).toContain(fx.ws);
    const sub = await approved(fx.runtime, "bash", { command: "pwd", workdir: "src" });
    expect(text(fx.runtime, sub)).toContain(join(fx.ws, "src"));
  });

  // Processes are found by a unique `sleep` argument and checked with host
  // pids: in the sandbox's own PID namespace `$!` is not a host pid.
  // The timeout must leave the shell time to start its children first: 1 s
  // can pass before the sandboxed shell even runs on a loaded machine.
  it("a timeout kills the whole process group, grandchildren included", async () => {
    const m = uniqueSleep();
    const outcome = await approved(fx.runtime, "bash", {
      command: `sh -c 'sleep ${m} & echo started > grandchild.started; wait' ; echo unreachable`,
      timeout: 5,
    });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.errorCode).toBe("TIMEOUT");
    expect(outcome.details).toMatchObject({ timedOut: true });
    expect(readFileSync(join(fx.ws, "grandchild.started"), "utf8")).toBe("started\n");
    expect(hostPids(["sleep", m])).toEqual([]);
  });

  it("a grandchild that ignores SIGTERM is killed with SIGKILL", async () => {
    const m = uniqueSleep();
    const outcome = await approved(fx.runtime, "bash", {
      command: `sh -c 'trap "" TERM; sleep ${m} & echo started > stubborn.started; wait'`,
      timeout: 5,
    });
    expect(outcome.ok).toBe(false);
    expect(existsSync(join(fx.ws, "stubborn.started"))).toBe(true);
    expect(hostPids(["sleep", m])).toEqual([]);
  });

  it("abort stops a running command and its children", async () => {
    const m = uniqueSleep();
    const fifo = join(fx.ws, "ready.fifo");
    execFileSync("mkfifo", [fifo]);
    const controller = new AbortController();
    const started = firstWrite(fifo);
    const running = approved(fx.runtime, "bash", { command: `sleep ${m} & echo started > ready.fifo; wait` }, controller.signal);
    expect((await started).trim()).toBe("started");
    // The background job may not have exec'd `sleep` yet (its argv is still
    // the forking shell's), so wait for the marker to appear.
    await expect.poll(() => hostPids(["sleep", m]).length, { timeout: 10_000 }).toBe(1);
    controller.abort();
    const outcome = await running;
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.errorCode).toBe("ABORTED");
    expect(hostPids(["sleep", m])).toEqual([]);
  });

  it("background jobs do not outlive the command", async () => {
    const m = uniqueSleep();
    const outcome = await approved(fx.runtime, "bash", { command: `sleep ${m} & echo done` });
    expect(outcome.ok).toBe(true);
    expect(text(fx.runtime, outcome)).toContain("done");
    expect(hostPids(["sleep", m])).toEqual([]);
  });

  it("a background job that closed its output and ignores SIGTERM is still killed", async () => {
    const m = uniqueSleep();
    const outcome = await approved(fx.runtime, "bash", {
      command: `sh -c 'trap "" TERM; exec sleep ${m}' >/dev/null 2>&1 & echo started`,
    });
    expect(outcome.ok).toBe(true);
    expect(text(fx.runtime, outcome)).toContain("started");
    expect(hostPids(["sleep", m])).toEqual([]);
  });

  it("keeps the last 2000 lines, says so, and saves the full output aside", async () => {
    const outcome = await approved(fx.runtime, "bash", { command: "seq 1 5000" });
    expect(outcome.ok).toBe(true);
    const seen = text(fx.runtime, outcome);
    expect(seen).toContain("[Output cut: showing the last 2000 lines");
    expect(seen).toContain("\n5000\n");
    expect(seen).toContain("\n3001\n");
    expect(seen).not.toContain("\n3000\n");
    const full = outcome.details?.fullOutputPath;
    expect(typeof full).toBe("string");
    expect(seen).toContain(`Full output saved to ${String(full)}`);
    const lines = readFileSync(String(full), "utf8").trim().split("\n");
    expect(lines.length).toBe(5000);
    expect(lines[0]).toBe("1");
  });

  it("keeps at most 50 KB of a long line's tail", async () => {
    const outcome = await approved(fx.runtime, "bash", { command: "head -c 200000 /dev/zero | tr '\\0' 'a'; echo; echo END" });
    expect(outcome.ok).toBe(true);
    const seen = text(fx.runtime, outcome);
    expect(seen).toContain("END");
    expect(seen).toContain("[Output cut: showing the last line (200005 bytes in total).");
    expect(Buffer.byteLength(seen)).toBeLessThan(52 * 1024);
    expect(outcome.details).toMatchObject({ truncated: true, bytes: 200005 });
  });

  it("says when all it kept is the end of one long line", async () => {
    const outcome = await approved(fx.runtime, "bash", { command: "head -c 200000 /dev/zero | tr '\\0' 'a'" });
    const seen = text(fx.runtime, outcome);
    expect(seen).toContain("[Output cut: showing the end of the last line (200000 bytes in total).");
    expect(seen).toMatch(/a{50000}/);
  });

  it("gives plain text: colour codes removed and a progress bar reduced to its last state", async () => {
    const command = [
      "printf '\\033[1;31merror\\033[0m: \\033]8;;http://x\\007link\\033]8;;\\007 failed\\n'",
      "for i in $(seq 1 500); do printf '\\rDownloading %3d%%' $i; done; printf '\\r\\033[Kdone\\r\\n'",
      "printf 'spin |\\b/\\b-\\n'",
    ].join("; ");
    const outcome = await approved(fx.runtime, "bash", { command });
    expect(text(fx.runtime, outcome)).toBe("error: link failed\ndone\nspin -\n\nExit code: 0");
    expect(outcome.details).toMatchObject({ truncated: false, fullOutputPath: null });
  });

  it("short output leaves no file behind", async () => {
    const outcome = await approved(fx.runtime, "bash", { command: "echo small" });
    expect(outcome.details?.fullOutputPath).toBeNull();
  });

  it("passes an allow-listed environment: API keys and other secrets never reach the command", async () => {
    const outcome = await approved(fx.runtime, "bash", { command: "env" });
    const seen = text(fx.runtime, outcome);
    for (const secret of [
      "sk-ant-api03",
      "sk-proj",
      "tok-123",
      "hunter2",
      "hunter3",
      "ghp_",
      "rk_live",
      "ANTHROPIC_API_KEY",
      "OPENAI_API_KEY",
      "DB_PASSWORD",
    ]) {
      expect(seen).not.toContain(secret);
    }
    expect(seen).toContain("HOME=/home/someone");
    expect(seen).toContain("LANG=C.UTF-8");
    expect(seen).toContain("GIT_AUTHOR_NAME=Ada");
    // An allow-list: a variable nobody listed is not passed, whatever its name.
    expect(seen).not.toContain("EDITOR_THEME");
    expect(seen).toContain("XDG_CONFIG_HOME=/home/someone/.config");
  });

  it("passes no variable that points at a host service's socket (session bus, ssh and gpg agents, the display)", async () => {
    const outcome = await approved(fx.runtime, "bash", { command: "env" });
    const seen = text(fx.runtime, outcome);
    for (const name of [
      "XDG_RUNTIME_DIR",
      "DBUS_SESSION_BUS_ADDRESS",
      "SSH_AUTH_SOCK",
      "GPG_AGENT_INFO",
      "DISPLAY",
      "WAYLAND_DISPLAY",
      "XAUTHORITY",
    ]) {
      expect(seen).not.toMatch(new RegExp(`^${name}=`, "m"));
    }
    expect(seen).not.toContain("4242");
    expect(seen).toMatch(/^PATH=/m);
  });

  it("the proposal previews the command, folder and timeout without running it", async () => {
    const proposed = await fx.runtime.propose({ id: "b1", name: "bash", arguments: { command: "touch should-not-exist", timeout: 5 } });
    expect("proposal" in proposed).toBe(true);
    if ("proposal" in proposed) {
      expect(proposed.proposal.preview).toMatchObject({ kind: "command", command: "touch should-not-exist", cwd: fx.ws, timeoutMs: 5000 });
    }
    expect(existsSync(join(fx.ws, "should-not-exist"))).toBe(false);
  });
});
