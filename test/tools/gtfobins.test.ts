/**
 * Outside truth for the allow rules: GTFOBins (test/fixtures/gtfobins) lists,
 * for 478 Unix programs, the documented ways each can run commands, read or
 * write files, load libraries or reach the network. For every entry, with
 * the widest rules a user could save for its program (`<program> *`, and
 * `<program> <sub-command> *`) and every rule the approval card would
 * suggest for it beyond its exact words, the command must be asked, never
 * auto-approved. The workspace is a real folder; the entries' paths
 * (/path/to/input-file, /etc/hosts, /bin/sh …) are outside it.
 */
import { mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureShellParser, evaluatePolicy, suggestRules, type PolicyRule } from "../../electron/core/tools";
import { candidatePaths, pathsInside } from "../../electron/core/tools/approval/operand-places";
import { programNames, programSpec } from "../../electron/core/tools/approval/programs";
import { plainCommands } from "../../electron/core/tools/shell-parse";

interface Entry {
  function: string;
  code: string;
}
const data = JSON.parse(readFileSync(join(import.meta.dirname, "../fixtures/gtfobins/entries.json"), "utf8")) as {
  programs: Record<string, Entry[]>;
};
const workspace = realpathSync(mkdtempSync(join(tmpdir(), "wb-gtfobins-")));
const policy = { write: "ask", edit: "ask", bash: "ask", bashAllow: [], bashDeny: [] } as const;

/** The rules tried for one entry: its program with `*`, with each first word as a sub-command, and the card's wide suggestions. */
function rulesFor(program: string, code: string): string[] {
  const rules = new Set([`${program} *`]);
  const plain = plainCommands(code);
  if (plain.ok) {
    for (const words of plain.commands) {
      if (words[0] !== program) continue;
      const sub = words.slice(1).find((w) => !w.startsWith("-"));
      if (sub && programSpec(program)?.subcommands) rules.add(`${program} ${sub} *`);
      const suggested = suggestRules("bash", { kind: "command", command: words.join(" "), cwd: workspace, timeoutMs: 1000 });
      for (const rule of suggested.slice(1)) rules.add(rule);
    }
  }
  return [...rules];
}

async function decide(code: string, rules: string[]): Promise<string> {
  const inside = await pathsInside(workspace, candidatePaths(code, workspace));
  const saved: PolicyRule[] = rules.map((pattern) => ({ tool: "bash", action: "allow", pattern, source: "workspace" }));
  return evaluatePolicy(policy, saved, "bash", { kind: "command", command: code, cwd: workspace, timeoutMs: 1000 }, new Set(), {
    inside: (p) => inside.has(p),
  }).action;
}

describe("GTFOBins: no documented escape is auto-approved by a rule for its program", () => {
  beforeAll(() => ensureShellParser());

  it("every entry of every program is asked, with the widest rules for its program saved", async () => {
    const approved: string[] = [];
    let entries = 0;
    let withTable = 0;
    const known = new Set(programNames());
    for (const [program, list] of Object.entries(data.programs)) {
      for (const entry of list) {
        entries++;
        if (known.has(program)) withTable++;
        const rules = rulesFor(program, entry.code);
        const action = await decide(entry.code, rules);
        if (action === "allow") approved.push(`${program} (${entry.function}): ${entry.code} — rules ${rules.join(", ")}`);
      }
    }
    console.log(`gtfobins: ${entries} entries, ${approved.length} auto-approved (${withTable} of them for programs with a table)`);
    expect(Object.keys(data.programs).length).toBeGreaterThan(400);
    expect(entries).toBeGreaterThan(900);
    expect(approved).toEqual([]);
  });

  it("the same rules do allow the plain uses of those programs inside the workspace (control)", async () => {
    const controls: [string, string][] = [
      ["cat *", "cat README.md"],
      ["git diff *", "git diff --stat HEAD src/a.ts"],
      ["sed *", "sed -n 1,20p src/a.ts"],
      ["tar *", "tar -tzf dist/a.tgz"],
      ["grep *", "grep -rn TODO src"],
      ["find *", "find src -name '*.ts' -type f"],
      ["npm test *", "npm test -- -u"],
      ["make test *", "make test"],
      ["head *", "head -20 src/a.ts"],
      ["node *", "node scripts/build.js --watch"],
    ];
    for (const [rule, command] of controls) expect(await decide(command, [rule]), `${rule} for ${command}`).toBe("allow");
  });
});
