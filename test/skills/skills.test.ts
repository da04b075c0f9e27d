/**
 * Skills end to end on the faux provider: a workspace skill (and a user's)
 * is listed in the system prompt by name and description, its body reaches a
 * request only after the model loaded it with the skill tool, its files load
 * on demand; a SKILL.md that is a link to a planted secret, and a skill file
 * leading out of its folder, are refused and never sent.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FauxReply, FauxRequest } from "../../electron/core/faux";
import { splitFrontMatter } from "../../electron/core/skills/skills";
import { expectAllAccepted, startHarness, type Harness } from "../agent/harness";
import { PROCESS_TEST_TIMEOUT_MS } from "../timeouts";

let h: Harness | null = null;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  await h?.close();
  h = null;
  for (const c of cleanups.splice(0)) c();
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const skillCall = (id: string, args: Record<string, unknown>): FauxReply => ({
  type: "reply",
  content: [{ type: "toolCall", id, name: "skill", arguments: args }],
});
const say = (text: string): FauxReply => ({ type: "reply", content: [{ type: "text", text }] });
type Recorded = Pick<FauxRequest, "body">;
const bodyOf = (req: Recorded) => JSON.stringify(req.body);
/** The system prompt as sent (Anthropic Messages: `system`, a string or text blocks). */
const systemOf = (req: Recorded) => {
  const system = (req.body as { system?: unknown }).system;
  return typeof system === "string" ? system : Array.isArray(system) ? system.map((b: { text?: string }) => b.text ?? "").join("\n") : "";
};
const toolsOf = (req: Recorded) => ((req.body as { tools?: { name?: string }[] }).tools ?? []).map((t) => t.name);

const RELEASE = `---
name: release-notes
description: Write release notes from the git log, in the project's house style.
---
BODY-MARKER-4d1f: group the changes by area, newest first, and use template.md.
`;

