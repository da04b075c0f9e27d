/**
 * The two grep engines: ripgrep (`rg --json`, parsed) and a built-in search
 * over the sandbox walker. Both skip .git, node_modules, binary files and
 * .gitignored paths, search hidden files, never follow symbolic links, and
 * return the same GrepRaw for the same tree.
 */
import { spawn } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { guardGroup } from "../process/child-guard";
import { filterByGlob } from "./glob-match";
import { z } from "zod";
import { errors, toolError } from "./errors";
import { withContext, type GrepFile, type GrepRaw } from "./grep-format";
import { GREP_MAX_COLLECTED, READ_MAX_FILE_BYTES, REGEX_JOB_TIMEOUT_MS } from "./limits";
import { runRegexJob } from "./regex-worker";
import type { ResolvedPath, Sandbox } from "./sandbox";
import { decodeText } from "./text-file";
import type { Result } from "./types";
import { walk } from "./walk";

export interface GrepQuery {
  pattern: string;
  literal: boolean;
  ignoreCase: boolean;
  context: number;
  include?: string;
}

const ok = <T>(value: T): Result<T> => ({ ok: true, value });

// ------------------------------------------------------------------ built-in

export function compilePattern(q: GrepQuery): Result<RegExp> {
  const source = q.literal ? q.pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : q.pattern;
  try {
    return ok(new RegExp(source, q.ignoreCase ? "iu" : "u"));
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { ok: false, error: invalidRegex(q.pattern, reason) };
  }
}

export function invalidRegex(pattern: string, reason: string) {
  return toolError(
    "INVALID_ARGUMENTS",
    `The pattern ${JSON.stringify(pattern)} is not a valid regular expression: ${reason.trim()}`,
    "Escape special characters such as ( [ { . with a backslash, or set literal: true.",
  );
}

/** Bytes of text sent to the regex worker per job (the next batch is read while it runs). */
const BATCH_BYTES = 1024 * 1024;
const BATCH_FILES = 1000;

interface Candidate {
  file: ResolvedPath;
  explicit: boolean;
}

export async function grepBuiltin(sandbox: Sandbox, target: ResolvedPath, q: GrepQuery, signal: AbortSignal): Promise<Result<GrepRaw>> {
  const re = compilePattern(q);
  if (!re.ok) return re;
  const files: GrepFile[] = [];
  let collected = 0;
  let incomplete = false;

  // 1. The files to search, in walk order (deterministic output).
  let candidates: Candidate[] = [];
  if (target.kind === "file") candidates.push({ file: target, explicit: true });
  else {
    for await (const entry of walk(sandbox, target, { signal })) {
      if (entry.kind === "file") candidates.push({ file: entry.resolved, explicit: false });
    }
    if (signal.aborted) return { ok: false, error: errors.aborted() };
    if (q.include) {
      const keep = await filterByGlob(
        q.include,
        candidates.map((c) => c.file.rel),
        signal,
      );
      if (!keep.ok) return keep;
      candidates = candidates.filter((_, i) => keep.value[i]);
    }
  }

  const take = (found: GrepFile) => {
    if (incomplete) return;
    let kept = found;
    const matches = found.lines.filter((l) => l.match).length;
    if (collected + matches >= GREP_MAX_COLLECTED) {
      // Keep the file's lines up to the match that reaches the cap.
      let room = GREP_MAX_COLLECTED - collected;
      const lines = [];
      for (const l of found.lines) {
        if (l.match && room-- <= 0) break;
        lines.push(l);
      }
      kept = { path: found.path, lines };
      incomplete = true;
    }
    collected += matches;
    files.push(kept);
  };

  // 2. Read through verified descriptors here, match in the regex worker: the
  // next batch is read while the worker searches the previous one.
  type Batch = { items: { rel: string; text: string }[]; bytes: number };
  let batch: Batch = { items: [], bytes: 0 };
  let inflight: {
    items: Batch["items"];
    job: ReturnType<typeof runRegexJob<{ op: "lines"; source: string; flags: string; texts: string[] }>>;
  } | null = null;
  const settle = async (): Promise<Result<null>> => {
    if (!inflight) return ok(null);
    const { items, job } = inflight;
    inflight = null;
    const done = await job;
    if (!done.ok) {
      if (done.reason === "aborted") return { ok: false, error: errors.aborted() };
      if (done.reason === "timeout") return { ok: false, error: errors.regexTooSlow(q.pattern, "files", REGEX_JOB_TIMEOUT_MS) };
      return { ok: false, error: invalidRegex(q.pattern, done.message) };
    }
    done.value.forEach((hits, k) => {
      if (hits.length === 0) return;
      const lines = items[k].text.split("\n");
      if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
      for (let i = 0; i < lines.length; i++) if (lines[i].endsWith("\r")) lines[i] = lines[i].slice(0, -1);
      take({ path: items[k].rel, lines: withContext(lines, hits, q.context) });
    });
    return ok(null);
  };
  const send = async (): Promise<Result<null>> => {
    const settled = await settle();
    if (!settled.ok || batch.items.length === 0) return settled;
    const items = batch.items;
    batch = { items: [], bytes: 0 };
    inflight = {
      items,
      job: runRegexJob({ op: "lines", source: re.value.source, flags: re.value.flags, texts: items.map((i) => i.text) }, { signal }),
    };
    return ok(null);
  };

  for (const c of candidates) {
    if (incomplete || signal.aborted) break;
    const buf = sandbox.readFileSync(c.file, READ_MAX_FILE_BYTES);
    if (!buf.ok) continue;
    if (buf.value.includes(0) && !c.explicit) continue;
    const text = decodeText(buf.value).text;
    batch.items.push({ rel: c.file.rel, text });
    batch.bytes += text.length;
    if (batch.bytes >= BATCH_BYTES || batch.items.length >= BATCH_FILES) {
      const sent = await send();
      if (!sent.ok) return sent;
    }
  }
  if (!incomplete && !signal.aborted) {
    const sent = await send();
    if (!sent.ok) return sent;
  }
  const last = await settle();
  if (!last.ok) return last;
  if (signal.aborted) return { ok: false, error: errors.aborted() };
  return ok({ files, incomplete });
}

