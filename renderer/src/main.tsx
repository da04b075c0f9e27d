/** Entry: choose the transport, route its events into the stores, render the shell, start. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app";
import { PanelBoundary } from "./components/error-boundary";
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

/**
 * Renders the shell at once; the stores fill it in as the core's answers
 * arrive (startBoot asks for app.info and the session open last time).
 */
function start(): void {
  const root = createRoot(document.getElementById("root") as HTMLElement);
  const choice = selectClient(window);
  if (!choice.ok) {
    root.render(
      <div className="fatal" role="alert">
        <h1>Agent Workbench</h1>
        <p>{choice.reason}</p>
      </div>,
    );
    return;
  }
  setClient(choice.client);
  wireEvents(choice.client);
  void startBoot();
  root.render(
    <StrictMode>
      {/* The last resort: the app's panels have their own boundaries (app.tsx), so this shows only if the frame itself fails. */}
      <PanelBoundary name="Agent Workbench" className="fatal">
        <App />
      </PanelBoundary>
    </StrictMode>,
  );
}

start();
