/**
 * Entry: opens the web-mode socket and sends the start-up requests at once
 * (early-socket.ts), then loads the app as its own chunk (start.tsx), so the
 * core answers while the browser evaluates the app's script. index.html
 * preloads that chunk and its imports (scripts/vite-preload-app.ts): they
 * download alongside this one, and are evaluated once the requests are out.
 */
import { earlyRequestsOut } from "./api/early-socket";
import "./styles/base.css";
import "./styles/layout.css";
import "./styles/transcript.css";
import "./styles/review.css";
import "./styles/hljs.css";
// Replay's styles load with the app: some of its classes (modals, notes, diff counts) are used outside replay.
import "./replay/replay.css";

void earlyRequestsOut(300).then(() => import("./start"));
