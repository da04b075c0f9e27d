/** Entry: choose the transport, route its events into the stores, render. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app";
import { selectClient } from "./api/client";
import { setClient } from "./api/current";
import { wireEvents } from "./stores/wire-events";
import "./styles/base.css";
import "./styles/layout.css";
import "./styles/transcript.css";
import "./styles/review.css";
import "./styles/hljs.css";

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
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
