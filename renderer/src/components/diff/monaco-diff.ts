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
import { languageFromPath } from "../../lib/language";

export interface DiffContent {
  path: string;
  before: string;
  after: string;
}

export interface DiffHost {
  show(content: DiffContent): void;
  setInline(inline: boolean): void;
  setDark(dark: boolean): void;
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
    setInline(inline) {
      editor.updateOptions({ renderSideBySide: !inline });
    },
    setDark(dark) {
      monaco.editor.setTheme(dark ? "vs-dark" : "vs");
    },
    dispose() {
      editor.setModel(null);
      editor.dispose();
      models?.original.dispose();
      models?.modified.dispose();
      models = null;
    },
  };
}