// ------------------------------------------------------------------ ripgrep

const RgText = z.union([z.object({ text: z.string() }), z.object({ bytes: z.string() })]);
const RgLineEvent = z.object({
  type: z.enum(["match", "context"]),
  data: z.object({ path: RgText, lines: RgText, line_number: z.number().int() }),
});

const rgText = (t: z.infer<typeof RgText>) => ("text" in t ? t.text : Buffer.from(t.bytes, "base64").toString("utf8"));

export interface RgOptions {
  rgPath: string;
  /** Extra ignore files (absolute) whose rules are relative to the workspace root. */
  ignoreFiles: readonly string[];
  /** Stop when this many matching lines were collected. */
  maxCollected?: number;
  /**
   * Checks a file as soon as rg is done with it (its "end" event), while rg
   * searches the rest; null drops it. Files rg did not finish (a cap, a kill)
   * are checked when it exits.
   */
  verify?: (file: GrepFile) => GrepFile | null;
}

const RgEndEvent = z.object({ type: z.literal("end"), data: z.object({ path: RgText }) });

/** The ripgrep arguments for a query; exported for the benchmark's "same query". */
export function rgArgs(q: GrepQuery, searchRel: string, ignoreFiles: readonly string[]): string[] {
  const args = [
    "--json",
    "--no-config",
    "--hidden",
    "--no-ignore-parent",
    "--no-ignore-global",
    "--no-ignore-exclude",
    "--no-ignore-dot",
    "--no-require-git",
    "--glob",
    "!.git",
    "--glob",
    "!node_modules",
  ];
  // No --max-filesize: it costs a stat per file. ripgrep streams big files; only the
  // built-in engine (which reads whole files) skips those over READ_MAX_FILE_BYTES.
  for (const f of ignoreFiles) args.push("--ignore-file", f);
  if (q.literal) args.push("--fixed-strings");
  if (q.ignoreCase) args.push("--ignore-case");
  else args.push("--case-sensitive");
  if (q.context > 0) args.push("--context", String(q.context));
  // Not --glob: ripgrep's globs override .gitignore. A type filter respects it,
  // but matches file names only; a pattern with "/" is also checked on the
  // whole path afterwards (grep-tool).
  const last = q.include?.split("/").pop();
  if (last && last !== "**") args.push("--type-add", `awbinclude:${last}`, "--type", "awbinclude");
  args.push("--regexp", q.pattern, "--", searchRel);
  return args;
}

