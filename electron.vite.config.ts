import { resolve } from "node:path";
import { defineConfig } from "electron-vite";
import react from "@vitejs/plugin-react";
import { events, requests } from "./shared/api";

// Builds main, preload and renderer without needing the Electron binary.
// The main bundle also carries the plain-Node entries (web host, faux provider)
// so that `node out/main/web.js` runs the same core without Electron.
export default defineConfig({
  main: {
    build: {
      outDir: "out/main",
      rollupOptions: {
        input: {
          index: resolve(__dirname, "electron/main/index.ts"),
          // Worker threads start from their own file beside the bundle (electron/core/process/worker-file.ts).
          "integrity-worker": resolve(__dirname, "electron/core/store/integrity-worker.ts"),
          "regex-thread": resolve(__dirname, "electron/core/tools/regex-thread.ts"),
          "workspace-scan-thread": resolve(__dirname, "electron/core/tools/workspace-scan-thread.ts"),
        },
        // One folder: a worker entry is found next to whichever chunk starts it.
        output: { entryFileNames: "[name].js", chunkFileNames: "[name]-[hash].js" },
      },
    },
  },
  preload: {
    // The contract's names, inlined: the sandboxed preload must not carry zod.
    define: {
      __WB_REQUEST_METHODS__: JSON.stringify(Object.keys(requests)),
      __WB_EVENT_NAMES__: JSON.stringify(Object.keys(events)),
    },
    build: {
      outDir: "out/preload",
      // A sandboxed preload can require only "electron": bundle everything else into one file.
      externalizeDeps: false,
      isolatedEntries: true,
      rollupOptions: {
        input: { index: resolve(__dirname, "electron/preload/index.ts") },
        external: ["electron"],
        // Sandboxed preloads cannot be ES modules.
        output: { format: "cjs", entryFileNames: "[name].cjs" },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, "renderer"),
    base: "./",
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, "out/renderer"),
      // electron-vite leaves bundles unminified; the renderer is parsed on every start.
      minify: true,
      // Monaco is one lazily loaded chunk by design (the diff panel).
      chunkSizeWarningLimit: 8000,
      rollupOptions: { input: resolve(__dirname, "renderer/index.html") },
    },
  },
});
