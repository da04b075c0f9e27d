/**
 * Renderer build plugin: index.html names the app chunk (start.tsx, loaded by
 * main.tsx with a dynamic import) and the chunks it imports as module
 * preloads. The browser then fetches and compiles them while it parses the
 * page, not only once the entry script has run, and the web host serves them
 * before the start-up requests the entry script sends reach it.
 */
import type { Plugin } from "vite";

export function preloadAppChunk(entrySuffix: string): Plugin {
  return {
    name: "workbench:preload-app-chunk",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return [];
        const chunks = Object.values(bundle).flatMap((o) => (o.type === "chunk" ? [o] : []));
        const app = chunks.find((c) => c.facadeModuleId?.replaceAll("\\", "/").endsWith(entrySuffix));
        if (!app) throw new Error(`preloadAppChunk: no chunk for ${entrySuffix}`);
        const entry = ctx.chunk?.fileName;
        const files: string[] = [];
        const visit = (fileName: string) => {
          if (fileName === entry || files.includes(fileName)) return;
          files.push(fileName);
          const chunk = bundle[fileName];
          if (chunk?.type === "chunk") for (const dep of chunk.imports) visit(dep);
        };
        visit(app.fileName);
        return files.map((file) => ({
          tag: "link",
          attrs: { rel: "modulepreload", crossorigin: "", href: `./${file}` },
          injectTo: "head" as const,
        }));
      },
    },
  };
}
