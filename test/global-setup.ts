/** Before any test: the HTML replay script is bundled from its typed source (scripts/build-html-replay.ts). */
import { writeReplayModule } from "../scripts/build-html-replay";

export default function globalSetup(): void {
  writeReplayModule(process.cwd());
}
