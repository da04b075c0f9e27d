/** The global the preload defines (contextBridge.exposeInMainWorld("workbench", …)); its shape is `WorkbenchBridge` in shared/bridge.ts. */
export const BRIDGE_GLOBAL = "workbench";
