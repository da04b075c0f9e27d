/** Byte-exact pictures of folders for the checkpoint tests: content, mode and symlink target of every entry. */
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";

export type Picture = Record<string, string>;

/** Every file, symlink and folder under `root` (minus `skip` top-level names), as "kind mode hash". */
export function picture(root: string, skip: readonly string[] = []): Picture {
  const out: Picture = {};
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (rel === "" && skip.includes(name)) continue;
      const abs = join(dir, name);
      const path = rel ? `${rel}/${name}` : name;
      const st = lstatSync(abs);
      const mode = (st.mode & 0o777).toString(8);
      if (st.isSymbolicLink()) out[path] = `link -> ${readlinkSync(abs)}`;
      else if (st.isDirectory()) {
        out[path + "/"] = `dir`;
        walk(abs, path);
      } else out[path] = `file ${mode} ${createHash("sha256").update(readFileSync(abs)).digest("hex")}`;
    }
  };
  walk(root, "");
  return out;
}

/** Only the files and symlinks (git keeps no empty folders). */
export function filesOnly(p: Picture): Picture {
  return Object.fromEntries(Object.entries(p).filter(([k]) => !k.endsWith("/")));
}
