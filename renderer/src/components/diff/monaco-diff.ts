/**
 * The one Monaco diff editor of the app, loaded lazily (this module is a
 * separate chunk). Everything is bundled: the editor worker comes from Vite's
 * `?worker` import, never from a CDN, so the app works offline.
 *
 * Each `show()` gets a fresh pair of models. Replacing the text of the shown
 * models (`setValue`) let a diff computed for the old text be applied to the
 * new one ("Illegal value for lineNumber" from the diff editor's view model).
 * A replaced pair is disposed only once the editor has computed the diff of
 * the pair that replaced it: the widget disposes its old view model (which
 * cancels that model's diff request) a task after `setModel`, and a model
 * disposed while its request is still live makes Monaco throw "no diff result
 * available". Disposal order matters too (monaco-react#647): detach the models
 * from the widget (`setModel(null)`), dispose the widget, then the models.
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

/*
 * Monaco's own themes put text below 4.5:1 on a changed line (a blockquote's
 * comment green on the inserted-text green: 3.9:1 light, 1.9:1 dark). Ours keep
 * the change colours fainter and the comment colour readable on them.
 */
const LIGHT_THEME = "awb-light";
const DARK_THEME = "awb-dark";
let themesDefined = false;
function themeName(dark: boolean): string {
  if (!themesDefined) {
    themesDefined = true;
    monaco.editor.defineTheme(LIGHT_THEME, {
      base: "vs",
      inherit: true,
      rules: [{ token: "comment", foreground: "006000" }],
      colors: { "diffEditor.insertedTextBackground": "#9ccc2c30", "diffEditor.removedTextBackground": "#ff000024" },
    });
    monaco.editor.defineTheme(DARK_THEME, {
      base: "vs-dark",
      inherit: true,
      rules: [{ token: "comment", foreground: "b5e09f" }],
      colors: {
        "diffEditor.insertedTextBackground": "#9ccc2c24",
        "diffEditor.insertedLineBackground": "#9bb95518",
        "diffEditor.removedTextBackground": "#ff000026",
        "diffEditor.removedLineBackground": "#ff000018",
      },
    });
  }
  return dark ? DARK_THEME : LIGHT_THEME;
}

function knownLanguage(id: string): string {
  return monaco.languages.getLanguages().some((l) => l.id === id) ? id : "plaintext";
}

