/**
 * webfetch: a URL as markdown for the model. A side effect (it reaches the
 * network), so it is proposed and approved per host (rules `host` or
 * `*.domain`, approval/policy.ts), and its preview shows the whole URL, which
 * is all the request carries. The fetching is electron/core/webfetch/.
 * See docs/conventions.md#web-fetch.
 */
import { isIP } from "node:net";
import { fetchPage, type FetchFailure } from "../webfetch/fetch-page";
import { isPrivateAddress } from "../webfetch/address";
import { ruleHost } from "../webfetch/hosts";
import type { ToolContext } from "./context";
import { failure, toolError } from "./errors";
import type { WebFetchArgs } from "./schemas";
import type { Planned } from "./registry";
import type { Result, ToolError, ToolOutcome } from "./types";

/** Characters of page text one call returns. */
export const WEBFETCH_MAX_CHARS = 40_000;

export const WEBFETCH_DESCRIPTION = `Fetch a web page (http or https) and read it as markdown (HTML is converted; text and JSON come as they are).

- Use it for documentation, issues, release notes and other pages the task needs. Only the URL is sent: never put workspace content, file text or secrets in it.
- The user approves each host (or a rule for it). A denied call answers "The user denied this tool call: <reason>" — do not retry the same host.
- Loopback and private addresses (localhost, 10.x, 192.168.x, …) are refused unless the user allowed them.
- At most ${WEBFETCH_MAX_CHARS / 1000}k characters come back per call; a longer page says where it was cut: call again with \`offset\` to read on.
- A redirect to another host is not followed: the answer names the new URL, fetch it if you need it.`;

/** The URL the model gave, checked: http(s), no credentials, a host. */
export function checkUrl(raw: string): Result<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return {
      ok: false,
      error: toolError("INVALID_ARGUMENTS", `\`${raw.slice(0, 200)}\` is not a URL.`, "Give a full URL: https://host/path."),
    };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { ok: false, error: toolError("INVALID_ARGUMENTS", `webfetch reads http and https URLs, not ${url.protocol}`) };
  if (url.username || url.password)
    return {
      ok: false,
      error: toolError("INVALID_ARGUMENTS", "webfetch sends no credentials: remove the user and password from the URL."),
    };
  if (url.hostname === "") return { ok: false, error: toolError("INVALID_ARGUMENTS", "the URL has no host") };
  url.hash = "";
  return { ok: true, value: url };
}

/** A literal address or localhost, refused before anyone is asked (names are checked again when connecting). */
export function obviouslyPrivate(url: URL): boolean {
  const host = ruleHost(url).replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return isIP(host) !== 0 && isPrivateAddress(host);
}

export const privateRefused = (host: string): ToolError =>
  toolError(
    "DENIED",
    `${host} is a loopback or private address: webfetch does not reach those unless the user allows it in Settings → Web fetch.`,
    "Do not retry: ask the user, or use a public URL.",
  );

function failureError(f: FetchFailure): ToolError {
  switch (f.kind) {
    case "private":
      return toolError("DENIED", f.message, "Do not retry: ask the user, or use a public URL.");
    case "redirect":
      return toolError("NOT_FOUND", f.message, `Call webfetch with ${f.location} if you need that page (its host is approved separately).`);
    case "http":
      return toolError(f.status === 404 || f.status === 410 ? "NOT_FOUND" : "IO_ERROR", f.message);
    case "unsupported":
      return toolError("BINARY_FILE", f.message);
    case "tooLarge":
      return toolError("TOO_LARGE", f.message);
    case "aborted":
      return toolError("TIMEOUT", f.message);
    case "network":
      return toolError("IO_ERROR", `the fetch failed: ${f.message}`);
  }
}

/** The proposal: the checked URL and its host; a literal private address is refused before the user is asked. */
export function proposeFetch(raw: string, ctx: ToolContext): Result<Planned> {
  const url = checkUrl(raw);
  if (!url.ok) return url;
  // Names are checked again when connecting (fetch-page.ts).
  if (!ctx.webFetch.allowPrivate && obviouslyPrivate(url.value)) return { ok: false, error: privateRefused(ruleHost(url.value)) };
  return { ok: true, value: { preview: { kind: "fetch", url: url.value.href, host: ruleHost(url.value) } } };
}

export async function runWebFetch(args: WebFetchArgs, ctx: ToolContext): Promise<ToolOutcome> {
  const checked = checkUrl(args.url);
  if (!checked.ok) return failure(checked.error);
  const url = checked.value;
  if (!ctx.webFetch.allowPrivate && obviouslyPrivate(url)) return failure(privateRefused(ruleHost(url)), { url: url.href });
  const result = await fetchPage(
    url,
    { env: ctx.webFetch.env, caFile: ctx.webFetch.caFile, allowPrivate: ctx.webFetch.allowPrivate },
    ctx.signal,
  );
  if (!result.ok) return failure(failureError(result.failure), { url: url.href, failure: result.failure.kind });
  const { page } = result;
  const offset = Math.min(args.offset ?? 0, page.text.length);
  const slice = page.text.slice(offset, offset + WEBFETCH_MAX_CHARS);
  const end = offset + slice.length;
  const cut = end < page.text.length;
  const head = `${page.url} (${page.status}, ${page.contentType}${page.converted === "markdown" ? ", converted to markdown" : ""})`;
  const range = offset > 0 || cut ? `\nCharacters ${offset}–${end} of ${page.text.length}.` : "";
  const hint = cut ? `\n\n[The page was cut at character ${end} of ${page.text.length}: call webfetch with offset ${end} to read on.]` : "";
  return {
    ok: true,
    content: [{ type: "text", text: `${head}${range}\n\n${slice}${hint}` }],
    details: {
      url: page.url,
      status: page.status,
      contentType: page.contentType,
      bytes: page.bytes,
      chars: page.text.length,
      offset,
      truncated: cut,
    },
  };
}
