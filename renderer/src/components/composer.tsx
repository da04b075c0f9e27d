/**
 * The message box: Enter sends, Shift+Enter breaks the line. While a turn runs,
 * Stop is offered; Enter queues a follow-up (the next turn, once this one ends)
 * and Alt+Enter or Steer sends a steering message, which joins the running
 * turn at its next tool boundary (docs/sub-agents.md#steering-and-follow-ups);
 * both are shown until delivered. Images
 * are attached by pasting, dropping or picking them. `@` mentions a workspace
 * file (attached when sent, a line range as `@path:10-40`); `/` runs a
 * command or expands a template (composer-suggestions.tsx).
 */
import { useEffect, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from "react";
import type { Mention, PromptCommandCall, TurnState } from "../../../shared/api";
import { parseMentionToken, parseSlashCommand } from "../../../shared/mentions";
import type { ImageContent } from "../../../shared/protocol";
import { addImageFiles, IMAGE_TYPES, MAX_IMAGES } from "../lib/attachments";
import { isDialogOpen, isTextField } from "../lib/keyboard";
import { QueuedImages } from "../lib/queued-images";
import { useAppStore } from "../stores/app-store";
import { CloseIcon, ImageIcon } from "./icons";
import { suggestionContext, SuggestionList, useCommands, useSuggestions, type Suggestion } from "./composer-suggestions";

/** Built-in commands the composer hands to its owner (the rest are templates). */
export type BuiltinCommand = "new" | "model" | "compact" | "ask" | "agent";
const BUILTINS: readonly string[] = ["new", "model", "compact", "ask", "agent"];

/** The @-mentions in `text` whose path was picked from the list (so "@team" in prose is left alone). */
function mentionsIn(text: string, picked: ReadonlySet<string>): Mention[] {
  const out: Mention[] = [];
  for (const m of text.matchAll(/(?:^|\s)@(\S+)/g)) {
    const ref = parseMentionToken(m[1].replace(/[),.;]+$/, ""));
    if (ref && picked.has(ref.path) && !out.some((o) => o.path === ref.path && o.startLine === ref.startLine)) out.push(ref);
  }
  return out;
}

/** The message box's element id (New session on an empty session focuses it). */
export const COMPOSER_ID = "composer-input";

