/**
 * Host services behind Unix sockets are out of reach of a sandboxed command:
 * a read-only mount does not stop connect(), so a real server listens in
 * each place a host service keeps its socket (the session bus under
 * $XDG_RUNTIME_DIR and /run/user/<uid>, system services under /var/run, an
 * agent in /tmp, an abstract-namespace listener, any other folder), and a
 * client inside the sandbox tries to reach it. The server must see no
 * connection and the client must fail. What keeps working: pipes made with
 * socketpair (node's child_process, python's subprocess and multiprocessing).
 */
import { connect, createServer, type Server } from "node:net";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectBashSandbox } from "../../electron/core/tools/bash-sandbox";
import { approved, makeFixture, text, type Fixture } from "./helpers";

const info = detectBashSandbox();
const bwrap = info.kind === "bwrap";
const title = bwrap
  ? "bash sandbox (bubblewrap): Unix sockets"
  : `bash sandbox: Unix sockets — skipped: ${info.reason ?? `${info.kind} is not bubblewrap`}`;

/** Connects to `path` (or to the abstract name when it starts with "@"); prints CONNECTED or FAILED <code>. */
const client = (path: string) =>
  `node -e 'const a = process.argv[1]; const s = require("net").connect(a.startsWith("@") ? "\\0" + a.slice(1) : a); s.on("connect", () => { console.log("CONNECTED"); s.end(); }); s.on("error", (e) => console.log("FAILED " + e.code));' ${JSON.stringify(path)}`;

interface Listener {
  server: Server;
  connections: () => number;
}

const listeners: Listener[] = [];
const dirs: string[] = [];

async function listen(path: string): Promise<Listener> {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.end("HOST-SERVICE\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path.startsWith("@") ? `\0${path.slice(1)}` : path, resolve);
  });
  const l = { server, connections: () => connections };
  listeners.push(l);
  return l;
}

