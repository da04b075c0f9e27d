/** The form for a review comment on one diff line (opened by clicking a line number in the diff). */
import { useEffect, useRef, useState } from "react";
import { useCommentsStore, type CommentTarget } from "../../stores/comments-store";

export function CommentForm({ target }: { target: CommentTarget }) {
  const add = useCommentsStore((s) => s.add);
  const setTarget = useCommentsStore((s) => s.setTarget);
  const [text, setText] = useState("");
  const [saving, setSaving] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- resets local editing state when the item it edits changes; the component is reused across items
    setText("");
    ref.current?.focus();
  }, [target.path, target.line]);
  const submit = async () => {
    if (!text.trim() || saving) return;
    setSaving(true);
    await add(target, text);
    setSaving(false);
  };
  return (
    <form
      className="comment-form"
      aria-label="Review comment"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label>
        Comment on{" "}
        <code>
          {target.path}:{target.line}
        </code>
        <textarea
          ref={ref}
          rows={2}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              void submit();
            } else if (e.key === "Escape") {
              e.preventDefault();
              e.stopPropagation();
              setTarget(null);
            }
          }}
        />
      </label>
      <div className="comment-form-actions">
        <button type="submit" className="primary" disabled={saving || !text.trim()}>
          Add comment
        </button>
        <button type="button" onClick={() => setTarget(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