export function Composer({
  turn,
  disabled,
  disabledReason,
  model,
  workspaceId = null,
  onCommand,
  onSend,
  onStop,
  draft,
  onDraftTaken,
}: {
  turn: TurnState | null;
  /** Text to put in the box (a message a rewind went back before), taken once. */
  draft?: string | null;
  onDraftTaken?: () => void;
  disabled: boolean;
  disabledReason?: string;
  /** The model the message goes to (its name, and whether it reads images). */
  model?: { name: string; acceptsImages: boolean } | null;
  /** For file mentions and command templates. */
  workspaceId?: string | null;
  /** A built-in command was chosen (`/ask`, `/compact` …). */
  onCommand?: (command: BuiltinCommand, args: string) => void;
  /**
   * `command`: a prompt template chosen with `/`, expanded by the core (the text is then empty); `steer`: while a
   * turn runs, join it at its next tool boundary instead of following it.
   */
  onSend: (
    text: string,
    images: ImageContent[],
    mentions: Mention[],
    command: PromptCommandCall | undefined,
    steer: boolean,
  ) => Promise<boolean>;
  onStop: () => void;
}) {
  const [text, setText] = useState("");
  const [images, setImages] = useState<ImageContent[]>([]);
  const [sending, setSending] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const pickerRef = useRef<HTMLInputElement>(null);
  const running = turn !== null && turn.status !== "idle";
  const [caret, setCaret] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const picked = useRef(new Set<string>());
  const loadCommands = useCommands(workspaceId);
  const context = dismissed === text ? null : suggestionContext(text, caret);
  const { items, index, setIndex } = useSuggestions(workspaceId, context, loadCommands);
  const popupOpen = context !== null && items.length > 0;

  const setTextAt = (next: string, at: number) => {
    setText(next);
    setCaret(at);
    requestAnimationFrame(() => {
      ref.current?.focus();
      ref.current?.setSelectionRange(at, at);
    });
  };

  const runBuiltin = (name: string, args: string) => {
    setText("");
    setCaret(0);
    onCommand?.(name as BuiltinCommand, args);
  };

  const pick = (s: Suggestion) => {
    if (!context) return;
    if (s.kind === "file") {
      picked.current.add(s.path);
      const before = text.slice(0, context.start);
      const after = text.slice(caret);
      const inserted = `@${s.path}${after.startsWith(" ") ? "" : " "}`;
      setTextAt(before + inserted + after, before.length + inserted.length);
      return;
    }
    if (s.command.source === "builtin") return runBuiltin(s.command.name, "");
    setTextAt(`/${s.command.name} `, s.command.name.length + 2);
  };

  useEffect(() => {
    if (!draft) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a draft handed over by rewind replaces the text once, when it arrives
    setText(draft);
    onDraftTaken?.();
    ref.current?.focus();
  }, [draft, onDraftTaken]);

  // Images of messages queued behind the running turn (and of steering messages): Stop gives them back with the text.
  const queuedImages = useRef(new QueuedImages());
  const steeringImages = useRef(new QueuedImages());
  const queued = turn?.queued;
  const steering = turn?.steering;
  useEffect(() => {
    queuedImages.current.sync(queued?.length ?? 0);
  }, [queued]);
  useEffect(() => {
    steeringImages.current.sync(steering?.length ?? 0);
  }, [steering]);

  const send = async (steer = false) => {
    let value = text.trim();
    if ((!value && images.length === 0) || disabled || sending) return;
    const slash = parseSlashCommand(value);
    if (slash && BUILTINS.includes(slash.name)) return runBuiltin(slash.name, slash.args);
    const mentions = mentionsIn(value, picked.current);
    let command: PromptCommandCall | undefined;
    if (slash) {
      const template = (await loadCommands().catch(() => [])).find((c) => c.name === slash.name && c.template !== undefined);
      // The core reads the template again when it sends it, through the same checks as the read tool.
      if (template) {
        command = { name: slash.name, args: slash.args };
        value = "";
      }
    }
    setSending(true);
    const queuing = running;
    const ok = await onSend(value, images, mentions, command, steer);
    setSending(false);
    if (ok) {
      if (queuing) (steer ? steeringImages : queuedImages).current.push(images);
      setText("");
      setImages([]);
      picked.current.clear();
    }
    ref.current?.focus();
  };

  const attach = async (files: File[]) => {
    if (files.length === 0 || disabled) return;
    const { images: next, refused } = await addImageFiles(images, files);
    setImages(next);
    if (refused.length > 0) useAppStore.getState().notify("error", `Not attached: ${refused.join("; ")}.`);
  };

  // Text pastes as text; a pasted image (a screenshot) becomes an attachment.
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...e.clipboardData.files].filter((f) => f.type.startsWith("image/"));
    if (files.length === 0) return;
    e.preventDefault();
    void attach(files);
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    if (e.dataTransfer.files.length === 0) return;
    e.preventDefault();
    void attach([...e.dataTransfer.files]);
  };

  // Stop drops the messages queued behind the turn; give them back to the user instead of losing them.
  const stop = () => {
    const back = [...steeringImages.current.takeAll(), ...queuedImages.current.takeAll()];
    // The queue shows an image as an "[image]" line; the images themselves come back as attachments.
    const queued = [...(turn?.steering ?? []), ...(turn?.queued ?? [])].map((q) =>
      back.length > 0 ? q.replace(/^\[image\]$/gm, "").trim() : q,
    );
    if (queued.length > 0) setText((current) => [current, ...queued].filter((t) => t.trim()).join("\n\n"));
    if (queued.length > 0 && back.length > 0) setImages((current) => [...current, ...back].slice(0, MAX_IMAGES));
    onStop();
    ref.current?.focus();
  };

  // The user may have moved the focus to the approval card, so Escape (the Stop shortcut) must also work outside the message box:
  // when no text field, dialog or overlay has the key (the box itself handles it in onKeyDown).
  const stopRef = useRef(stop);
  useEffect(() => {
    stopRef.current = stop;
  });
  useEffect(() => {
    if (!running) return;
    const onWindowKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented || isTextField(e.target)) return;
      if (isDialogOpen()) return;
      // After the event has reached every listener: an overlay that closes on Escape marks it handled.
      setTimeout(() => {
        if (!e.defaultPrevented) stopRef.current();
      }, 0);
    };
    window.addEventListener("keydown", onWindowKey);
    return () => window.removeEventListener("keydown", onWindowKey);
  }, [running]);

  // An answered approval card took the focus with it (to the page body): give it back to the message box.
  // Also when the next call's card replaces it at once (each call has its own card).
  const pendingId = turn?.pendingApproval?.toolCallId ?? null;
  const shownApproval = useRef<string | null>(null);
  useEffect(() => {
    const answered = shownApproval.current !== null && pendingId !== shownApproval.current;
    shownApproval.current = pendingId;
    const focus = document.activeElement;
    if (answered && (focus === null || focus === document.body)) ref.current?.focus();
  }, [pendingId]);

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (popupOpen) {
      if (e.key === "ArrowDown" || e.key === "ArrowUp") {
        e.preventDefault();
        const step = e.key === "ArrowDown" ? 1 : -1;
        setIndex((index + step + items.length) % items.length);
        return;
      }
      if ((e.key === "Enter" || e.key === "Tab") && !e.shiftKey && !e.nativeEvent.isComposing) {
        e.preventDefault();
        pick(items[Math.min(index, items.length - 1)]);
        return;
      }
      if (e.key === "Escape") {
        e.preventDefault();
        setDismissed(text);
        return;
      }
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send(e.altKey);
    }
    if (e.key === "Escape" && running) {
      e.preventDefault();
      stop();
    }
  };

  return (
    <div className="composer">
      {steering && steering.length > 0 && (
        <ul className="queued steering-list" aria-label="Steering messages">
          {steering.map((q, i) => (
            <li key={i}>
              <span className="badge">next step</span> {q}
            </li>
          ))}
        </ul>
      )}
      {turn && turn.queued.length > 0 && (
        <ul className="queued" aria-label="Queued messages">
          {turn.queued.map((q, i) => (
            <li key={i}>
              <span className="badge">queued</span> {q}
            </li>
          ))}
        </ul>
      )}
      {images.length > 0 && (
        <div className="attachments" role="list" aria-label="Attached images">
          {images.map((img, i) => (
            <div key={i} role="listitem" className="attachment">
              <img alt={`Attached image ${i + 1}`} src={`data:${img.mimeType};base64,${img.data}`} />
              <button
                type="button"
                className="icon"
                aria-label={`Remove image ${i + 1}`}
                onClick={() => setImages(images.filter((_, j) => j !== i))}
              >
                <CloseIcon />
              </button>
            </div>
          ))}
          {model && !model.acceptsImages && (
            <p className="attachments-note" role="note">
              {model.name} does not read images: it gets a note that an image was left out. Pick a model that reads images to send them.
            </p>
          )}
        </div>
      )}
      {popupOpen && context && <SuggestionList kind={context.kind} items={items} index={index} onPick={pick} onHover={setIndex} />}
      <div className="composer-row" onDragOver={(e) => e.dataTransfer.types.includes("Files") && e.preventDefault()} onDrop={onDrop}>
        <button
          type="button"
          className="icon attach-button"
          onClick={() => pickerRef.current?.click()}
          disabled={disabled}
          aria-label="Attach images"
          title="Attach images (or paste or drop them here)"
        >
          <ImageIcon />
        </button>
        <textarea
          ref={ref}
          id={COMPOSER_ID}
          aria-label="Message"
          placeholder={
            disabled
              ? (disabledReason ?? "")
              : running
                ? "Enter queues a follow-up for when the agent is done; Alt+Enter steers it at its next step…"
                : "Ask the agent… (@ to mention a file, / for commands; Enter to send, Shift+Enter for a new line)"
          }
          value={text}
          rows={Math.min(10, Math.max(2, text.split("\n").length))}
          disabled={disabled}
          onChange={(e) => {
            setText(e.target.value);
            setCaret(e.target.selectionStart);
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          aria-autocomplete="list"
          onPaste={onPaste}
        />
        <input
          ref={pickerRef}
          type="file"
          accept={IMAGE_TYPES.join(",")}
          multiple
          hidden
          onChange={(e) => {
            void attach([...(e.target.files ?? [])]);
            e.target.value = "";
          }}
        />
        <div className="composer-buttons">
          {running && (
            <button type="button" className="danger" onClick={stop} aria-label="Stop" aria-keyshortcuts="Escape">
              Stop
            </button>
          )}
          {running && (
            <button
              type="button"
              onClick={() => void send(true)}
              disabled={disabled || sending || (!text.trim() && images.length === 0)}
              aria-label="Steer"
              aria-keyshortcuts="Alt+Enter"
              title="Send now: the agent reads it after its current tool calls, before its next request (Alt+Enter)"
            >
              Steer
            </button>
          )}
          <button
            type="button"
            className="primary"
            onClick={() => void send(false)}
            disabled={disabled || sending || (!text.trim() && images.length === 0)}
            aria-label={running ? "Queue message" : "Send"}
          >
            {running ? "Queue" : "Send"}
          </button>
        </div>
      </div>
      <p className="composer-status" aria-live="polite">
        {turn?.status === "awaitingApproval" ? "Waiting for your approval…" : running ? "The agent is working…" : ""}
      </p>
    </div>
  );
}