const uid = typeof process.getuid === "function" ? process.getuid() : 0;
const tag = () => `awb-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

afterAll(async () => {
  for (const l of listeners) await new Promise<void>((resolve) => l.server.close(() => resolve()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!bwrap)(title, () => {
  let fx: Fixture;
  let xdg: string;
  beforeAll(() => {
    // Outside /tmp (the sandbox has a private one), as a real runtime dir is.
    xdg = mkdtempSync("/var/tmp/awb-xdg-");
    dirs.push(xdg);
    fx = makeFixture({ env: { ...process.env, XDG_RUNTIME_DIR: xdg } });
  });
  afterAll(() => fx.cleanup());

  /**
   * `covered`: the socket's folder is shown empty in the sandbox (so the socket is not even there);
   * otherwise it is visible, and only the seccomp filter refuses the connection.
   */
  async function expectUnreachable(l: Listener, path: string, covered: boolean, fixture: Fixture = fx) {
    // Reachable from here, so a failure comes from the sandbox.
    expect(await hostConnect(path)).toBe("CONNECTED");
    await expect.poll(l.connections).toBeGreaterThan(0);
    const before = l.connections();
    const look = path.startsWith("@") ? "" : `[ -e ${JSON.stringify(path)} ] && echo VISIBLE || echo ABSENT; `;
    const outcome = await approved(fixture.runtime, "bash", { command: `${look}${client(path)}` });
    const seen = text(fixture.runtime, outcome);
    expect(seen).toContain("FAILED EPERM");
    expect(seen).not.toContain("CONNECTED");
    if (look) expect(seen).toContain(covered ? "ABSENT" : "VISIBLE");
    expect(l.connections()).toBe(before);
  }

  it("the session bus in $XDG_RUNTIME_DIR is unreachable (the folder is covered, the variable is not passed)", async () => {
    const path = join(xdg, "bus");
    await expectUnreachable(await listen(path), path, true);
    const outcome = await approved(fx.runtime, "bash", { command: `echo "xdg=[$XDG_RUNTIME_DIR]"; ls -A ${xdg}; echo listed` });
    expect(text(fx.runtime, outcome)).toMatch(/xdg=\[\]\n(.*\n)?listed/);
    expect(text(fx.runtime, outcome)).not.toContain("bus\n");
  });

  const runUser = `/run/user/${uid}`;
  const canRunUser = existsSync(runUser) || uid === 0;
  it.skipIf(!canRunUser)(
    canRunUser ? `a service socket under ${runUser} is unreachable` : `${runUser} — skipped: it does not exist and only root may create it`,
    async () => {
      if (!existsSync(runUser)) {
        mkdirSync(runUser, { recursive: true, mode: 0o700 });
        dirs.push(runUser);
      }
      const path = join(runUser, `${tag()}.sock`);
      dirs.push(path);
      await expectUnreachable(await listen(path), path, true);
    },
  );

  const canVarRun = uid === 0;
  it.skipIf(!canVarRun)(
    canVarRun ? "a system service socket under /var/run is unreachable" : "/var/run — skipped: only root may create a socket there",
    async () => {
      const dir = mkdtempSync("/var/run/awb-sock-");
      dirs.push(dir);
      const path = join(dir, "service.sock");
      await expectUnreachable(await listen(path), path, true);
    },
  );

  it("an agent socket in the real /tmp is unreachable", async () => {
    const dir = mkdtempSync(join(tmpdir(), "awb-agent-"));
    dirs.push(dir);
    const path = join(dir, "agent.sock");
    await expectUnreachable(await listen(path), path, true);
  });

  it("a socket in a folder no mask covers is refused by the seccomp filter (EPERM)", async () => {
    const dir = mkdtempSync("/var/tmp/awb-other-");
    dirs.push(dir);
    const path = join(dir, "other.sock");
    await expectUnreachable(await listen(path), path, false);
  });

  it("with the network allowed, an abstract-namespace socket on the host is unreachable", async () => {
    const open = makeFixture({ bashNetwork: true });
    try {
      const name = `@${tag()}`;
      await expectUnreachable(await listen(name), name, false, open);
    } finally {
      open.cleanup();
    }
  });

  it.skipIf(!canVarRun)(
    canVarRun ? "a PATH entry under /run (NixOS keeps its tools there) still runs" : "PATH under /run — skipped: only root may create one",
    async () => {
      const bin = mkdtempSync("/run/awb-bin-");
      dirs.push(bin);
      writeFileSync(join(bin, "awb-hello"), "#!/bin/sh\necho hello from /run\n", { mode: 0o755 });
      const onPath = makeFixture({ env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}` } });
      try {
        const outcome = await approved(onPath.runtime, "bash", { command: "awb-hello; ls /run" });
        expect(text(onPath.runtime, outcome)).toMatch(/^hello from \/run\n(awb-bin-\w+\n)?\n/);
      } finally {
        onPath.cleanup();
      }
    },
  );

  it("no Unix socket can be made at all, even inside the workspace (documented cost)", async () => {
    const outcome = await approved(fx.runtime, "bash", {
      command: `node -e 'require("net").createServer().listen("here.sock").on("listening", () => { console.log("LISTENING"); process.exit(0); }).on("error", (e) => console.log("FAILED " + e.code))'`,
    });
    expect(text(fx.runtime, outcome)).toContain("FAILED EPERM");
  });

  it("pipes still work: node child_process (exec, spawn, fork with IPC) and python subprocess and multiprocessing", async () => {
    const node = `node -e '
      const cp = require("child_process");
      console.log("exec:" + cp.execFileSync("echo", ["a"]).toString().trim());
      const c = cp.spawn("cat", { stdio: ["pipe", "pipe", "inherit"] });
      c.stdout.on("data", (d) => console.log("spawn:" + String(d).trim()));
      c.stdin.end("b");
      const f = cp.fork("-e", ["process.on(\\"message\\", (m) => { process.send(m + 1); process.exit(0); })"], { execArgv: [] });
      f.on("message", (m) => console.log("fork:" + m));
      f.send(41);
    '`;
    const py = `python3 -c '
import subprocess, multiprocessing
print("subprocess:" + subprocess.run(["echo", "c"], capture_output=True, text=True).stdout.strip())
def sq(x): return x * x
if __name__ == "__main__":
    with multiprocessing.Pool(2) as p: print("pool:" + str(p.map(sq, [1, 2, 3])))
'`;
    const outcome = await approved(fx.runtime, "bash", { command: `${node}; ${py}` });
    const seen = text(fx.runtime, outcome);
    expect(seen).toContain("exec:a");
    expect(seen).toContain("spawn:b");
    expect(seen).toContain("fork:42");
    expect(seen).toContain("subprocess:c");
    expect(seen).toContain("pool:[1, 4, 9]");
  });
});

/** A connection from the host side: proves the listener is reachable outside the sandbox. */
function hostConnect(path: string): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(path.startsWith("@") ? `\0${path.slice(1)}` : path);
    s.on("connect", () => {
      s.end();
      resolve("CONNECTED");
    });
    s.on("error", (e: NodeJS.ErrnoException) => resolve(`FAILED ${e.code ?? e.message}`));
  });
}
