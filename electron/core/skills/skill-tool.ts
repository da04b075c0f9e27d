/**
 * The `skill` tool for one workspace: read-only, no approval, stored and
 * audited like any call. Offered only while the last discovery (at the start
 * of every turn, with the instruction files) found a skill; each call
 * discovers again, so a skill removed since is not loaded. The result's
 * details name the skill (and file) for the tool card. See
 * docs/conventions.md#skills.
 */
import type { SkillInfo } from "../../../shared/api";
import type { LoadedInstructions } from "../agent/instructions";
import { parseSkillArgs, SKILL_TOOL, skillToolSpec } from "../tools/agent-tools";
import { failure, toolError } from "../tools/errors";
import type { ToolOutcome, ToolSpec } from "../tools/types";
import { discoverSkills, loadSkill, skillsSection, type SkillRoots } from "./skills";

export interface SkillTools {
  /** The skill tool's spec while there are skills, else null. */
  spec(): ToolSpec | null;
  run(raw: unknown): Promise<ToolOutcome>;
}

export class WorkspaceSkills implements SkillTools {
  private offered: SkillInfo[] = [];

  constructor(private readonly roots: SkillRoots) {}

  /** Discovers the skills and adds them to the instructions: the section in the system prompt, the list and the files left out. */
  async withSkills(loaded: LoadedInstructions): Promise<LoadedInstructions> {
    const found = await discoverSkills(this.roots).catch(() => ({ skills: [], skipped: [] }));
    this.offered = found.skills.map(({ name, description, scope, path }) => ({ name, description, scope, path }));
    const section = skillsSection(found.skills);
    return {
      ...loaded,
      text: [loaded.text, section].filter((t) => t !== "").join("\n\n"),
      skipped: [...loaded.skipped, ...found.skipped],
      skills: this.offered,
    };
  }

  spec(): ToolSpec | null {
    return this.offered.length > 0 ? skillToolSpec() : null;
  }

  async run(raw: unknown): Promise<ToolOutcome> {
    const parsed = parseSkillArgs(raw);
    if (!parsed.ok) return failure(parsed.error);
    const { name, file } = parsed.value;
    const loaded = await loadSkill(this.roots, name, file).catch((err: unknown) => ({
      ok: false as const,
      reason: err instanceof Error ? err.message : String(err),
      missing: false,
    }));
    if (!loaded.ok)
      return failure(toolError(loaded.missing ? "NOT_FOUND" : "DENIED", `${SKILL_TOOL}: ${loaded.reason}`), {
        skill: name,
        ...(file ? { file } : {}),
      });
    return {
      ok: true,
      content: [{ type: "text", text: loaded.text }],
      details: { skill: name, ...(file ? { file } : {}), path: loaded.path, bytes: loaded.bytes },
    };
  }
}
