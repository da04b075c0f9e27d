/**
 * The reproductions behind docs/approvals.md#what-a-rule-covers: with the
 * rules the approval card suggested (or a user saved), each of these ran
 * without asking. A `*` now stands for operands only, read with the
 * program's own table; options are covered where the rule spells them (or
 * the table marks them harmless); paths must resolve inside the workspace.
 */
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureShellParser, evaluatePolicy, suggestRules, type PolicyRule, type ToolPolicy } from "../../electron/core/tools";
import { candidatePaths, pathsInside } from "../../electron/core/tools/approval/operand-places";
import { invalidBashAllow } from "../../electron/core/tools/approval/rule-match";

const workspace = realpathSync(mkdtempSync(join(tmpdir(), "wb-rules-")));
const outside = realpathSync(mkdtempSync(join(tmpdir(), "wb-rules-outside-")));
mkdirSync(join(workspace, "src"));
writeFileSync(join(workspace, "src/a.ts"), "x\n");
writeFileSync(join(outside, ".env"), "SECRET=1\n");
symlinkSync(join(outside, ".env"), join(workspace, "env-link"));
symlinkSync(outside, join(workspace, "out-dir"));

const ask: ToolPolicy = { write: "ask", edit: "ask", bash: "ask", bashAllow: [], bashDeny: [] };

async function decide(command: string, allow: string[], policy: ToolPolicy = ask, deny: string[] = []) {
  const inside = await pathsInside(workspace, candidatePaths(command, workspace));
  const rules: PolicyRule[] = [
    ...allow.map((pattern): PolicyRule => ({ tool: "bash", action: "allow", pattern, source: "workspace" })),
    ...deny.map((pattern): PolicyRule => ({ tool: "bash", action: "deny", pattern, source: "workspace" })),
  ];
  return evaluatePolicy(policy, rules, "bash", { kind: "command", command, cwd: workspace, timeoutMs: 1000 }, new Set(), {
    inside: (p) => inside.has(p),
  }).action;
}
const suggested = (command: string) => suggestRules("bash", { kind: "command", command, cwd: workspace, timeoutMs: 1000 });

beforeAll(() => ensureShellParser());

describe("a * never grows into running code", () => {
  it.each([
    ["npm test *", "npm test --script-shell=./evil.sh"],
    ["npm test *", "npm test --node-options=--require=./evil.cjs"],
    ["npm test *", "npm test --script-sh=./evil.sh"],
    ["sed *", "sed s/x/id/e src/a.ts"],
    ["sed *", "sed -n '1e id' src/a.ts"],
    ["sed *", "sed 'w /tmp/x' src/a.ts"],
    ["sed *", "sed -ni p src/a.ts"],
    ["sed *", "sed --in-pl s/a/b/ src/a.ts"],
    ["sed *", "sed -f ./script.sed src/a.ts"],
    ["tar -xzf *", "tar -xzf a.tgz --checkpoint-action=exec=./script"],
    ["tar -xzf *", "tar -xzf a.tgz --checkpoint-act=exec=./script"],
    ["tar *", "tar -Iprog -xf a.tar"],
    ["tar *", "tar xf a.tar --to-command=./x"],
    ["git grep *", "git grep -O./evil x"],
    ["git grep *", "git grep --open-files-in-pager=./evil x"],
    ["git diff *", "git diff --output=src/a.ts"],
    ["git diff *", "git diff --ext-diff"],
    ["make test *", "make test --eval=x"],
    ["make *", "make CC=./evil"],
    ["find *", "find . -exec rm x ';'"],
    ["find *", "find . -delete"],
    ["node *", "node -e 'require(1)'"],
    ["node *", "node --require ./x.js app.js"],
    ["python *", "python -c 'import os'"],
    ["git log *", "git -c core.pager=./evil log"],
    ["git log *", "git --exec-path=. log"],
    ["git clone *", "git clone ext::sh"],
    ["git clone *", "git clone file:///etc"],
    ["git clone *", "git clone --upload-pack=./evil https://example.com/r.git"],
    ["npm install *", "npm install file:../evil"],
    ["cargo build *", "cargo build --config build.rustc-wrapper=./evil"],
    ["go test *", "go test -exec ./evil ./..."],
    ["rg *", "rg --pre ./evil x"],
    ["jq *", "jq --rawfile x /etc/shadow -n '$x'"],
  ])("%s does not cover: %s", async (rule, command) => {
    expect(await decide(command, [rule])).toBe("ask");
  });

  it("no rule with * can be saved for a program without a table, nor for a launcher or a sub-command wildcard", () => {
    expect(invalidBashAllow("awk *")).toMatch(/options the app knows/);
    expect(invalidBashAllow("less *")).toMatch(/options the app knows/);
    expect(invalidBashAllow("xargs *")).toMatch(/runs other commands/);
    expect(invalidBashAllow("env FOO=1 npm test")).toMatch(/runs other commands/);
    expect(invalidBashAllow("git *")).toMatch(/sub-command/);
    expect(invalidBashAllow("npm *")).toMatch(/sub-command/);
    expect(invalidBashAllow("git status *")).toBeNull();
    expect(invalidBashAllow("awk '{print $1}' x")).toBeNull();
  });
});

