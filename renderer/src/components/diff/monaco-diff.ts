/**
 * The one Monaco diff editor of the app, loaded lazily (this module is a
 * separate chunk). Everything is bundled: the editor worker comes from Vite's
 * `?worker` import, never from a CDN, so the app works offline.
 *
 * One pair of models serves every selection (their text and language are
 * replaced). Disposal order matters (monaco-react#647): detach the models from
 * the widget (`setModel(null)`), dispose the widget, then dispose the models.
 */
import "monaco-editor/esm/vs/editor/editor.all.js";
import "monaco-editor/esm/vs/basic-languages/monaco.contribution.js";
import * as monaco from "monaco-editor/esm/vs/editor/editor.api.js";
import EditorWorker from "monaco-editor/esm/vs/editor/editor.worker.js?worker";
import type { HunkDecision, ProposalHunk } from "../../../../shared/hunks";
import { languageFromPath } from "../../lib/language";

export interface DiffContent {
  path: string;
  before: string;
  after: string;
}

/** A proposal reviewed hunk by hunk: rejected hunks are struck through, the current one outlined. */
export interface HunkMarks {
  hunks: ProposalHunk[];
  decisions: HunkDecision[];
  current: number;
}

/** A click in the glyph margin / line numbers of a diff line (for comments). */
export interface LineClick {
  side: "original" | "modified";
  line: number;
}

export interface DiffHost {
  show(content: DiffContent): void;
  setInline(inline: boolean): void;
  setDark(dark: boolean): void;
  setHunks(marks: HunkMarks | null): void;
  /** Makes the modified side editable (null: read-only again); `onChange` gets its whole text. */
  setEditable(onChange: ((text: string) => void) | null): void;
  /** Line markers (e.g. reviewer comments) on the modified side. */
  setLineMarks(lines: number[]): void;
  onLineClick(listener: ((click: LineClick) => void) | null): void;
  revealLine(line: number): void;
  dispose(): void;
}

let environmentSet = false;
function ensureEnvironment(): void {
  if (environmentSet) return;
  environmentSet = true;
  // Only the editor worker is needed: the diff is computed there; no language services run.
  self.MonacoEnvironment = { getWorker: () => new EditorWorker() };
}

function knownLanguage(id: string): string {
  return monaco.languages.getLanguages().some((l) => l.id === id) ? id : "plaintext";
}

export function createDiffHost(container: HTMLElement, opts: { inline: boolean; dark: boolean }): DiffHost {
  ensureEnvironment();
  monaco.editor.setTheme(opts.dark ? "vs-dark" : "vs");
  const editor = monaco.editor.createDiffEditor(container, {
    readOnly: true,
    originalEditable: false,
    glyphMargin: true,
    automaticLayout: true,
    renderSideBySide: !opts.inline,
    useInlineViewWhenSpaceIsLimited: false,
    minimap: { enabled: false },
    scrollBeyondLastLine: false,
    renderOverviewRuler: false,
    ignoreTrimWhitespace: false,
    fontSize: 13,
    ariaLabel: "Diff editor",
  });
  let models: { original: monaco.editor.ITextModel; modified: monaco.editor.ITextModel } | null = null;
  const modifiedMarks = editor.getModifiedEditor().createDecorationsCollection();
  const originalMarks = editor.getOriginalEditor().createDecorationsCollection();
  const commentMarks = editor.getModifiedEditor().createDecorationsCollection();
  let editSub: monaco.IDisposable | null = null;
  let lineClick: ((click: LineClick) => void) | null = null;
  const clickSubs = (["original", "modified"] as const).map((side) =>
    (side === "original" ? editor.getOriginalEditor() : editor.getModifiedEditor()).onMouseDown((e) => {
      const t = e.target.type;
      const margin = t === monaco.editor.MouseTargetType.GUTTER_LINE_NUMBERS || t === monaco.editor.MouseTargetType.GUTTER_GLYPH_MARGIN;
      if (margin && e.target.position && lineClick) lineClick({ side, line: e.target.position.lineNumber });
    }),
  );
  const range = (start: number, count: number) => new monaco.Range(Math.max(1, start), 1, Math.max(1, start + Math.max(count, 1) - 1), 1);

  return {
    show(content) {
      const language = knownLanguage(languageFromPath(content.path));
      // Reuse the two models: disposing a model while the worker is still
      // computing its diff makes Monaco throw "no diff result available".
      if (!models) {
        models = {
          original: monaco.editor.createModel(content.before, language),
          modified: monaco.editor.createModel(content.after, language),
        };
        editor.setModel(models);
        return;
      }
      for (const [model, text] of [
        [models.original, content.before],
        [models.modified, content.after],
      ] as const) {
        if (model.getLanguageId() !== language) monaco.editor.setModelLanguage(model, language);
        if (model.getValue() !== text) model.setValue(text);
      }
    },
    setHunks(marks) {
      const mod: monaco.editor.IModelDeltaDecoration[] = [];
      const orig: monaco.editor.IModelDeltaDecoration[] = [];
      marks?.hunks.forEach((h, i) => {
        const rejected = marks.decisions[i] === "rejected";
        const current = i === marks.current;
        if (!rejected && !current) return;
        const cls = `${rejected ? "hunk-rejected" : ""}${current ? " hunk-current" : ""}`.trim();
        const options = {
          isWholeLine: true,
          className: cls,
          linesDecorationsClassName: rejected ? "hunk-rejected-gutter" : "hunk-current-gutter",
        };
        if (h.newLines > 0) mod.push({ range: range(h.newStart, h.newLines), options });
        if (h.oldLines > 0) orig.push({ range: range(h.oldStart, h.oldLines), options });
      });
      modifiedMarks.set(mod);
      originalMarks.set(orig);
    },
    setEditable(onChange) {
      editSub?.dispose();
      editSub = null;
      editor.updateOptions({ readOnly: onChange === null });
      const model = models?.modified;
      if (onChange && model) editSub = model.onDidChangeContent(() => onChange(model.getValue()));
    },
    setLineMarks(lines) {
      commentMarks.set(
        lines.map((line) => ({
          range: range(line, 1),
          options: { isWholeLine: false, glyphMarginClassName: "comment-glyph", glyphMarginHoverMessage: { value: "Review comment" } },
        })),
      );
    },
    onLineClick(listener) {
      lineClick = listener;
    },
    revealLine(line) {
      editor.getModifiedEditor().revealLineInCenterIfOutsideViewport(Math.max(1, line));
    },
    setInline(inline) {
      editor.updateOptions({ renderSideBySide: !inline });
    },
    setDark(dark) {
      monaco.editor.setTheme(dark ? "vs-dark" : "vs");
    },
    dispose() {
      editSub?.dispose();
      for (const sub of clickSubs) sub.dispose();
      editor.setModel(null);
      editor.dispose();
      models?.original.dispose();
      models?.modified.dispose();
      models = null;
    },
  };
}
