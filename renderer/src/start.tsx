/** The app proper (loaded by main.tsx): choose the transport, route its events into the stores, start, render. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app";
import { startBoot } from "./boot";
import { selectClient } from "./api/client";
import { setClient } from "./api/current";
import { wireEvents } from "./stores/wire-events";

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
  // Answers the early socket already has are applied before the first render, so it shows the session.
  void startBoot();
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
