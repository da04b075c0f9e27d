/**
 * The sandboxed preload (bundled to one CommonJS file): exposes the WorkbenchApi
 * bridge and nothing else.
 */
import { contextBridge, ipcRenderer } from "electron";
import { BRIDGE_GLOBAL } from "../../shared/bridge";
import { createBridge } from "./bridge";
import { EVENT_CHANNEL } from "./channels";

const bridge = createBridge({
  invoke: (channel, params) => ipcRenderer.invoke(channel, params),
  onEventFrame: (receiver) => {
    // The IpcRendererEvent (which carries `sender`, i.e. ipcRenderer) is dropped here.
    ipcRenderer.on(EVENT_CHANNEL, (_event, name: unknown, payload: unknown) => receiver(name, payload));
  },
  requestMethods: __WB_REQUEST_METHODS__,
  eventNames: __WB_EVENT_NAMES__,
});

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, bridge);
