/**
 * The blocks of a message `chat.send` was given: the chosen prompt template
 * expanded, then the @-mentioned files, each read now through the prompt-file
 * reader (docs/prompt-files.md) and tagged with where it came from.
 */
import type { RequestParams } from "../../../shared/api";
import { expandTemplate } from "../../../shared/mentions";
import { readPromptTemplate } from "../commands/prompt-commands";
import { attachMentions } from "../mentions/attach";
import { ApiFailure } from "./errors";
import type { PromptSourceLog } from "./prompt-sources";

type TextBlock = { type: "text"; text: string };

export async function composeMessage(
  params: RequestParams<"chat.send">,
  where: { workspaceRoot: string; configDir: string; sources: PromptSourceLog },
): Promise<{ text: string; blocks: TextBlock[] }> {
  const blocks: TextBlock[] = [];
  let text = params.text;
  if (params.command) {
    const { name, args } = params.command;
    if (text.trim() !== "") throw new ApiFailure("INVALID_REQUEST", "a prompt command is sent as its template: leave the text empty");
    const template = await readPromptTemplate(where.workspaceRoot, where.configDir, name);
    if (!template.ok) throw new ApiFailure("INVALID_REQUEST", template.message);
    const block: TextBlock = { type: "text", text: expandTemplate(template.template, args) };
    where.sources.tag(block, { kind: "template", path: template.path, bytes: template.bytes, truncated: false, detail: `/${name}` });
    blocks.push(block);
    text = "";
  }
  const attached = await attachMentions(where.workspaceRoot, params.mentions ?? []);
  if (!attached.ok) throw new ApiFailure("INVALID_REQUEST", attached.message);
  for (const { block, source } of attached.attached) {
    where.sources.tag(block, {
      kind: "mention",
      path: source.path,
      bytes: source.bytes,
      truncated: source.truncated,
      ...(source.lines ? { detail: `lines ${source.lines}` } : {}),
    });
    blocks.push(block);
  }
  return { text, blocks };
}
