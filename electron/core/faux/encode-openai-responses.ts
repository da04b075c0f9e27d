/**
 * A FauxReply as the OpenAI Responses API would stream it: response.created,
 * response.in_progress, then per output item `output_item.added` → deltas →
 * `output_item.done`, and `response.completed` (or `response.incomplete`).
 * Reasoning items carry `encrypted_content` issued for the request's model.
 */
import { newIds } from "./ids";
import {
  argumentText,
  chunks,
  chunkSizeOf,
  nowSeconds,
  stopReasonOf,
  usageOf,
  type EncodeInput,
  type Encoded,
  type SseEvent,
} from "./encode-common";

/** `call_x|fc_y` → call_id and item id; a plain id is the call_id and gets a fresh item id. */
export function splitResponsesId(id: string | undefined): { callId: string; itemId: string } {
  if (id === undefined) return { callId: newIds.responseCallId(), itemId: newIds.responseFunctionCall() };
  const bar = id.indexOf("|");
  if (bar < 0) return { callId: id, itemId: newIds.responseFunctionCall() };
  return { callId: id.slice(0, bar), itemId: id.slice(bar + 1) };
}

export function encodeOpenAIResponses(
  input: EncodeInput,
  options: { encryptedReasoning: boolean } = { encryptedReasoning: true },
): Encoded {
  const { reply, model, signatures } = input;
  const size = chunkSizeOf(reply);
  const usage = usageOf(input);
  const id = reply.responseId ?? newIds.response();
  const created_at = nowSeconds();
  const stop = stopReasonOf(reply);
  const incomplete = stop === "length" ? "max_output_tokens" : stop === "contentFilter" || stop === "refusal" ? "content_filter" : null;

  let seq = 0;
  const events: SseEvent[] = [];
  const emit = (type: string, payload: Record<string, unknown>) => {
    events.push({ event: type, data: JSON.stringify({ type, sequence_number: seq++, ...payload }) });
  };
  const responseObject = (status: string, output: unknown[], withUsage: boolean) => ({
    id,
    object: "response",
    created_at,
    status,
    error: null,
    incomplete_details: incomplete && status === "incomplete" ? { reason: incomplete } : null,
    instructions: null,
    model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    tool_choice: "auto",
    tools: [],
    top_p: 1,
    truncation: "disabled",
    usage: withUsage
      ? {
          input_tokens: usage.input + usage.cacheRead,
          input_tokens_details: { cached_tokens: usage.cacheRead },
          output_tokens: usage.output,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: usage.input + usage.cacheRead + usage.output,
        }
      : null,
    metadata: {},
  });

  emit("response.created", { response: responseObject("in_progress", [], false) });
  emit("response.in_progress", { response: responseObject("in_progress", [], false) });

  const output: unknown[] = [];
  reply.content.forEach((block, output_index) => {
    if (block.type === "thinking") {
      const item_id = newIds.responseReasoning();
      emit("response.output_item.added", { output_index, item: { id: item_id, type: "reasoning", summary: [] } });
      const summary = block.thinking === "" ? [] : [{ type: "summary_text", text: block.thinking }];
      if (block.thinking !== "") {
        const part = { type: "summary_text", text: "" };
        emit("response.reasoning_summary_part.added", { item_id, output_index, summary_index: 0, part });
        for (const delta of chunks(block.thinking, size)) {
          emit("response.reasoning_summary_text.delta", { item_id, output_index, summary_index: 0, delta });
        }
        emit("response.reasoning_summary_text.done", { item_id, output_index, summary_index: 0, text: block.thinking });
        emit("response.reasoning_summary_part.done", { item_id, output_index, summary_index: 0, part: summary[0] });
      }
      const item = options.encryptedReasoning
        ? { id: item_id, type: "reasoning", summary, encrypted_content: signatures.issue(model, block.thinking, "encrypted") }
        : { id: item_id, type: "reasoning", summary };
      emit("response.output_item.done", { output_index, item });
      output.push(item);
    } else if (block.type === "text") {
      const item_id = newIds.responseMessage();
      emit("response.output_item.added", {
        output_index,
        item: { id: item_id, type: "message", status: "in_progress", content: [], role: "assistant" },
      });
      emit("response.content_part.added", {
        item_id,
        output_index,
        content_index: 0,
        part: { type: "output_text", annotations: [], text: "" },
      });
      for (const delta of chunks(block.text, size)) {
        emit("response.output_text.delta", { item_id, output_index, content_index: 0, delta, logprobs: [] });
      }
      emit("response.output_text.done", { item_id, output_index, content_index: 0, text: block.text, logprobs: [] });
      const part = { type: "output_text", annotations: [], logprobs: [], text: block.text };
      emit("response.content_part.done", { item_id, output_index, content_index: 0, part });
      const item = { id: item_id, type: "message", status: "completed", content: [part], role: "assistant" };
      emit("response.output_item.done", { output_index, item });
      output.push(item);
    } else {
      const { callId, itemId } = splitResponsesId(block.id);
      const args = argumentText(block);
      emit("response.output_item.added", {
        output_index,
        item: { id: itemId, type: "function_call", status: "in_progress", arguments: "", call_id: callId, name: block.name },
      });
      for (const delta of chunks(args, size)) {
        emit("response.function_call_arguments.delta", { item_id: itemId, output_index, delta });
      }
      emit("response.function_call_arguments.done", { item_id: itemId, output_index, arguments: args });
      const item = { id: itemId, type: "function_call", status: "completed", arguments: args, call_id: callId, name: block.name };
      emit("response.output_item.done", { output_index, item });
      output.push(item);
    }
  });

  const status = incomplete ? "incomplete" : "completed";
  const done = responseObject(status, output, true);
  emit(incomplete ? "response.incomplete" : "response.completed", { response: done });
  return { events, json: done };
}