/** Runs rg in the workspace root on `searchRel` and parses its JSON lines. */
export function grepRg(root: string, searchRel: string, q: GrepQuery, options: RgOptions, signal: AbortSignal): Promise<Result<GrepRaw>> {
  const max = options.maxCollected ?? GREP_MAX_COLLECTED;
  return new Promise((resolve) => {
    const byPath = new Map<string, GrepFile>();
    let collected = 0;
    let incomplete = false;
    let stderr = "";
    let pending = "";
    let settled = false;
    const decoder = new StringDecoder("utf8");
    const child = spawn(options.rgPath, rgArgs(q, searchRel, options.ignoreFiles), {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH ?? "", LANG: process.env.LANG ?? "C.UTF-8" },
      // Its own group, killed with the core if the core dies first (docs/checkpoints.md#child-processes-die-with-the-core).
      detached: true,
    });
    const release = guardGroup(child.pid);
    child.once("close", release);
    child.once("error", release);
    const stop = () => {
      if (child.exitCode === null) child.kill("SIGKILL");
    };
    const onAbort = () => stop();
    signal.addEventListener("abort", onAbort, { once: true });

    const verify = options.verify ?? ((f: GrepFile) => f);
    /** Per path: the verified file (or null, dropped) once rg's "end" for it came. */
    const checked = new Map<string, GrepFile | null>();
    const check = (path: string) => {
      const file = byPath.get(path);
      if (!file || checked.has(path)) return;
      file.lines.sort((a, b) => a.line - b.line);
      checked.set(path, verify(file));
    };
    const handleLine = (line: string) => {
      if (line.startsWith('{"type":"end"')) {
        let json: unknown;
        try {
          json = JSON.parse(line);
        } catch {
          return;
        }
        const end = RgEndEvent.safeParse(json);
        if (end.success) check(rgText(end.data.data.path).replace(/^\.\//, ""));
        return;
      }
      if (incomplete || (!line.startsWith('{"type":"match"') && !line.startsWith('{"type":"context"'))) return;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        // rg --json writes one JSON event per line; anything else is not a match to report.
        return;
      }
      const parsed = RgLineEvent.safeParse(json);
      if (!parsed.success) return;
      const { data, type } = parsed.data;
      const path = rgText(data.path).replace(/^\.\//, "");
      let file = byPath.get(path);
      if (!file) {
        file = { path, lines: [] };
        byPath.set(path, file);
      }
      file.lines.push({ line: data.line_number, text: rgText(data.lines).replace(/\r?\n$/, ""), match: type === "match" });
      if (type === "match" && ++collected >= max) {
        incomplete = true;
        stop();
      }
    };

    child.stdout.on("data", (chunk: Buffer) => {
      pending += decoder.write(chunk);
      let nl = pending.indexOf("\n");
      while (nl !== -1) {
        handleLine(pending.slice(0, nl));
        pending = pending.slice(nl + 1);
        nl = pending.indexOf("\n");
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString("utf8");
    });
    const finish = (result: Result<GrepRaw>) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      resolve(result);
    };
    child.on("error", (err) => finish({ ok: false, error: errors.io("rg", err.message) }));
    child.on("close", (code) => {
      pending += decoder.end();
      if (pending) handleLine(pending);
      if (signal.aborted) return finish({ ok: false, error: errors.aborted() });
      // 0: matches, 1: none, 2: an error (bad regex, or unreadable files while others matched).
      if (code === 2 && !incomplete && byPath.size === 0 && /regex|parse error|literal/i.test(stderr)) {
        return finish({ ok: false, error: invalidRegex(q.pattern, stderr.replace(/^rg: /, "")) });
      }
      const files: GrepFile[] = [];
      for (const path of byPath.keys()) {
        check(path);
        const kept = checked.get(path);
        if (kept) files.push(kept);
      }
      finish(ok({ files, incomplete }));
    });
  });
}
