/**
 * A small disk for the disk-full tests: a tmpfs of a few MB mounted on a
 * temp folder (root, or a container that allows mounts). Where none can be
 * mounted the tests that need one say so and skip.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, openSync, writeSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface SmallDisk {
  path: string;
  /** Writes a filler file until the disk is full. */
  fill(): void;
  /** Removes the filler: the disk has room again. */
  free(): void;
  remove(): void;
}

function tryMount(dir: string, options: string): boolean {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Mounts a tmpfs of `sizeMb` MB; null when this machine does not let the test mount one. */
export function mountSmallDisk(sizeMb = 4, readOnly = false): SmallDisk | null {
  const dir = mkdtempSync(join(tmpdir(), "wb-small-disk-"));
  if (!tryMount(dir, `size=${sizeMb}m,mode=0777${readOnly ? ",ro" : ""}`)) {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  const filler = join(dir, "filler.bin");
  return {
    path: dir,
    fill() {
      const fd = openSync(filler, "a");
      const chunk = Buffer.alloc(64 * 1024, 7);
      try {
        // Bounded: a tmpfs of sizeMb MB takes at most sizeMb * 16 chunks.
        for (let i = 0; i < sizeMb * 16 + 16; i++) writeSync(fd, chunk);
      } catch {
        // ENOSPC: full
      }
      // The last few bytes too: 1 KB writes until refused.
      const small = Buffer.alloc(1024, 7);
      try {
        for (let i = 0; i < 64; i++) writeSync(fd, small);
      } catch {
        // full to the byte
      }
      closeSync(fd);
    },
    free() {
      rmSync(filler, { force: true });
    },
    remove() {
      try {
        execFileSync("umount", ["-l", dir], { stdio: "ignore" });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Whether a tmpfs can be mounted here (checked once). */
export const canMountSmallDisk: boolean = (() => {
  const disk = mountSmallDisk(1);
  if (disk === null) return false;
  writeFileSync(join(disk.path, "probe"), "x");
  disk.remove();
  return true;
})();
