import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import type { HTTPRequest, Page } from "puppeteer-core";
import { decide, type RequestPolicy } from "../domain/request-policy.js";

/** Throws (with a message a user can act on) when the outbound guard refuses a URL. */
export type UrlCheck = (url: string) => Promise<unknown>;

interface GuardedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * Fetches one URL through the outbound guard, without following redirects. The guard pins the connection to
 * the addresses it checked, which Chromium's own fetch would not: a DNS answer that changes between the check
 * and the connection cannot reach a private address.
 */
export type GuardedFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; timeoutMs: number },
) => Promise<GuardedResponse>;

export interface BlockedRequest {
  url: string;
  reason: string;
}

interface NetworkPolicy extends RequestPolicy {
  fetch: GuardedFetch;
  /** Network requests stop here: the job's own deadline. */
  deadline: number;
}

const MAX_REPORTED_BLOCKS = 20;

/**
 * Puts every request of the page through the policy. Returns the list of refused requests, which fills as the
 * page loads; refusing the main document makes the navigation fail with net::ERR_BLOCKED_BY_CLIENT.
 */
const interceptedPages = new WeakSet<Page>();

interface FailedRequest {
  url: string;
  reason: string;
  /** The guard's status for the failure: 504 when the server did not answer in time, 502 otherwise. */
  status: number;
}

export interface PolicyHandle {
  /** Refused requests, filled as the page loads. */
  blocked: BlockedRequest[];
  /** Allowed requests whose fetch failed (unreachable, too slow, too large). */
  failed: FailedRequest[];
  /** Stops applying this job's policy (the page may serve another job). */
  release: () => void;
}

export async function enforceNetworkPolicy(page: Page, policy: NetworkPolicy): Promise<PolicyHandle> {
  const blocked: BlockedRequest[] = [];
  const failed: FailedRequest[] = [];
  if (!interceptedPages.has(page)) {
    // Interception does not see what Chromium connects to by itself (WebSocket handshakes, some prefetches,
    // WebRTC): that goes to the guarded forward proxy, the browser's only way out (browser-network.ts).
    await page.setRequestInterception(true);
    interceptedPages.add(page);
  }
  const listener = (request: HTTPRequest) => {
    void handle(request, policy, blocked, failed);
  };
  page.on("request", listener);
  return { blocked, failed, release: () => page.off("request", listener) };
}

/** Headers that describe one hop of a connection, not the resource; Chromium gets the decoded body. */
const HOP_HEADERS = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "proxy-connection", "upgrade", "trailer"]);
const PER_REQUEST_TIMEOUT_MS = 30_000;

async function handle(request: HTTPRequest, policy: NetworkPolicy, blocked: BlockedRequest[], failed: FailedRequest[]): Promise<void> {
  if (request.isInterceptResolutionHandled()) return;
  const url = request.url();
  const verdict = decide(url, policy);
  const refuse = async (reason: string) => {
    if (blocked.length < MAX_REPORTED_BLOCKS) blocked.push({ url: url.slice(0, 300), reason });
    await request.abort("blockedbyclient");
  };
  try {
    if (verdict.action === "local") return await request.continue();
    if (verdict.action === "refuse") return await refuse(verdict.reason);
    let response: GuardedResponse;
    try {
      response = await policy.fetch(url, {
        method: request.method(),
        headers: forwardedHeaders(request.headers(), policy.mode),
        body: request.postData(),
        timeoutMs: Math.max(1, Math.min(PER_REQUEST_TIMEOUT_MS, policy.deadline - Date.now())),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : "refused by the outbound guard";
      if (isRefusal(error)) return await refuse(reason);
      if (failed.length < MAX_REPORTED_BLOCKS) failed.push({ url: url.slice(0, 300), reason, status: statusOf(error) });
      return await request.abort("failed");
    }
    await request.respond({ status: response.status, headers: responseHeaders(response.headers, policy.mode), body: decodeBody(response) });
  } catch {
    // The page or its context closed while the request was in flight (timeout or end of the job).
  }
}

function statusOf(error: unknown): number {
  return typeof error === "object" && error !== null ? ((error as { statusCode?: number }).statusCode ?? 502) : 502;
}

/** The guard refuses an address with a 400 naming the field; anything else is a network failure. */
function isRefusal(error: unknown): boolean {
  return statusOf(error) === 400;
}

/**
 * Documents share pages between jobs (BrowserPool reusePage), so cookies must not travel with their requests:
 * none is sent, none is stored. Web pages run in a context of their own and keep them.
 */
function forwardedHeaders(headers: Record<string, string>, mode: NetworkPolicy["mode"]): Record<string, string> {
  const forwarded: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (HOP_HEADERS.has(name) || name === "host" || name === "accept-encoding") continue;
    if (mode === "document" && name === "cookie") continue;
    forwarded[name] = value;
  }
  // Compressed transfers save bandwidth; decodeBody unpacks them before Chromium sees the body.
  forwarded["accept-encoding"] = "gzip, deflate, br";
  return forwarded;
}

function responseHeaders(headers: GuardedResponse["headers"], mode: NetworkPolicy["mode"]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value === undefined || HOP_HEADERS.has(lower) || (mode === "document" && lower === "set-cookie")) continue;
    out[name] = value;
  }
  return out;
}

function decodeBody(response: GuardedResponse): Buffer {
  const encoding = String(response.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  try {
    if (encoding === "gzip" || encoding === "x-gzip") return gunzipSync(response.body);
    if (encoding === "br") return brotliDecompressSync(response.body);
    if (encoding === "deflate") return inflateSync(response.body);
  } catch {
    return Buffer.alloc(0);
  }
  return response.body;
}
