/** Entry: choose the transport, route its events into the stores, render. */
// First: opens the web-mode socket while the rest of the script is still evaluated.
import "./api/early-socket";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app";
import { startBoot } from "./boot";
import { selectClient } from "./api/client";
import { setClient } from "./api/current";
import { wireEvents } from "./stores/wire-events";
import "./styles/base.css";
import "./styles/layout.css";
import "./styles/transcript.css";
import "./styles/review.css";
import "./styles/hljs.css";
// Replay's styles load with the app: some of its classes (modals, notes, diff counts) are used outside replay.
import "./replay/replay.css";

performance.mark("wb:boot");
const root = createRoot(document.getElementById("root") as HTMLElement);
const choice = selectClient(window);
if (!choice.ok) {
  root.render(
    <div className="fatal" role="alert">
      <h1>Agent Workbench</h1>
      <p>{choice.reason}</p>
    </div>,
  );
} else {
  setClient(choice.client);
  wireEvents(choice.client);
  void startBoot();
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