export function createDiffHost(container: HTMLElement, opts: { inline: boolean; dark: boolean }): DiffHost {
  ensureEnvironment();
  monaco.editor.setTheme(themeName(opts.dark));
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
    originalAriaLabel: "Before the change",
    modifiedAriaLabel: "After the change",
    // The change under review shows control, bidi and zero-width characters, not only the text they hide.
    renderControlCharacters: true,
    unicodeHighlight: { invisibleCharacters: true, ambiguousCharacters: true },
  });
  // Monaco 0.54 leaves each side's text input (EditContext element or textarea) without a name (axe: critical):
  // name them after each side, also when Monaco renders them anew.
  const nameInputs = () => {
    for (const [side, name] of [
      [editor.getOriginalEditor(), "Before the change"],
      [editor.getModifiedEditor(), "After the change"],
    ] as const) {
      for (const input of side.getContainerDomNode().querySelectorAll(".native-edit-context, textarea.inputarea")) {
        if (input.getAttribute("aria-label") !== name) input.setAttribute("aria-label", name);
      }
    }
  };
  nameInputs();
  const inputNames = new MutationObserver(nameInputs);
  inputNames.observe(container, { childList: true, subtree: true, attributes: true, attributeFilter: ["aria-label"] });
  type ModelPair = { original: monaco.editor.ITextModel; modified: monaco.editor.ITextModel };
  let models: ModelPair | null = null;
  let retired: ModelPair[] = [];
  const disposePair = (pair: ModelPair) => {
    pair.original.dispose();
    pair.modified.dispose();
  };
  // The shown pair's diff is in: the pairs it replaced are out of every
  // computation. A task later, so that the widget's own deferred disposal of
  // the old view model (a 0 ms timer queued at setModel) has run first.
  const diffSub = editor.onDidUpdateDiff(() => {
    if (!retired.length || editor.getLineChanges() === null) return;
    const done = retired;
    retired = [];
    setTimeout(() => done.forEach(disposePair), 0);
  });
  const modifiedMarks = editor.getModifiedEditor().createDecorationsCollection();
  const originalMarks = editor.getOriginalEditor().createDecorationsCollection();
  const commentMarks = editor.getModifiedEditor().createDecorationsCollection();
  let editSub: monaco.IDisposable | null = null;
  let onEdit: ((text: string) => void) | null = null;
  let hunkMarks: HunkMarks | null = null;
  let lineMarks: number[] = [];
  const subscribeEdits = () => {
    editSub?.dispose();
    editSub = null;
    const model = models?.modified;
    const listener = onEdit;
    if (listener && model) editSub = model.onDidChangeContent(() => listener(model.getValue()));
  };
  let lineClick: ((click: LineClick) => void) | null = null;
  const clickSubs = (["original", "modified"] as const).map((side) =>
    (side === "original" ? editor.getOriginalEditor() : editor.getModifiedEditor()).onMouseDown((e) => {
      const t = e.target.type;
      const margin = t === monaco.editor.MouseTargetType.GUTTER_LINE_NUMBERS || t === monaco.editor.MouseTargetType.GUTTER_GLYPH_MARGIN;
      if (margin && e.target.position && lineClick) lineClick({ side, line: e.target.position.lineNumber });
    }),
  );
  const range = (start: number, count: number) => new monaco.Range(Math.max(1, start), 1, Math.max(1, start + Math.max(count, 1) - 1), 1);

  const setHunks = (marks: HunkMarks | null) => {
    hunkMarks = marks;
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
      // A whole-line class paints behind the text: the strike-through goes on the text itself, to the end of the hunk's last line.
      if (!rejected) return;
      const struck = (model: monaco.editor.ITextModel | undefined, start: number, count: number) => {
        if (!model || count === 0) return null;
        const last = Math.min(model.getLineCount(), start + count - 1);
        return {
          range: new monaco.Range(Math.max(1, start), 1, last, model.getLineMaxColumn(last)),
          options: { inlineClassName: "hunk-rejected-text" },
        };
      };
      const m = struck(models?.modified, h.newStart, h.newLines);
      const o = struck(models?.original, h.oldStart, h.oldLines);
      if (m) mod.push(m);
      if (o) orig.push(o);
    });
    modifiedMarks.set(mod);
    originalMarks.set(orig);
  };
  const setLineMarks = (lines: number[]) => {
    lineMarks = lines;
    commentMarks.set(
      lines.map((line) => ({
        range: range(line, 1),
        options: { isWholeLine: false, glyphMarginClassName: "comment-glyph", glyphMarginHoverMessage: { value: "Review comment" } },
      })),
    );
  };

  return {
    show(content) {
      const language = knownLanguage(languageFromPath(content.path));
      if (
        models &&
        models.original.getLanguageId() === language &&
        models.original.getValue() === content.before &&
        models.modified.getValue() === content.after
      )
        return;
      if (models) retired.push(models);
      models = {
        original: monaco.editor.createModel(content.before, language),
        modified: monaco.editor.createModel(content.after, language),
      };
      editor.setModel(models);
      // Decorations and the edit listener belong to a model: carry them over.
      setHunks(hunkMarks);
      setLineMarks(lineMarks);
      subscribeEdits();
    },
    setEditable(onChange) {
      onEdit = onChange;
      editor.updateOptions({ readOnly: onChange === null });
      subscribeEdits();
    },
    setHunks,
    setLineMarks,
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
      monaco.editor.setTheme(themeName(dark));
    },
    dispose() {
      inputNames.disconnect();
      editSub?.dispose();
      diffSub.dispose();
      for (const sub of clickSubs) sub.dispose();
      editor.setModel(null);
      editor.dispose();
      const pairs = models ? [...retired, models] : retired;
      models = null;
      retired = [];
      // After the widget's deferred disposal of its view model, as above.
      setTimeout(() => pairs.forEach(disposePair), 0);
    },
  };
}
