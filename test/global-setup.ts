/**
 * Before any test: the HTML replay script is bundled from its typed source
 * (scripts/build-html-replay.ts), and no core a test starts fetches the model
 * catalog from the network (a test that wants a fetch names its loopback URL).
 */
import { writeReplayModule } from "../scripts/build-html-replay";
import { MODELS_URL_ENV } from "../electron/core/providers/catalog/live-catalog";

export default function globalSetup(): void {
  writeReplayModule(process.cwd());
  process.env[MODELS_URL_ENV] ??= "off";
}