describe("paths a * stands for stay inside the workspace", () => {
  it.each([
    "cat /other/project/.env /etc/shadow",
    "cat ../x",
    "cat env-link",
    "cat out-dir/.env",
    "cat src/../../x",
    `cat ${outside}/.env`,
    "git diff --no-index /root/.ssh/id_x /dev/null",
    "cd .. && cat x",
    "cd out-dir; cat .env",
    "cd src | cat ../../x",
  ])("cat * asks: %s", async (command) => {
    expect(await decide(command, ["cat *", "git diff *", "cd *"])).toBe("ask");
  });

  it("and the same rule allows the workspace's files, new files and links that stay inside (control)", async () => {
    expect(await decide("cat src/a.ts", ["cat *"])).toBe("allow");
    expect(await decide("cat -n src/a.ts src/new.ts", ["cat *"])).toBe("allow");
    expect(await decide("cd src && cat a.ts", ["cat *", "cd *"])).toBe("allow");
  });
});

describe("options are covered where the rule spells them", () => {
  it("spelled options, bundled or abbreviated as the program allows, and harmless ones the table marks", async () => {
    expect(await decide("git diff --stat src", ["git diff --stat *"])).toBe("allow");
    expect(await decide("git diff --output=x", ["git diff --stat *"])).toBe("ask");
    expect(await decide("ls -la src", ["ls *"])).toBe("allow");
    expect(await decide("ls -al --color=never src", ["ls *"])).toBe("allow");
    expect(await decide("sed -i s/a/b/ src/a.ts", ["sed -i *"])).toBe("allow");
    expect(await decide("sed --in-pl s/a/b/ src/a.ts", ["sed -i *"])).toBe("allow");
    expect(await decide("sed -i s/a/b/e src/a.ts", ["sed -i *"])).toBe("ask");
    expect(await decide("npm test -- -u", ["npm test -- *"])).toBe("allow");
    expect(await decide("git push --force origin main", ["git push *"])).toBe("ask");
    expect(await decide("git push --force origin main", ["git push --force *"])).toBe("allow");
    // A spelled option must be there: a dry-run rule never covers the real thing.
    expect(await decide("make", ["make -n *"])).toBe("ask");
  });
});

describe("deny rules read past the program's own options", () => {
  it.each([
    ["git push", "git -C . push"],
    ["git push", "git --no-pager push origin"],
    ["git push", "git -c x=y push"],
    ["npm publish", "npm --registry x publish"],
    ["npm publish", "npm --registry=x publish"],
    ["rm", "FOO=1 /bin/rm -rf x"],
  ])("%s denies %s", async (deny, command) => {
    expect(await decide(command, [], ask, [deny])).toBe("deny");
  });

  it("a line the deny rules cannot read is asked even when bash is set to allow", async () => {
    const allowAll: ToolPolicy = { ...ask, bash: "allow" };
    expect(await decide("$(echo rm) -rf x", [], allowAll, ["rm"])).toBe("ask");
    expect(await decide("ls src", [], allowAll, ["rm"])).toBe("allow");
  });
});

describe("the card never suggests a rule that covers more than the options shown", () => {
  it.each([
    ["sed -n 1,5p src/a.ts"],
    ["make test"],
    ["find . -name x"],
    ["tar -xzf a.tgz"],
    ["xargs rm"],
    ["env FOO=1 ls"],
    ["awk '{print}' x"],
    ["git config core.fsmonitor x"],
    ["node -e 1"],
  ])("%s: nothing wider than the exact command", (command) => {
    expect(suggested(command).filter((r) => r.includes("*"))).toEqual([]);
  });

  it("suggests the sub-command with the options that matter, and it covers the call", async () => {
    expect(suggested("git push --force origin main")).toEqual(["git push --force origin main", "git push --force *"]);
    expect(suggested("git log --oneline -n 5")).toEqual(["git log --oneline -n 5", "git log *"]);
    expect(suggested("npm test -- -u")).toEqual(["npm test -- -u", "npm test *"]);
    expect(await decide("git push --force origin main", ["git push --force *"])).toBe("allow");
  });
});

describe("what no rule auto-approves", () => {
  const preview = (sandboxed: boolean, sandboxOff?: boolean) => ({
    kind: "command" as const,
    command: "ls src",
    cwd: workspace,
    timeoutMs: 1000,
    sandboxed,
    ...(sandboxOff ? { sandboxOff } : {}),
  });
  const inside = (p: string) => p.startsWith(workspace);
  const rule: PolicyRule = { tool: "bash", action: "allow", pattern: "ls *", source: "workspace" };

  it("bash on a machine without an OS sandbox: every call asks, whatever the rules or the setting", () => {
    expect(evaluatePolicy(ask, [rule], "bash", preview(false), new Set(), { inside }).action).toBe("ask");
    expect(evaluatePolicy({ ...ask, bash: "allow" }, [], "bash", preview(false), new Set(), { inside }).action).toBe("ask");
    // The user turned the sandbox off in Settings: their rules still apply; and with a sandbox they do too.
    expect(evaluatePolicy(ask, [rule], "bash", preview(false, true), new Set(), { inside }).action).toBe("allow");
    expect(evaluatePolicy(ask, [rule], "bash", preview(true), new Set(), { inside }).action).toBe("allow");
  });

  it.each([".git/hooks/pre-commit", ".git/config", "sub/.git/config"])("a write or edit of %s, whatever path rules allow", (path) => {
    const rules: PolicyRule[] = ["**", ".git/**", path].map((pattern) => ({
      tool: "write",
      action: "allow",
      pattern,
      source: "workspace",
    }));
    const diff = { kind: "diff" as const, path, before: null, after: "x", unifiedDiff: "", added: 1, removed: 0 };
    expect(evaluatePolicy({ ...ask, write: "allow" }, rules, "write", diff).action).toBe("ask");
  });
});
