/**
 * The message box: Enter sends, Shift+Enter breaks the line. While a turn runs,
 * Stop is offered and new messages are queued (shown until delivered). Images
 * are attached by pasting, dropping or picking them.
 */
import { useEffect, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from "react";
import type { TurnState } from "../../../shared/api";
import type { ImageContent } from "../../../shared/protocol";
import { addImageFiles, IMAGE_TYPES, MAX_IMAGES } from "../lib/attachments";
import { isDialogOpen, isTextField } from "../lib/keyboard";
import { QueuedImages } from "../lib/queued-images";
import { useAppStore } from "../stores/app-store";
import { CloseIcon, ImageIcon } from "./icons";

/** The message box's element id (New session on an empty session focuses it). */
export const COMPOSER_ID = "composer-input";

export function Composer({
  turn,
  disabled,
  disabledReason,
  model,
  onSend,
  onStop,
}: {
  turn: TurnState | null;
  disabled: boolean;
  disabledReason?: string;
  /** The model the message goes to (its name, and whether it reads images). */
  model?: { name: string; acceptsImages: boolean } | null;
  onSend: (text: string, images: ImageContent[]) => Promise<boolean>;
  onStop: () => void;
}) {
  const [text, setText] = useState("");
  const [images, setImages] = useState<ImageContent[]>([]);
  const [sending, setSending] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const pickerRef = useRef<HTMLInputElement>(null);
  const running = turn !== null && turn.status !== "idle";

  // Images of messages queued behind the running turn: Stop gives them back with the queued text.
  const queuedImages = useRef(new QueuedImages());
  const queued = turn?.queued;
  useEffect(() => {
    queuedImages.current.sync(queued?.length ?? 0);
  }, [queued]);

  const send = async () => {
    const value = text.trim();
    if ((!value && images.length === 0) || disabled || sending) return;
    setSending(true);
    const queuing = running;
    const ok = await onSend(value, images);
    setSending(false);
    if (ok) {
      if (queuing) queuedImages.current.push(images);
      setText("");
      setImages([]);
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
    const back = queuedImages.current.takeAll();
    // The queue shows an image as an "[image]" line; the images themselves come back as attachments.
    const queued = (turn?.queued ?? []).map((q) => (back.length > 0 ? q.replace(/^\[image\]$/gm, "").trim() : q));
    if (queued.length > 0) setText((current) => [current, ...queued].filter((t) => t.trim()).join("\n\n"));
    if (queued.length > 0 && back.length > 0) setImages((current) => [...current, ...back].slice(0, MAX_IMAGES));
    onStop();
    ref.current?.focus();
  };

  // The approval card takes the focus, so Escape (the Stop shortcut) must also work outside the message box:
  // when no text field, dialog or overlay has the key (the box itself handles it in onKeyDown).
  const stopRef = useRef(stop);
  stopRef.current = stop;
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
  const pendingId = turn?.pendingApproval?.toolCallId ?? null;
  const shownApproval = useRef<string | null>(null);
  useEffect(() => {
    const answered = shownApproval.current !== null && pendingId === null;
    shownApproval.current = pendingId;
    const focus = document.activeElement;
    if (answered && (focus === null || focus === document.body)) ref.current?.focus();
  }, [pendingId]);

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
    if (e.key === "Escape" && running) {
      e.preventDefault();
      stop();
    }
  };

  return (
    <div className="composer">
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
              <button type="button" className="icon" aria-label={`Remove image ${i + 1}`} onClick={() => setImages(images.filter((_, j) => j !== i))}>
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
          placeholder={disabled ? (disabledReason ?? "") : running ? "Type to queue a message for after this step…" : "Ask the agent… (Enter to send, Shift+Enter for a new line)"}
          value={text}
          rows={Math.min(10, Math.max(2, text.split("\n").length))}
          disabled={disabled}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
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
          <button
            type="button"
            className="primary"
            onClick={() => void send()}
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