describe("skills", () => {
  it(
    "are listed by name and description; the body and a file reach the model only once loaded",
    async () => {
      const userDir = tempDir("awb-user-");
      mkdirSync(join(userDir, "skills", "mine"), { recursive: true });
      writeFileSync(
        join(userDir, "skills", "mine", "SKILL.md"),
        "---\nname: mine\ndescription: The user's own skill.\n---\nUSER-BODY-9a\n",
      );
      h = await startHarness({
        files: {
          ".agents/skills/release-notes/SKILL.md": RELEASE,
          ".agents/skills/release-notes/template.md": "FILE-MARKER-77c2 ## Added\n",
          ".claude/skills/pdf/SKILL.md": "---\nname: pdf\ndescription: Fill PDF forms.\n---\nPDF-BODY-1b\n",
          // Same name as a workspace skill: the first found (.agents) wins.
          ".claude/skills/dup/SKILL.md": "---\nname: release-notes\ndescription: Shadowed.\n---\nSHADOW-BODY\n",
        },
        workbench: { userConfigDir: userDir },
      });
      h.faux.script([
        skillCall("call_skill", { name: "release-notes" }),
        skillCall("call_file", { name: "release-notes", file: "template.md" }),
        say("done"),
      ]);
      await h.turn("write the release notes for 2.0");
      expectAllAccepted(h);
      const [first, second, third] = h.faux.requests;
      expect(h.faux.requests).toHaveLength(3);
      const system = systemOf(first);
      expect(system).toContain("- release-notes: Write release notes from the git log, in the project's house style.");
      expect(system).toContain("- pdf: Fill PDF forms.");
      expect(system).toContain("- mine: The user's own skill.");
      expect(system).not.toContain("Shadowed.");
      expect(toolsOf(first)).toContain("skill");
      // Bodies are not in the prompt: only what the model loads.
      expect(bodyOf(first)).not.toContain("BODY-MARKER-4d1f");
      expect(bodyOf(first)).not.toContain("PDF-BODY-1b");
      expect(bodyOf(first)).not.toContain("USER-BODY-9a");
      expect(bodyOf(second)).toContain("BODY-MARKER-4d1f");
      expect(bodyOf(second)).toContain("- template.md");
      expect(bodyOf(second)).not.toContain("FILE-MARKER-77c2");
      expect(bodyOf(third)).toContain("FILE-MARKER-77c2");
      for (const r of h.faux.requests) {
        expect(bodyOf(r)).not.toContain("PDF-BODY-1b");
        expect(bodyOf(r)).not.toContain("SHADOW-BODY");
      }
      // The UI lists the skills.
      const listed = await h.call("session.instructions", { sessionId: h.sessionId });
      expect(listed.skills?.map((s) => `${s.scope}:${s.name}`)).toEqual(["workspace:release-notes", "workspace:pdf", "user:mine"]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "a SKILL.md linked to a planted secret is refused and never sent; a skill file cannot lead out of its folder",
    async () => {
      const outside = tempDir("awb-secrets-");
      const secret = join(outside, "credentials");
      writeFileSync(secret, "---\nname: evil\ndescription: Looks fine.\n---\nMARKER-SECRET-e1f0\n");
      h = await startHarness({
        files: {
          ".agents/skills/ok/SKILL.md": "---\nname: ok\ndescription: A fine skill.\n---\nOK-BODY\n",
          "AGENTS-not.md": "WORKSPACE-FILE-MARKER\n",
        },
      });
      mkdirSync(join(h.workspace, ".agents", "skills", "evil"));
      symlinkSync(secret, join(h.workspace, ".agents", "skills", "evil", "SKILL.md"));
      symlinkSync(secret, join(h.workspace, ".agents", "skills", "ok", "linked.md"));
      h.faux.script([
        skillCall("call_evil", { name: "evil" }),
        skillCall("call_up", { name: "ok", file: "../../../AGENTS-not.md" }),
        skillCall("call_link", { name: "ok", file: "linked.md" }),
        say("done"),
      ]);
      await h.turn("use the skills");
      expectAllAccepted(h);
      expect(h.faux.requests).toHaveLength(4);
      for (const r of h.faux.requests) {
        expect(bodyOf(r)).not.toContain("MARKER-SECRET-e1f0");
        expect(bodyOf(r)).not.toContain("WORKSPACE-FILE-MARKER");
      }
      expect(systemOf(h.faux.requests[0])).not.toContain("evil");
      const results = bodyOf(h.faux.requests[3]);
      expect(results).toMatch(/skill evil is left out: .*outside the workspace/);
      expect(results).toContain("is outside the skill's folder");
      expect(results).toMatch(/linked\.md: .*outside the workspace/);
      const { skipped, skills } = await h.call("session.instructions", { sessionId: h.sessionId });
      expect(skills?.map((s) => s.name)).toEqual(["ok"]);
      expect(skipped.find((s) => s.path === ".agents/skills/evil/SKILL.md")?.reason).toMatch(/outside the workspace/);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it(
    "without skills there is no skill tool and no skills section",
    async () => {
      h = await startHarness({ files: { "a.txt": "a\n" } });
      h.faux.script([say("hi")]);
      await h.turn("hello");
      expect(toolsOf(h.faux.requests[0])).not.toContain("skill");
      expect(systemOf(h.faux.requests[0])).not.toContain("Skills:");
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  it("front matter: a SKILL.md without it, or with YAML that is not a mapping, is refused with the reason", () => {
    expect(splitFrontMatter("no front matter")).toEqual({ error: expect.stringMatching(/no front matter/) as unknown });
    expect(splitFrontMatter("---\n- a\n---\nbody")).toEqual({ error: "its front matter is not a mapping" });
    expect(splitFrontMatter("---\nname: x\ndescription: >\n  folded\n  text\n---\nbody")).toEqual({
      meta: { name: "x", description: "folded text\n" },
      body: "body",
    });
  });
});
