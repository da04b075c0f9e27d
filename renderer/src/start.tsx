/** The app proper (loaded by main.tsx): choose the transport, route its events into the stores, start, render. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app";
import { PanelBoundary } from "./components/error-boundary";
import { startBoot } from "./boot";
import { selectClient } from "./api/client";
import { setClient } from "./api/current";
import { wireEvents } from "./stores/wire-events";
import { earlyAnswersIn } from "./api/early-socket";

/** How long the first render waits for the core's start-up answers; past it, the app renders and shows them as they come. */
const START_ANSWERS_WAIT_MS = 800;

performance.mark("wb:boot");

/**
 * Waits (bounded) for the core's answers to the start-up requests before the
 * first render, so that render already shows the session: the script is
 * preloaded and usually evaluated before the answers are in, and a first
 * render without them would paint an empty shell, then lay everything out again.
 */
async function start(): Promise<void> {
  await earlyAnswersIn(START_ANSWERS_WAIT_MS);
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
  // Answers the early socket already has are applied before the first render, so it shows the session.
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

void start();
