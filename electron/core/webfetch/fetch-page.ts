/**
 * One webfetch: GET a URL through the app's network settings (proxy from the
 * environment, the CA file of Settings → Network), refuse loopback and private
 * addresses unless allowed (checked on the resolved address and again at
 * connect time), and turn the answer into text for the model: HTML as
 * markdown (turndown), text and JSON as they are. The request carries no
 * cookies, no credentials and nothing from the workspace: only the URL the
 * model gave, a fixed User-Agent and Accept. Redirects are followed only on
 * the same host (at most 5); another host is reported so that the model asks
 * for it, and the user approves that host. See docs/conventions.md#web-fetch.
 */
import type { LookupFunction } from "node:net";
import { createNodeNetwork, NetworkSetupError } from "../network/node-fetch";
import { BodyTooLarge, readCapped } from "../network/read-capped";
import { guardedLookup, privateAddressOf, PrivateAddressError } from "./address";
import { htmlToMarkdown } from "./markdown";

export const WEBFETCH_MAX_BYTES = 5 * 1024 * 1024;
export const WEBFETCH_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;
export const WEBFETCH_USER_AGENT = "AgentWorkbench-webfetch/1";

export interface WebFetchNetwork {
  env: Record<string, string | undefined>;
  caFile?: string | null;
  /** Loopback and private addresses allowed (Settings → Web fetch). */
  allowPrivate: boolean;
  /** Name resolution, for tests (default: the system's). */
  resolve?: Parameters<typeof guardedLookup>[0];
}

export type FetchFailure =
  | { kind: "private"; message: string }
  | { kind: "redirect"; message: string; location: string }
  | { kind: "http"; message: string; status: number }
  | { kind: "unsupported"; message: string }
  | { kind: "tooLarge"; message: string }
  | { kind: "network"; message: string }
  | { kind: "aborted"; message: string };

export interface FetchedPage {
  url: string;
  status: number;
  contentType: string;
  /** What the model reads: markdown for HTML, the text otherwise. */
  text: string;
  bytes: number;
  converted: "markdown" | "text";
}

export type FetchResult = { ok: true; page: FetchedPage } | { ok: false; failure: FetchFailure };

const TEXTUAL = /^(text\/|application\/(json|xml|xhtml\+xml|javascript|ld\+json|rss\+xml|atom\+xml)|[a-z]+\/[a-z.+-]*\+(json|xml)$)/;

export async function fetchPage(start: URL, net: WebFetchNetwork, signal?: AbortSignal): Promise<FetchResult> {
  const lookup = net.allowPrivate ? undefined : (guardedLookup(net.resolve) as unknown as LookupFunction);
  let network;
  try {
    network = createNodeNetwork({ env: net.env, ...(net.caFile ? { caFile: net.caFile } : {}), ...(lookup ? { lookup } : {}) });
  } catch (err) {
    return { ok: false, failure: { kind: "network", message: err instanceof Error ? err.message : String(err) } };
  }
  const timeout = AbortSignal.timeout(WEBFETCH_TIMEOUT_MS);
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    let url = start;
    for (let hop = 0; ; hop++) {
      if (!net.allowPrivate) {
        const refused = await privateCheck(url, net.resolve);
        if (refused) return { ok: false, failure: { kind: "private", message: refused } };
      }
      const res = await network.fetch(url.href, {
        method: "GET",
        redirect: "manual",
        signal: both,
        headers: { "user-agent": WEBFETCH_USER_AGENT, accept: "text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.1" },
      });
      if (res.status >= 300 && res.status < 400 && res.headers.get("location")) {
        await res.body?.cancel();
        const next = new URL(res.headers.get("location") ?? "", url);
        if (next.protocol !== "http:" && next.protocol !== "https:")
          return { ok: false, failure: { kind: "unsupported", message: `the page redirects to a ${next.protocol} URL` } };
        if (next.hostname !== url.hostname)
          return {
            ok: false,
            failure: { kind: "redirect", location: next.href, message: `${url.href} redirects to another host: ${next.href}` },
          };
        if (hop >= MAX_REDIRECTS) return { ok: false, failure: { kind: "network", message: `more than ${MAX_REDIRECTS} redirects` } };
        url = next;
        continue;
      }
      if (res.status >= 400) {
        await res.body?.cancel();
        return {
          ok: false,
          failure: { kind: "http", status: res.status, message: `${url.href} answered ${res.status} ${res.statusText}` },
        };
      }
      const contentType = (res.headers.get("content-type") ?? "text/plain").split(";")[0].trim().toLowerCase();
      if (!TEXTUAL.test(contentType)) {
        await res.body?.cancel();
        return {
          ok: false,
          failure: { kind: "unsupported", message: `${url.href} is ${contentType}, not a page webfetch can read as text` },
        };
      }
      const body = await readCapped(res, WEBFETCH_MAX_BYTES);
      const html = contentType === "text/html" || contentType === "application/xhtml+xml";
      return {
        ok: true,
        page: {
          url: url.href,
          status: res.status,
          contentType,
          text: html ? htmlToMarkdown(body) : body,
          bytes: Buffer.byteLength(body),
          converted: html ? "markdown" : "text",
        },
      };
    }
  } catch (err) {
    return { ok: false, failure: describe(err, both) };
  } finally {
    await network.close().catch(() => undefined);
  }
}

async function privateCheck(url: URL, resolve: WebFetchNetwork["resolve"]): Promise<string | null> {
  try {
    const address = await privateAddressOf(url.hostname, resolve);
    return address === null
      ? null
      : `${url.hostname} is ${address}, a loopback or private address: webfetch does not reach those unless Settings → Web fetch allows it`;
  } catch {
    // A name this machine cannot resolve: behind a proxy the proxy resolves it; without one the connection reports the failure.
    return null;
  }
}

function describe(err: unknown, signal: AbortSignal): FetchFailure {
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof PrivateAddressError)
      return {
        kind: "private",
        message: `${e.host} resolved to ${e.address} when connecting, a loopback or private address: webfetch does not reach those unless Settings → Web fetch allows it`,
      };
    if (e instanceof BodyTooLarge) return { kind: "tooLarge", message: `the page is larger than ${WEBFETCH_MAX_BYTES / 1024 / 1024} MB` };
    if (e instanceof NetworkSetupError) return { kind: "network", message: e.message };
  }
  if (signal.aborted) return { kind: "aborted", message: "the fetch was stopped (aborted or past 30 s)" };
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const message = cause?.code
    ? `${cause.code}${cause.message ? `: ${cause.message}` : ""}`
    : err instanceof Error
      ? err.message
      : String(err);
  return { kind: "network", message };
}
